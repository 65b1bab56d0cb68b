"""Every number in a draft has a source (the additions and meaning checks, for numbers).

A careful lawyer accepts no number in a draft that neither the clause, the instruction, the lawyer's
document nor a cited precedent gives, and no number of the clause changed in value where the
instruction does not ask for that change. "Number" here is every number the core reads
(``figures.mentions``): figures, dates and their years, and counts ("130,300 Pin Codes", "by
fifty-two"). The figure checks of compare.py already hold periods, amounts, percentages and
multiples to account; this adds what they do not read (dates, counts) and, beside an instruction
part the checks could not read, any number that part cannot have asked for because the instruction
writes its value nowhere.

A number the instruction may have had worked out (an escalation "3% a year", "halve the cap", dates
that "follow" a new term) is said, not failed: the core cannot prove arithmetic.
"""

from __future__ import annotations

import re
from typing import Iterable

from index_builder.reading import figures as F

from addin_server.draft.checks_base import CheckResult, DraftTask, first_and_more, not_checked
from addin_server.draft.compare_base import Allowances, Comparison

_FIGURE_KINDS = ("period", "amount", "percentage", "multiple")
# Words by which an instruction asks for a number worked out rather than written: a change "by" an
# amount, a rate a year, a multiple or fraction of the old figure, figures that follow or match another.
_WORKED_OUT = re.compile(
    r"\b(?:increase|decrease|reduce|raise|lower|extend|shorten|cut|bump|adjust)\w*\b[^.;]{0,40}\bby\b|"
    r"%[^.;]{0,20}\b(?:a|per|each|every)\s+(?:year|annum|month|quarter)\b|\bper\s+annum\b|\bannually\b|"
    r"\bescalat\w*|\bindex(?:ed|ation|ing)\b|\bdoubl\w*|\bhalv\w*|\bhalf\b|\btwice\b|\btriple\w*|\bpro[\s-]?rat\w*|"
    r"\b(?:to|must|should|will|shall|can)\s+follow\b|\bfollows?\s+suit\b|\bin\s+line\b|"
    r"\bconsistent\b|\baccordingly\b|\bto\s+match\b|\brecalculat\w*|\bwork(?:ed)?\s+out\b|\bcompound\w*", re.I)


def numbers(task: DraftTask, comparison: Comparison, allow: Allowances, additions: CheckResult,
            meaning: CheckResult) -> tuple[CheckResult, CheckResult]:
    """The additions and meaning checks with the draft's numbers held to their sources: a clause number
    changed in value that the instruction does not name fails ``meaning``; a number with no source
    and nothing it replaces fails ``additions``; one the instruction may have had worked out is said
    ("not checked"). A check that already failed keeps its reason."""
    asked, mine, theirs = (F.mentions(t) for t in (task.instruction, comparison.clause, comparison.draft))
    sources = _keys(asked) | _keys(mine) | _keys(F.mentions(allow.cited_text)) | \
        _keys(F.mentions(named_precedents(task))) | \
        _keys(F.mentions(" ; ".join((task.document_terms or ()) + task.document_parties)))
    # A year the instruction writes alone ("run it to 2030") may be worked into a date.
    years = _keys(m for m in asked if m.kind == "count")
    worked_out = bool(_WORKED_OUT.search(task.instruction))
    lost = _lost(comparison, allow, mine, theirs, sources)
    changed, added, said = [], [], []
    for m in theirs:
        if F.number_keys(m) & sources or not _ours(m, additions, meaning):
            continue
        old = _replaced(m, comparison, lost, allow)
        if old is not None:
            lost.remove(old)  # each clause number stands for one draft number, in order ("13-24" to "19-30")
        if old is None and m.kind == "count" and m.written == "words" and m.value <= 10:
            continue  # a rewording counts the clause's own things: "there are two exceptions", "the two parties"
        if worked_out or m.kind == "date" and F.date_year(m) & years or old is not None and _knock_on(old, m, allow):
            said.append(f"the draft writes “{m.text}”" + (f" where your clause has “{old.text}”" if old else ""))
        elif old is not None:
            changed.append(f"The draft changes “{old.text}” to “{m.text}”, which your instruction does not ask for.")
        elif not allow.conform or m.kind == "date":
            added.append(f"The draft adds “{m.text}”, which neither your clause, your instruction nor a cited "
                         "precedent gives.")
    if changed and meaning.passed is not False:
        meaning = CheckResult("meaning", False, _joined(changed))
    elif said and meaning.passed is True:
        meaning = not_checked("meaning", f"Not checked: {said[0]}, which your instruction may have had worked "
                                         "out; check the arithmetic.")
    if added and additions.passed is not False:
        additions = CheckResult("additions", False, _joined(added))
    return additions, meaning


def _lost(c: Comparison, allow: Allowances, mine: list[F.Figure], theirs: list[F.Figure],
          sources: set[tuple[str, float]]) -> list[F.Figure]:
    """The clause numbers the draft no longer writes, outside what the instruction deletes, less those a
    value the instruction or a precedent gives stands in for (the asked change: "three (3)" markets became
    the asked "four (4)", and is not there to pair with an unsourced number beside it)."""
    draft_keys = _keys(theirs)
    lost = [m for m in mine if not F.number_keys(m) & draft_keys and not any(s <= m.start < e for s, e in allow.delete)]
    clause_keys = _keys(mine)
    for m in theirs:
        keys = F.number_keys(m)
        if keys & sources and not keys & clause_keys:
            old = _replaced(m, c, lost, allow)
            if old is not None and old.kind == m.kind:
                lost.remove(old)
    return lost


def _ours(m: F.Figure, additions: CheckResult, meaning: CheckResult) -> bool:
    """Dates and counts are read here alone; a figure compare.py reads is held here only where the checks
    stood aside (an unread part of the instruction), since an unread part names no value it does not write."""
    if m.kind not in _FIGURE_KINDS:
        return True
    return additions.passed is None and meaning.passed is None


def _replaced(m: F.Figure, c: Comparison, lost: list[F.Figure], allow: Allowances) -> F.Figure | None:
    """The clause number ``m`` stands in place of: one the draft no longer writes, in the same edit (in a
    rewording, of the same kind anywhere), and not one the instruction asks to change."""
    here = [r for r in c.regions if r.new_start < m.end and m.start < max(r.new_end, r.new_start + 1)]
    near = [o for o in lost for r in here if r.old_start < o.end and o.start < max(r.old_end, r.old_start + 1)]
    if not near and c.rewritten:
        near = [o for o in lost if o.kind == m.kind]
    near = [o for o in near if not any(o.kind == a.kind and abs(o.value - a.value) < 1e-9 for a in allow.old_figures)]
    same = [o for o in near if o.kind == m.kind]
    return (same or near or [None])[0]


def _knock_on(old: F.Figure, new: F.Figure, allow: Allowances) -> bool:
    """A clause number moved by the very step the instruction asks of another ("the first 18 months", not
    12; "months 13-24" then become "19-30"): worked out from the ask, not proved by the core."""
    steps = {round(v.value - o.value, 6) for v in allow.figures for o in allow.old_figures if v.kind == o.kind}
    return round(new.value - old.value, 6) in steps


_PRECEDENT = re.compile(r"\[\s*(\d{1,2})\s*\]")


def named_precedents(task: DraftTask) -> str:
    """The precedents the instruction itself points at ("see [1]"): what it borrows from them is given."""
    named = {int(n) for n in _PRECEDENT.findall(task.instruction)}
    return "\n".join(p.text for n, p in enumerate(task.precedents, 1) if n in named)


def _keys(found: Iterable[F.Figure]) -> set[tuple[str, float]]:
    return set().union(*(F.number_keys(m) for m in found))


def _joined(found: list[str]) -> str:
    return first_and_more(list(dict.fromkeys(found)))
