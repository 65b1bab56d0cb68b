"""The parties' own names, as a document gives them: "Acme Corp.", "Beta Labs LLC".

``parties.document_parties`` reads the names a document calls its parties by in its clauses
(role words: "Customer", "Disclosing Party"). This reads who they are: a cover page's
"Party Name: Acme Corp." row, else the preamble's "between Acme Corp., a Delaware
corporation (“Customer”), and Beta Labs LLC (“Provider”)". The preamble's pair is taken only
when both read as names: never a role word ("between Customer and Provider" is
``document_parties``' reading), a document ("this AI Addendum") or a template's blank
("[Legal name of party 1]").
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading.blanks import filled_prose, is_blank
from index_builder.reading.parties import PARTY_NAMES

# A legal name runs to its first comma, description or defining parenthesis: unlike a role
# word it may hold punctuation ("Acme Corp.", "Smith & Sons, Inc.").
_BETWEEN = re.compile(r"\b(?:by and )?between\s+(.{3,80}?)\s*(?:\([^)]*\))?,?\s+and\s+"
                      r"(.{3,80}?)\s*(?:\([^)]*\))?[,.;(]")
_NAME_ROW = re.compile(r"^\W*(?:party(?: \d)? name|company name|legal name)\s*:\s*(.+)$", re.I)
# Words that make a phrase a document or a part of one, not a party.
_NOT_NAME = re.compile(r"\b(?:agreement|letter|consent|notice|addendum|amendment|certificate|confirmation|"
                       r"instructions|checklist|list|terms|contract|lease|deed|page|form|party|parties|schedule|"
                       r"exhibit)\b", re.I)
_ROLE_WORDS = frozenset(n.casefold() for n in PARTY_NAMES) | {"party 1", "party 2"}
_PREAMBLE_PARAGRAPHS = 15


def legal_names(texts: Sequence[str]) -> list[str]:
    """The parties' names: every "Party Name: X" row, else the preamble's "between A and B"."""
    names: list[str] = []
    for text in texts:
        row = _NAME_ROW.match(text)
        if row and not is_blank(row.group(1)):
            names.append(row.group(1).strip(" .,"))
    if not names:
        for text in map(filled_prose, texts[:_PREAMBLE_PARAGRAPHS]):
            match = _BETWEEN.search(text)
            if match and all(_looks_like_name(g) for g in match.groups()):
                names = [_name(g) for g in match.groups()]
                break
    return list(dict.fromkeys(n for n in names if n))


def _name(text: str) -> str:
    """"Acme Corp., a Delaware corporation" -> "Acme Corp."."""
    return re.split(r",\s+(?:a|an)\s", text, maxsplit=1)[0].strip(" ,")


def _looks_like_name(text: str) -> bool:
    """"Acme Corp." yes; "Customer", "the Agreement", "this AI Addendum", a blank: no."""
    text = text.strip()
    if is_blank(text) or "\u2026" in text or not text[:1].isupper():
        return False
    if re.match(r"(?:the|this|that|each|such|any|its|their|our|your)\b", text, re.I):
        return False
    return text.casefold() not in _ROLE_WORDS and not _NOT_NAME.search(text)
