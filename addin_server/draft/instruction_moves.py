"""Which figure in a value ask is the new value and which the old one: the one reading the operations
and the checks share (instruction.py calls ``settle`` on every period and amount part).

Four tranches of never-seen asks showed the reader taking the clause's own figure for the value asked
("$250,000 -> $150,000" read as $250,000; "Customer's 45 days should be 90" read as 45 days; "needs
more warning than ninety days" read as ninety days asked), and the operation then changed nothing
and called it done. The rule, in a lawyer's terms:

* the new value is the one the ask moves TO ("A -> B", "from A to B", "B instead of A", "B, not A",
  "A should be B", "cap it at B"); the old one is the one the clause already holds;
* a figure the clause already holds is never the new value unless the ask says to keep it; a
  figure said to stay ("the six years stays", "Eighteen months untouched") is no value asked;
* an old value the clause does not hold is not the old value (a precedent's "thirty-day fix");
* two candidate new values ("go to 45 days? if not, 60"), or only the clause's own figure and no
  other, leave the value unread: ``params["unclear"]`` says why, and unambiguous.doubt turns that
  into a declined operation and a "not checked" part.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from index_builder.reading import figures as F

from addin_server.draft.instruction_values import UNITS
from addin_server.draft.instruction_words import ASK, KEEP_VERBS, STAY_STATES, STAY_VERBS
from addin_server.draft.places import named_by_words

# Said after a figure, of that figure: it stays ("the six years stays", "Eighteen months untouched",
# "the three years and the ten business days must survive", "The five days for 3.3(c) is non-negotiable").
_KEPT_AFTER = re.compile(r"^(?:[^.;,!?:]|\.(?=\d)){0,45}?\b(?P<stay>" + STAY_VERBS + "|" + STAY_STATES + r"|"
                         r"(?:is|are)\s+non-?negotiable|(?:must|should|to|will)\s+survive|survives?|"
                         r"(?:do(?:es)?\s*n['’]?o?t|don['’]t|doesn['’]t|won['’]t)\s+(?:move|change)|"
                         r"(?:is|are)\s+not\s+to\s+be\s+(?:touched|changed)|(?:is|are)\s+fine|"
                         r"leave\s+(?:that|it|this|them|those)(?:\s+one)?\s+(?:alone|as\s+(?:it\s+)?is))\b", re.I)
# Said before a figure: it stays ("the audit stays at 2 business days", "same 30 days", "keep the 50%").
_KEPT_BEFORE = re.compile(r"\b(?:" + STAY_VERBS + r"|same|" + KEEP_VERBS + r")\s+(?:at\s+|as\s+|the\s+|its\s+|their\s+)?$",
                          re.I)
# A precedent's figure: "VNE's clause [1] has a thirty-day fix", "the sixty days in [1]".
_PRECEDENT_BEFORE = re.compile(r"\[\d+\]\)?\s+(?:has|uses|gives|says|sets|allows)\s+(?:a\s+|an\s+|the\s+)?$", re.I)
_PRECEDENT_AFTER = re.compile(r"^\s*(?:\w+\s+){0,2}(?:in|of|from|under)\s+(?:precedent\s+)?\[\d+\]", re.I)
# The figure after these is the one moved to: "-> 90", "to 90", "should be 90", "cap it at five".
_TO = re.compile(r"(?:->|→|=>|\bto|\binto|\bshould\s+(?:be|read)|\bmust\s+be|\bbecomes?|\bmake\s+it|\bat|\bdown\s+to|"
                 r"\bup\s+to)\s*$", re.I)
# The figure after these is the one replaced: "B instead of A", "B, not A", "B rather than A".
_INSTEAD = re.compile(r"(?:\bnot|\binstead\s+of|\brather\s+than|\bin\s+place\s+of|\breplacing|\bfrom)\s+(?:the\s+|just\s+)?$",
                      re.I)
# A second choice said as a fallback: "go to 45 days? if not, 60", "45, or failing that 60".
_FALLBACK = re.compile(r"\b(?:if\s+not|otherwise|failing\s+that|or\s+else|at\s+worst|at\s+a\s+push|or\s+at\s+least)\b",
                       re.I)
# A segment that opens with a fallback: "if not, 60", "failing that, eighteen months".
FALLBACK_LEAD = re.compile(r"\s*(?:if\s+not|otherwise|failing\s+that|or\s+else|at\s+worst|at\s+a\s+push)\b", re.I)
_BARE = re.compile(r"(?<![\w.])(\d[\d,]*(?![\d.])|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|eighteen|"
                   r"twenty(?:-\w+)?|thirty(?:-\w+)?|forty(?:-\w+)?|forty-five|fifty|sixty|ninety|a\s+hundred(?:\s+and\s+\w+)?|"
                   r"one\s+hundred(?:\s+and\s+\w+)?)\b(?!\s*(?:%|percent|per\s+cent|days?|weeks?|months?|years?|hours?|business|"
                   r"calendar|\$|dollars?|million|thousand|[-–]\w))", re.I)
_DAYS = {"day": 1.0, "business_day": 1.0, "calendar_day": 1.0, "week": 7.0, "month": 365 / 12, "year": 365.0, "hour": 1 / 24}


def _size(f: F.Figure) -> float:
    return float(f.value) * _DAYS.get(f.unit or "", 1.0) if f.kind == "period" else float(f.value)


def same_size(a: F.Figure, b: F.Figure) -> bool:
    x, y = _size(a), _size(b)
    return abs(x - y) <= 0.03 * max(abs(x), abs(y), 1e-9)  # "three months" and "ninety days"


def _of_kind(text: str, kind: str) -> list[F.Figure]:
    return F.periods(text) if kind == "period" else F.amounts(text)


def _kept(text: str, f: F.Figure) -> bool:
    if _KEPT_BEFORE.search(text[max(0, f.start - 40):f.start]) or _said_to_stay(text, f):
        return True
    after = _KEPT_AFTER.search(text[f.end:f.end + 60])
    if not after:
        return False
    between = text[f.end:f.end + after.start("stay")]
    rest = text[f.end + after.end("stay"):f.end + after.end("stay") + 40]
    if re.match(r"\s+(?:at|as)\s", rest) and (F.figures(rest) or F.counts(rest)):
        # "(c) should be ten million. (b) stays at one million": the stay word keeps the figure after it.
        return False
    # "will not survive a reasonableness challenge": a stay word negated keeps nothing. "Three months, and
    # the renewal term stays at four years": a figure of its own between says whose the stay word is.
    if re.search(r"\b(?:not|never)\s+$|n['’]t\s+$", between, re.I) or F.figures(between) or F.counts(between):
        return False
    # "Extend the notice to 60 days; the rest stays": a keep of the rest is of what the ask does not change,
    # never of the figure the ask writes.
    if _THE_REST.search(between):
        return False
    # Said of this figure only where no capitalised word comes between: parts are joined without their
    # full stops ("$2m per incident Fidelity/crime policy untouched" keeps the policy, not the $2m).
    return not re.search(r"(?<![\w'’-])[A-Z]", between)


_THE_REST = re.compile(r"\b(?:the\s+rest|(?:everything|all|anything|nothing)\s+else|the\s+remainder|otherwise|"
                       r"(?:all\s+)?the\s+other\s+(?:terms|words|wording|provisions|bits|parts))\b", re.I)
_ASK_ANY = re.compile(rf"\b(?:{ASK})\b", re.I)
_STAYS_AFTER = re.compile(rf"\b(?:{STAY_VERBS}|{STAY_STATES})\b", re.I)
_HEADS = re.compile(r"^\s*(?:the|its|their|our|both|all|each)?\s*$", re.I)


def _said_to_stay(text: str, f: F.Figure) -> bool:
    """The figure opens a piece of the ask (to a ";") as the subject of a stay word, and is its one figure of
    that kind, with no word of asking: "The five-year long stop and the Defaulting Party proviso are
    unaffected". A list of what stays names the clause's parts by their capitalised names, so a capital word
    between is no sign the stay word is another's here. A figure that does not open its piece may end a
    sentence joined to the next ("$2m per incident Fidelity/crime policy untouched"): the stay word is the
    next one's; and a word of asking ("extend it to 60 days; the rest stays") says the figure is asked."""
    start = text.rfind(";", 0, f.start) + 1
    end = text.find(";", f.end)
    end = len(text) if end < 0 else end
    piece = text[start:end]
    if not _HEADS.match(text[start:f.start]) or not _STAYS_AFTER.search(text[f.end:end]):
        return False
    return not _ASK_ANY.search(re.sub(rf"\b{KEEP_VERBS}", " ", piece)) and len(_of_kind(piece, f.kind)) == 1


def _precedents(text: str, f: F.Figure) -> bool:
    return bool(_PRECEDENT_BEFORE.search(text[max(0, f.start - 40):f.start]) or _PRECEDENT_AFTER.search(text[f.end:f.end + 40]))


def _bare_after(text: str, f: F.Figure, like: F.Figure) -> F.Figure | None:
    """A bare number the ask moves ``f`` to, in ``like``'s unit ("45 days ... should be 90", "ten years - cap
    the renewals at five")."""
    rest = re.split(r"[.;?!:]\s|\n|\s[-–—]+\s", text[f.end:f.end + 60])[0]  # the same phrase, near the figure
    for m in _BARE.finditer(rest):
        # "45 days to report should be 90": a bare number in the old figure's unit only where it follows in
        # the same phrase, a few words on ("ten years - cap the renewals at five" may count renewals).
        if not _TO.search(rest[:m.start()]) or len(rest[:m.start()].split()) > 6:
            continue
        if like.kind == "period":
            unit = {"business_day": "business days", "calendar_day": "calendar days"}.get(like.unit or "",
                                                                                        (like.unit or "day") + "s")
            read = F.periods(f"{m.group(1)} {unit}")
        else:
            read = F.amounts(f"${m.group(1)}")
        if read:
            return replace(read[0], start=f.end + m.start(), end=f.end + m.end(), text=m.group(1))
    return None


def _bare_after_dash(text: str, f: F.Figure) -> F.Figure | None:
    sentence = re.split(r"[.;?!]\s", text[f.end:])[0]
    dash = re.search(r"\s[-–—]+\s+(?:(?:make|set)\s+it\s+|say\s+|so\s+|just\s+)?(?=\S)", sentence)
    if not dash:
        return None
    found = _bare_after(text[:f.end] + " to " + sentence[dash.end():], f, f)
    return None if found is None else replace(found, start=found.start + dash.end() - 4, end=found.end + dash.end() - 4)


def settle(kind: str, text: str, clause: str, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` of a period or amount part with the new and old values read by the rules above;
    ``unclear`` set where the value asked is not read one way."""
    key = "value" if kind == "period" else "amount"
    if params.get(key) is None or not clause:
        return params
    found = [f for f in _of_kind(text, kind) if not _precedents(text, f)]
    held = _of_kind(clause, kind)

    def holds(f: F.Figure) -> bool:
        return any(same_size(f, h) for h in held)

    out = dict(params)
    read = _as_read(kind, params, found, text)  # the figure the reader took as the value asked
    if read is None:
        return out
    asked = [f for f in found if not _kept(text, f)]
    if found and not asked or _kept(text, read) and not any(same_size(f, read) for f in asked):
        # The part only says what stays ("the three years and the ten business days must survive").
        out.pop("old", None)
        out.pop("old_unit", None)
        out["kept"] = True
        return out
    if not held and not _moved_to(text, read) and _background(text, read):
        # "the only post-term restraint is the one year after the Agreement in Section 1.2": the clause
        # holds no figure of this kind, and the ask states one that stands elsewhere, with no ask reaching it.
        out["unclear"] = (f"names “{read.text}” as what stands elsewhere, not as a value to write, so whether a "
                          "value is asked is not read for sure")
        return out
    cue = _FALLBACK.search(text)
    if cue and (any(f.start >= cue.end() for f in asked) or F.counts(text[cue.end():cue.end() + 30])):
        out["unclear"] = "gives a second value as a fallback, so which value is asked is not read for sure"
        return out
    moved_to = _moved_to(text, read)
    if not holds(read) or moved_to:
        was = out.get("old") if out.get("old") is not None and any(abs(h.value - float(out["old"])) < 1e-9
                                                                      for h in held) else None
        others = [f for f in asked if not holds(f) and not same_size(f, read)
                  and not (was is not None and abs(f.value - float(was)) < 1e-9)]
        if others and not moved_to and not _paired(text, [read, others[0]]):
            out["unclear"] = (f"names more than one new value (“{read.text}”, “{others[0].text}”), so which one is "
                              "asked is not read for sure")
            return out
        new = read
    else:
        # The clause already holds the figure read: the value asked is the other one, if the ask names one.
        others = [f for f in asked if not holds(f)]
        bare = next((b for f in [read] + asked for b in [_bare_after(text, f, f)] if b is not None and not holds(b)), None)
        if bare is None and _judged(text, read):
            # "Four months' notice is more than we can live with - three is plenty": the figure judged, and
            # after a dash in the same sentence the bare number asked, in the judged figure's unit.
            bare = _bare_after_dash(text, read)
            bare = bare if bare is not None and not holds(bare) else None
        if bare is None and re.search(r"\b(?:not|rather\s+than|instead\s+of)\s+(?:the\s+)?$", text[max(0, read.start - 20):read.start], re.I):
            # "Not thirty days to cure - sixty": the figure said "not" is the old one, and the bare number
            # after it in the same sentence (past a dash) is the new one, in its unit.
            bare = _bare_after(re.sub(r"\s[-–—]+\s", " to ", text), read, read)
            bare = bare if bare is not None and not holds(bare) else None
        placed = _placed_elsewhere(kind, text, clause, read) if not others and bare is None else None
        if len({_size(f) for f in others}) == 1:
            new = others[0]
        elif not others and bare is not None:
            new = bare
        elif placed is not None:
            # "Renewals 1 yr each" where the initial term is one year and the renewals two: the ask ties its
            # figure to a place, and that place holds another figure, so the figure is asked for it. It
            # stays only where the place it names already holds it.
            out.update(_values(kind, read))
            out["old"] = _whole(placed.value)
            if kind == "period":
                out["old_unit"] = _unit(placed)
            return out
        elif not others and _as_it_stands(text, read):
            # "Current: term ends 30 months after ... / Proposed: longstop 36 months": a change request's
            # "Current:" line states the clause as it stands, which its "Proposed:" line changes. Not a keep.
            out["unclear"] = (f"states “{read.text}” as your clause has it now, beside a proposed change, so "
                              "whether it stays is not read for sure")
            return out
        elif not others and not _judged(text, read):
            # The clause's own figure restated ("Either party should be able to walk away on 60 days'
            # notice" where the clause says sixty days): it stays, nothing to move. Said without a word of
            # keeping: read_instruction takes it as the old value where another part asks for a new one.
            out.pop("old", None)
            out.pop("old_unit", None)
            out["kept"] = True
            out["restated"] = True
            return out
        else:
            if not others and _judged(text, read):
                # "The draft says three months. That is not enough ...": the clause's figure judged, the value
                # asked not said here. Where another part asks a value and names no old one, this is its old
                # one (instruction.py merges a restated figure into it); alone, it stays unread.
                out["restated"] = True
            out["unclear"] = (f"names the figure your clause already has (“{read.text}”)"
                              + (f" and more than one other (“{others[0].text}”, “{others[1].text}”)" if others else
                                 " and no other value")
                              + ", so the value asked is not read for sure")
            return out
        out.update(_values(kind, new))
        # The old value as the clause writes it: "four months' notice" said of a clause's 120 days is 120 days.
        written = next((h for h in held if same_size(h, read) and (h.unit or "") == (read.unit or "")), None) or \
            next((h for h in held if same_size(h, read)), read)
        out["old"] = _whole(written.value)
        if written is not read:
            out["old_said"] = _whole(read.value)  # as the instruction says it: read, not an ask of its own
        if kind == "period":
            out["old_unit"] = _unit(written)
        return out
    old = out.get("old")
    if old is not None and not any(abs(h.value - float(old)) < 1e-9 for h in held):
        out.pop("old", None)  # not the clause's figure (a precedent's, or a value read wrongly): no old one
        out.pop("old_unit", None)
    if out.get("old") is None:
        was = [f for f in asked if holds(f) and not same_size(f, new)]
        if len({_size(f) for f in was}) == 1:
            out["old"] = _whole(was[0].value)
            if kind == "period":
                out["old_unit"] = _unit(was[0])
    return out


def _placed_elsewhere(kind: str, text: str, clause: str, read: F.Figure) -> F.Figure | None:
    """The clause's figure at the place the ask's words name (the words around each figure, as
    places.named_by_words reads a part's place), where that place holds another size than the one
    asked: "renewals" beside "renew for successive two (2) year periods", asked one year."""
    if _judged(text, read):
        return None
    # The place is named beside the figure: its own words, up to a stop or to another figure the ask
    # names ("the three years and the ten business days must survive" names no place for either).
    others = [f for f in F.figures(text) if f.start != read.start]
    start = max([f.end for f in others if f.end <= read.start] + [m.end() for m in _STOP.finditer(text[:read.start])] + [0])
    stop = re.search(r"[.;,:!?](?:\s|$)", text[read.end:])
    end = min([f.start for f in others if f.start >= read.end] + [read.end + (stop.start() if stop else len(text))])
    words = text[start:read.start] + " " + text[read.end:end]
    pool = _of_kind(clause, kind)
    named = [f for f in pool if named_by_words(words, clause, f, pool, ())]
    # It stays where the ask's words also name a place that holds it ("Distributor ... 120 days"), and
    # is read as asked only where they name places of one size.
    if not named or any(same_size(f, read) for f in named) or len({_size(f) for f in named}) != 1:
        return None
    return named[0]


_STOP = re.compile(r"[.;,:!?](?:\s|$)")


def _as_read(kind: str, params: dict[str, Any], found: list[F.Figure], text: str) -> F.Figure | None:
    """The value the reader took, as a figure of the ask (placed where the ask says it)."""
    value = float(params["value" if kind == "period" else "amount"])
    for f in found:
        if abs(f.value - value) < 1e-9 and (kind != "period" or _unit(f) == params.get("unit", _unit(f))):
            return f
    said = str(params.get("text") or "")
    at = text.find(said) if said else -1
    start, end = (at, at + len(said)) if at >= 0 else (len(text), len(text))
    if kind == "period":
        unit = {"business days": "business_day", "calendar days": "calendar_day"}.get(params.get("unit", ""),
                                                                                    str(params.get("unit", "")).rstrip("s"))
        return F.Figure("period", value, unit or None, None, start, end, said or str(value))
    return F.Figure("amount", value, None, params.get("currency"), start, end, said or str(value))


def _moved_to(text: str, f: F.Figure) -> bool:
    """The ask says it moves TO this figure: "-> $150,000", "down to 30 days", "B instead of A", "B, not A"."""
    return bool(_TO.search(text[max(0, f.start - 25):f.start].rstrip(" ,")) or
                re.match(r"\s*,?\s*(?:not|instead\s+of|rather\s+than|in\s+place\s+of)\b", text[f.end:f.end + 20], re.I))


# The figure judged, so the value asked is another, not said: "more warning than ninety days", "still only
# has 90 days", "six months is a lot", "30 days isn't enough".
_JUDGED_BEFORE = re.compile(r"\b(?:more|less|longer|shorter|fewer|greater|higher|lower|bigger|smaller)\b[^.;]{0,30}\bthan\s+"
                            r"(?:the\s+|a\s+|an\s+|its\s+|their\s+)?$|\b(?:only|still|just|merely)\s+(?:\w+\s+){0,2}$|"
                            # "a full month rather than 15 days": the figure replaced, never the one kept.
                            r"\b(?:rather\s+than|instead\s+of)\s+(?:the\s+)?$", re.I)
_JUDGED_AFTER = re.compile(r"^['’]?s?\W{0,3}(?:[\w'’-]+\s+){0,5}?(?:is|are|seems?|looks?)\s+(?:too\b|not\s+enough|nothing|"
                           r"a\s+lot|excessive|unworkable|tight|short|long|much|plenty|(?:more|longer|less|shorter|fewer)\s+than)|^['’]?s?\W{0,3}(?:[\w'’-]+\s+){0,5}?"
                           r"(?:isn['’]t|aren['’]t|won['’]t|doesn['’]t)\b", re.I)


# A label that states what the clause says now, in a change request or a comparison table ("Current:",
# "Existing position -", "As is:"), with no "Proposed"/"New" label between it and the figure.
_AS_IT_STANDS = re.compile(r"(?:^|\n|[;|]\s*)\s*(?:current(?:ly)?|existing|present|at\s+present|as[\s-]+is|was)\s*"
                           r"(?:position|wording|terms?|drafting|text|clause|value)?\s*[:\-–—=]", re.I)
_PROPOSED = re.compile(r"\b(?:proposed|proposal|new|change\s+to|to\s+be|should\s+be|target)\s*[:\-–—=]", re.I)


def _as_it_stands(text: str, f: F.Figure) -> bool:
    label = None
    for label in _AS_IT_STANDS.finditer(text, 0, f.start):
        pass
    return label is not None and not _PROPOSED.search(text, label.end(), f.start)


def _judged(text: str, f: F.Figure) -> bool:
    return bool(_JUDGED_BEFORE.search(text[max(0, f.start - 50):f.start]) or _JUDGED_AFTER.search(text[f.end:f.end + 60]))


# A figure stated as what already is: "the only restraint is the one year after ...", "their form had the
# 30 days": a verb of being or having, then the figure named as a known one ("the", "its", "that").
_STATED_BEFORE = re.compile(r"\b(?:is|are|was|were|has|had|have|says|said|gives|gave)\s+(?:only\s+)?(?:the|its|their|that|"
                            r"this|those|these)\s+(?:same\s+)?$", re.I)
# Words that ask for something, anywhere before the figure in its own sentence: then the figure may be
# the value asked ("we need the 30 days", "please use the one year in 1.2", "should be the 60 days").
_ASK_BEFORE = re.compile(r"\b(?:need|want|make|use|add|insert|give|set|put|include|change|extend|reduce|cut|"
                         r"shorten|lengthen|increase|decrease|raise|lower|cap|allow|require|provide|replace|"
                         r"should|must|shall|please|let|ask|asks|asking|wants|needs)\b|\?", re.I)


def _background(text: str, f: F.Figure) -> bool:
    """A figure the ask states as a known fact, not one it asks for: named "is the one year", with no
    word of asking before it in its own sentence."""
    sentence = re.split(r"[.;!?:]\s|\n", text[:f.start])[-1]
    return bool(_STATED_BEFORE.search(sentence)) and not _ASK_BEFORE.search(sentence)


def _paired(text: str, figures: list[F.Figure]) -> bool:
    """Two figures the ask itself relates as old and new ("from one year to six months"), neither held."""
    a, b = figures[0], figures[1]
    between = text[a.end:b.start]
    return bool(re.fullmatch(r"\s*(?:->|→|=>|to|into)\s*", between, re.I) or _INSTEAD.search(between))


def _unit(f: F.Figure) -> str:
    unit = UNITS.get(f.unit or "", f.unit or "")
    return "calendar days" if unit == "days" and re.search(r"\bcalendar days\b", f.text, re.I) else unit


def _whole(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _values(kind: str, f: F.Figure) -> dict[str, Any]:
    if kind == "period":
        return {"value": _whole(f.value), "unit": _unit(f), "text": f.text}
    return {"amount": _whole(f.value), "currency": f.currency}
