"""What a check answers, and what it is asked: the shapes every check module shares (checks.py runs them)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from index_builder.model import Clause

from addin_server.draft.parts_result import Context, PartResult
from addin_server.draft.quotes import short as short_at_a_word
from addin_server.draft.quotes import words

NEARLY_SAME = 0.97  # word-sequence similarity at or above which a draft is "unchanged"
CHECK_NAMES = ("changed", "instruction", "markers", "quotations", "support", "additions", "meaning",
               "defined_terms", "length")
MARKER = re.compile(r"\s*\[\d+\s*\]")


@dataclass(frozen=True)
class DraftTask:
    """What was asked, as the request gives it: nothing here comes from an evaluation set."""

    clause: str  # the lawyer's clause
    instruction: str = ""
    precedents: tuple[Clause, ...] = ()  # numbered [1]..[k] in this order
    document_terms: tuple[str, ...] | None = None  # the lawyer's document's terms; None = unknown
    document_parties: tuple[str, ...] = ()  # the lawyer's document's party names, as the pane reads them
    # Guidance for the model only (the document's parties and terms, issue 23).
    model_note: str = ""

    def context(self) -> Context:
        return Context(self.document_parties, self.document_terms, tuple(p.text for p in self.precedents))


@dataclass(frozen=True)
class CheckResult:
    name: str
    passed: bool | None  # None = not applicable, or not checked (``abstained``)
    reason: str  # in a lawyer's words
    # The check applies but could not read what it would compare: the lawyer reads it. Never
    # "passed" (that would be a draft shown checked on trust) and never "failed" (a guess).
    abstained: bool = False

    @property
    def status(self) -> str:
        """"passed", "failed", "not_checked" or "not_applicable": what the pane shows."""
        if self.passed is True:
            return "passed"
        if self.passed is False:
            return "failed"
        return "not_checked" if self.abstained else "not_applicable"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed, "status": self.status, "reason": self.reason}


def not_checked(name: str, reason: str) -> CheckResult:
    return CheckResult(name, None, reason, abstained=True)


@dataclass(frozen=True)
class Checked:
    """Every check's result and each part of the instruction's."""

    checks: list[CheckResult]
    parts: list[PartResult]


def similarity(a: str, b: str) -> float:
    wa, wb = words(a), words(b)
    if wa == wb:
        return 1.0
    return difflib.SequenceMatcher(None, wa, wb, autojunk=False).ratio()


def first_and_more(found: list[str]) -> str:
    """A check's first reason, and how many more it found: the pane shows one, the count says there are others."""
    return found[0] + (f" ({len(found) - 1} more.)" if len(found) > 1 else "")


def short(text: str, limit: int = 90) -> str:  # this stage quotes 90 characters
    return short_at_a_word(text, limit)
