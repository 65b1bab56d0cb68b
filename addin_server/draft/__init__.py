"""draft: see README's layout table."""
