"""What a part test answers (``PartResult``), what it reads besides clause and draft (``Context``),
and the few phrasings every test's reason shares ("the Company", a provision's first words).

Apart from parts.py so that each kind's test (parts_parties.py, parts_figures.py, ...) can build a
result without importing the dispatcher that imports them: no circle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from index_builder.reading.binding import MUTUAL, Provision
from index_builder.reading.sentences import sentence_spans

from addin_server.draft.instruction import Part
from addin_server.draft.quotes import short as short_at_a_word


STATUSES = ("done", "partly", "not_done", "wrong", "unchecked")


@dataclass(frozen=True)
class PartResult:
    part: Part
    status: str  # one of STATUSES
    reason: str  # in a lawyer's words

    @property
    def failed(self) -> bool:
        return self.status in ("partly", "not_done", "wrong")

    def to_dict(self, by: str = "") -> dict[str, str]:
        out = {"kind": self.part.kind, "label": self.part.label(), "asks": self.part.text,
               "status": self.status, "reason": self.reason}
        if by:
            out["by"] = by
        return out


@dataclass(frozen=True)
class Context:
    """What a part test reads besides the clause and the draft."""

    parties: tuple[str, ...] = ()  # the document's party names
    document_terms: tuple[str, ...] | None = None
    precedents: tuple[str, ...] = ()  # texts, numbered from 1


# --- helpers ------------------------------------------------------------------------------

def mean_sentence_words(text: str) -> float:
    spans = sentence_spans(text)
    return len(re.findall(r"\w+", text)) / max(len(spans), 1)


def phrase(text: str, p: Provision) -> str:
    words = text[p.subject[0]:p.end].split()
    out = " ".join(words[:9]).rstrip(",;.")
    return out + ("…" if len(words) > 9 else "")


def the_named(name: str) -> str:
    if name == MUTUAL:
        return "both parties"
    return name if name.isupper() or not name[:1].isupper() or " " in name else f"the {name}"


def number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def short(text: str, limit: int = 60) -> str:  # this stage quotes 60 characters
    return short_at_a_word(text, limit)
