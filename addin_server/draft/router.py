"""Who writes the draft: a drafting operation when the instruction matches one with
confidence, else the language model; the checks run on whichever wrote it.

``DraftRouter.draft(task, prefer)``: ``prefer`` is "auto" (the rule above), "operation" or
"model" (the lawyer asked for the other one). The outcome says which produced the draft,
why, whether the other can be asked for, and carries every check's result.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Callable

from index_builder.errors import InvalidRequestError, LLMNotConfiguredError

from addin_server.draft import operations as ops
from addin_server.draft.carve_out import add_carve_out
from addin_server.draft.checks import CheckResult, DraftTask, run_checks
from addin_server.draft.citations import verify
from addin_server.draft.edits import Declined, Edit, OperationResult
from addin_server.draft.instruction import Intent, read_instruction
from addin_server.draft.periods import periods, same_unit
from addin_server.draft.redraft import Redrafter, RedraftResult

log = logging.getLogger(__name__)

PREFERENCES = ("auto", "operation", "model")
OPERATION_KINDS = ("mutual", "flip", "period", "amount", "carve_out", "conform")
WITHOUT_MODEL = ("make it mutual, give a right or obligation to the other party, change a "
                 "period or an amount, add a carve-out from a chosen precedent, or conform "
                 "the party names to your document")


@dataclass
class Drafted:
    """A draft, who wrote it and how it fared on the checks."""

    result: RedraftResult
    producer: str  # "operation" or "model"
    intent: Intent
    route_reason: str
    operation: OperationResult | None = None
    alternative: str | None = None  # the other producer the lawyer may ask for
    checks: list[CheckResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)

    @property
    def edits(self) -> list[Edit]:
        return self.operation.edits if self.operation else []


class DraftRouter:
    def __init__(self, redrafter: Redrafter | None) -> None:
        self.redrafter = redrafter

    def draft(self, task: DraftTask, prefer: str = "auto") -> Drafted:
        intent = read_instruction(task.instruction, task.clause)
        if "contradictory" in intent.problems:
            raise InvalidRequestError(intent.reason)
        operation, declined = None, ""
        started = time.perf_counter()
        if prefer != "model" and intent.confident and intent.kind in OPERATION_KINDS:
            try:
                operation = run_operation(intent, task)
            except ops.AlreadyDone as exc:
                operation = OperationResult("none", "Nothing to change", task.clause, [],
                                            notes=[exc.reason])
            except Declined as exc:
                declined = exc.reason
        op_ms = _ms(time.perf_counter() - started)
        if operation is not None:
            drafted = self._from_operation(task, intent, operation)
            drafted.timings_ms["operation"] = op_ms
        elif prefer == "operation":
            raise InvalidRequestError(declined or "No drafting operation does this "
                                      f"instruction; without the assistant you can {WITHOUT_MODEL}.")
        else:
            drafted = self._from_model(task, intent, declined)
        started = time.perf_counter()
        drafted.checks = run_checks(task, drafted.result.verified.text, drafted.result.verified)
        if operation is not None and operation.operation == "none":
            # Nothing needed changing (already mutual, already the period): an unchanged
            # draft is the right answer here, not a failure to carry the instruction out.
            drafted.checks = [CheckResult("changed", None, operation.notes[0])
                              if c.name == "changed" else c for c in drafted.checks]
        drafted.timings_ms["checks"] = _ms(time.perf_counter() - started)
        if intent.problems:
            drafted.notes.append(intent.reason)
        failed = sum(1 for c in drafted.checks if c.passed is False)
        log.info("Draft by %s (%s): %d check(s) failed", drafted.producer,
                 operation.operation if operation else intent.kind, failed)
        return drafted

    def _from_operation(self, task: DraftTask, intent: Intent, operation: OperationResult
                        ) -> Drafted:
        verified = verify(operation.text, task.precedents, task.clause)
        # The draft is the lawyer's clause with the listed edits: no sentence is new wording
        # from nowhere, so none is marked "no precedent backs this" (the edits say why).
        verified.uncited = []
        result = RedraftResult(verified, list(task.precedents))
        return Drafted(result, "operation", intent,
                       f"{operation.label} by a drafting operation on your clause's own words "
                       "(no language model).", operation,
                       "model" if self.redrafter is not None else None,
                       notes=list(operation.notes))

    def _from_model(self, task: DraftTask, intent: Intent, declined: str) -> Drafted:
        if self.redrafter is None:
            if declined:
                raise LLMNotConfiguredError(f"{declined} The drafting assistant, which could "
                                            "try, is not set up on this server.")
            raise LLMNotConfiguredError(
                "This instruction needs the drafting assistant, which is not set up on this "
                f"server. Without it you can {WITHOUT_MODEL}.")
        result = self.redrafter.redraft(task.clause, task.precedents, task.instruction)
        reason = ("Written by the drafting assistant (language model)"
                  + (f": the drafting operation could not do it ({declined})" if declined else
                     "") + ".")
        # The lawyer may ask for the operation instead only where one would have run.
        alternative = ("operation" if not declined and intent.confident
                       and intent.kind in OPERATION_KINDS else None)
        return Drafted(result, "model", intent, reason, None, alternative,
                       timings_ms=dict(result.timings_ms))


def run_operation(intent: Intent, task: DraftTask) -> OperationResult:
    """The operation for a confident reading; Declined when it cannot be done here."""
    p = intent.params
    runners: dict[str, Callable[[], OperationResult]] = {
        "mutual": lambda: ops.make_mutual(task.clause),
        "flip": lambda: ops.flip_party(task.clause, p.get("holder") or "", p.get("other")),
        "period": lambda: ops.change_period(task.clause, p["value"], p["unit"], p.get("old")),
        "amount": lambda: ops.change_amount(task.clause, p["amount"]),
        "carve_out": lambda: add_carve_out(task.clause, task.precedents, p.get("precedent"),
                                           p.get("phrase", "")),
        "conform": lambda: _conform(task, p),
    }
    return runners[intent.kind]()


def _conform(task: DraftTask, p: dict) -> OperationResult:
    if p.get("what") != "period":
        return ops.conform_terms(task.clause, task.document_terms)
    n = p.get("precedent") or 1
    if not 1 <= n <= len(task.precedents):
        raise Declined(f"Precedent [{n}] is not among the chosen precedents.")
    mine = periods(task.clause)
    theirs = [q for q in periods(task.precedents[n - 1].text)
              if not mine or same_unit(q.unit, mine[0].unit)]
    if len(theirs) != 1 or len(mine) != 1:
        raise Declined(f"The periods in your clause and precedent [{n}] cannot be paired one "
                       "to one; say the period you want.")
    return ops.change_period(task.clause, theirs[0].value, theirs[0].unit)


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)
