"""Drafting: the citation support check, injected instructions, bad drafting input."""
