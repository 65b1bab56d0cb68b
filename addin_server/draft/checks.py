"""Run-time checks on a draft: did it do what was asked, and nothing else, and is what it cites real?

One implementation for the API (every redraft), the pane (through the API) and the workbench
(`precedent-bench drafting`, which builds the request /redraft receives and scores the answers
against its labels outside this code). ``run_checks(task, answer)`` takes what was asked
(``DraftTask``: the lawyer's clause, the instruction, the precedents, the document's parties
and terms — nothing else) and the raw draft, and returns one ``CheckResult`` per check, each
with a reason a lawyer reads; ``passed`` is None where a check does not apply.

* changed: the draft is not the clause again;
* instruction: each part of the instruction, done or not (parts.py), said part by part;
* markers, quotations, support: every citation names a precedent given, every quotation is in
  it, every cited sentence is backed by it (a faithful paraphrase is; a changed meaning is not);
* additions: nothing new — an amount, a period, an obligation, a right, a condition — that the
  clause, the instruction or a cited precedent does not give;
* meaning: nothing the instruction did not touch now means something else;
* defined_terms: no term the lawyer's document does not have;
* length: as long as the instruction allows.
"""

from __future__ import annotations

import dataclasses
import re
import time
from typing import Any, Callable, Sequence

from index_builder.reading import binding

from addin_server.draft import compare as C
from addin_server.draft.compare_roles import polarity_changes
from addin_server.draft.checks_base import (MARKER, CHECK_NAMES, NEARLY_SAME, Checked, CheckResult, DraftTask,
                                            not_checked, similarity)
from addin_server.draft.checks_base import short as _short
from addin_server.draft.checks_numbers import named_precedents, numbers
from addin_server.draft.checks_meaning import check_additions, cited_sentences, check_logic, check_meaning, kept_dropped
from addin_server.draft.checks_support import added_elsewhere, check_support  # noqa: F401 (tests read added_elsewhere)
from addin_server.draft.checks_terms import check_defined_terms, lacking_terms, term_added
from addin_server.draft.citations import VerifiedRedraft, verify
from addin_server.draft.compare_additions import only_unsure
from addin_server.draft.instruction import Instruction, Part, read_instruction
from addin_server.draft.lengths import length_problem, word_count
from addin_server.draft.instruction_words import ARCHAIC
from addin_server.draft.parts import allowances, raw_part
from addin_server.draft.parts_result import PartResult
from addin_server.draft.parts_terms import renamed_in_part
from addin_server.draft.parts_unread import could_turn, excused_clause, names_none, renamed_clause
from addin_server.draft.verdicts import gate, settle
from addin_server.draft.parts_unread import scope as unread_scope


def run_checks(task: DraftTask, answer: str, verified: VerifiedRedraft | None = None,
               timings: dict[str, float] | None = None) -> list[CheckResult]:
    """Every check on one draft (see ``check_draft`` for the parts too)."""
    return check_draft(task, answer, verified, timings).checks


def check_draft(task: DraftTask, answer: str, verified: VerifiedRedraft | None = None,
                timings: dict[str, float] | None = None, instruction: Instruction | None = None) -> Checked:
    """Every check on one draft; ``verified`` reuses a citation check already made; ``timings``
    (when given) receives each check's milliseconds."""
    clock = _Clock(timings)
    ins = instruction or read_instruction(task.instruction, task.clause, task.document_parties)
    clock.lap("read_instruction")
    verified = verified or verify(answer, task.precedents, task.clause, asked=task.instruction)
    clock.lap("verify")  # 0 in the API: the redraft's own citation check is reused
    draft = MARKER.sub("", verified.text).strip()
    ctx = task.context()
    # The instruction check says "not done" only where the part was read cleanly and the draft shows it, and
    # not for parts that disagree among themselves (verdicts.py). What the other checks excuse as unread is
    # what the kinds' tests could not read (``read``): the gate speaks for the instruction check alone.
    read = [raw_part(p, ins, task.clause, draft, ctx) for p in ins.parts]
    parts = settle([gate(r, ins, task.clause, draft) for r in read])
    clock.lap("parts")
    allow = allowances(ins, task.clause, draft, ctx, verified.cited)
    # An unread part that points at some sentences may still have asked for any change: read as before,
    # as a rewording of the whole clause (``whole``); ``_scoped`` then holds the rest of it to account.
    whole = dataclasses.replace(allow, rewrite=allow.rewrite or bool(allow.unread_scopes), unread_scopes=[])
    comparison = C.compare(task.clause, draft)
    cited = cited_sentences(verified)
    instruction_result = _half_renamed(task, draft, _instruction(ins, parts))
    # A part the checks could not read may ask for what the draft adds or changes: what the
    # instruction leaves alone is then not known, and a difference is not a fault (unambiguous.py).
    unread = [p for p in read if p.status == "unchecked" and _open_ended(p.part, task.clause, task.document_parties)]
    # What the instruction borrows from a precedent it names ("as [1] (C) does") is given, cited in the draft
    # or not (the numbers check reads them so too); whether a citation is owed is the support check's.
    given = "\n".join(t for t in (whole.cited_text, named_precedents(task)) if t)
    borrowed = dataclasses.replace(whole, cited_text=given)
    found_added = clock.time("additions", check_additions, comparison, borrowed, task, cited, ins)
    additions = _unnamed_provision(comparison, borrowed, task, cited, unread, found_added) or \
        _unless_unread(found_added, [p.part.label() for p in unread])
    found = clock.time("meaning", check_meaning, comparison, whole, task, ins)
    meaning = _with_logic(_turned(comparison, whole, task, unread, found) or
                          _unless_unread(found, [p.part.label() for p in unread]),
                          lambda: check_logic(comparison, whole, task, ins))
    if allow.unread_scopes:
        additions, meaning = _scoped(task, ins, draft, allow, unread, cited, additions, meaning)
    meaning = _renamed(task, ins, draft, verified.cited, unread, meaning)
    additions, meaning = numbers(task, comparison, allow, additions, meaning)  # every number has a source
    # What the lawyer named to keep and the draft dropped says it in those words, over any other reason.
    meaning = kept_dropped(comparison, whole, task, ins) or meaning
    if additions.passed is True and only_unsure(comparison, borrowed, cited):
        additions = not_checked("additions", "Not checked: the draft adds an “only” your instruction's own “only” may "
                                             "ask for; read where it stands.")
    if additions.passed is True:
        # A term the document lacks, brought in by words the draft adds: an addition first (checks_terms.py).
        # A name the clause writes word for word ("Official Wings of the Jacksonville Jaguars") is the clause's,
        # however the term reader takes it: words that repeat it bring nothing in. A name the draft defines where
        # it stands ('... without using the Company's resources ("Prior IP")') labels the words before it, which
        # the additions readers above judged: the label brings in nothing more (the defined-terms check names it).
        lacking = [t for t in lacking_terms(task, draft, "conform" in ins.kinds)
                   if not re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", task.clause)
                   and not re.search(rf"\(\s*(?:the\s+)?[\"“]{re.escape(t)}[\"”]\s*\)", draft)]
        additions = term_added(task, draft, comparison.regions, lacking, cited) or additions
    results = [
        clock.time("changed", check_changed, task, ins, draft, instruction_result),
        instruction_result,
        clock.time("markers", _markers, verified, answer),
        clock.time("quotations", _quotations, verified),
        clock.time("support", check_support, verified, task.precedents, task.clause, ins, whole),
        additions,
        meaning,
        clock.time("defined_terms", check_defined_terms, task, ins, draft),
        clock.time("length", _length, ins, task, draft),
    ]
    return Checked(results, parts)


def _scoped(task: DraftTask, ins: Instruction, draft: str, allow: C.Allowances, unread: list[PartResult],
            cited: list[str], additions: CheckResult, meaning: CheckResult) -> tuple[CheckResult, CheckResult]:
    """The additions and meaning checks with each unread part excused only in the sentences it points at
    (parts_unread.py): those sentences are compared as the draft has them, the rest as the clause has
    them. A fault found in the rest fails the check; finding none there keeps the whole-clause answer
    ("not checked"), since the pointed sentences themselves were not read."""
    excused = dataclasses.replace(task, clause=excused_clause(task.clause, draft, allow.unread_scopes))
    comparison = C.compare(excused.clause, draft)
    rest = [p.part.label() for p in unread if not (p.part.kind == "other" and unread_scope(p.part, task.clause))]
    if additions.passed is not False:
        found = _unless_unread(check_additions(comparison, allow, task, cited, ins), rest)
        additions = found if found.passed is False else additions
    if meaning.passed is not False:
        found = _with_logic(_unless_unread(check_meaning(comparison, allow, excused, ins), rest),
                            lambda: check_logic(comparison, allow, excused, ins))
        meaning = found if found.passed is False else meaning
    return additions, meaning


def _turned(comparison: C.Comparison, allow: C.Allowances, task: DraftTask, unread: list[PartResult],
            found: CheckResult) -> CheckResult | None:
    """A promise turned round (compare_roles.py) that no unread part has the words to ask for: it fails the
    meaning check though other parts were not read (parts_unread.could_turn). None where none is found."""
    if found.passed is not False or not unread:
        return None
    for said in polarity_changes(comparison, allow, task.document_parties):
        phrases = re.findall(r"“([^”]*)”", said)
        if len(phrases) == 2 and not could_turn([p.part for p in unread], phrases[1], phrases[0]):
            return CheckResult("meaning", False, said)
    return None


def _unnamed_provision(comparison: C.Comparison, allow: C.Allowances, task: DraftTask, cited: list[str],
                       unread: list[PartResult], found: CheckResult) -> CheckResult | None:
    """A new obligation or right the draft adds that no unread part names: a lawyer who asks for one says what
    it is about ("the vendor should reimburse the audit"), so an ask none of whose words the new provision
    uses (party names aside) cannot have asked for it. None where every addition may have been asked."""
    if found.passed is not False or not unread:
        return None
    for said in C.additions(comparison, allow, task.document_parties, cited):
        m = re.search(r"adds a new (?:obligation|right): “([^”]*)”", said)
        if m and names_none([p.part for p in unread], m.group(1), binding.party_names(task.clause, task.document_parties)):
            return CheckResult("additions", False, said)
    return None


def _renamed(task: DraftTask, ins: Instruction, draft: str, cited: Sequence[int], unread: list[PartResult],
             meaning: CheckResult) -> CheckResult:
    """The meaning check against the clause with the names unread parts swap swapped (parts_unread.py),
    read as if those parts were not there: a swap of names excuses those names, never the rest of the
    sentence they stand in ("may" -> "must"). Only a fault found fails it; finding none keeps the answer."""
    swapping = [p.part for p in unread if renamed_clause([p.part], task.clause, draft) is not None]
    renamed = renamed_clause(swapping, task.clause, draft) if meaning.passed is not False else None
    if renamed is None:
        return meaning
    task = dataclasses.replace(task, clause=renamed)
    ins = dataclasses.replace(ins, parts=tuple(p for p in ins.parts if p not in swapping))
    allow = allowances(ins, renamed, draft, task.context(), cited)
    rest = [p.part.label() for p in unread if p.part not in swapping]
    found = _unless_unread(check_meaning(C.compare(renamed, draft), allow, task, ins), rest)
    return found if found.passed is False else meaning


class _Clock:
    def __init__(self, timings: dict[str, float] | None) -> None:
        self.timings = timings
        self.last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        if self.timings is not None:
            self.timings[name] = (now - self.last) * 1000
        self.last = now

    def time(self, name: str, check: Callable[..., CheckResult], *args: Any) -> CheckResult:
        self.last = time.perf_counter()
        result = check(*args)
        self.lap(name)
        return result


def _open_ended(part: Part, clause: str, parties: tuple[str, ...] = ()) -> bool:
    """A part that, unread, may ask for the change found: one no kind reads that names a party or a value,
    one read more than one way, or a figure whose value was not read. (An unread "mutual" asks for no new
    figure or condition.)"""
    from addin_server.draft.unambiguous import doubt, names_a_value
    if part.kind == "other":
        # An ask no kind reads, that names a party of the clause or a value, may move a right or set a figure.
        # So does one that counts things or says the figures should follow ("the instalments have to follow,
        # all six of them"): the figures it moves are worked out, not given.
        return bool(names_a_value(part.text)) or bool(_FOLLOWS.search(part.text)) or \
            any(binding.uses(part.text, n) for n in binding.party_names(clause, parties))
    return bool(doubt(part, clause, parties)) or part.kind in ("period", "amount")


_FOLLOWS = re.compile(r"\b(?:have|has|must|should|need|needs)\s+to\s+follow\b|"
                      r"\b(?:all|each|both)\s+(?:two|three|four|five|six|seven|eight|nine|ten|\d+)\s+of\s+them\b", re.I)


def _unless_unread(result: CheckResult, unread: list[str]) -> CheckResult:
    """A difference found beside a part of the instruction that could not be read: said, not failed."""
    if result.passed is not False or not unread:
        return result
    return not_checked(result.name, f"Not checked: {result.reason} Your instruction's “{'; '.join(unread)}” could not "
                                    "be read, and it may ask for this; read the draft.")


def _with_logic(meaning: CheckResult, logic: Callable[[], CheckResult | None]) -> CheckResult:
    """The meaning check, or the logic it missed: a condition turned round fails it even where the rest
    could not be read (a flip or mutual draft reworded around the parties)."""
    if meaning.passed is False:
        return meaning
    return logic() or meaning


def failed(results: list[CheckResult]) -> list[CheckResult]:
    return [r for r in results if r.passed is False]


# --- one function per check ---------------------------------------------------------------

def check_changed(task: DraftTask, ins: Instruction, draft: str, instruction: CheckResult) -> CheckResult:
    if ins.kind == "none":
        return CheckResult("changed", None, "No instruction was given.")
    same = similarity(task.clause, draft)
    # A small change is what "make it 15 days" asks for: nearly unchanged is a failure only
    # where the instruction's own check does not pass.
    if same == 1:
        return CheckResult("changed", False, "The draft is the same as your clause word for word: the instruction "
                                             "was not carried out.")
    if same >= NEARLY_SAME and instruction.passed is False:
        # A word or two did change: some of the instruction may be done ("Done: 45 days. Not done: 10
        # days."), so this says what the instruction check says, not that nothing was done.
        return CheckResult("changed", False, "The draft changes only a word or two of your clause: not all of the "
                                             "instruction was carried out (see what was and was not done).")
    if same >= NEARLY_SAME and instruction.passed is None:
        # A word or two may be all that was asked: with the instruction not checked, neither is this.
        return not_checked("changed", "Not checked: the draft changes a word or two of your clause, and whether "
                                      "that is all you asked is for you to read.")
    return CheckResult("changed", True, "The draft changes your clause.")


def parts_line(parts: Sequence[PartResult]) -> str:
    """"Done: mutual; six (6) months. Not done: carve-out for general job ads." """
    done = [p.part.label() for p in parts if p.status == "done"]
    not_done = [p.part.label() for p in parts if p.failed]
    unchecked = [p.part.label() for p in parts if p.status == "unchecked"]
    out = []
    if done:
        out.append("Done: " + "; ".join(done) + ".")
    if not_done:
        out.append("Not done: " + "; ".join(not_done) + ".")
    if unchecked:
        out.append("Not checked (read it): " + "; ".join(unchecked) + ".")
    return " ".join(out)


def _half_renamed(task: DraftTask, draft: str, result: CheckResult) -> CheckResult:
    """A draft that carries the clause into the lawyer's document and renames a party in one place but
    not another fails the instruction whatever the instruction's parts were read as: the draft shows
    the conform unfinished on its own (parts_terms.renamed_in_part)."""
    if result.passed is False:
        return result
    reason = renamed_in_part(task.clause, draft, task.context())
    return CheckResult("instruction", False, reason) if reason else result


def _instruction(ins: Instruction, parts: Sequence[PartResult]) -> CheckResult:
    if ins.problems:
        return not_checked("instruction", ins.reason)
    if not parts:
        if ins.text:
            return not_checked("instruction", "This instruction cannot be checked automatically; read the draft "
                                              "against it.")
        return CheckResult("instruction", None, "No instruction was given.")
    bad = [p for p in parts if p.failed]
    if bad:
        reasons = " ".join(dict.fromkeys(p.reason for p in bad))
        return CheckResult("instruction", False, (parts_line(parts) + " " + reasons).strip())
    if any(p.status == "unchecked" for p in parts):
        # Some part could not be read on the draft: the draft is not shown as doing what was asked.
        return not_checked("instruction", parts_line(parts))
    return CheckResult("instruction", True, parts_line(parts))


_ODD_MARKER = re.compile(r"\[\s+\d+\s*\]|\[\d+\s+\]|\[\s*\d+\s*[,;-]\s*\d+\s*\]|\(\s*\d+\s*\)(?=\s*[.;]?\s*$)")


def _markers(verified: VerifiedRedraft, answer: str = "") -> CheckResult:
    bad = [p for p in verified.problems if p.get("reason") in ("names no precedent that was given",)
           or "malformed" in p.get("reason", "") or "form no one can check" in p.get("reason", "")]
    if bad or verified.removed_markers:
        marker = bad[0].get("marker") if bad else verified.removed_markers[0]
        return CheckResult("markers", False, f"The draft cited {marker}, which is not one of the precedents given "
                                             "(or is not a citation anyone can check); the citation was removed.")
    odd = [m.group(0) for m in re.finditer(r"\[[^\]\n]{1,12}\]", answer)
           if re.fullmatch(r"\[\s*\d+\s*\]", m.group(0)) and not re.fullmatch(r"\[\d+\]", m.group(0))]
    if odd:
        return CheckResult("markers", False, f"The draft writes a citation as “{odd[0]}”, which is not a citation "
                                             "marker anyone can rely on; it was read as the precedent it names.")
    if not verified.cited:
        return CheckResult("markers", None, "The draft cites no precedent.")
    return CheckResult("markers", True, "Every citation names a precedent that was given.")


def _quotations(verified: VerifiedRedraft) -> CheckResult:
    bad = [p for p in verified.problems if p.get("quote")]
    if bad:
        return CheckResult("quotations", False, f"“{_short(bad[0]['quote'])}” was shown as a quotation but is not in "
                                                "the precedent it cites.")
    return CheckResult("quotations", True if verified.cited else None,
                       "No quotation the precedents do not contain.")


def _length(ins: Instruction, task: DraftTask, draft: str) -> CheckResult:
    if not ins.length:
        return CheckResult("length", None, "No length was asked for.")
    problem = length_problem(ins.length, task.clause, draft)
    if problem:
        return CheckResult("length", False, problem)
    mine, theirs = word_count(task.clause), word_count(draft)
    return CheckResult("length", True, f"The draft is {theirs / max(mine, 1):.0%} of your clause's length.")



__all__ = ["ARCHAIC", "CHECK_NAMES", "CheckResult", "Checked", "DraftTask", "check_draft", "failed", "not_checked",
           "parts_line", "run_checks", "similarity"]
