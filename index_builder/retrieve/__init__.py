"""retrieve: see README's layout table."""
