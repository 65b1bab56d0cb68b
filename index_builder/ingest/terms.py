"""Defined terms: the quoted words a clause gives a meaning to (“Confidential Information”)."""

from __future__ import annotations

import re
from typing import Iterable

_QUOTED = re.compile(r"[“\"]([^“”\"\n]{1,80})[”\"]")
_MEANS = re.compile(
    r"\s*[)’']?\s*,?\s*(?:means|mean|shall mean|will mean|refers to|shall refer to|"
    r"(?:shall |will )?(?:has|have) the meanings?|is defined|are defined)\b",
    re.IGNORECASE,
)
_CHAIN = re.compile(r"\s*,?\s*(?:or|and)?\s*")
_PARENTHETICAL = re.compile(r"\(([^()]{1,160})\)")
# Words allowed around the quotes in a defining parenthetical: (each, a “Party” and
# together, the “Parties”), (hereinafter referred to as the “Company”).
_CONNECTORS = frozenset(
    "the a an each collectively together individually jointly hereinafter herein referred "
    "to as and or this such also any all".split()
)
_MAX_WORDS = 8


def quoted_terms(text: str) -> list[str]:
    """Every plausible term in double quotes (short, starting with a letter or digit)."""
    return [term for match in _QUOTED.finditer(text) if (term := _clean(match.group(1)))]


def defined_terms(text: str, bold_terms: Iterable[str] = ()) -> list[str]:
    """Terms the text defines: “X” means ..., (the “X”), or a quoted term set in bold."""
    found = list(bold_terms) + _means_terms(text)
    for match in _PARENTHETICAL.finditer(text):
        inside = match.group(1)
        terms = quoted_terms(inside)
        if terms and _only_connectors(_QUOTED.sub(" ", inside)):
            found.extend(terms)
    return _unique(found)


def _means_terms(text: str) -> list[str]:
    """Terms before "means": “Processing” or “Process” will have the meaning ..."""
    found: list[str] = []
    chain: list[str] = []
    matches = list(_QUOTED.finditer(text))
    for position, match in enumerate(matches):
        chain.append(match.group(1))
        following = matches[position + 1] if position + 1 < len(matches) else None
        if following and _CHAIN.fullmatch(text, match.end(), following.start()):
            continue  # “A” or “B” ... : the definition, if any, comes after the last one
        if _MEANS.match(text, match.end()):
            found.extend(term for term in map(_clean, chain) if term)
        chain = []
    return found


def _only_connectors(text: str) -> bool:
    words = re.findall(r"[A-Za-z]+", text)
    return len(words) <= 6 and all(word.lower() in _CONNECTORS for word in words)


def _clean(term: str) -> str:
    term = term.strip().strip(",;:.").strip()
    if not term or not term[0].isalnum() or len(term.split()) > _MAX_WORDS:
        return ""
    return term


def _unique(terms: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for term in terms:
        seen.setdefault(term, None)
    return list(seen)
