"""The model of a read instruction: an ``Instruction`` and its ``Part``s, and each part said in a few words.

Apart from instruction.py so that the reader's own modules (instruction_part.py, instruction_figures.py,
instruction_length.py) can make and read parts without importing the reader that calls them. Importable
from instruction.py, where callers have always found it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from index_builder.reading import figures as F

from addin_server.draft.instruction_scope import Scope
from addin_server.draft.instruction_values import number
from addin_server.draft.quotes import short as short_at_a_word


KINDS = ("mutual", "flip", "period", "amount", "carve_out", "conform", "shorten", "plain", "delete", "other")
# Kinds a drafting operation can carry out on the clause's own words.
OPERABLE = ("mutual", "flip", "period", "amount", "carve_out", "conform", "delete")


@dataclass(frozen=True)
class Part:
    """One ask of an instruction."""

    kind: str  # one of KINDS
    text: str  # the instruction's own words for it
    params: Mapping[str, Any] = field(default_factory=dict)
    scope: Scope = field(default_factory=Scope)

    def label(self) -> str:
        """The part in a few words, for "done: ...; not done: ..."."""
        p = self.params
        if self.kind == "mutual":
            return "mutual" + (f" ({p['named']} bound too)" if p.get("named") else "")
        if self.kind == "flip":
            return f"given to {_the(p['holder'])}" if p.get("holder") else "the other party"
        if self.kind == "period" and p.get("value") is not None:
            unit = p["unit"] if p["value"] != 1 else p["unit"].rstrip("s")
            return f"{number(p['value'])} {unit}"
        if self.kind == "amount" and p.get("amount") is not None:
            return F.format_amount(p["amount"], currency=p.get("currency"))
        if self.kind == "carve_out":
            return "carve-out" + (f" for {p['phrase']}" if p.get("phrase") else "") + \
                (f" from precedent [{p['precedent']}]" if p.get("precedent") else "")
        if self.kind == "delete" and p.get("what"):
            return f"delete {p['what']}"
        return {"conform": "your document's terms", "shorten": "shorter", "plain": "plain English"}.get(
            self.kind, _short(self.text))


@dataclass(frozen=True)
class Instruction:
    text: str
    parts: tuple[Part, ...] = ()
    problems: tuple[str, ...] = ()  # "language", "contradictory"
    reason: str = ""  # for the lawyer, when a problem stops the instruction being read
    length: Mapping[str, Any] = field(default_factory=dict)  # ratio | sentences | words

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(p.kind for p in self.parts)

    @property
    def kind(self) -> str:
        """"none", the one part's kind, "multi" or "other"."""
        if not self.text.strip():
            return "none"
        if not self.parts:
            return "other"
        return self.parts[0].kind if len(self.parts) == 1 else "multi"


def _the(name: str) -> str:
    return name if not name[:1].isupper() or name.isupper() else f"the {name}"


def _short(text: str, limit: int = 60) -> str:  # this stage quotes 60 characters
    return short_at_a_word(text, limit)
