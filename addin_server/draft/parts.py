"""Did the draft do each part of the instruction? One test per kind of part, in a lawyer's words.

``check_part(part, clause, draft, context)`` returns a ``PartResult``: "done", "not_done",
"partly", "wrong" (the right or duty ends with the wrong party, or the wrong value), or
"unchecked" (no test can tell: the lawyer reads it). ``targets(part, binding)`` says which of
the clause's provisions a mutual or flip part is about (its scope: "the authority sentence",
"limb (c) only", "keep the caps on Galaxy"); ``allowances`` says what the parts explain, so
that compare.py does not read an asked-for change as an unasked one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading import figures as F
from index_builder.reading.binding import MUTUAL, Binding, Provision
from index_builder.reading.defined_terms import used_terms
from index_builder.reading.sentences import part_spans, sentence_spans

from addin_server.draft.compare import Allowances, Comparison
from addin_server.draft.instruction import ARCHAIC, Instruction, Part
from addin_server.draft.sides import half_mirrored, one_party_terms, untouched

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


# --- scope --------------------------------------------------------------------------------

def targets(part: Part, read: Binding, text: str) -> list[Provision]:
    """The clause's provisions a mutual or flip part is about."""
    if part.kind == "mutual":
        pool = read.one_sided() or [p for p in read.provisions if p.bound not in ("", MUTUAL)]
    elif part.kind == "flip":
        other, holder = part.params.get("other"), part.params.get("holder")
        pool = [p for p in read.provisions if p.bound == other] or read.one_sided()
        if re.search(r"\bprotect|\blimit|\bcap\b", part.text, re.I):
            # "These limits should protect Dolphin rather than DGT": a restriction on Dolphin protects DGT
            # too, and moves with the rest, whatever words it uses.
            extra = [p for p in read.provisions if p.bound == holder and p.kind == "prohibition"]
            return _scoped(part, _scoped_pool(part, pool, text) + extra, text)
    else:
        return []
    return _scoped(part, _scoped_pool(part, pool, text), text)


def _scoped_pool(part: Part, pool: list[Provision], text: str) -> list[Provision]:
    if part.scope.keywords:
        hit = [p for p in pool if _mentions_any(text[p.start:p.end], part.scope.keywords)]
        return hit or pool
    return pool


def _scoped(part: Part, pool: list[Provision], text: str) -> list[Provision]:
    scope = part.scope
    sentences = sentence_spans(text)
    def sentence_no(p: Provision) -> int:
        return next((n for n, (a, b) in enumerate(sentences, 1) if a <= p.start < b), 0)
    chosen = pool
    if scope.sentences:
        last = len(sentences)
        wanted = {last if n == -1 else n for n in scope.sentences}
        chosen = [p for p in chosen if sentence_no(p) in wanted] or chosen
    if scope.leave or scope.leave_sentences:
        last = len(sentences)
        left = {last if n == -1 else n for n in scope.leave_sentences}
        kept = [p for p in chosen if not (scope.leave and _mentions_any(text[p.start:p.end], scope.leave))
                and sentence_no(p) not in left]
        chosen = kept or chosen
    return chosen


def _mentions_any(text: str, stems: Sequence[str]) -> bool:
    words = re.findall(r"[a-z]+", text.lower())
    have = set(words) | {binding._stem(w) for w in words}
    return any(any(w.startswith(s[:max(4, min(len(s), 6))]) for w in have) for s in stems if len(s) >= 3)


# --- one test per kind --------------------------------------------------------------------

def check_part(part: Part, instruction: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    test = {"mutual": _mutual, "flip": _flip, "period": _period, "amount": _amount, "carve_out": _carve_out,
            "conform": _conform, "plain": _plain, "delete": _delete, "shorten": _shorten}.get(part.kind)
    if test is None:
        if _only_values_changed(part, instruction, clause, draft):
            others = "; ".join(p.label() for p in instruction.parts if p is not part)
            return PartResult(part, "not_done", f"The draft changes nothing but {others}: “{part.label()}” is not "
                                                "done.")
        return PartResult(part, "unchecked", f"“{part.label()}” cannot be checked automatically; read the draft "
                                              "against it.")
    found = test(part, instruction, clause, draft, ctx)
    # Said "done" only where the text the part names changed as it asks (done.py).
    from addin_server.draft.done import confirm
    positive = confirm(part, instruction, clause, draft, ctx.parties, found.status)
    if positive is not None:
        return PartResult(part, *positive)
    if found.status == "done":
        from addin_server.draft.guards import changed_part_to_leave, changed_what_to_leave, dangling_possessive
        wrong = changed_what_to_leave(instruction.text, clause, draft) if part.kind in ("period", "amount") else ""
        wrong = wrong or changed_part_to_leave(instruction.text, clause, draft)
        wrong = wrong or (dangling_possessive(clause, draft) if part.kind in ("mutual", "flip", "conform") else "")
        if wrong:
            return PartResult(part, "wrong", wrong)
    return found


def _only_values_changed(part: Part, ins: Instruction, clause: str, draft: str) -> bool:
    """A part no test can read, beside parts that set a period or an amount: the draft's every edit
    is one of those values, so this part left no trace at all."""
    others = [p for p in ins.parts if p is not part]
    if not others or any(p.kind not in ("period", "amount") for p in others):
        return False
    from addin_server.draft.compare import compare
    values = [f for p in others for f in _figure_of(p)]
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


def _mutual(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    mine = binding.read(clause, ctx.parties)
    theirs = binding.read(draft, ctx.parties)
    wanted = targets(part, mine, clause)
    if not wanted:
        return PartResult(part, "unchecked", "No party in your clause is bound on its own, so whether the draft is "
                                             "mutual cannot be checked; read it.")
    ok, one, wrong, protects = [], [], [], []
    lone = {q.bound for q in theirs.one_sided()}
    for t in wanted:
        same = [q for q in theirs.provisions if binding.similar(t, q)]
        if not same and t.bound not in lone and any(q.mutual for q in theirs.provisions):
            ok.append(t)  # reworded past recognition, but nothing in the draft binds that party alone
            continue
        mutual = [q for q in same if q.mutual]
        sides = {q.bound for q in same if q.bound not in ("", MUTUAL)}
        if mutual or len(sides) >= 2:
            leftover = [o for q in mutual for o in q.others if o in mine.parties and
                        not any(o2 != o and o2 in mine.parties for q2 in mutual for o2 in q2.others)]
            if leftover:
                protects.append((t, leftover[0]))
            else:
                ok.append(t)
        elif sides and t.bound not in sides:
            wrong.append((t, next(iter(sides))))
        else:
            one.append(t)
    named = part.params.get("named")
    if named and part.scope.partial:
        # "Company should cover Contractor for Company's own negligence (limb (c) only)": done when the
        # party named now takes on the same kind of promise, and the clause's own party keeps its own.
        takes = [q for t in wanted for q in theirs.provisions if binding.similar(t, q) and q.bound in (named, MUTUAL)]
        keeps = [q for t in wanted for q in theirs.provisions if binding.similar(t, q) and q.bound in (t.bound, MUTUAL)]
        # Only one party left protected: where the mutual provision names both of the clause's parties
        # ("in the case of Distributor ..., in the case of Cisco ..."), it protects both.
        leftover = [(q, o) for q in takes if q.mutual for o in q.others if o in mine.parties
                    and not any(o2 != o and o2 in mine.parties for o2 in q.others)]
        if takes and keeps and leftover:
            q, who = leftover[0]
            return PartResult(part, "partly", f"Both parties are bound, but the draft still protects only {_the(who)} "
                                              f"(“{_phrase(draft, q)}”).")
        if takes and keeps:
            half = half_mirrored(clause, draft, mine.parties)
            if half:
                return PartResult(part, "wrong", half)
            return PartResult(part, "done", f"{_the(named)} is bound too, as asked.")
        if takes:
            return PartResult(part, "wrong", f"The draft binds {_the(named)} instead of both parties.")
        return PartResult(part, "not_done", f"The draft does not bind {_the(named)} as well.")
    if not one and not wrong and not protects:
        compound = one_party_terms(clause, draft, mine, wanted, ctx.parties)
        if compound:
            return PartResult(part, "partly", compound)
        half = half_mirrored(clause, draft, mine.parties)
        if half:
            return PartResult(part, "wrong", half)
        return PartResult(part, "done", "Binds both parties alike" + ("" if len(ok) < 2 else
                                                                      f" ({len(ok)} provisions)") + ".")
    if wrong and not ok:
        t, who = wrong[0]
        return PartResult(part, "wrong", f"The draft now binds only {_the(who)}, not both parties: "
                                         f"“{_phrase(clause, t)}” was to bind both.")
    if protects and not one and not wrong:
        t, who = protects[0]
        return PartResult(part, "partly", f"Both parties are bound, but the draft still protects only {_the(who)} "
                                          f"(“{_phrase(draft, _like(theirs, t) or t)}”).")
    t = (one or [w[0] for w in wrong] or [p[0] for p in protects])[0]
    status = "not_done" if not ok and not protects else "partly"
    return PartResult(part, status, f"The draft still binds only {_the(t.bound)} in “{_phrase(clause, t)}”.")


def _like(read: Binding, t: Provision) -> Provision | None:
    return next((q for q in read.provisions if binding.similar(t, q)), None)


def _flip(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    holder, other = part.params.get("holder"), part.params.get("other")
    if not holder or not other:
        return PartResult(part, "unchecked", "The instruction does not say clearly which party should have it; "
                                             "read the draft.")
    mine = binding.read(clause, ctx.parties)
    theirs = binding.read(draft, ctx.parties)
    wanted = targets(part, mine, clause)
    if not wanted:
        return PartResult(part, "unchecked", f"Your clause does not bind {_the(other)} in a way the checks can read; "
                                             "read the draft.")
    moved, kept, both, denied = [], [], [], []
    for t in wanted:
        same = [q for q in theirs.provisions if q.verb == t.verb or binding.similar(t, q)]
        to, frm = (holder, other) if t.bound != holder else (other, holder)
        to_holder = [q for q in same if q.bound == to and q.negated == t.negated]
        to_other = [q for q in same if q.bound == frm and q.negated == t.negated]
        refused = [q for q in same if q.bound == to and q.negated != t.negated and t.kind != "protection"]
        if refused and not to_holder:
            denied.append(t)
        elif (to_holder and to_other) or any(q.mutual for q in same):
            both.append(t)
        elif to_holder:
            moved.append(t)
        else:
            kept.append(t)
    if denied:
        return PartResult(part, "wrong", f"The draft keeps it with {_the(other)} and denies it to {_the(holder)}.")
    for c in counter_provisions(part, mine, clause):
        same = [q for q in theirs.provisions if binding.similar(c, q)]
        if same and any(q.bound == holder for q in same) and not any(q.bound == other for q in same):
            return PartResult(part, "partly", f"Only some of it moved: “{_phrase(clause, c)}” still runs from "
                                              f"{_the(holder)} to {_the(other)}.")
    if not kept and not both:
        left = [] if part.scope.partial else untouched(clause, draft, (holder, other))
        if left and moved:
            # "Switch this round": a sentence of the clause that names both parties and is word for word
            # as it was still runs the old way (it may hold no "shall" the binding reads).
            return PartResult(part, "partly", f"Only some of it moved: “{_short(left[0])}” is as it was.")
        return PartResult(part, "done", f"Given to {_the(holder)} instead of {_the(other)}.")
    if both and not kept:
        return PartResult(part, "partly", f"The draft gives it to both parties; it was to move to {_the(holder)}.")
    if moved or both:
        return PartResult(part, "partly", f"Only some of it moved: “{_phrase(clause, kept[0])}” still rests with "
                                          f"{_the(other)}.")
    return PartResult(part, "not_done", f"The draft still gives it to {_the(other)}, not {_the(holder)}.")


def _figure_of(part: Part) -> list[F.Figure]:
    if part.kind == "period" and part.params.get("value") is not None:
        return [f for f in F.periods(f"{part.params['value']} {part.params['unit']}")]
    if part.kind == "amount" and part.params.get("amount") is not None:
        return [f for f in F.amounts(F.format_amount(part.params["amount"], currency=part.params.get("currency")))]
    return []


def _unit_ok(found: F.Figure, part: Part) -> bool:
    unit = part.params.get("unit", "")
    if unit in ("business days",):
        return found.unit == "business_day"
    if unit == "calendar days":
        return found.unit == "day"
    want = {"days": "day", "weeks": "week", "months": "month", "years": "year", "hours": "hour"}.get(unit, unit)
    return found.unit == want or (want == "day" and found.unit == "day")


_CHANGE_VERBS = re.compile(r"\b(?:change|cut|reduce|extend|shorten|lengthen|raise|lower|increase|decrease|bump|"
                           r"make|instead|not|from|move|set|use|replace|minimum|need|should)\b", re.I)


def _targeted_old(part: Part, clause: str, kind: str) -> list[F.Figure]:
    """The clause's figures a period or amount part changes: the one named ("ten business days to
    five", "not 36"), else the one its words point to, else the only one of its kind and unit. A
    period of another unit is changed only when the instruction says to change one ("cut the tail
    to six months"), not when it sets a new limit ("cap any tolling at six months")."""
    found = [f for f in F.figures(clause) if f.kind == kind]
    old = part.params.get("old")
    if old is not None:
        named = [f for f in found if abs(f.value - old) < 1e-9]
        if named:
            return named
    if kind == "period":
        same_unit = [f for f in found if _unit_ok(f, part)]
        # A period of another unit is the one to change only where nothing the part quotes lies
        # elsewhere ("'Reasonable prior notice' won't do ... 15 days" is not the "five year"
        # depreciation basis), or where the part's words name it.
        from addin_server.draft.done import named_by_words, quoted_elsewhere
        other_unit = [f for f in found if _CHANGE_VERBS.search(part.text) and (
            named_by_words(part.text, clause, f, found, ()) or not quoted_elsewhere(part.text, clause, f))]
        pool = same_unit or other_unit
        new = part.params.get("value")
        if len({f.value for f in pool}) > 1 and new is not None:
            pool = [f for f in pool if abs(f.value - new) > 1e-9] or pool  # not the one that already says it
    else:
        new = part.params.get("amount") or 0
        pool = [f for f in found if f.value and 0.05 <= new / f.value <= 20] or found
    pool = _of_parties(part, clause, pool)
    from addin_server.draft.guards import kept_figures
    kept = kept_figures(part.text, clause)  # "leave the other physicians at five": never the one changed
    pool = [f for f in pool if not any(f.start == k.start for k in kept)]
    if not pool:
        return []
    if len({f.value for f in pool}) == 1:
        return pool
    from addin_server.draft.done import LEAVE_WORDS, distinctly_named
    if not LEAVE_WORDS.search(part.text):
        # One value for several places the part names each by a word of its own ("$5m per
        # occurrence and in the aggregate"): every one of them changes.
        several = distinctly_named(part.text, clause, pool)
        if len(several) >= 2:
            return several
    best = _closest_by_words(part.text, clause, pool)
    return [f for f in pool if abs(f.value - best.value) < 1e-9] if best else []


def _of_parties(part: Part, clause: str, pool: list[F.Figure]) -> list[F.Figure]:
    """Where the part names whose figure it is ("XSPA's restriction") or whose to leave ("leave Calm's
    at six"), the figures in sentences binding those parties: the core says who each binds."""
    mine, leave = part.params.get("for_parties") or (), part.params.get("leave_parties") or ()
    if not (mine or leave) or len(pool) < 2:
        return pool
    read = binding.read(clause, tuple(mine) + tuple(leave))
    spans = sentence_spans(clause)

    def bound(f: F.Figure) -> set[str]:
        a, b = next(((a, b) for a, b in spans if a <= f.start < b), (0, len(clause)))
        who = {p.bound for p in read.provisions if a <= p.start < b} - {MUTUAL, ""}
        if not who:  # "neither XSPA nor any of its affiliates shall": the party the sentence is about, named first
            first = sorted((m[0], n) for n in read.parties for m in binding._mentions(clause[a:b], n))
            who = {first[0][1]} if first else set()
        return who

    kept = [f for f in pool if not bound(f) & set(leave)]
    named = [f for f in kept if bound(f) & set(mine)]
    return named or kept


def _closest_by_words(instruction: str, clause: str, pool: Sequence[F.Figure]) -> F.Figure | None:
    """The figure whose surroundings share the instruction's words that the others' do not: the words
    just around it, else the whole list item or semicolon part it sits in ("(a) ... fails to cure a
    material breach ... following 30 days notice" for "cure period 45 days")."""
    near = _closest_in(instruction, clause, pool, lambda f: clause[max(0, f.start - 60):f.start] + " " +
                       clause[f.end:f.end + 30])
    if near is not None:
        return near
    parts = part_spans(clause)

    def own_part(f: F.Figure) -> str:
        a, b = next(((a, b) for a, b in parts if a <= f.start < b), (f.start, f.end))
        return clause[a:f.start] + " " + clause[f.end:b]
    return _closest_in(instruction, clause, pool, own_part)


def _closest_in(instruction: str, clause: str, pool: Sequence[F.Figure], around) -> F.Figure | None:
    words = set(re.findall(r"[a-z0-9]{3,}", instruction.lower())) - {"the", "and", "for", "change", "raise", "make"}
    windows = [set(re.findall(r"[a-z0-9]{3,}", around(f).lower())) for f in pool]
    common = set.intersection(*windows) if windows else set()
    # A number the instruction names ("2012 fee") points harder than a word.
    scores = [sum(2 if any(ch.isdigit() for ch in w) else 1 for w in (words & win) - common) for win in windows]
    top = max(scores, default=0)
    if top == 0 or scores.count(top) > 1:
        return None
    return pool[scores.index(top)]


def with_precedent_period(part: Part, clause: str, precedents: Sequence[str]) -> Part:
    """"Conform the period to precedent [1]": the part with that precedent's period (of the clause's unit)."""
    n = part.params.get("from_precedent")
    if part.kind != "period" or not n or part.params.get("value") is not None or not 1 <= n <= len(precedents):
        return part
    mine = F.periods(clause)
    theirs = [f for f in F.periods(precedents[n - 1]) if not mine or f.unit == mine[0].unit]
    if len({(f.value, f.unit) for f in theirs}) != 1:
        return part
    unit = {"day": "days", "business_day": "business days", "week": "weeks", "month": "months",
            "year": "years", "hour": "hours"}.get(theirs[0].unit or "", "days")
    return Part(part.kind, part.text, {**part.params, "value": int(theirs[0].value), "unit": unit}, part.scope)


def _period(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    part = with_precedent_period(part, clause, ctx.precedents)
    value, unit = part.params.get("value"), part.params.get("unit", "")
    if value is None:
        return PartResult(part, "unchecked", "The period asked for could not be read; read the draft.")
    found = F.periods(draft)
    bad = [f for f in found if f.disagree]
    if bad:
        return PartResult(part, "wrong", f"The draft says “{bad[0].text}”: the words and the figure differ.")
    hits = [f for f in found if abs(f.value - value) < 1e-9 and _unit_ok(f, part)]
    if not hits:
        near = [f for f in found if abs(f.value - value) < 1e-9]
        if near:
            return PartResult(part, "wrong", f"The draft says “{near[0].text}”, not {_number(value)} {unit}.")
        return PartResult(part, "not_done", f"The draft does not give {_number(value)} {unit} anywhere.")
    old = _targeted_old(part, clause, "period")
    left = [f for f in found for o in old[:1] if abs(f.value - o.value) < 1e-9 and f.unit == o.unit
            and not (abs(o.value - value) < 1e-9)]
    # The same period elsewhere that the part leaves alone ("leave Calm's at six") may stay: only as
    # many as the clause has beyond the ones to change.
    if old:
        kept = [f for f in F.periods(clause) if abs(f.value - old[0].value) < 1e-9 and f.unit == old[0].unit]
        targeted = [o for o in old if abs(o.value - old[0].value) < 1e-9]
        left = left[:max(0, len(left) - (len(kept) - len(targeted)))]
        if part.params.get("for_parties") or part.params.get("leave_parties"):
            # Whose period it is, read in the draft as in the clause: the new value must sit in theirs.
            theirs = _of_parties(part, draft, [f for f in found if f.unit == old[0].unit and
                                               abs(f.value - old[0].value) < 1e-9 or f in hits])
            left = [f for f in theirs if f not in hits] or left
    if left:
        return PartResult(part, "wrong", f"The draft still says “{left[0].text}” where the period was to change.")
    placed = _in_place(old, clause, found, value)
    if placed:
        return PartResult(part, "wrong", f"The draft says “{placed.text}” where {old[0].text} was to become "
                                         f"{_number(value)} {unit}: the new period is in another place.")
    return PartResult(part, "done", f"{part.label()}, as asked.")


def _in_place(old: Sequence[F.Figure], clause: str, found: Sequence[F.Figure], value: float) -> F.Figure | None:
    """Where the clause and the draft give as many periods of the changed one's unit, in the same order,
    the draft's period in the changed one's place: the one that is not the new value (two new periods
    swapped), else None."""
    if len(old) != 1:
        return None
    unit = old[0].unit
    mine = [f for f in F.periods(clause) if f.unit == unit]
    theirs = [f for f in found if f.unit == unit]
    if len(mine) < 2 or len(mine) != len(theirs):
        return None
    k = next((i for i, f in enumerate(mine) if f.start == old[0].start), None)
    if k is None or abs(theirs[k].value - value) < 1e-9:
        return None
    return theirs[k]


def _amount(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    value = part.params.get("amount")
    if value is None:
        return PartResult(part, "unchecked", "The amount asked for could not be read; read the draft.")
    found = F.amounts(draft)
    mine = F.amounts(clause)
    hits = [f for f in found if abs(f.value - value) < 1e-6 and not any(abs(f.value - m.value) < 1e-6 for m in mine
                                                                         if m.start == f.start)]
    wrong_words = [f for f in found if f.disagree]
    if wrong_words:
        return PartResult(part, "wrong", f"The draft says “{wrong_words[0].text}”: the words and the figure differ.")
    if not any(abs(f.value - value) < 1e-6 for f in found):
        other = [f for f in F.figures(draft) if abs(f.value - value) < 1e-6 or
                 abs(f.value - value / 1000 if value >= 1000 else -1) < 1e-6]
        tail = f" (it says “{other[0].text}”)" if other else ""
        return PartResult(part, "wrong" if other or len(found) > len(mine) - 1 else "not_done",
                          f"The draft does not state {part.label()}{tail}.")
    old = _targeted_old(part, clause, "amount")
    left = [f for f in found for o in old[:1] if abs(f.value - o.value) < 1e-6 and abs(o.value - value) > 1e-6]
    if old:
        # The same figure elsewhere that the part does not name ("$0.0001 par value" beside a
        # "$0.0001 per share" price) may stay: as many as the clause has beyond the ones named.
        from addin_server.draft.done import named_by_pairs
        targeted = [o for o in old if named_by_pairs(part.text, clause, o, mine, ctx.parties)] or old
        same = [m for m in mine if abs(m.value - old[0].value) < 1e-6]
        left = left[:max(0, len(left) - (len(same) - len(targeted)))]
    if left:
        return PartResult(part, "wrong", f"The draft still says “{left[0].text}” where the amount was to change.")
    del hits
    return PartResult(part, "done", f"{part.label()}, as asked.")


_CARVE_SYNONYMS = {"ads": ("advertis",), "ad": ("advertis",), "adverts": ("advertis",), "let": ("terminat", "dismiss", "releas"),
                   "go": (), "knew": ("known", "knew", "know"), "got": ("receiv", "obtain"), "combining": ("combin",),
                   "modifications": ("modif",), "developed": ("develop",), "independently": ("independ",),
                   "self-insurance": ("self-insur", "self insur"), "fraud": ("fraud",), "wilful": ("wilful", "willful"),
                   "willful": ("wilful", "willful"), "joining": ("join", "employ", "before"), "hold": ("hold", "own", "interest"),
                   # A lawyer's everyday word for the drafted one: "staff" for employees, "aimed at" for
                   # "directed to", "side" for party.
                   "staff": ("staff", "employ", "personnel", "worker"), "aimed": ("aim", "direct", "target"),
                   "side's": ("side", "party", "parties"), "side": ("side", "party", "parties"),
                   "sides": ("side", "party", "parties"), "targeted": ("target", "direct", "aim")}
_CARVE_STOP = frozenset("""claims claim information anyone someone else other others products product that which who
already from with like does the and any all for its own such made caused arising arise also carve carve-out
exclude exception usual exclusions don't doesn't not no never won't isn't aren't""".split())
_EXCEPTION_WORDS = re.compile(r"\b(?:not|no|nor|except|excluding|unless|other than|does not|do not|nothing|none|"
                              r"prevent\w*|preclude\w*|free to|"
                              r"may|permitted|allowed|exempt\w*|exclud\w*|carve\w*)\b", re.I)


def _carve_out(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    phrase = part.params.get("phrase") or ""
    if not phrase:
        named = re.search(r"\b(?:the|a|an)\s+([\w -]+?)\s+(?:carve[- ]?out|exception|exclusion)", part.text, re.I)
        phrase = named.group(1) if named else ""
    # The carve-out's words end with their sentence ("... a diversified company. Keep Passive Public
    # Holdings." asks something else) and before a pointer to where they come from ("([1])").
    phrase = re.split(r"(?<=[.;!?])\s+(?=[A-Z])", phrase)[0]
    phrase = re.split(r"\s+[-–—]+\s+(?:see|cf|as in|like|per)\b|\s*\((?:see|cf)\b", phrase, flags=re.I)[0]
    phrase = re.sub(r"\s*\(?\s*(?:\[\d+\]\s*)?\)?\s*[.;]?\s*$", "", phrase) if phrase.rstrip().endswith(("(", ")", "]")) \
        else phrase
    items = [i for i in re.split(r",\s*(?:or|and)?\s*|\s+(?:or|and)\s+", phrase) if i.strip()]
    new_text, context = _new_text(clause, draft)
    if not new_text.strip():
        return PartResult(part, "not_done", "The draft adds no carve-out.")
    if not _EXCEPTION_WORDS.search(context):
        return PartResult(part, "not_done", "The draft's additions do not read as an exception to your clause.")
    have = re.findall(r"[a-z][a-z-]+", new_text.lower())
    own = {w[:5] for w in re.findall(r"[a-z]{3,}", clause.lower())}
    wrong = _wrong_party(part, clause, new_text, ctx) or _freed_other(clause, draft, ctx)
    if wrong:
        return PartResult(part, "wrong", wrong)
    missing = []
    source = _precedent_text(part, ctx)
    readable = [i for i in items if _reads_as_phrase(i)]
    if items and not readable:
        # What the carve-out covers was not read as words to look for ("we're Licensee It's Licensor
        # who shouldn't assign ...", "60 words max keep all three"): the check abstains.
        return PartResult(part, "unchecked", "What the carve-out should cover could not be read word by word; read "
                                             "the draft against it.")
    for item in readable:
        # Names ("Qwik-Fix Pro") say where, not what: the carve-out's own words are the rest.
        wanted = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'-]+", item) if w.lower() not in _CARVE_STOP
                  and len(w) > 2 and not w[:1].isupper()]
        distinct = [w for w in wanted if w[:5] not in own]
        wanted = distinct or wanted
        if not wanted:
            continue
        hits = sum(1 for w in wanted if _in(w, have))
        if hits / len(wanted) < 0.5:
            if source and sum(1 for w in wanted if _in(w, re.findall(r"[a-z][a-z-]+", source.lower()))) / \
                    len(wanted) < 0.5:
                # The lawyer's name for it ("the passive-holding carve-out like (i) of [1]") is not the
                # precedent's wording either: the carve-out is there if the draft's new words are
                # the precedent's (three or more of them that the clause does not have).
                borrowed = {w[:5] for w in have if len(w) > 3} & {w[:5] for w in re.findall(r"[a-z]{4,}",
                                                                                        source.lower())} - own
                if len(borrowed) >= 3:
                    continue
            missing.append(item.strip())
    items = readable
    if not items or len(missing) < len([i for i in items if i.strip()]):
        if missing:
            return PartResult(part, "partly", f"The carve-out does not cover “{missing[0]}”.")
        return PartResult(part, "done", "The carve-out is added" + (f" (“{_short(phrase)}”)." if phrase else "."))
    return PartResult(part, "not_done", f"The draft does not carve out “{_short(phrase)}”.")


# A statement or an aside, not the words of a carve-out: a subject and its verb ("we're Licensee",
# "It's Licensor who", "X is the model"), a limit on length ("60 words max"), a pointer ("Use limb (i)").
_NOT_A_PHRASE = re.compile(r"\b(?:we['’]re|we['’]ve|it['’]s|i['’]m|you['’]re|they['’]re)(?!\w)|\b(?:is|are|was|were)\s+(?:the|a)\b|"
                           r"\b(?:use|keep|see|max|words?|limb)\b", re.I)


def _reads_as_phrase(item: str) -> bool:
    content = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]+", item) if w.lower() not in _CARVE_STOP and len(w) > 2]
    return bool(content) and len(content) <= 10 and not _NOT_A_PHRASE.search(item)


def _precedent_text(part: Part, ctx: Context) -> str:
    n = part.params.get("precedent")
    if n and 1 <= n <= len(ctx.precedents):
        return ctx.precedents[n - 1]
    return ""


_CONDUCT = r"(?:gross\s+)?(?:negligen\w*|misconduct|fraud\w*|breach\w*|acts?|omissions?|modifications?)"


def _wrong_party(part: Part, clause: str, new_text: str, ctx: Context) -> str:
    """A carve-out keyed to the wrong party: "Buyer's gross negligence" where the limits shelter the
    Seller; "with whom Employer had a relationship" where the lawyer said Employee's."""
    read = binding.read(clause, ctx.parties)
    named = [n for n in read.parties if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", part.text)]
    sheltered = [p.bound for p in read.provisions if p.kind in ("protection", "prohibition") and p.bound not in ("", MUTUAL)]
    wanted = named or sheltered[:1]
    if not wanted:
        return ""
    for name in read.parties:
        keyed = binding.owned_by(new_text, name, _CONDUCT) or re.search(
            rf"\bwhom\s+(?:the\s+)?{re.escape(name)}\s+(?:had|has)\b", new_text)
        if keyed and name not in wanted:
            return (f"The carve-out is keyed to {_the(name)} (“{keyed.group(0)}”), not to {_the(wanted[0])}, so it "
                    "does not do what was asked.")
    return ""


def _freed_other(clause: str, draft: str, ctx: Context) -> str:
    """An exception to a restriction frees the party the restriction binds: "Green Cross shall not
    sublicense ..., except that MacroGenics may sublicense to its Affiliates" gives the exception to
    the wrong party."""
    mine = binding.read(clause, ctx.parties)
    restricted = {p.bound for p in mine.provisions if p.kind == "prohibition"} - {MUTUAL, ""}
    if len(restricted) != 1:
        return ""
    from addin_server.draft.compare import compare
    regions = [r for r in compare(clause, draft).regions if r.new.strip()]
    theirs = binding.read(draft, ctx.parties)
    for q in theirs.provisions:
        if q.kind != "right" or q.bound in restricted or q.bound in (MUTUAL, ""):
            continue
        if any(r.new_start <= q.subject[0] < r.new_end for r in regions) and \
                re.search(r"\b(?:except|unless|other than|provided)\b", draft[max(q.start, q.subject[0] - 40):q.subject[0]], re.I):
            name = next(iter(restricted))
            return (f"The exception lets {_the(q.bound)} do it, but the restriction binds {_the(name)}: the carve-out "
                    "frees the wrong party.")
    return ""


def _in(word: str, have: Sequence[str]) -> bool:
    options = _CARVE_SYNONYMS.get(word, (word[:max(4, len(word) - 3)],))
    if not options:
        return True
    # "change" is in "unchanged", "transfer" in "non-transferable": the negated form says the same thing.
    bare = [re.sub(r"^(?:un|non-?)(?=[a-z]{4})", "", h) for h in have]
    return any(h.startswith(o) for o in options for h in list(have) + bare)


def _new_text(clause: str, draft: str) -> tuple[str, str]:
    """What the draft adds, and the sentences it sits in."""
    from addin_server.draft.compare import compare
    regions = [r for r in compare(clause, draft).regions if r.new.strip()]
    spans = sentence_spans(draft)
    around = [draft[a:b] for a, b in spans if any(a <= r.new_start < b or a < r.new_end <= b for r in regions)]
    return " ".join(r.new for r in regions), " ".join(around)


def _conform(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    renames = dict(part.params.get("renames") or {})
    theirs = document_party_names(ctx)
    foreign = [p for p in binding.party_names(clause, ()) if theirs and p not in theirs]
    foreign += [old for old in renames if old not in foreign]
    left = [p for p in foreign if re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", draft)]
    if not theirs and not renames:
        return PartResult(part, "unchecked", "Your document's parties were not sent, so conforming cannot be checked.")
    if ctx.document_terms:
        kept = kept_terms(clause, draft, set(ctx.document_terms) | theirs, ins.text)
        if kept and not left:
            return PartResult(part, "partly", f"The draft keeps “{kept[0]}” from your clause, which your document does "
                                              "not define.")
    if left:
        return PartResult(part, "partly" if len(left) < len(foreign) else "not_done",
                          f"The draft still says “{left[0]}”, which your document does not use.")
    return PartResult(part, "done", "Uses your document's parties.")


_ANCHOR = r"(?:as\s+)?(?:stated|set\s+out|set\s+forth|specified|identified|listed|shown|defined|named)\s+(?:in|on)"
_NAMES_ON = r"(?:states|sets\s+out|sets\s+forth|specifies|identifies|lists|shows|defines|names)"


def kept_terms(clause: str, draft: str, document: set[str], instruction: str = "") -> list[str]:
    """The clause's own terms a conformed draft keeps that the lawyer's document does not define. A
    term the draft ties to a part of that document ("the General Cap Amount stated on the Cover
    Page", "if the Cover Page identifies Increased Claims") is defined there, by reference."""
    from index_builder.reading.defined_terms import defined_terms, quoted_terms, same_term
    # A term the draft defines itself ('(collectively the "Release Conditions")') or the lawyer names in
    # the instruction ("we'll define Target Uptime in the SOW") is not left undefined.
    own = set(defined_terms(draft)) | set(quoted_terms(draft)) | set(re.findall(r"[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*", instruction))
    return [t for t in used_terms(clause, parts=True, singles=True) if t in draft and not anchored(t, draft, document)
            and not any(same_term(t, k) or t.lower() == k.lower() for k in document | own)]


def anchored(term: str, draft: str, document: set[str]) -> bool:
    """The draft ties ``term`` to a part of the lawyer's document (one of ``document``'s terms)."""
    parts = "|".join(re.escape(t) for t in sorted(document, key=len, reverse=True)) or "(?!)"
    return bool(re.search(rf"{re.escape(term)}\s+{_ANCHOR}\s+(?:the\s+)?(?:{parts})\b", draft) or
                re.search(rf"\b(?:{parts})\s+{_NAMES_ON}\s+(?:the\s+|any\s+)?{re.escape(term)}", draft))


def document_party_names(ctx: Context) -> set[str]:
    """The document's parties as the pane sends them; else the role words among its defined terms."""
    from index_builder.reading.parties import NEUTRAL, role_by_name
    return set(ctx.parties) or {t for t in ctx.document_terms or () if role_by_name(t) or t in NEUTRAL}


def _plain(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    left = [w for w in ARCHAIC if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", draft, re.I)]
    if left:
        return PartResult(part, "not_done", f"The draft still uses legalese (“{left[0]}”).")
    if part.params.get("legalese_only"):
        return PartResult(part, "done", "No legalese left.")
    if re.search(r"\bshall\b", draft, re.I) and re.search(r"\bshall\b", clause, re.I):
        # Plain-language drafting guides agree on this one: "must" for a duty, "will" for what happens.
        return PartResult(part, "partly", "The draft still uses “shall”; plain English says “must” or “will”.")
    # Sentences much longer than the clause's: a plain-English draft may join two short ones, or set
    # out a list, so only a clear lengthening counts.
    if _mean_sentence_words(draft) > max(1.4 * _mean_sentence_words(clause), 40):
        return PartResult(part, "partly", "The draft's sentences are longer than your clause's.")
    if _word_for_word(clause, draft):
        return PartResult(part, "not_done", "The draft keeps your clause's wording almost word for word; it was not "
                                            "rewritten in plain English.")
    return PartResult(part, "done", "In plain English: no legalese, sentences no longer than yours.")


def _word_for_word(clause: str, draft: str, at_least: float = 0.9) -> bool:
    """Whether the draft is the clause with a few words changed (figures count as one word each): a
    plain-English rewrite that is not one."""
    from difflib import SequenceMatcher
    words = lambda t: re.findall(r"[a-z]+|\d[\d,.]*", t.lower())  # noqa: E731
    a, b = words(clause), words(draft)
    return len(a) >= 8 and SequenceMatcher(None, a, b, autojunk=False).ratio() >= at_least


_QUOTED = re.compile(r"(?<!\w)[‘'\"“]([^‘’'\"“”]{1,60})[’'\"”](?!\w)")


def _delete_quoted(part: Part, clause: str, draft: str) -> PartResult | None:
    """"lose 'shall'", "strike “best efforts”": the words quoted are gone from the draft, however the
    sentence around them was reworded; None where the instruction quotes nothing the clause has."""
    quoted = [q.strip() for q in _QUOTED.findall(part.text) if q.strip()]
    count = lambda q, t: len(re.findall(rf"(?<![\w-]){re.escape(q)}(?![\w-])", t, re.I))  # noqa: E731
    quoted = [q for q in quoted if count(q, clause)]
    if not quoted:
        return None
    left = [q for q in quoted if count(q, draft) >= count(q, clause)]
    if left:
        return PartResult(part, "not_done", f"The draft still has “{left[0]}”.")
    return PartResult(part, "done", f"“{quoted[0]}” is gone.")


def _delete(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    quoted = _delete_quoted(part, clause, draft)
    if quoted is not None:
        return quoted
    span = deleted_span(part, clause)
    if span is None:
        return PartResult(part, "unchecked", f"Which words “{part.label()}” means could not be found; read the draft.")
    text = clause[span[0]:span[1]]
    named = _named_stems(part)
    if named and _is_phrase(span, clause):
        # Words named inside a sentence ("the no-bond language"): gone from the draft, the rest of
        # the sentence kept.
        left = [w for w in named if _stem_count(draft, w) >= _stem_count(clause, w)]
        if left:
            return PartResult(part, "not_done", f"The draft still has “{_short(text)}”.")
        a, b = next(((a, b) for a, b in sentence_spans(clause) if a <= span[0] < b), span)
        rest = {w[:5] for w in re.findall(r"[a-z]{4,}", (clause[a:span[0]] + " " + clause[span[1]:b]).lower())}
        have = {w[:5] for w in re.findall(r"[a-z]{4,}", draft.lower())}
        if rest and len(rest & have) / len(rest) < 0.5:
            return PartResult(part, "wrong", f"The draft drops more than “{_short(text)}”: the rest of that sentence "
                                             "is gone too.")
        return PartResult(part, "done", f"“{_short(text)}” is gone; the rest of the sentence stays.")
    stems = [w[:5] for w in re.findall(r"[a-z]{4,}", text.lower())]
    have = {w[:5] for w in re.findall(r"[a-z]{4,}", draft.lower())}
    kept = sum(1 for s in stems if s in have) / max(len(stems), 1)
    if kept > 0.6:
        return PartResult(part, "not_done", f"The draft still has “{_short(text)}”.")
    return PartResult(part, "done", f"“{_short(text)}” is gone.")


_DELETE_GENERIC = frozenset("language wording words word sentence sentences clause part parts bit bits provision "
                            "provisions reference references mention mentions text the all any every no".split())
# Where a phrase inside a sentence starts: after a comma or bracket, or at one of these words.
_PHRASE_OPENERS = re.compile(r"\b(?:without|with|including|provided|except|unless|subject to|and|or|but)\b|[,;(]")


def joined_span(clause: str, start: int, end: int) -> tuple[int, int]:
    """A phrase to drop with what joins it: "X and without Y" -> "without Y" (the "and" after it
    goes); "A, B" -> "A" (the comma before it); else the space before it."""
    after = re.match(r"\s+(?:and|or)\s+", clause[end:])
    if after:
        return start, end + after.end()
    before = re.search(r"(?:,|\s+(?:and|or))\s*$", clause[:start])
    if before:
        return before.start(), end
    return (start - 1, end) if start > 0 and clause[start - 1] == " " else (start, end)


def _named_stems(part: Part) -> list[str]:
    """The words a "drop the X" part names, less the words that only say "words" ("the no-bond language"
    names "bond")."""
    what = str(part.params.get("what") or "").lower()
    words = [w for w in re.split(r"[^a-z]+", what) if len(w) >= 3 and w not in _DELETE_GENERIC]
    return [w[:5] for w in words]


def _stem_count(text: str, stem: str) -> int:
    return sum(1 for w in re.findall(r"[a-z]+", text.lower()) if w.startswith(stem))


def _is_phrase(span: tuple[int, int], clause: str) -> bool:
    return not any(a == span[0] and b == span[1] for a, b in part_spans(clause))


def deleted_span(part: Part, clause: str) -> tuple[int, int] | None:
    """The clause words a "drop the X" part names: the words themselves where they are a phrase inside
    a sentence ("without the need to post a bond"), else the sentence part sharing most of its words."""
    named = _named_stems(part)
    if len(named) == 1:
        phrase = _phrase_around(clause, named[0])
        if phrase:
            return phrase
    what = [w[:5] for w in re.findall(r"[a-z]{4,}", str(part.params.get("what") or "").lower())
            if w not in _DELETE_GENERIC]
    if not what:
        return None
    best, score = None, 0
    for a, b in part_spans(clause):
        have = {w[:5] for w in re.findall(r"[a-z]{4,}", clause[a:b].lower())}
        hits = sum(1 for w in what if w in have or any(h.startswith(w[:4]) for h in have))
        if hits > score:
            best, score = (a, b), hits
    return best if score else None


def _phrase_around(clause: str, stem: str) -> tuple[int, int] | None:
    """The one phrase of the clause that holds the only word starting with ``stem``: from the opener
    before it ("without", a comma) to the next comma, "and", bracket or the sentence's end. None where
    the word is used more than once or the phrase would be the whole sentence part."""
    hits = [m for m in re.finditer(r"[A-Za-z]+", clause) if m.group(0).lower().startswith(stem)]
    if len(hits) != 1:
        return None
    at = hits[0]
    a, b = next(((a, b) for a, b in part_spans(clause) if a <= at.start() < b), (None, None))
    if a is None:
        return None
    openers = [m for m in _PHRASE_OPENERS.finditer(clause, a, at.start())]
    if not openers:
        return None
    opener = openers[-1]
    start = opener.end() if opener.group(0) in ",;(" else opener.start()
    end_m = re.compile(r"\s+(?:and|or|but)\b|[,;)]|[.]\s|[.]$").search(clause, at.end(), b)
    end = end_m.start() if end_m else b
    if end == b and clause[end - 1:end] == ".":
        end -= 1
    while start < end and clause[start] == " ":
        start += 1
    if end - start < 4 or (start <= a + 1 and end >= b - 1):
        return None
    return start, end


def _shorten(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    from addin_server.draft.lengths import length_problem
    problem = length_problem(ins.length, clause, draft)
    if problem:
        return PartResult(part, "not_done", problem)
    return PartResult(part, "done", "Shorter, as asked.")


# --- what the parts explain ---------------------------------------------------------------

def allowances(instruction: Instruction, clause: str, draft: str, ctx: Context, cited: Sequence[int] = ()) -> Allowances:
    from addin_server.draft.compare import _stem
    allow = Allowances()
    allow.words = {_stem(w) for w in re.findall(r"[a-z]{3,}", instruction.text.lower())}
    allow.cited_text = "\n".join(ctx.precedents[n - 1] for n in cited if 1 <= n <= len(ctx.precedents))
    allow.figures += F.figures(instruction.text)  # every figure the lawyer wrote: "up to 5%", "$50,000"
    allow.kept_phrases = [p for p in binding.possessive_phrases(instruction.text)
                          if not re.search(r"['’]s?\s+(?:own\s+)?(?:benefit|option|negligence|behalf)", p)]
    mine = binding.read(clause, ctx.parties)
    for part in instruction.parts:
        if part.kind in ("period", "amount"):
            part = with_precedent_period(part, clause, ctx.precedents)
            allow.figures += _figure_of(part)
            allow.old_figures += _targeted_old(part, clause, part.kind)
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
            allow.left_alone += left_alone(part, mine, clause, found)
        elif part.kind == "carve_out":
            allow.exception = True
            allow.words |= {_stem(w) for p in ctx.precedents for w in re.findall(r"[a-z]{3,}", p.lower())}
        elif part.kind == "delete":
            span = deleted_span(part, clause)
            if span:
                allow.delete.append(joined_span(clause, *span) if _is_phrase(span, clause) else span)
        elif part.kind in ("shorten", "plain", "other"):
            allow.rewrite = True
            allow.plain = allow.plain or part.kind == "plain"
            keep_all = re.search(r"\bkeep (?:every|all|each)\b|\bsame (?:legal )?effect\b|\bwithout (?:dropping|losing)\b",
                                 instruction.text, re.I)
            allow.drop_ok = allow.drop_ok or (part.kind == "shorten" and not keep_all)
        elif part.kind == "conform":
            allow.conform = True
            allow.drop_ok = True
            allow.renamed |= {p for p in mine.parties if p not in document_party_names(ctx)}
    return allow


def left_alone(part: Part, read: Binding, text: str, found: Sequence[Provision]) -> list[tuple[int, int]]:
    """The clause's parts a mutual or flip part says to leave as they are."""
    scope = part.scope
    if not (scope.leave or scope.leave_sentences or scope.only or scope.limbs or scope.sentences):
        return []
    mine = {(t.start, t.end) for t in found}
    sentences = sentence_spans(text)
    out = []
    leave_limbs = set(re.findall(r"\(([a-z])\)", " ".join(re.findall(r"(?:leave|keep)[^.;]*", part.text, re.I))))
    for a, b in part_spans(text):
        if any(s <= a < e or a <= s < b for s, e in mine):
            continue
        piece = text[a:b]
        limb = re.match(r"\(?([a-z])[.)]\s", piece)
        number = next((n for n, (x, y) in enumerate(sentences, 1) if x <= a < y), 0)
        last = len(sentences)
        left = {last if n == -1 else n for n in scope.leave_sentences}
        if (limb and (limb.group(1) in leave_limbs or (scope.limbs and limb.group(1) not in scope.limbs))) or \
                number in left or (scope.leave and _mentions_any(piece, scope.leave)) or \
                (scope.sentences and number not in {last if n == -1 else n for n in scope.sentences}) or \
                (scope.only and not scope.limbs and re.search(r"\b(?:rest|others?|first|second|third)\b", part.text, re.I)):
            out.append((a, b))
    return out


def counter_provisions(part: Part, read: Binding, text: str) -> list[Provision]:
    """In a flip, the holder's own provisions about the same thing ("Partner hereby assigns to
    Provider" beside "Provider owns all Feedback"): they change hands too."""
    holder = part.params.get("holder")
    keys = part.scope.keywords
    other = part.params.get("other") or ""
    return [p for p in read.provisions if p.bound == holder and keys and _mentions_any(text[p.start:p.end], keys)
            and p.kind != "prohibition" and other in p.others]


# --- helpers ------------------------------------------------------------------------------

def _mean_sentence_words(text: str) -> float:
    spans = sentence_spans(text)
    return len(re.findall(r"\w+", text)) / max(len(spans), 1)


def _phrase(text: str, p: Provision) -> str:
    words = text[p.subject[0]:p.end].split()
    out = " ".join(words[:9]).rstrip(",;.")
    return out + ("…" if len(words) > 9 else "")


def _the(name: str) -> str:
    if name == MUTUAL:
        return "both parties"
    return name if name.isupper() or not name[:1].isupper() or " " in name else f"the {name}"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"
