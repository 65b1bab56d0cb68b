"""A clause's label: the number typed at its start, its run-in heading, where its words begin,
and whether they are set in capitals.

The pane drops a precedent's own number and heading when it inserts it, keeps the lawyer's,
and matches the lawyer's capitals (adapt.js); strict results are compared without their
numbers. It reads none of this itself: the search answer carries each result's label and the
lawyer's (web/serialize.py ``reading``), so there is one reader of a clause number
(numbering.typed_number), of a heading's shape (document.title_case) and of text in capitals
(document.mostly_capitals).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from index_builder.reading.document import mostly_capitals, title_case
from index_builder.reading.numbering import typed_number
from index_builder.reading.sentences import sentence_spans

# A heading run in before the clause's words and ended by a full stop, a colon, a dash or a
# line break: "Cap on liability. Subject to ...", "CONFIDENTIALITY \u2014 Each party ...",
# "Payment Terms: The Customer ...". Its shape is checked apart (_looks_like_heading).
_RUN_IN = re.compile(r"([^.:\n\u2014]{1,80}?)\s*(?:[.:\u2014]|\s[-\u2013]\s|\n)\s+(?=[A-Z0-9(\"\u201c'\u2018])")
# A short phrase with one of these is a sentence ("Fees are due."), not a heading ("Liability cap").
_VERB = re.compile(r"\b(?:is|are|was|were|be|been|shall|will|may|must|can|should|would|has|have|had|does|do|"
                   r"agrees?)\b", re.I)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Label:
    number: str  # as typed: "12.1", "Section 4.", "(a)"; "" when none
    heading: str  # the run-in heading, without its full stop; "" when none
    body: int  # offset where the clause's words begin, after its number and heading
    capitals: bool  # its words are set in capitals
    sentences: tuple[int, ...] = ()  # where each sentence of its words starts (only when in capitals)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"number": self.number, "heading": self.heading, "body": self.body,
                               "capitals": self.capitals}
        if self.capitals:  # the pane puts a text in capitals into sentence case: where to capitalise
            out["sentences"] = list(self.sentences)
        return out


# Every search answer labels its results: a precedent's label is read once per process (the
# text's hash is kept on the string, so a hit costs a dictionary look-up, issue 39).
@lru_cache(maxsize=8192)
def clause_label(text: str, heading: str = "") -> Label:
    """The label of a clause. ``heading`` (the index's heading for it) is trusted over the
    shape of the words: "Termination for convenience. ..." is a heading when the index says so."""
    number = typed_number(text)
    at = number.end if number else 0
    run_in = _RUN_IN.match(text, at + len(text[at:]) - len(text[at:].lstrip()))
    head = ""
    if run_in and (_same(run_in.group(1), heading) or _looks_like_heading(run_in.group(1).strip())):
        head, at = run_in.group(1).strip(), run_in.end()
    while at < len(text) and text[at].isspace():
        at += 1
    words = text[at:]
    capitals = mostly_capitals(words or text)
    starts = (at, *(s for s, _ in sentence_spans(text) if s > at)) if capitals else ()
    return Label(number.shown if number else "", head, at, capitals, starts)


def _same(phrase: str, heading: str) -> bool:
    return bool(heading.strip()) and _SPACES.sub(" ", phrase).strip().lower() == _SPACES.sub(" ", heading).strip().lower()


def _looks_like_heading(phrase: str) -> bool:
    """Title Case or capitals ("Limitation of Liability", "CONFIDENTIALITY"), or a few words in
    sentence case without a verb ("Liability cap")."""
    words = phrase.split()
    if not words or len(words) > 8 or not any(c.isalpha() for c in phrase):
        return False
    if phrase == phrase.upper() or title_case(phrase):
        return phrase[0].isupper() or phrase[0] in "(\"\u201c'" or phrase[0].isdigit()
    return len(words) <= 4 and phrase[0].isupper() and not _VERB.search(phrase)
