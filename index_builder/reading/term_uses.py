"""Every defined term's uses in a text, in one scan and in any capitals: which term each use
is, the words as written, and whether they are one of the term's own forms.

``defined_terms.mentions`` reads one term's proper uses (its capitals or all capitals, either
number, possessive). A document check also needs the improper ones ("confidential
information" for "Confidential Information") and must scan a document of 2,000 definitions
once per paragraph, not once per term: one case-insensitive pattern of every term's forms,
longest first. The forms are ``defined_terms``' own (``pluralise``, ``singular``), so the
check and conforming agree on what a use of a term is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from index_builder.reading.defined_terms import pluralise, singular


@dataclass(frozen=True)
class Use:
    term: str  # the defined term this is a use of
    start: int
    end: int
    written: str  # the term's words as written ("confidential information", "Covered Employee")
    proper: bool  # written as the term, in its other number, or all in capitals


def forms(term: str) -> tuple[str, ...]:
    """The term's own forms: as defined, its plural, its singular ("Covered Employees" ->
    "Covered Employee"; "Activity" -> "Activities")."""
    plural = term if singular(term) != term else pluralise(term)  # not "Covered Employeeses"
    return tuple(dict.fromkeys(f for f in (term, plural, singular(term)) if f.strip()))


class TermUses:
    """One scanner for a set of terms; ``uses(text)`` finds them all in one pass."""

    def __init__(self, terms: Iterable[str]) -> None:
        self.terms = list(dict.fromkeys(t for t in terms if t.strip()))
        self._by_lower: dict[str, str] = {}
        self._proper: dict[str, frozenset[str]] = {}
        for term in self.terms:  # a term's own spelling wins over another term's other form
            for form in forms(term)[1:]:
                self._by_lower.setdefault(form.lower(), term)
        for term in self.terms:
            self._by_lower[term.lower()] = term
            self._proper[term] = frozenset(forms(term))
        alternatives = "|".join(re.escape(k) for k in sorted(self._by_lower, key=len, reverse=True))
        # Not inside a word or a definition's quotes; a plural ending and a possessive may follow.
        self._pattern = re.compile(r"(?<![^\W\d_]|[\u201c\"])(" + alternatives + r")(?:s|es)?(?:[\u2019']s|[\u2019'])?"
                                   r"(?![^\W\d_]|[\u201d\"])", re.I) if alternatives else None

    def uses(self, text: str) -> list[Use]:
        if self._pattern is None:
            return []
        out = []
        for m in self._pattern.finditer(text):
            written = m.group(1)
            term = self._by_lower[written.lower()]
            proper = written in self._proper[term] or (written.isupper() and not term.isupper() and len(written) > 1)
            out.append(Use(term, m.start(), m.end(), written, proper))
        return out
