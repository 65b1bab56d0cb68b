"""Scale: generated libraries of 100k to 1M clauses, and the DMS sources listing large libraries."""
