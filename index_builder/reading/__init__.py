"""The clause-reading core: one home for each legal idea read from a clause's words."""
