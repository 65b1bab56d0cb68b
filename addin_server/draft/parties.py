"""Who a clause binds: the named parties, the subjects of its obligations and rights.

A party is a capitalised role word ("Provider", "Customer", "Disclosing Party") that a
clause uses as the subject of a modal verb ("will", "must", "may", "shall") or that is a
well-known role. Mutual wording is "each party", "either party", "neither party", "both
parties", "the parties". Plain regular expressions: a clause is a sentence or two of
contract English, and what these functions cannot read they leave alone.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from index_builder.reading.parties import PARTY_NAMES as ROLES  # the one table of party roles
MODALS = r"(?:will|must|may|shall|agrees to|is required to|is entitled to)"
_APOSTROPHE = r"(?:’s|'s|’|')"
_ROLE_ALT = "|".join(sorted((re.escape(r) for r in ROLES), key=len, reverse=True))
ROLE_RE = re.compile(rf"\b(?:the )?({_ROLE_ALT})\b(?!\s+(?:Covered|Content|Personal|Data|Materials?|Property|Indemnified|Confidential))")
_SUBJECT = re.compile(
    rf"\b(?P<who>(?:[Tt]he )?(?:{_ROLE_ALT})|[Ee]ach [Pp]arty|[Ee]ither [Pp]arty|[Nn]either "
    rf"[Pp]arty|[Bb]oth [Pp]arties|[Tt]he [Pp]arties|[Tt]he other [Pp]arty|[Tt]he terminating "
    rf"[Pp]arty|[Ii]t|[Tt]hey)\s+(?:(?:promptly|immediately|not|also|then|only|otherwise)\s+)*"
    rf"(?P<modal>{MODALS})(?P<neg>\s+not)?\b")
MUTUAL_RE = re.compile(r"\b(?:each|either|neither) party\b|\bboth parties\b|\bthe parties\b|"
                       r"\beach of the parties\b|\bthe other party\b", re.IGNORECASE)


@dataclass(frozen=True)
class Subject:
    who: str  # "Provider", "each party", ...
    modal: str
    negated: bool
    start: int  # the subject's span ("The Recipient")
    end: int
    neg_start: int = -1  # the span of " not", when negated
    neg_end: int = -1


def parties(text: str) -> list[str]:
    """The named parties in order of first mention (roles only, never "party")."""
    seen: dict[str, None] = {}
    for match in ROLE_RE.finditer(text):
        if not _in_compound(text, match.start(1)):
            seen.setdefault(match.group(1), None)
    return list(seen)


def _in_compound(text: str, start: int) -> bool:
    """"Covered Customer", "Company Covered Claims": a role word inside another term."""
    before = text[max(0, start - 30):start]
    return bool(re.search(r"(?<![.;:]\s)\b[A-Z][a-z]+ $", before)) and not re.search(
        r"(?:^|[.;:(]\s*)(?:The|If|However|Each|Unless|Upon|When|And|Or)? ?[A-Z][a-z]+ $", before)


def subjects(text: str) -> list[Subject]:
    """The subject of each obligation or right: "Provider will not", "each party may"."""
    found = []
    for match in _SUBJECT.finditer(text):
        if _in_compound(text, match.start("who")):
            continue
        who = re.sub(r"^[Tt]he (?=[A-Z])", "", match.group("who"))
        if who[:1].islower() or who.lower() in {"it", "they"}:
            who = who.lower()
        neg = match.span("neg") if match.group("neg") else (-1, -1)
        if not match.group("neg"):  # "Provider will not", "Contractor may not": "not" before
            inner = re.search(r"\s+not\b", match.group(0)[:match.start("modal") - match.start()])
            if inner:
                neg = (match.start() + inner.start(), match.start() + inner.end())
        found.append(Subject(who, match.group("modal"), neg[0] >= 0, match.start("who"),
                             match.end("who"), *neg))
    return found


def bound_parties(text: str) -> Counter[str]:
    """How often each named party is the subject of an obligation or right."""
    names = set(parties(text))
    return Counter(s.who for s in subjects(text) if s.who in names)


def is_mutual(text: str) -> bool:
    """Whether the clause already binds both sides: mutual wording and no one-sided subject,
    or each named party bound the same number of times."""
    bound = bound_parties(text)
    if not bound:
        return bool(MUTUAL_RE.search(text))
    named = parties(text)
    if len(named) >= 2 and len(bound) >= 2 and len(set(bound.values())) == 1:
        return True
    return False


def main_party(text: str) -> str | None:
    """The party the clause binds most (first mentioned on a tie)."""
    bound = bound_parties(text)
    if not bound:
        return None
    top = max(bound.values())
    return next(p for p in parties(text) if bound.get(p) == top)


def other_party(text: str, party: str) -> str | None:
    return next((p for p in parties(text) if p != party), None)


def mentions(text: str, party: str) -> int:
    return len(re.findall(rf"\b{re.escape(party)}\b", text))
