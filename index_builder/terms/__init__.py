"""Negotiable terms of a clause (periods, money, percentages, fee caps, law and forum, mutuality,
sub-provisions): extracted deterministically at index time and stored with the clause."""

from index_builder.terms.extract import VERSION, ClauseTerms, Term, extract
from index_builder.terms.stored import TERMS_KEY, stamp, terms_of

__all__ = ["VERSION", "ClauseTerms", "Term", "extract", "TERMS_KEY", "stamp", "terms_of"]
