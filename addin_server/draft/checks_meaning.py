"""The additions and meaning checks: nothing new that nothing asked for, and what the instruction did not
touch still means what it meant (compare.py reads the changes; these say them, or say "not checked")."""

from __future__ import annotations

import difflib
import re

from index_builder.reading import binding

from addin_server.draft import compare as C
from addin_server.draft.checks_base import MARKER, CheckResult, DraftTask, first_and_more, not_checked
from addin_server.draft.checks_base import short as _short
from addin_server.draft.citations import VerifiedRedraft
from addin_server.draft.compare_logic import logic_changes
from addin_server.draft.compare_reword import reworded_changes
from addin_server.draft.instruction import Instruction


def cited_sentences(verified: VerifiedRedraft) -> list[str]:
    return [MARKER.sub("", c.sentence).strip() for c in verified.comments]


def check_additions(comparison: C.Comparison, allow: C.Allowances, task: DraftTask, cited: list[str],
               ins: Instruction) -> CheckResult:
    found = C.additions(comparison, allow, task.document_parties, cited)
    if found:
        return CheckResult("additions", False, first_and_more(found))
    return CheckResult("additions", True, "Nothing added that your clause, your instruction or a cited precedent "
                                          "does not give.")


def check_meaning(comparison: C.Comparison, allow: C.Allowances, task: DraftTask, ins: Instruction) -> CheckResult:
    if ins.problems:
        return not_checked("meaning", "The instruction could not be read, so what it leaves alone is not known; "
                                      "read the draft.")
    from addin_server.draft.parts_keep import dropped
    lost, kept = dropped(task.instruction or ins.text, task.clause, comparison.draft, rewrite=allow.rewrite or comparison.rewritten,
                         names="conform" not in ins.kinds)
    found = C.meaning_changes(comparison, allow, task.document_parties)
    if "mutual" in ins.kinds:
        from addin_server.draft.sides import crossed_roles
        crossed = crossed_roles(task.clause, comparison.draft, binding.read(task.clause, task.document_parties))
        found = ([crossed] if crossed else []) + found
    if found:
        return CheckResult("meaning", False, first_and_more(found))
    beside = _beside_the_values(comparison, ins)
    if beside:
        # A value asked for, and other words changed beside it: no rule found them a fault, and none
        # can show they keep the meaning (a condition moved, a direction swapped): said, not passed.
        return not_checked("meaning", f"Not checked: besides the figure you asked for, the draft changes “{beside}”; "
                                      "read it.")
    if allow.rewrite or comparison.rewritten:
        # A rewording says its "not"s and conditions in other places (compare.py does not count them),
        # so finding no change is not reading none: said, not passed.
        return not_checked("meaning", "Not checked: the draft rewords your clause, and a rewording cannot be held "
                                      f"against it sentence by sentence; read it for a changed meaning.{_kept(kept)}")
    return CheckResult("meaning", True, f"What your instruction does not touch still means what it meant.{_kept(kept)}")


def kept_dropped(comparison: C.Comparison, allow: C.Allowances, task: DraftTask, ins: Instruction) -> CheckResult | None:
    """What the instruction says stays ("April 30, 2029 is not moving"), anchored in the clause and dropped by
    the draft (parts_keep.py): a failure no unread part excuses, since the lawyer named it to keep."""
    from addin_server.draft.parts_keep import dropped, reason
    if ins.problems:
        return None
    lost, _ = dropped(task.instruction or ins.text, task.clause, comparison.draft,
                      rewrite=allow.rewrite or comparison.rewritten, names="conform" not in ins.kinds)
    return CheckResult("meaning", False, reason(lost)) if lost else None


def _kept(kept: list[str]) -> str:
    return (" Kept, as your instruction says: " + "; ".join(f"“{k}”" for k in kept[:4])
            + (f" ({len(kept) - 4} more)" if len(kept) > 4 else "") + ".") if kept else ""


def check_logic(comparison: C.Comparison, allow: C.Allowances, task: DraftTask, ins: Instruction) -> CheckResult | None:
    """A condition, a "not", a limit or a hook turned round or dropped where the instruction asks nothing of
    it, read across the parties' change (compare_logic.py); None where the core reads no such change or
    cannot align clause and draft. It stands beside an unread part of the instruction: an unread part
    that asked for it would use its words, and those are excused."""
    # (An unread part may ask for a rewording too: allow.rewrite says so for it.)
    # A draft a fifth shorter than the clause is a shortening, asked in words no part reads ("60 words tops").
    shown = bool(ins.length) or any(p.kind in ("shorten", "plain") for p in ins.parts) or \
        len(comparison.draft.split()) < 0.8 * len(comparison.clause.split())
    # A duty made an option is read only where the ask or the draft itself shows a rewording, not where
    # an unread part might ask for one: that part may hand a party the choice ("so the choice is ours").
    found = logic_changes(task.clause, comparison.draft, allow, ins.text, task.document_parties,
                          shown or allow.rewrite, only_rewording=shown)
    if not found:
        # What a rewording keeps whatever its words (compare_reword.py): read where the word-by-word
        # alignment above found nothing, or could not align the two at all.
        found = reworded_changes(task.clause, comparison.draft, allow, ins.text, task.document_parties)
    if not found:
        return None
    return CheckResult("meaning", False, first_and_more(found))


def _beside_the_values(comparison: C.Comparison, ins: Instruction) -> str:
    """Where every part asks for a value (a period, an amount), the first edit that changes words other
    than figures and their units ("" where the draft changes nothing but the values)."""
    if not ins.parts or any(p.kind not in ("period", "amount") for p in ins.parts):
        return ""
    from index_builder.reading import figures as F

    def masked(text: str) -> tuple[list[str], list[str]]:
        # Each figure one token, so that "twelve (12) months" -> "eighteen (18) months" is one value changed;
        # beside the tokens, the words as written, for saying where (never the token itself).
        shown = {}
        for n, f in enumerate(sorted(F.figures(text), key=lambda f: -f.start)):
            shown[f"figurex{n}"] = f.text
            text = text[:f.start] + f" figurex{n} " + text[f.end:]
        # (A unit word outside a figure counts: "each month" -> "each year" changes how the period runs.)
        words = [w for w in re.findall(r"[a-z]{3,}\d*", text.lower()) if w not in C.STOP]
        return ["figurex" if w in shown else w for w in words], [shown.get(w, w) for w in words]

    (old, old_shown), (new, new_shown) = masked(comparison.clause), masked(comparison.draft)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal" and sorted(w for w in old[i1:i2] if w != "figurex") != sorted(
                w for w in new[j1:j2] if w != "figurex"):
            return _short(" ".join(new_shown[j1:j2]) or " ".join(old_shown[i1:i2]), 70)
    return ""


