"""Figures read across the parts: one judged, not asked ("six months is too long"); one of the clause's
restated as the value to change; one said first as a fact and then asked; one no part reads.

Apart from instruction.py because these read the parts once all are read (and ``JUDGED`` each segment as
it is read): the whole message decides which figure is asked, which is the clause's, which is said twice.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

from index_builder.reading import figures as F

from addin_server.draft.instruction_asks import countered, log_entry, reported
from addin_server.draft.instruction_model import Part
from addin_server.draft.instruction_part import with_text
from addin_server.draft.instruction_scope import pointed_sentence
from addin_server.draft.instruction_segments import segments_of
from addin_server.draft.instruction_values import recorded_figures, unread_figures
from addin_server.draft.instruction_words import ASK, KEEP_VERBS, STATEMENT, STAY_STATES, STAY_VERBS, SUBJECT


# A figure judged, not asked for: "six months is too long", "$1m is far too low", "30 days isn't enough".
JUDGED = re.compile(r"^\s*(?:the\s+)?(?:current\s+)?[^;]{1,40}?\s+(?:is|are|seems|looks|feels)\s+(?:(?:far|way|much|a\s+bit|"
                     r"rather|just)\s+)?(?:too\s+(?:long|short|high|low|much|little|generous|tight|many|few)|excessive|"
                     r"unreasonable|off-?market|not\s+(?:enough|market|acceptable)|a\s+lot|overkill|a\s+stretch|onerous)\b|"
                     r"^\s*[^;]{1,40}?\s+isn['’]t\s+(?:enough|market|acceptable)\b|"
                     # "A five-year non-solicit ... will not survive a reasonableness challenge", "... makes no sense"
                     r"^\s*[^;]{1,60}?\s+(?:(?:will|would)\s+not|won['’]t|wouldn['’]t)\s+(?:survive|fly|hold\s+up|stand\s+up)\b|"
                     r"^\s*[^;]{1,60}?\s+makes?\s+no\s+sense\b", re.I)


def restated_as_old(parts: list[Part], clause: str, names: Sequence[str]) -> list[Part]:
    """A figure of the clause's, named without a word of keeping ("Amend the two-year tail", "A five-year
    non-solicit ... will not survive"), beside one other part of its kind that asks for a new value and
    names no old one: the figure is the one to change, not one kept (the clause holds it once, so it
    cannot both stay and change)."""
    # Only a figure named with no word of keeping ("the 30-day cure stays" keeps it, whatever else is asked).
    stays = re.compile(rf"\b(?:{KEEP_VERBS}|{STAY_VERBS}|{STAY_STATES}|same|survive|survives|unchanged)\b", re.I)
    restated = [p for p in parts if p.params.get("restated") and not stays.search(p.text)]
    for r in restated:
        kind = r.kind
        value = float(r.params.get("value" if kind == "period" else "amount"))
        held = [f for f in (F.periods(clause) if kind == "period" else F.amounts(clause)) if abs(f.value - value) < 1e-9]
        asks = [p for p in parts if p is not r and p.kind == kind and not p.params.get("kept")
                and not p.params.get("unclear") and p.params.get("old") is None]
        # Held once, or in several places the ask says it reaches ("in both places it appears").
        every = bool(asks) and re.search(r"\b(?:both|all|each|every)\s+(?:\w+\s+){0,2}(?:places?|mentions?|references?)\b|"
                                         r"\bthroughout\b|\bwherever\b", asks[0].text, re.I)
        if not held or (len(held) > 1 and not every) or len(asks) != 1:
            continue
        target = asks[0]
        pointed = pointed_sentence(target.text, clause)
        of_kind = F.periods if kind == "period" else F.amounts
        if pointed and len(held) == 1 and not pointed[0] <= held[0].start < pointed[1] and \
                of_kind(clause[pointed[0]:pointed[1]]):
            # "Customer gets 60 days after an automatic payment ...; Resolution window (15 days) not on the
            # agenda": the ask points at one sentence, which has a figure of that kind of its own; the figure
            # restated sits in another, and is not its target.
            continue
        params = dict(target.params)
        params["old"] = r.params.get("value" if kind == "period" else "amount")
        if kind == "period":
            params["old_unit"] = r.params.get("unit")
        parts = [replace(target, text=target.text + "; " + r.text, params=params) if p is target else p
                 for p in parts if p is not r]
    return parts


def said_twice(parts: list[Part], clause: str, names: Sequence[str]) -> list[Part]:
    """A period or amount said first as a fact and then asked ("the median tail is six months, and a year puts
    us in the top decile. Bring the tail to six (6) months") is one ask: the statement, which has no ask verb,
    joins the later part of the same value (its words may name the figure replaced: "a year"); two parts
    reported the change twice, and the second as "already says"."""
    def value(p: Part) -> tuple | None:
        return (p.kind, p.params.get("value"), p.params.get("unit"), p.params.get("currency")) \
            if p.kind in ("period", "amount") and p.params.get("value") is not None else None
    out: list[Part] = []
    for i, p in enumerate(parts):
        later = next((j for j in range(i + 1, len(parts)) if value(p) and value(parts[j]) == value(p)), None)
        if later is not None and not re.search(rf"\b(?:{ASK})\b", p.text, re.I):
            joined = with_text(parts[later], p.text + " " + parts[later].text, clause, names)
            parts[later] = joined if value(joined) == value(p) else parts[later]
            continue
        out.append(p)
    return out


def unread_asks(text: str, parts: Sequence[Part], clause: str) -> str:
    """The words of figures the instruction asks for that no part reads ("" where every one is read).
    A reason or a judged figure ("we can't sit in limbo for two months", "six months is too long") is
    no ask, nor a figure inside a part whose own words are its check (a carve-out's "claims under $10,000")."""
    values = [float(v) for p in parts for k in ("value", "amount", "old", "old_said") for v in [p.params.get(k)]
              if isinstance(v, (int, float))]
    segments = segments_of(text)
    # The other side's ask that the lawyer counters ("... asks for 7 years. We'll meet them at 5") is no ask.
    answered = any(countered(seg) is not None for seg in segments)
    asked = " ; ".join(recorded_figures(seg, clause) for seg in segments if not (STATEMENT.match(seg) or SUBJECT.match(seg)
                                                       or JUDGED.match(seg) or (answered and reported(seg)) or log_entry(seg)))
    # A value part read more than one way holds its figures (they are said "not checked" with it).
    worded = " ".join(p.text for p in parts if p.kind in ("carve_out", "conform", "delete", "plain", "shorten", "other")
                      or p.params.get("unclear") or p.params.get("kept"))
    found = [f for f in unread_figures(asked, values, clause) if f not in worded]
    return "; ".join(dict.fromkeys(found))
