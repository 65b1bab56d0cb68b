"""A part made from its kind and its own words: the values each kind carries, read once.

``part_of(kind, text, clause, names)`` reads a part's values (instruction_values.py) and scope
(instruction_scope.py) from its words; instruction.py calls it again whenever words join a part (a reason,
a fallback, a counter-offer), so that a part's values are always those of all its words.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from index_builder.reading import figures as F

from addin_server.draft.instruction_asks import after_the_reason
from addin_server.draft.instruction_kinds import not_between_parties
from addin_server.draft.instruction_model import Part
from addin_server.draft.instruction_moves import settle
from addin_server.draft.instruction_scope import scope_of
from addin_server.draft.instruction_values import (KEPT_FIGURE, after_verb, carve, flip, newly_bound, number, period, renames,
                                                   whole, whose)
from addin_server.draft.instruction_words import ARCHAIC_NAMED, DELETE, FEES_BASIS, PLAIN, PRECEDENT_REF


def with_text(part: Part, text: str, clause: str, names: Sequence[str]) -> Part:
    return part_of(part.kind, text, clause, names)


def part_of(kind: str, text: str, clause: str, names: Sequence[str]) -> Part:
    params: dict[str, Any] = {}
    valued = after_the_reason(text, kind) if kind in ("period", "amount") else text
    if kind == "period":
        params = period(valued) or {}
        ref = PRECEDENT_REF.search(text)
        if not params and ref:
            params = {"from_precedent": int(ref.group(1) or ref.group(2))}
        if FEES_BASIS.search(text):
            params["basis"] = "fees"  # "cap Company at 12 months' fees": the look-back of a cap
    elif kind == "amount":
        found = [f for f in F.amounts(valued) if not KEPT_FIGURE.search(valued[max(0, f.start - 40):f.start])]
        params = {"amount": whole(found[0].value), "currency": found[0].currency} if found else {}
        old = found[1].value if len(found) > 1 else None
        if old is not None:
            params["old"] = whole(old)
    elif kind == "flip":
        params = flip(text, clause, names)
    elif kind == "mutual":
        named = newly_bound(text, names, clause)
        if named:
            params["named"] = named
        widened = not_between_parties(text, names)
        if widened:
            # "Users can access it too": "also" said of someone who is not a party may widen the clause
            # rather than bind the other party; the mutual reading is unsure, and what it adds is named.
            params["widens"] = tuple(widened)
    elif kind == "carve_out":
        params = carve(text)
    elif kind == "conform":
        params = {"renames": renames(text)}
    elif kind == "delete":
        params = {"what": after_verb(text, DELETE)}
    elif kind == "plain" and DELETE.search(text) and ARCHAIC_NAMED.search(text) and not PLAIN.search(text):
        params = {"legalese_only": True}  # "get rid of the hereunders": the words, not the sentences' length
    if kind in ("period", "amount"):
        params = settle(kind, valued, clause, params)  # which figure is new and which old: one reading
        params.update(whose(text, names))
    ref = PRECEDENT_REF.search(text)
    if ref and "precedent" not in params:
        params["precedent"] = int(ref.group(1) or ref.group(2))
    return Part(kind, text, params, scope_of(kind, text, names))


def countered_part(part: Part, segment: str, value: float, clause: str, names: Sequence[str]) -> Part:
    """The part a counter-offer asks: its number, in the unit of the figure the other side's ask names."""
    theirs = (F.periods(part.text) if part.kind == "period" else F.amounts(part.text))[:1]
    if not theirs:
        return with_text(part, part.text + " " + segment, clause, names)
    f = theirs[0]
    said = number(whole(value)) if part.kind == "period" else F.format_amount(value, currency=f.currency)
    unit = " " + (f.unit or "day").replace("_", " ") + ("s" if value != 1 else "") if part.kind == "period" else ""
    return part_of(part.kind, f"{segment} ({said}{unit})", clause, names)


def figure_value(part: Part) -> float | None:
    value = part.params.get("value" if part.kind == "period" else "amount")
    return float(value) if isinstance(value, (int, float)) else None


# "Make it 90", "set it at 90", "so 90": a bare number, nothing else asked.
_RESTATES = re.compile(r"^(?:so\s+|and\s+|i\.e\.\s+)?(?:(?:make|set|put|have|take)\s+(?:it|that|this|them)\s+)?(?:at\s+|to\s+)?"
                       r"(\d+(?:\.\d+)?)[.!]?$", re.I)


def said_again(segment: str, part: Part) -> bool:
    """The value part before, said again as a bare number ("Ninety days is plenty ... Make it 90"): the same
    ask, never a second part that no operation reads (and a check then calls not done)."""
    m = _RESTATES.match(segment.strip())
    value = part.params.get("value" if part.kind == "period" else "amount")
    return bool(m) and isinstance(value, (int, float)) and float(m.group(1)) == float(value)
