"""Cross-references to sections ("Section 8.4 (Exceptions)", "Clauses 4.2 and 4.3", "Section 4
of the DPA"): the core's one reader of them. Conforming maps a precedent's own references to
the lawyer's sections (addin_server/conform/references.py), Check document flags those the
document does not have, the written terms skip the section headings they name
(document.headings_in), and the section map's reference word is the word they use most
(document.reference_word).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUMBER = r"\d{1,3}(?:\.\d{1,3})*(?:\([a-z0-9]{1,4}\))*"
# Capital or not: English drafting writes "subject to clause 7.3" in lower case. The number
# after the word is what makes it a reference, so "this clause" in prose never is one.
_WORDS = r"[Ss]ections?|[Cc]lauses?|[Aa]rticles?|[Pp]aragraphs?"
# A heading in brackets after a number: never one that holds a reference of its own
# ("Section 2 (except Section 2.5)"), which is read as a reference in its turn.
_HEADING = r"(?:(?!\b(?:" + _WORDS + r")\s+\d)[^()]){2,80}"
_ONE = re.compile(r"(?P<number>" + _NUMBER + r")(?:\s*\((?P<heading>" + _HEADING + r")\))?")
_REF = re.compile(r"\b(?P<word>" + _WORDS + r")\s+(?P<list>" + _NUMBER
                  + r"(?:\s*\(" + _HEADING + r"\))?(?:\s*(?:,\s*(?:and|or)?|and|or|through|to)\s*" + _NUMBER
                  + r"(?:\s*\(" + _HEADING + r"\))?)*)")
# Another document's sections ("Section 4 of the DPA"), not this one's: "of the Agreement" is
# this one; "to Affiliates" (a section applied to someone) is not a document.
_EXTERNAL = re.compile(r"^\s*(?:of|in|under)\s+(?:the\s+)?(?!this\b|these\b|Agreement\b)[A-Z]")
# A statute's section, not the document's: "Internal Revenue Code Section 409A", "Labor Code § 2870".
_STATUTE = re.compile(r"\b(?:Code|Act|Statutes?|Stat\.|U\.S\.C\.|C\.F\.R\.|Law|Rules?|Regulations?)\s*(?:,|\u00a7)?\s*$")


@dataclass(frozen=True)
class Reference:
    word: str  # as written: "Section", "Clauses", "clause"
    start: int  # where its word starts
    end: int
    numbers: tuple[tuple[int, int, str, str], ...]  # (start, end, number, heading written or "")
    own: bool  # to this document's sections: not another document's, not a statute's


def references(text: str) -> list[Reference]:
    """Every cross-reference in ``text``, in order."""
    out = []
    for m in _REF.finditer(text):
        own = not (_EXTERNAL.match(text[m.end():m.end() + 40]) or _STATUTE.search(text[max(0, m.start() - 40):m.start()]))
        base = m.start("list")
        numbers = tuple((base + one.start(), base + one.end(), one.group("number"), (one.group("heading") or "").strip())
                        for one in _ONE.finditer(m.group("list")))
        out.append(Reference(m.group("word"), m.start(), m.end(), numbers, bool(own)))
    return out


def own_references(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, number, heading written) for every reference to this document's own sections."""
    return [n for r in references(text) if r.own for n in r.numbers]
