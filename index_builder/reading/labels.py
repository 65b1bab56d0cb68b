"""A clause's label: the number typed at its start, its run-in heading, where its words begin,
and whether they are set in capitals.

The pane drops a precedent's own number and heading when it inserts it, keeps the lawyer's,
and matches the lawyer's capitals (adapt.js); strict results are compared without their
numbers. It reads none of this itself: the search answer carries each result's label and the
lawyer's (web/serialize.py ``reading``), so there is one reader of a clause number
(numbering.typed_number), of a run-in heading (document.run_in_heading) and of text in capitals
(document.mostly_capitals).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from index_builder.reading.document import after_run_in, mostly_capitals, run_in_heading
from index_builder.reading.numbering import typed_number
from index_builder.reading.sentences import sentence_spans


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
    # A heading run in before the clause's words and ended by a full stop, a colon, a dash or a
    # line break: "Cap on liability. Subject to ...", "CONFIDENTIALITY \u2014 Each party ...",
    # "Payment Terms: The Customer ..." (the core's one run-in heading, in a clause's shape).
    start = at + len(text[at:]) - len(text[at:].lstrip())
    run_in = run_in_heading(text, start, marks=".:\u2014-\n", shape="clause", known=heading)
    head = ""
    if run_in:
        head, at = text[run_in[0]:run_in[1]].strip(), after_run_in(text, run_in[1])
    while at < len(text) and text[at].isspace():
        at += 1
    words = text[at:]
    capitals = mostly_capitals(words or text)
    starts = (at, *(s for s, _ in sentence_spans(text) if s > at)) if capitals else ()
    return Label(number.shown if number else "", head, at, capitals, starts)
