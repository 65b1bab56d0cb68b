"""evaluate: see README's layout table."""
