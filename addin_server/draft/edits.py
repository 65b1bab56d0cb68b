"""Edits on the lawyer's clause with the reason for each: what an operation returns.

An operation never rewrites the clause wholesale: it lists replacements of spans of the
original text, each with a reason the lawyer reads ("makes the right mutual"). ``apply``
builds the draft from them, so any word no edit names is the lawyer's own, unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Edit:
    start: int  # offsets into the original clause (Python string indices)
    end: int
    new: str
    reason: str
    old: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "old": self.old, "new": self.new,
                "reason": self.reason}


@dataclass
class OperationResult:
    """A drafting operation's draft: the edits, the text they give, what was cited."""

    operation: str  # "make_mutual", "flip_party", "change_period", "change_amount", ...
    label: str  # "Made mutual", for the pane
    original: str
    edits: list[Edit]
    cited: list[int] = field(default_factory=list)  # precedent numbers the draft cites
    notes: list[str] = field(default_factory=list)  # what the lawyer should look at

    @property
    def text(self) -> str:
        return apply(self.original, self.edits)


class Declined(Exception):
    """The operation cannot do this instruction on this clause; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def apply(original: str, edits: list[Edit]) -> str:
    out, last = [], 0
    for edit in sorted(edits, key=lambda e: e.start):
        if edit.start < last:
            raise ValueError("overlapping edits")  # a bug in an operation, never input
        out += [original[last:edit.start], edit.new]
        last = edit.end
    out.append(original[last:])
    return "".join(out)


def edit(original: str, start: int, end: int, new: str, reason: str) -> Edit:
    return Edit(start, end, new, reason, original[start:end])
