"""index: see README's layout table."""
