"""Did the draft do each part of the instruction? One test per kind of part, in a lawyer's words.

``check_part(part, clause, draft, context)`` returns a ``PartResult``: "done", "not_done",
"partly", "wrong" (the right or duty ends with the wrong party, or the wrong value), or
"unchecked" (no test can tell: the lawyer reads it). ``targets(part, binding)`` says which of
the clause's provisions a mutual or flip part is about (its scope: "the authority sentence",
"limb (c) only", "keep the caps on Galaxy"); ``allowances`` says what the parts explain, so
that compare.py does not read an asked-for change as an unasked one.

The result model lives in parts_result.py, scope in parts_scope.py, and each kind's test in a module
named by what it checks (parts_parties.py, parts_figures.py, parts_carve_out.py, parts_terms.py,
parts_wording.py); import each name from its own module (this one re-exports none).
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading import figures as F

from addin_server.draft.compare import Allowances
from addin_server.draft.compare_base import same_figure, stem_of
from addin_server.draft.instruction import Instruction, Part
from addin_server.draft.instruction_values import figure_of
# Each kind's test, in the module named by what it checks; callers import them from there.
from addin_server.draft.parts_carve_out import carve_out_part
from addin_server.draft.parts_figures import amount_part, kept_parts, period_part, targeted_old, with_precedent_period
from addin_server.draft.parts_parties import flip_part, left_as_it_was, mutual_part
from addin_server.draft.parts_result import Context, PartResult
from addin_server.draft.parts_scope import counter_provisions, left_alone, targets
from addin_server.draft.parts_terms import conform_part, document_party_names
from addin_server.draft.parts_unread import scope as unread_scope
from addin_server.draft.parts_wording import deleted_span, delete_part, is_phrase, joined_span, plain_part, shorten_part
from addin_server.draft.verdicts import REWORDING


# --- one test per kind --------------------------------------------------------------------


def others_ask(part: Part, instruction: Instruction) -> bool:
    """Another part asks a change of the clause (any kind but an unread "other")."""
    return any(p is not part and p.kind != "other" for p in instruction.parts)

def check_part(part: Part, instruction: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    # "Not done" only where the part was read cleanly and the draft shows it (verdicts.py).
    from addin_server.draft.verdicts import gate
    return gate(raw_part(part, instruction, clause, draft, ctx), instruction, clause, draft)


def raw_part(part: Part, instruction: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    test = {"mutual": mutual_part, "flip": flip_part, "period": period_part, "amount": amount_part, "carve_out": carve_out_part,
            "conform": conform_part, "plain": plain_part, "delete": delete_part, "shorten": shorten_part}.get(part.kind)
    from addin_server.draft.unambiguous import doubt
    unsure = doubt(part, clause, ctx.parties)
    if unsure:
        # A part read more than one way is not judged on one of them: the lawyer reads it.
        return PartResult(part, "unchecked", f"Not checked: {unsure}")
    if test is None:
        from addin_server.draft.unambiguous import says_to_keep
        from addin_server.draft.parts_limbs import shown_not_done
        shown = shown_not_done(part, clause, draft)
        if shown:
            return PartResult(part, "not_done", shown)
        if _only_values_changed(part, instruction, clause, draft) and not says_to_keep(part.text) \
                and _names_something(part, ctx.parties):
            others = "; ".join(p.label() for p in instruction.parts if p is not part)
            return PartResult(part, "not_done", f"The draft changes nothing but {others}: “{part.label()}” is not "
                                                "done.")
        return PartResult(part, "unchecked", f"“{part.label()}” cannot be checked automatically; read the draft "
                                              "against it.")
    found = test(part, instruction, clause, draft, ctx)
    if part.kind in ("mutual", "flip") and found.status in ("not_done", "partly") and _reworded(clause, draft) \
            and not (found.status == "not_done" and left_as_it_was(part, clause, draft, ctx)):
        # Who a reworded sentence binds is read from words the core may not hold ("Astellas is entitled to
        # the same"): a paraphrase is not said to leave a party out on that reading; the lawyer reads it.
        return PartResult(part, "unchecked", f"Not checked: the draft rewords your clause, and whether {found.reason[0].lower()}"
                                             f"{found.reason[1:].rstrip('.')} is for you to read.")
    if found.status == "done":
        from addin_server.draft.unambiguous import doubt_done
        doubted = doubt_done(part, clause, draft, ctx.parties)
        if doubted:
            return PartResult(part, *doubted)
    # Said "done" only where the text the part names changed as it asks (done.py).
    from addin_server.draft.done import confirm
    positive = confirm(part, instruction, clause, draft, ctx.parties, found.status)
    if positive is not None:
        return PartResult(part, *positive)
    if found.status == "done":
        from addin_server.draft.guards import changed_part_to_leave, changed_what_to_leave, dangling_possessive
        wrong = changed_what_to_leave(instruction.text, clause, draft) if part.kind in ("period", "amount") else ""
        from addin_server.draft.guards import asked_places, kept_figures
        said = changed_part_to_leave(instruction.text, clause, draft,
                                     asked_places(instruction.parts, clause, kept_figures(instruction.text, clause)))
        if said and said[0] == "unchecked":
            return PartResult(part, *said)
        left = said[1] if said else ""
        if left and any(p.kind in REWORDING for p in instruction.parts):
            # "Plain English, the same two exceptions in (b)": kept in substance, reworded with the rest. Not
            # word for word is then no evidence the part was changed; the lawyer reads it.
            return PartResult(part, "unchecked", f"Not checked: {left[0].lower()}{left[1:-1]}, and your instruction also "
                                                 "asks for rewording: whether it still says the same is for you to read.")
        wrong = wrong or left
        wrong = wrong or (dangling_possessive(clause, draft) if part.kind in ("mutual", "flip", "conform") else "")
        if wrong:
            return PartResult(part, "wrong", wrong)
    return found


def _names_something(part: Part, parties: tuple[str, ...]) -> bool:
    """An unread part the draft can be shown to have left undone has words of its own: beyond figures, numbers,
    party names and words of wanting or changing. "Make it 90" or "make it two" restates a value another part
    reads, and "the death cut-off stays" asks nothing to change: a draft that changed only the values cannot
    be said to have failed them."""
    from addin_server.draft.done import LEAVE_WORDS
    from addin_server.draft.places import place_words as _words
    if LEAVE_WORDS.search(part.text):
        return False
    text = part.text
    for f in sorted(F.figures(text) + F.counts(text), key=lambda f: -f.start):
        text = text[:f.start] + " " + text[f.end:]
    return bool(_words(text, parties))


def _reworded(clause: str, draft: str) -> bool:
    from addin_server.draft.compare import compare
    return compare(clause, draft).rewritten


def _only_values_changed(part: Part, ins: Instruction, clause: str, draft: str) -> bool:
    """A part no test can read, beside parts that set a period or an amount: the draft's every edit
    is one of those values, so this part left no trace at all."""
    others = [p for p in ins.parts if p is not part]
    if not others or any(p.kind not in ("period", "amount") for p in others):
        return False
    from addin_server.draft.compare import compare
    values = [f for p in others for f in figure_of(p)]
    regions = [r for r in compare(clause, draft).regions if r.old.strip() or r.new.strip()]
    found = F.figures(draft)

    def only_the_value(r) -> bool:  # noqa: ANN001
        hits = [f for f in found for v in values
                if f.start < r.new_end and f.end > r.new_start and abs(f.value - v.value) < 1e-9]
        if not hits:
            return False
        # Words the region adds beyond the figure and what it replaced: "Within ten (10) business days
        # after a request, and only to the extent HIPAA requires" does more than set the period.
        rest = r.new
        for f in hits:
            rest = rest.replace(f.text, " ")
        added = set(re.findall(r"[a-z]{3,}", rest.lower())) - set(re.findall(r"[a-z]{3,}", r.old.lower()))
        return len(added) <= 4

    return bool(regions) and all(only_the_value(r) for r in regions)


# --- what the parts explain ---------------------------------------------------------------

def _keeps(text: str) -> bool:
    from addin_server.draft.unambiguous import says_to_keep
    return says_to_keep(text)


def _replaced_by_value(part: Part, clause: str, draft: str, claimed: Sequence[F.Figure]) -> list[F.Figure]:
    """Where the part's words point to no figure of the clause, the one clause figure of its kind the draft
    no longer has, beside the value the part asks for: the draft shows which figure it replaced. (Where the
    words do point to one, a second figure gone is a change nobody asked for: "leave the tail alone".) Which
    place was right is the part's own check; the meaning check does not say it again as a figure dropped."""
    asked = figure_of(part)
    theirs = F.figures(draft)
    if not asked or not any(same_figure(a, g) for a in asked for g in theirs):
        return []
    gone = [f for f in F.figures(clause) if f.kind == part.kind and not any(same_figure(f, g) for g in theirs)
            and not any(f.start == c.start for c in claimed)]
    alike = [f for f in gone if (f.unit or "") == (asked[0].unit or "")] or gone
    return alike if len(alike) == 1 else []


def allowances(instruction: Instruction, clause: str, draft: str, ctx: Context, cited: Sequence[int] = ()) -> Allowances:
    allow = Allowances()
    allow.words = {stem_of(w) for w in re.findall(r"[a-z]{3,}", instruction.text.lower())}
    allow.asked = " ".join(instruction.text.lower().replace("’", "'").split())
    allow.cited_text = "\n".join(ctx.precedents[n - 1] for n in cited if 1 <= n <= len(ctx.precedents))
    allow.figures += F.figures(instruction.text)  # every figure the lawyer wrote: "up to 5%", "$50,000"
    allow.kept_phrases = [p for p in binding.possessive_phrases(instruction.text)
                          if not re.search(r"['’]s?\s+(?:own\s+)?(?:benefit|option|negligence|behalf)", p)]
    mine = binding.read(clause, ctx.parties)
    for part in instruction.parts:
        if part.kind in ("period", "amount"):
            part = with_precedent_period(part, clause, ctx.precedents)
            allow.figures += figure_of(part)
            targeted = targeted_old(part, clause, part.kind, kept_parts(instruction))
            allow.old_figures += targeted or _replaced_by_value(part, clause, draft, allow.old_figures)
            if part.kind == "period" and part.params.get("old") is not None:
                allow.old_figures += [f for f in F.periods(clause) if abs(f.value - part.params["old"]) < 1e-9]
        elif part.kind in ("mutual", "flip"):
            found = targets(part, mine, clause)
            allow.targets += found
            allow.parties |= set(mine.parties)
            allow.mirror = allow.mirror or part.kind == "mutual"
            if part.kind == "flip":
                # The provisions of both parties in the sentences it is about change hands together.
                spans = {(t.start, t.end) for t in found}
                allow.targets += [p for p in mine.provisions if (p.start, p.end) in spans and p not in found]
                allow.targets += counter_provisions(part, mine, clause)
            if part.scope.leave or part.scope.leave_sentences or not others_ask(part, instruction):
                # A part that names its sentence ("the last sentence ... have eDiets acknowledge") says where
                # it acts; that the rest stays it says only where no other part asks a change there.
                allow.left_alone += left_alone(part, mine, clause, found)
        elif part.kind == "carve_out":
            allow.exception = True
            allow.words |= {stem_of(w) for p in ctx.precedents for w in re.findall(r"[a-z]{3,}", p.lower())}
        elif part.kind == "delete":
            span = deleted_span(part, clause)
            if span:
                allow.delete.append(joined_span(clause, *span) if is_phrase(span, clause) else span)
        elif part.kind == "other" and not _keeps(part.text) and unread_scope(part, clause) is not None:
            # An unread part that points at some sentences excuses changes only there (parts_unread.py).
            allow.unread_scopes += unread_scope(part, clause) or []
        elif part.kind in ("shorten", "plain", "other") and not (part.kind == "other" and _keeps(part.text)):
            # (A part that only says what stays, "nothing else should change", allows no rewording.)
            allow.rewrite = True
            allow.plain = allow.plain or part.kind == "plain"
            keep_all = re.search(r"\bkeep (?:every|all|each)\b|\bsame (?:legal )?effect\b|\bwithout (?:dropping|losing)\b",
                                 instruction.text, re.I)
            allow.drop_ok = allow.drop_ok or (part.kind == "shorten" and not keep_all)
        elif part.kind == "conform":
            allow.conform = True
            allow.drop_ok = True
            allow.renamed |= {p for p in mine.parties if p not in document_party_names(ctx)}
            # The instruction reader's mapping ("the contractor is our Provider"), the one reading of it.
            allow.renames.update(part.params.get("renames") or {})
    return allow
