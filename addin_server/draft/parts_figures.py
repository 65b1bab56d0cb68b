"""The tests of the parts that set a figure: a period or an amount, and which of the clause's
figures each one changes.

Apart because finding the figure a part targets (by its old value, its unit, its words, whose it
is) is most of the work, and the operations (operations.py) and allowances (parts.py) use it too.
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading import figures as F
from index_builder.reading.binding import MUTUAL
from index_builder.reading.sentences import part_spans, sentence_spans

from addin_server.draft.instruction import Instruction, Part
from addin_server.draft.instruction_moves import same_size
from addin_server.draft.instruction_values import UNITS, in_days
from addin_server.draft.parts_result import Context, PartResult, number


def unit_ok(found: F.Figure, part: Part) -> bool:
    unit = part.params.get("unit", "")
    if unit in ("business days",):
        return found.unit == "business_day"
    if unit == "calendar days":
        return found.unit == "day"
    want = {"days": "day", "weeks": "week", "months": "month", "years": "year", "hours": "hour"}.get(unit, unit)
    return found.unit == want or (want == "day" and found.unit == "day")


# ("Bring the tail ... to six (6) months" where the clause says "one year": a quickstart draft kept "one year",
# wrote "six months" in a new proviso, and was said done, since "bring" was no change verb.)
CHANGE_VERBS = re.compile(r"\b(?:change|cut|reduce|extend|shorten|lengthen|raise|lower|increase|decrease|bump|"
                           r"make|instead|not|from|move|set|use|replace|minimum|need|should|bring|drop|trim|"
                           r"halve|double|shrink|tighten)\b", re.I)


def targeted_old(part: Part, clause: str, kind: str, kept_by: Sequence[Part] = ()) -> list[F.Figure]:
    """The clause's figures a period or amount part changes: the one named ("ten business days to
    five", "not 36"), else the one its words point to, else the only one of its kind and unit. A
    period of another unit is changed only when the instruction says to change one ("cut the tail
    to six months"), not when it sets a new limit ("cap any tolling at six months"). ``kept_by``: the
    instruction's other parts that say a figure stays ("The five-year terms stay"): never the one changed."""
    found = [f for f in F.figures(clause) if f.kind == kind]
    # A figure the message says to keep is not the one its other ask points at, however near its words.
    found = [f for f in found if not any(_keeps_figure(p, f) for p in kept_by if p is not part)] or found
    old = part.params.get("old")
    if old is not None:
        named = [f for f in found if abs(f.value - old) < 1e-9]
        if len(named) > 1:
            # The old value in more than one place: the one whose party the part names ("Customer's 45 days
            # should be 90" beside "Provider's 45 days ... stays"), else the one the part's words point to
            # ("Sixty days' notice" beside a petition "not dismissed in thirty (30) days"), unless the
            # part says every place.
            named = of_parties(part, clause, named)
        if named:
            return named
    if kind == "period":
        same_unit = [f for f in found if unit_ok(f, part)]
        # A period of another unit is the one to change only where nothing the part quotes lies
        # elsewhere ("'Reasonable prior notice' won't do ... 15 days" is not the "five year"
        # depreciation basis), or where the part's words name it.
        from addin_server.draft.done import quoted_elsewhere
        from addin_server.draft.places import named_by_words
        other_unit = [f for f in found if CHANGE_VERBS.search(part.text) and (
            named_by_words(part.text, clause, f, found, ()) or not quoted_elsewhere(part.text, clause, f))]
        pool = same_unit or other_unit
        if same_unit and CHANGE_VERBS.search(part.text):
            # "Shorten the notice period to 30 days" where the notice is six months and a 90-day period
            # stands elsewhere: the period the part's words point to, whatever its unit (a new user's
            # correct draft was said to leave the 90 days unchanged).
            pointed = closest_by_words(part.text, clause, found)
            if pointed is not None and pointed not in same_unit and not quoted_elsewhere(part.text, clause, pointed):
                pool = [pointed]
        new = part.params.get("value")
        if len({f.value for f in pool}) > 1 and new is not None:
            pool = [f for f in pool if abs(f.value - new) > 1e-9] or pool  # not the one that already says it
    else:
        new = part.params.get("amount") or 0
        pool = [f for f in found if f.value and 0.05 <= new / f.value <= 20] or found
    pool = of_parties(part, clause, pool)
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
    best = closest_by_words(part.text, clause, pool)
    return [f for f in pool if abs(f.value - best.value) < 1e-9] if best else []


def _keeps_figure(keep: Part, f: F.Figure) -> bool:
    """The part says to keep a figure of this size and unit ("The production-day cap of eight hours ... does not move")."""
    if not keep.params.get("kept") or keep.kind != f.kind:
        return False
    said = keep.params.get("value" if f.kind == "period" else "amount")
    if said is None or abs(float(said) - f.value) > 1e-9:
        return False
    unit = keep.params.get("unit")
    return f.kind != "period" or not unit or UNITS.get(f.unit or "", "") == unit


def kept_parts(ins: Instruction) -> list[Part]:
    """The instruction's parts that say a figure stays."""
    return [p for p in ins.parts if p.params.get("kept")]


def of_parties(part: Part, clause: str, pool: list[F.Figure]) -> list[F.Figure]:
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
            first = sorted((m[0], n) for n in read.parties for m in binding.party_mentions(clause[a:b], n))
            who = {first[0][1]} if first else set()
        return who

    kept = [f for f in pool if not bound(f) & set(leave)]
    named = [f for f in kept if bound(f) & set(mine)]
    return named or kept


def closest_by_words(instruction: str, clause: str, pool: Sequence[F.Figure]) -> F.Figure | None:
    """The figure whose surroundings share the instruction's words that the others' do not: the words
    just around it, else the whole list item or semicolon part it sits in ("(a) ... fails to cure a
    material breach ... following 30 days notice" for "cure period 45 days")."""
    near = closest_in(instruction, clause, pool, lambda f: clause[max(0, f.start - 60):f.start] + " " +
                       clause[f.end:f.end + 30])
    if near is not None:
        return near
    parts = part_spans(clause)

    def own_part(f: F.Figure) -> str:
        a, b = next(((a, b) for a, b in parts if a <= f.start < b), (f.start, f.end))
        return clause[a:f.start] + " " + clause[f.end:b]
    return closest_in(instruction, clause, pool, own_part)


def closest_in(instruction: str, clause: str, pool: Sequence[F.Figure], around) -> F.Figure | None:
    words = set(re.findall(r"[a-z0-9]{3,}", instruction.lower())) - {"the", "and", "for", "change", "raise", "make"}
    windows = [set(re.findall(r"[a-z0-9]{3,}", around(f).lower())) for f in pool]
    # A word of the ask points to a figure when the clause says it there in any of its forms ("the delivery
    # period" beside "shall deliver the Goods within ten days"): lawyers name a duty by its noun.
    # (Only whole words: a window cut mid-word, "... and ten millio", says no form of "million".)
    whole = [set(re.findall(r"[a-z0-9]{3,}", re.sub(r"[a-z0-9]+$", "", around(f).lower()))) for f in pool]
    said = [{w for w in words if w in win or any(_one_word(w, v) for v in hole)} for win, hole in zip(windows, whole)]
    common = set.intersection(*said) if said else set()
    # A number the instruction names ("2012 fee") points harder than a word.
    scores = [sum(2 if any(ch.isdigit() for ch in w) else 1 for w in hit - common) for hit in said]
    top = max(scores, default=0)
    if top == 0 or scores.count(top) > 1:
        return None
    return pool[scores.index(top)]


def _one_word(asked: str, said: str) -> bool:
    """The ask's noun for the clause's verb: the ask's word longer, sharing all but the last letter of the
    clause's word of five letters or more ("delivery" for "deliver", "termination" for "terminate"; not
    "payment" for "pay"). Never the other way: the ask's "period" is the kind of figure, not the clause's
    "periods of one year" (f-period-04's notice period was moved onto the renewal term)."""
    if asked == said:
        return True
    if len(said) < 5 or len(asked) <= len(said) or asked.isdigit() or said.isdigit():
        return False
    return asked.startswith(said[:-1])


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


def period_part(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    part = with_precedent_period(part, clause, ctx.precedents)
    value, unit = part.params.get("value"), part.params.get("unit", "")
    if value is None:
        return PartResult(part, "unchecked", "The period asked for could not be read; read the draft.")
    found = F.periods(draft)
    bad = [f for f in found if f.disagree]
    if bad:
        return PartResult(part, "wrong", f"The draft says “{bad[0].text}”: the words and the figure differ.")
    hits = [f for f in found if abs(f.value - value) < 1e-9 and unit_ok(f, part)]
    if not hits and not part.params.get("kept"):
        # "Three months" asked, "ninety (90) days" written: the same length in the unit contracts count in.
        hits = [f for f in found if any(abs(f.value - e.value) < 1e-9 and f.unit == e.unit for e in in_days(part))]
    if part.params.get("kept"):
        return _stays_period(part, ins, clause, found, hits)
    if not hits:
        near = [f for f in found if abs(f.value - value) < 1e-9]
        if near:
            return PartResult(part, "wrong", f"The draft says “{near[0].text}”, not {number(value)} {unit}.")
        return PartResult(part, "not_done", f"The draft does not give {part.label()} anywhere.")
    old = targeted_old(part, clause, "period", kept_parts(ins))
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
            theirs = of_parties(part, draft, [f for f in found if f.unit == old[0].unit and
                                               abs(f.value - old[0].value) < 1e-9 or f in hits])
            left = [f for f in theirs if f not in hits] or left
    if left and len(old) > 1 and _EVERY_PLACE.search(part.text):
        # "Make it one hundred and eighty days, in both places it appears": one place left is partly done.
        return PartResult(part, "partly", f"The draft still says “{left[0].text}” in one place; your instruction asks "
                                          "for every place.")
    if left and len(old) > 1 and len(left) < len([f for f in F.periods(clause) if abs(f.value - old[0].value) < 1e-9
                                                   and f.unit == old[0].unit]):
        # The clause has that period in more than one place, and the draft changed some of them: which
        # one the ask meant is not read one way, so the place is not judged (the lawyer reads it).
        return PartResult(part, "unchecked", f"Not checked: your clause says “{old[0].text}” in more than one place, "
                                             f"and the draft changed {'one' if len(old) - len(left) == 1 else 'some'}; "
                                             "whether it is the one you meant is for you to read.")
    if left:
        return PartResult(part, "wrong", f"The draft still says “{left[0].text}” where the period was to change.")
    placed = in_place(old, clause, found, value)
    if placed:
        return PartResult(part, "wrong", f"The draft says “{placed.text}” where {old[0].text} was to become "
                                         f"{number(value)} {unit}: the new period is in another place.")
    return PartResult(part, "done", f"{part.label()}, as asked.")


def _moved_elsewhere(part: Part, ins: Instruction, value: float) -> int:
    """How many other parts change a figure of this value ("Customer's 45 days should be 90" beside
    "Provider's 45 days stays")."""
    return sum(1 for p in ins.parts if p is not part and p.params.get("old") is not None
               and abs(float(p.params["old"]) - value) < 1e-9)


# The ask says it reaches every place the figure is written.
# (Or the lawyer counts the places, or says the new figure for all of them: "Make both sixty days", "it is
# used twice", "it appears three times, so catch all three".)
_EVERY_PLACE = re.compile(r"\b(?:both|all|each|every)\s+(?:\w+\s+){0,2}(?:places?|mentions?|references?|instances?)\b|"
                          # "bring both eighteen months down to twelve": "both" said of the figure is each place it stands
                          r"\b(?:both|all\s+(?:two|three|four|\d+))\s+(?:the\s+)?(?:\d+|[a-z]+(?:-[a-z]+)?)[\s-]"
                          r"(?:business\s+)?(?:days?|weeks?|months?|years?|hours?)\b|"
                          r"\bthroughout\b|\bwherever\b|\beverywhere\b|"
                          r"\b(?:make|set|change|turn|take)\s+(?:them\s+)?(?:both|all\s+(?:two|three|four|\d+))\b|"
                          r"\b(?:used|appears?|occurs?|said|stated)\s+(?:twice|(?:two|three|four|\d+)\s+times)\b|"
                          r"\bcatch\s+(?:all|both|every)\b|\b(?:all|both)\s+(?:(?:two|three|four|\d+)\s+)?of\s+them\b", re.I)


def _unplaced_changes(part: Part, ins: Instruction, clause: str) -> int:
    """How many other parts of the same kind ask for a new value without saying which figure it replaces
    ("the services warranty at six months" beside "the media warranty is also ninety days - leave that one
    alone"): each may have changed one of the places this part keeps. Not one whose words point at another
    figure (``targeted_old``, which never points at a figure kept): "Bring the non-renewal notice down to 6
    months" beside "The five-year terms stay" changes the notice, so a five-year term gone is the draft's."""
    size = part.params.get("value" if part.kind == "period" else "amount")

    def may_take_it(p: Part) -> bool:
        old = targeted_old(p, clause, p.kind, kept_parts(ins))
        return not old or size is None or any(abs(f.value - float(size)) < 1e-9 for f in old)
    return sum(1 for p in ins.parts if p is not part and p.kind == part.kind and p.params.get("old") is None
               and not p.params.get("kept") and not p.params.get("unclear") and may_take_it(p))


def _stays(part: Part, hits: Sequence[F.Figure], mine: Sequence[F.Figure], value: float,
           amount: bool = False, moved: int = 0, maybe: int = 0, counted: bool = False) -> PartResult:
    """A part that only says a figure stays ("the 30-day fix stays as it is"): it is there as often as before,
    less the places another part changes. Where the clause has it in more than one place and another part
    changes a figure without naming which, the place kept is not read one way: not checked, never failed."""
    before = list(mine) if counted else [f for f in mine if abs(f.value - value) < 1e-9 and (amount or unit_ok(f, part))]
    if len(hits) >= len(before) - moved:
        return PartResult(part, "done", f"{part.label()} stays, as asked.")
    if hits and maybe and len(hits) >= len(before) - moved - maybe:
        return PartResult(part, "unchecked", f"Not checked: your clause says {part.label()} in more than one place and "
                                             "another part changes one of them; which one stays is for you to read.")
    return PartResult(part, "wrong", f"The draft changes {part.label()}, which your instruction keeps as it is.")


def _stays_period(part: Part, ins: Instruction, clause: str, found: Sequence[F.Figure],
                  hits: Sequence[F.Figure]) -> PartResult:
    """A period said to stay, counted by its length, not the unit the ask says it in: "the one-year term
    stays" keeps the clause's "12 months" (a draft that writes "one year" keeps it too). Where the clause
    says it only in another unit and the draft has it in none, the ask's figure is the one the draft
    changed: whether the ask kept it or changed it ("a one-year renewal does not give us time ... make it
    24 months") is not read one way, so it is not checked, never said to stay."""
    # (One notion of "the same period", the one the value reader uses: "three months" is "ninety days".)
    value = part.params["value"]
    asked = F.periods(f"{value} {part.params.get('unit', '')}")
    mine = F.periods(clause)
    if not asked:
        return _stays(part, hits, mine, value, moved=_moved_elsewhere(part, ins, value),
                      maybe=_unplaced_changes(part, ins, clause))
    held = [f for f in mine if same_size(asked[0], f)]
    kept = [f for f in found if same_size(asked[0], f)]
    if held and not kept and not any(abs(f.value - value) < 1e-9 and unit_ok(f, part) for f in mine):
        return PartResult(part, "unchecked", f"Not checked: the {part.label()} your instruction names is the figure "
                                             "the draft changes; read whether your instruction keeps it or changes it.")
    # Another part that changes a period of the same length ("five years to two" beside "leave the sixty-month
    # look-back alone") may take one of the places counted here.
    moved = sum(1 for p in ins.parts if p is not part and p.kind == "period" and p.params.get("old") is not None
                and any(same_size(asked[0], f) for f in F.periods(f"{p.params['old']} {p.params.get('unit', '')}")))
    return _stays(part, kept, held, value, moved=max(moved, _moved_elsewhere(part, ins, value)),
                  maybe=_unplaced_changes(part, ins, clause), counted=True)


def in_place(old: Sequence[F.Figure], clause: str, found: Sequence[F.Figure], value: float) -> F.Figure | None:
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


def amount_part(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    value = part.params.get("amount")
    if value is None:
        return PartResult(part, "unchecked", "The amount asked for could not be read; read the draft.")
    if part.params.get("kept"):
        return _stays(part, [f for f in F.amounts(draft) if abs(f.value - value) < 1e-9],
                      [f for f in F.amounts(clause)], value, amount=True, moved=_moved_elsewhere(part, ins, value),
                      maybe=_unplaced_changes(part, ins, clause))
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
    old = targeted_old(part, clause, "amount", kept_parts(ins))
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
