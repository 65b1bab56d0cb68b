"""Who writes the draft: the drafting operations for the parts of the instruction they can do,
the language model for the rest; the checks run on the result, part by part.

``DraftRouter.draft(task, prefer)``: ``prefer`` is "auto", "operation" or "model" (the lawyer
asked for the other one). With "auto" every part an operation can do is done on the clause's own
words, one after another; what is left goes to the model with the operations' draft as its
starting point (or, with no model set up, is said plainly as not done). The outcome says which
produced the draft, which part each did, whether the other producer can be asked for, and
carries every check's result — computed on the final draft against the lawyer's clause, so a
part is reported done only where the check finds it done.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from index_builder.errors import InvalidRequestError, LLMNotConfiguredError

from addin_server.draft import operations as ops
from addin_server.draft.carve_out import add_carve_out
from addin_server.draft.checks import CheckResult, DraftTask, check_changed, check_draft
from addin_server.draft.checks_base import not_checked
from addin_server.draft.citations import verify
from addin_server.draft.edits import Declined, Edit, OperationResult
from addin_server.draft.instruction import OPERABLE, Instruction, Part, read_instruction
from addin_server.draft.instruction_moves import same_size
from addin_server.draft.gates import refused as _refused
from addin_server.draft.gates import unread as _unread
from addin_server.draft.parts_result import PartResult
from addin_server.draft.redraft import Redrafter, RedraftResult
from addin_server.draft.unambiguous import doubt, doubt_after, doubt_done, says_to_keep

log = logging.getLogger(__name__)

# An operation's edits are never shown as checked. The instruction check reads the ask the way the
# operation did, so it cannot catch a misreading; blind reviews of seven never-seen tranches judged
# about half the operation drafts the checks passed wrong (benchmarks/results/drafting, session 9).
SECOND_READING = not_checked(
    "second_reading", "A drafting rule made these edits from its reading of your ask, and the checks read the "
    "ask the same way, so none of them vouches for the edits on its own: read each edit before you apply it.")

PREFERENCES = ("auto", "operation", "model")
OPERATION_KINDS = OPERABLE
WITHOUT_MODEL = ("make it mutual, give a right or obligation to the other party, change a period or an amount, "
                 "add a carve-out from a chosen precedent, conform the party names to your document, or drop a "
                 "sentence")


@dataclass
class Drafted:
    """A draft, who wrote it, what each part of the instruction came to, and the checks."""

    result: RedraftResult
    producer: str  # "operation" or "model"
    instruction: Instruction
    route_reason: str
    operation: OperationResult | None = None
    alternative: str | None = None  # the other producer the lawyer may ask for
    checks: list[CheckResult] = field(default_factory=list)
    parts: list[dict[str, str]] = field(default_factory=list)  # PartResult.to_dict(by=...)
    notes: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)

    @property
    def edits(self) -> list[Edit]:
        return self.operation.edits if self.operation else []


class DraftRouter:
    def __init__(self, redrafter: Redrafter | None) -> None:
        self.redrafter = redrafter

    def draft(self, task: DraftTask, prefer: str = "auto") -> Drafted:
        ins = read_instruction(task.instruction, task.clause, task.document_parties)
        if "contradictory" in ins.problems:
            raise InvalidRequestError(ins.reason)
        started = time.perf_counter()
        done: list[tuple[int, Part, OperationResult]] = []
        why: dict[int, str] = {}
        already: dict[int, str] = {}
        text = task.clause
        if prefer != "model" and not ins.problems:
            for i, part in enumerate(ins.parts):
                if part.params.get("kept"):
                    continue  # a figure said to stay: no ask, nothing for an operation to do or to claim
                if part.kind not in OPERATION_KINDS:
                    why[i] = "No drafting operation does this."
                    continue
                unsure = doubt(part, task.clause, task.document_parties)
                if unsure:
                    # Read more than one way: the operation does not guess (unambiguous.py).
                    why[i] = f"{unsure} The drafting assistant can do it."
                    continue
                try:
                    result = run_operation(part, task, text)
                    _self_check(part, ins, task, text, result)
                    unsure = doubt_after(part, text, result, task.document_parties, tuple(c.text for c in task.precedents))
                    unsure = unsure or (doubt_done(part, text, result.text, task.document_parties) or ("", ""))[1]
                    if unsure:
                        raise Declined(f"{unsure} The drafting assistant can do it.")
                except ops.AlreadyDone as exc:
                    already[i] = exc.reason
                    continue
                except Declined as exc:
                    why[i] = exc.reason
                    continue
                done.append((i, part, result))
                text = result.text
        refused = (_unread(ins, task.clause) if done or already else "") or (_refused(task, ins, text, done) if done else "")
        if refused:
            # The operations' own draft does not pass the checks it will be shown with, or the ask is not
            # read whole: it is not offered (a draft the checks fail or cannot read is a guess shown as done).
            why.update({i: refused for i in [d[0] for d in done] + list(already)})
            done, already, text = [], {}, task.clause
        op_ms = _ms(time.perf_counter() - started)
        left = [i for i in range(len(ins.parts)) if i not in {d[0] for d in done} and i not in already
                and not ins.parts[i].params.get("kept")]
        # A length asked for ("no longer than 50 words") is never an operation's: with nothing else done,
        # an unchanged clause is not the answer.
        if done or (already and not left and not ins.length):
            operation = _combined(task.clause, text, done, already)
            if left and prefer != "operation" and self.redrafter is not None:
                drafted = self._from_model(task, ins, "", start=text, left=[ins.parts[i] for i in left],
                                           done_by_op=[d[1] for d in done])
                drafted.operation = operation if done else None
            else:
                drafted = self._from_operation(task, ins, operation)
                if any(not says_to_keep(ins.parts[i].text) for i in left) and prefer != "operation":
                    drafted.notes.append("The drafting assistant, which could do the rest, is not set up on this "
                                         "server." if self.redrafter is None else "")
            drafted.timings_ms["operation"] = op_ms
        elif prefer == "operation":
            raise InvalidRequestError(_declined_message(ins, why))
        else:
            # One reason once: a refusal of the whole ask is recorded against each part it withdrew.
            drafted = self._from_model(task, ins, "; ".join(dict.fromkeys(
                why[i].rstrip(".") for i in sorted(why) if ins.parts[i].kind in OPERATION_KINDS)))
        started = time.perf_counter()
        checked = check_draft(task, drafted.result.answer or drafted.result.verified.text, drafted.result.verified,
                              instruction=ins)
        drafted.checks = checked.checks
        drafted.parts = _parts(checked.parts, ins, done, already, why, drafted.producer, self.redrafter is not None,
                               prefer, (task.clause, drafted.result.answer or drafted.result.verified.text))
        drafted.checks = _instruction_from_parts(drafted.checks, drafted.parts)
        eased = any(r.failed and row["status"] == "unchecked" for r, row in zip(checked.parts, drafted.parts))
        if eased:
            drafted.checks = _eased(drafted.checks, drafted.parts, task, ins,
                                    drafted.result.answer or drafted.result.verified.text)
        if drafted.operation is not None and drafted.operation.operation == "none":
            # Nothing needed changing (already mutual, already the period): an unchanged draft is the
            # right answer here, not a failure to carry the instruction out.
            drafted.checks = [CheckResult("changed", None, drafted.operation.notes[0]) if c.name == "changed" else c
                              for c in drafted.checks]
        if drafted.operation is not None and drafted.operation.operation != "none":
            drafted.checks.append(SECOND_READING)
        drafted.timings_ms["checks"] = _ms(time.perf_counter() - started)
        if ins.problems:
            drafted.notes.append(ins.reason)
        drafted.notes = [n for n in drafted.notes if n]
        failed = sum(1 for c in drafted.checks if c.passed is False)
        log.info("Draft by %s (%s): %d check(s) failed", drafted.producer, ",".join(ins.kinds) or ins.kind, failed)
        return drafted

    def _from_operation(self, task: DraftTask, ins: Instruction, operation: OperationResult) -> Drafted:
        verified = verify(operation.text, task.precedents, task.clause)
        # The draft is the lawyer's clause with the listed edits: no sentence is new wording from
        # nowhere, so none is marked "no precedent backs this" (the edits say why).
        verified.uncited = []
        result = RedraftResult(verified, list(task.precedents))
        return Drafted(result, "operation", ins,
                       f"{operation.label} by a drafting operation on your clause's own words (no language model).",
                       operation, "model" if self.redrafter is not None else None, notes=list(operation.notes))

    def _from_model(self, task: DraftTask, ins: Instruction, declined: str, start: str | None = None,
                    left: list[Part] | None = None, done_by_op: list[Part] | None = None) -> Drafted:
        if self.redrafter is None:
            if declined:
                raise LLMNotConfiguredError(f"{declined} The drafting assistant, which could try, is not set up on "
                                            "this server.")
            raise LLMNotConfiguredError("This instruction needs the drafting assistant, which is not set up on this "
                                        f"server. Without it you can {WITHOUT_MODEL}.")
        if start is not None and left:
            # The operations' draft is the starting point; the model is asked for the rest only.
            asked = "\n".join(p.text for p in left)
            already = "; ".join(p.label() for p in (done_by_op or []))
            instructions = (f"{asked}\n(Already done in the text below, keep it: {already}.)" if already else asked)
            text = start
        else:
            instructions, text = task.instruction.strip(), task.clause
        instructions = "\n".join(x for x in (instructions, task.model_note) if x)
        result = self.redrafter.redraft(text, task.precedents, instructions)
        if start is not None and left:
            reason = (f"{'; '.join(p.label() for p in done_by_op or [])} by a drafting operation on your clause's "
                      f"own words, then the drafting assistant (language model) for the rest.")
        else:
            reason = ("Written by the drafting assistant (language model)"
                      + (f": the drafting operation could not do it ({declined})" if declined else "") + ".")
        # The lawyer may ask for the operations instead only where one would run.
        alternative = "operation" if any(p.kind in OPERATION_KINDS for p in ins.parts) and not ins.problems and \
            not declined and start is None else None
        return Drafted(result, "model", ins, reason, None, alternative, timings_ms=dict(result.timings_ms))


def run_operation(part: Part, task: DraftTask, text: str | None = None) -> OperationResult:
    """The operation for one part, on ``text`` (the clause, or what earlier operations made of it)."""
    text = task.clause if text is None else text
    from addin_server.draft.parts_figures import with_precedent_period
    part = with_precedent_period(part, text, tuple(c.text for c in task.precedents))
    p = part.params
    runners: dict[str, Callable[[], OperationResult]] = {
        "mutual": lambda: ops.make_mutual(text, part, task.document_parties),
        "flip": lambda: ops.flip_party(text, part, task.document_parties),
        "period": lambda: ops.change_period(text, part),
        "amount": lambda: ops.change_amount(text, part),
        "carve_out": lambda: add_carve_out(text, task.precedents, p.get("precedent"), p.get("phrase", ""),
                                           p.get("source", ""), task.document_parties),
        "conform": lambda: ops.conform_terms(text, part, task.document_terms, task.document_parties),
        "delete": lambda: ops.delete_part(text, part),
    }
    return runners[part.kind]()


def _self_check(part: Part, ins: Instruction, task: DraftTask, before: str, result: OperationResult) -> None:
    """An operation's draft, read by the checks before anyone sees it: if its own part is not done,
    or it changes what it was not asked to, it is not offered (Declined) rather than offered as done."""
    from addin_server.draft import compare as C
    from addin_server.draft.instruction import Instruction as _Instruction
    from addin_server.draft.parts import allowances, check_part

    from addin_server.draft.guards import check_edits

    check_edits(ins.text, part.text, part.kind, before, result.edits)
    alone = _Instruction(ins.text, (part,), length=ins.length)
    found = check_part(part, alone, before, result.text, task.context())
    if found.failed:
        raise Declined(f"The operation could not do “{part.label()}” reliably ({found.reason}) The drafting assistant "
                       "can.")
    if found.status == "unchecked":
        # An operation's draft is offered as done only where the checks can read it done: one they
        # cannot read would be shown as passed on trust.
        raise Declined(f"The operation's draft for “{part.label()}” cannot be checked ({found.reason}) The drafting "
                       "assistant can do it.")
    allow = allowances(alone, before, result.text, task.context(), result.cited)
    changed = C.meaning_changes(C.compare(before, result.text), allow, task.document_parties)
    if changed:
        raise Declined(f"Doing “{part.label()}” by the operation would also change something else ({changed[0]}) The "
                       "drafting assistant can word it.")


def _combined(clause: str, text: str, done: list[tuple[int, Part, OperationResult]],
              already: dict[int, str]) -> OperationResult:
    """One result for the operations that ran, edits on the lawyer's clause."""
    if not done:
        return OperationResult("none", "Nothing to change", clause, [], notes=list(already.values()))
    if len(done) == 1:
        result = done[0][2]
        result.notes = list(result.notes) + list(already.values())
        return result
    from addin_server.draft.compare import compare

    reasons = [(e.new, e.reason) for _, _, r in done for e in r.edits]
    edits = []
    for region in compare(clause, text).regions:
        reason = next((why for new, why in reasons if new and new.strip() and new.strip() in region.new), None) or \
            "; ".join(dict.fromkeys(r.label for _, _, r in done))
        edits.append(Edit(region.old_start, region.old_end, region.new, reason, region.old))
    notes = [n for _, _, r in done for n in r.notes] + list(already.values())
    label = "; ".join(r.label for _, _, r in done)
    cited = sorted({n for _, _, r in done for n in r.cited})
    combined = OperationResult("+".join(r.operation for _, _, r in done), label, clause, edits, cited, notes)
    if combined.text != text:  # the regions must give back the operations' own text
        combined = OperationResult(combined.operation, label, clause,
                                   [Edit(0, len(clause), text, label, clause)], cited, notes)
    return combined


def _parts(results: list[PartResult], ins: Instruction, done: list[tuple[int, Part, OperationResult]],
           already: dict[int, str], why: dict[int, str], producer: str, model: bool, prefer: str,
           texts: tuple[str, str] = ("", "")) -> list[dict[str, Any]]:
    """Each part as the lawyer reads it: what the check found, who did it, and why a part was left.
    ``texts``: the clause and the draft."""
    by_op = {i for i, _, _ in done}
    out = []
    for i, r in enumerate(results):
        by = "operation" if i in by_op or i in already else producer
        row = r.to_dict(by)
        left = i not in by_op and i not in already and producer == "operation"
        if left:
            row["by"] = ""  # nobody did it
        if left and r.part.params.get("kept") and r.status == "done" and _figure_gone(r.part, *texts):
            # "A one-year renewal does not give us time ... make it 24 months": the figure named (the clause's
            # 12 months) is nowhere in the draft, so it did not stay, whatever unit the ask said it in.
            row["status"] = "unchecked"
            row["reason"] = (f"Not checked: the {r.part.label()} your instruction names is the figure the draft "
                             "changes; read whether your instruction keeps it or changes it.")
        elif left and r.part.params.get("kept"):
            pass  # a figure said to stay: the check's own finding (it stays, or the draft changed it)
        elif left and r.status == "done" and i in why and not says_to_keep(r.part.text):
            # An ask the operation declined is never claimed: the check may read the clause as it stood as
            # doing it (a party it already binds), but nobody did what was asked.
            row["status"] = "not_done"
            row["reason"] = why[i] + (" The drafting assistant is not set up on this server." if not model else "")
        elif left and r.status == "unchecked" and says_to_keep(r.part.text):
            # "ENVISION's numbers don't move": what stays is no ask left undone; the lawyer reads it.
            row["reason"] = "What your instruction keeps as it is: read the draft for it."
        elif left and r.status != "done":
            row["status"] = "not_done"
            row["reason"] = (why.get(i) or "No drafting operation does this.") + (
                " The drafting assistant is not set up on this server." if not model else
                " Ask the drafting assistant for it." if prefer == "operation" else "")
        if i in already and r.status in ("unchecked",):
            row["status"], row["reason"] = "done", already[i]
        elif i in already and r.status in ("partly", "not_done", "wrong"):
            # The operation found the clause already doing it ("Excite wants its window back": Excite holds the
            # right) and changed nothing; the check reads the same words otherwise. Neither is claimed: the
            # lawyer reads it.
            row["status"] = "unchecked"
            row["reason"] = f"Not checked: {already[i]} The check reads it otherwise: {r.reason}"
        out.append(row)
    return out


def _figure_gone(part: Part, clause: str, draft: str) -> bool:
    """Whether the figure a part names is, in any unit, in the clause and nowhere in the draft ("1 year" and
    the clause's "12 months", now 24): it did not stay. (Said in the clause's own unit, the check counts it.)"""
    from index_builder.reading import figures as F

    value, unit = part.params.get("value" if part.kind == "period" else "amount"), part.params.get("unit", "")
    if value is None:
        return False
    of_kind = F.periods if part.kind == "period" else F.amounts
    named = F.periods(f"{value} {unit}") if part.kind == "period" else \
        F.amounts(F.format_amount(value, currency=part.params.get("currency")))
    held = [f for f in of_kind(clause) if any(same_size(n, f) for n in named)]
    return bool(held) and not any(same_size(n, f) for n in named for f in of_kind(draft))


def _instruction_from_parts(checks: list[CheckResult], parts: list[dict[str, Any]]) -> list[CheckResult]:
    """The instruction check says what the parts say: a part nobody did is not done, whatever a check
    could read of it (so the draft is never marked as doing what was asked when it did not)."""
    left = [p for p in parts if p["status"] in ("not_done", "partly", "wrong")]
    if not left:
        return checks
    line = _line(parts)
    out = []
    for c in checks:
        # (A check failed on the parts is said again as the account says them; one failed for a reason of
        # its own, a party renamed in one place only, keeps its words.)
        if c.name == "instruction" and (c.passed is not False or c.reason.startswith(("Done:", "Not done:"))):
            reasons = " ".join(dict.fromkeys(p["reason"] for p in left))
            c = CheckResult("instruction", False, f"{line} {reasons}".strip())
        out.append(c)
    return out


def _line(parts: list[dict[str, Any]]) -> str:
    """"Done: 24 months. Not done: mutual. Not checked (read it): 1 year.", as the account's rows say."""
    said = (("Done", ("done",)), ("Not done", ("not_done", "partly", "wrong")), ("Not checked (read it)", ("unchecked",)))
    return " ".join(f"{head}: {'; '.join(labels)}." for head, labels in
                    ((h, [p["label"] for p in parts if p["status"] in st]) for h, st in said) if labels)


def _eased(checks: list[CheckResult], parts: list[dict[str, Any]], task: DraftTask, ins: Instruction,
           draft: str) -> list[CheckResult]:
    """Where the only parts the instruction check failed are ones the operation found already done (the
    account now says "not checked"), the instruction check says the same, and the "changed" check, which
    fails a nearly unchanged draft only when the instruction check fails, follows it."""
    if any(p["status"] in ("not_done", "partly", "wrong") for p in parts):
        return checks
    ours = next((c for c in checks if c.name == "instruction"), None)
    if ours is None or ours.passed is not False or not ours.reason.startswith(("Done:", "Not done:")):
        return checks  # failed for a reason of its own (a party renamed in one place only)
    instruction = not_checked("instruction", _line(parts))
    return [instruction if c.name == "instruction" else
            check_changed(task, ins, draft, instruction) if c.name == "changed" and c.passed is False else c
            for c in checks]


def _declined_message(ins: Instruction, why: dict[int, str]) -> str:
    reasons = [why[i] for i in sorted(why) if ins.parts[i].kind in OPERATION_KINDS]
    if reasons:
        return " ".join(dict.fromkeys(reasons))
    return f"No drafting operation does this instruction; without the assistant you can {WITHOUT_MODEL}."


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)
