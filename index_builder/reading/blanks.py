"""A template's blanks and drafting examples: not a value any reader may take.

"{governing_law}", "[Legal name of the employer]", "____", "<date>", "TBD", "XX" stand for a
value the lawyer fills in; "for example, Mutual NDA dated as of January 1, 2022" shows a
made-up one. The index's document fields (ingest/metadata.py) and the parties' legal names
(legal_names.py) read past both, so a template never gets a guessed party, law or date.
"""

from __future__ import annotations

import re

BLANK = re.compile(r"\{[^}]*\}|\[[^\]]*\]|_{3,}|\.{4,}|<[^>]*>|\bTBD\b|\bXX+\b", re.I)
# Drafting help ("for example, ...") shows made-up values: the rest of the paragraph is an example.
_EXAMPLE = re.compile(r"\b(?:for example|for instance|e\.g\.)", re.I)


# What BLANK and _EXAMPLE cannot match without (lower-cased: both ignore case). A build reads
# every paragraph of every document through filled_prose, and a scan of a text that has
# none of these was a third of reading a document (issue 39; tests/index_builder/
# test_build_cost.py checks the results are those of the unfiltered rules).
BLANK_MARKS = ("{", "[", "___", "....", "<", "tbd", "xx")
EXAMPLE_MARKS = ("for example", "for instance", "e.g.")


def is_blank(text: str) -> bool:
    """Whether a value is (or holds) a template's blank rather than a real value."""
    return bool(BLANK.search(text)) or not text.strip()


def filled_prose(text: str) -> str:
    """``text`` with its blanks marked "…" and any worked example cut off, for sentence rules."""
    lower = text.lower()
    if any(mark in lower for mark in BLANK_MARKS):
        text = BLANK.sub(" \u2026 ", text)
    if any(mark in lower for mark in EXAMPLE_MARKS):  # the blanks' removal adds none
        example = _EXAMPLE.search(text)
        return text[:example.start()] if example else text
    return text
