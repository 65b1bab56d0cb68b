"""web: see README's layout table."""
