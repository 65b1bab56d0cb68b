"""The values each kind of ask carries: a period and the one it replaces, an amount, whose figure
it is, the party a right moves to, what a carve-out covers, the renames of a conform part.

Apart from instruction.py because reading a value is separate from reading the instruction's
structure: each function takes a part's own words and returns its params.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from index_builder.reading import binding
from index_builder.reading import figures as F

from addin_server.draft.instruction_words import (
    STAY_VERBS, ASK, LEAVE, NOT_APPLY, PRECEDENT_REF, QUOTED, SUBJECT, TOPIC_HEAD)

if TYPE_CHECKING:  # instruction.py reads values through this module
    from addin_server.draft.instruction import Part


UNITS = {"day": "days", "business_day": "business days", "week": "weeks", "month": "months", "year": "years",
          "hour": "hours"}


# Said of a figure to keep: "the audit stays at 2 business days", "same 30 days".
# ("keep the records three years" asks for a period: "keep" and "leave" are read by guards.protected.)
KEPT_FIGURE = re.compile(r"\b(?:" + STAY_VERBS + r"|same)\s+(?:at\s+|as\s+)?$", re.I)
# A figure said to leave, as the object of the verb: "Leave the one-year term ... as they are", "keep the
# 30-day cure". Read as a value of its own (settle says it stays), never as the old value of another.
LEFT_FIGURE = re.compile(r"\b(?:leave|keep|retain|preserve)\s+(?:the|its|their)\s+$|\bleave\s+$", re.I)


# A period said with an article for its number ("a month", "a year") before the one it replaces.
ONE_UNIT = re.compile(r"\b(?:a|an|one)\s+(business\s+day|day|week|month|year)\b(?!['’]s)(?![\s-]+(?:or|and)\b)", re.I)
REPLACED_BY = re.compile(r"\b(?:instead\s+of|not|rather\s+than|in\s+place\s+of)\s*$", re.I)
JUDGED_THEN_ASKED = re.compile(r"['’]?s?\s+(?:is|are|isn['’]t|aren['’]t|won['’]t|will\s+not|does\s+not|doesn['’]t)\b"
                                r"[^.;]{0,80}?\b(?:ask\s+for|make\s+it|go\s+(?:up\s+|down\s+)?to|bring\s+it\s+"
                                r"(?:up|down)\s+to|we\s+(?:want|need))\s+(\w+)\b(?!\s*(?:%|percent|days?|weeks?|"
                                r"months?|years?|hours?|business))", re.I)


def period(text: str) -> dict[str, Any] | None:
    # A figure said as kept is no value asked, nor the old one.
    found = [f for f in F.periods(text) if not KEPT_FIGURE.search(text[max(0, f.start - 40):f.start])]
    if not found:
        return None
    one = ONE_UNIT.search(text)
    if one and one.end() <= found[0].start and REPLACED_BY.search(text[one.end():found[0].start]):
        # "a month to cure instead of fifteen days": one of that unit asked, the figure after it the old.
        unit = one.group(1).lower()
        units = "business days" if unit.startswith("business") else unit + "s"
        return {"value": 1, "unit": units, "text": f"1 {unit}", "old": whole(found[0].value)}
    first = found[0]
    unit = UNITS.get(first.unit or "", first.unit or "")
    if unit == "days" and re.search(r"\bcalendar days\b", first.text, re.I):
        unit = "calendar days"
    out: dict[str, Any] = {"value": whole(first.value), "unit": unit, "text": first.text}
    # "change ten business days to five", "from one year to six months": the new value comes last.
    to_bare = re.search(re.escape(first.text) + r"\s+to\s+(\w+)\b(?!\s+(?:days?|weeks?|months?|years?))", text, re.I)
    if to_bare and F.figures(to_bare.group(1) + " days"):
        new = F.figures(to_bare.group(1) + " days")[0].value
        out.update(value=whole(new), old=out["value"], text=f"{to_bare.group(1)} {unit}")
    elif len(found) > 1 and re.fullmatch(r"\s+(?:to|into|->|→)\s+", text[first.end:found[1].start], re.I):
        second = found[1]  # "change the 60 days to 15 days"
        out.update(value=whole(second.value), unit=UNITS.get(second.unit or "", unit), old=out["value"],
                   text=second.text)
    elif len(found) > 1 and re.search(r"\bfrom\b", text[:first.start], re.I):
        second = found[1]
        out.update(value=whole(second.value), unit=UNITS.get(second.unit or "", unit), old=out["value"],
                   text=second.text)
    elif len(found) > 1 and not LEFT_FIGURE.search(text[max(0, found[1].start - 40):found[1].start]):
        out["old"] = whole(found[1].value)
        out["old_unit"] = UNITS.get(found[1].unit or "", "")
    elif JUDGED_THEN_ASKED.match(text, first.end):
        # "90 days is nothing to wind down a Module - ask for 180": the clause's figure judged, then
        # the one asked, a bare number in the judged one's unit.
        asked = JUDGED_THEN_ASKED.match(text, first.end).group(1)
        if F.figures(asked + " days"):
            out.update(value=whole(F.figures(asked + " days")[0].value), old=out["value"], text=f"{asked} {unit}")
    else:  # "three years after the term, not five"; "48 months minimum, not 36"; "90 DAYS (was 30)"
        bare = re.search(r"\b(?:not|instead of|rather than|from)\s+(\w+)\s*[.,;]?$", text, re.I) or \
            re.search(r"\b(?:not|instead of|rather than)\s+(\w+)\b", text, re.I) or \
            re.search(re.escape(first.text) + r"\s*\(\s*(?:was|currently|now|previously|formerly)\s+(\w+)\s*\)", text, re.I)
        if bare and F.figures(bare.group(1) + " days"):
            out["old"] = whole(F.figures(bare.group(1) + " days")[0].value)
    return out


def whose(text: str, names: Sequence[str]) -> dict[str, Any]:
    """The parties whose figure a period or amount part changes and those whose it leaves alone:
    "XSPA's post-term restriction should be twelve months; leave Calm's at six"."""
    leave_text = " ".join(m.group(0) for m in LEAVE.finditer(text))
    leave = named_in(leave_text, names) if leave_text else []
    rest = LEAVE.sub(" ", text)
    named = [n for n in named_in(rest, names) if n not in leave]
    out: dict[str, Any] = {}
    if named:
        out["for_parties"] = tuple(named)
    if leave:
        out["leave_parties"] = tuple(leave)
    return out


def whole(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def number(value: int | float) -> str:
    return str(whole(value))


def named_in(text: str, names: Sequence[str]) -> list[str]:
    """The parties an instruction names, in order; "Dassault" names "Dassault Systemes"."""
    found = []
    for name in names:
        forms = [name] + ([name.split()[0]] if " " in name and len(name.split()[0]) >= 4
                          and name.split()[0].lower() not in ("the", "each") else [])
        for form in forms:
            m = re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text, re.I if name.isupper() else 0)
            if m:
                found.append((m.start(), name))
                break
    return [n for _, n in sorted(found)]


NEWLY_BOUND = re.compile(r"\s*(?:['’]s\s+\w+\s+)?(?:should|shall|must|to|answers|too|also|as well|wants|needs|will|"
                          r"shouldn't|should not|can|could|would)\b", re.I)


def newly_bound(text: str, names: Sequence[str], clause: str) -> str | None:
    """The party a mutual instruction names as the one to be bound too ("HEMISPHERX should keep its
    records too", "Bind MacroGenics to the same", "Owner too")."""
    named = named_in(text, names)
    bound = {p.bound for p in binding.read(clause, names).one_sided()} if clause else set()
    # The party bound "too" is one the clause does not bind yet: where the ask names both, the one the
    # clause already binds is the state of things ("Today only X can propose; we want Y able to ... too"),
    # whatever verb follows its name.
    fresh = [n for n in named if n not in bound]
    for name in named:
        if fresh and name in bound:
            continue
        forms = [name] + ([name.split()[0]] if " " in name else [])
        for form in forms:
            for m in re.finditer(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text, re.I if name.isupper() else 0):
                if NEWLY_BOUND.match(text, m.end()) or re.search(r"\bbind\s+(?:the\s+)?$", text[:m.start()], re.I):
                    return name
    return next(iter(fresh), None)


HOLDER_CUES = re.compile(r"\b(?:should|shall|must|can|could|may|to|would|wants?|will|get|gets|bears?|holds?|"
                          r"owns?|be the one|decide|indemnify|protect)\b", re.I)


def flip(text: str, clause: str, names: Sequence[str]) -> dict[str, Any]:
    """Who should hold the right or bear the duty ("holder"), and who has it now ("other")."""
    named = named_in(text, names)
    denied = re.search(r"(?:\bnot|\binstead of|\brather than|,\s*not)\s+(?:the\s+)?([A-Z][\w&.\- ]*?)(?=[,.;)]|$|\s+(?:the|to|for)\b)",
                       text)
    other = next((n for n in named if denied and denied.group(1).strip().lower().startswith(n.lower())), None)
    protect = re.search(r"\bprotect\s+(?:the\s+)?([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)?)", text)
    holder = None
    if protect:
        holder = next((n for n in named if protect.group(1).lower().startswith(n.lower())), None)
    we = re.search(r"\bwe(?:'re| are)\s+(?:the\s+)?([A-Z][\w&.-]*)|\bwe\s*\(([^)]+)\)", text, re.I)
    if holder is None and we:
        label = (we.group(1) or we.group(2) or "").strip()
        holder = next((n for n in named if label.lower().startswith(n.lower()) or n.lower() in label.lower()), None)
    if holder is None:
        for n in named:
            if n == other:
                continue
            after = binding.word_after(text, n)
            if after and HOLDER_CUES.match(after) or re.search(rf"\b(?:to|have|has|let|so)\s+(?:the\s+)?{re.escape(n)}\b",
                                                                  text):
                holder = n
                break
    if holder is None and named:
        holder = next((n for n in named if n != other), None)
    if other is None and holder is not None:
        clause_names = binding.party_names(clause, names)
        other = next((n for n in clause_names if n != holder and not same(n, holder)), None)
    if holder is None and re.search(r"\brevers|switch|swap|flip|other way", text, re.I) and clause:
        b = binding.read(clause, names)
        bound = [p.bound for p in b.one_sided()]
        if bound:
            other = bound[0]
            holder = next((n for n in b.parties if n != other), None)
    return {"holder": holder, "other": other}


def same(a: str, b: str) -> bool:
    return a.lower() == b.lower()


_MANNER = re.compile(r"\s*,\s*(?:(?:and|but)\s+)?(?:worded|phrased|drafted|written|wording|using|in\s+the\s+(?:words|wording|"
                     r"language|spirit|style|form)\b|model+ed|based\s+on|taken\s+from|borrow\w*|along\s+the\s+lines|"
                     r"mirror\w*|tracking|as\s+in|like)\b|\s+(?:worded|phrased|drafted|written)\s+(?:like|as|in|from|on)\b|"
                     r"\s+(?:from\s+)?precedent\s+\d+\b", re.I)


# "the acquirer exception", "a change-of-control carve-out": a carve-out named by what it covers.
_NAMED_CARVE = re.compile(r"\b(?:the|a|an)\s+(?!(?:same|usual)\b)(?:[\w-]+\s+){0,3}[\w-]+\s+(?:carve[- ]?out|exception|exclusion)s?\b",
                          re.I)


def carve(text: str) -> dict[str, Any]:
    head = None
    for head in TOPIC_HEAD.finditer(text):
        pass
    if head and _NAMED_CARVE.search(text, head.end()):
        # "…: two things and we can sign Assignment - add the acquirer exception in [1]": the point's topic
        # and the words before it are no part of what the carve-out covers; the ask after the dash names it.
        text = text[head.end():]
    ref = PRECEDENT_REF.search(text)
    precedent = int(ref.group(1) or ref.group(2)) if ref else None
    words = re.sub(r"\b(?:please|also|too)\b", " ", text, flags=re.I)
    # What the carve-out covers, in the lawyer's words: a description after a colon or a dash
    # ("the permitted-transfer exception from [1]: transfers that don't change control"), the words
    # to borrow ("borrow the heirs and legal representatives language from [1]"), what it should not
    # apply to ("it shouldn't apply if we let him go without cause"), else what follows the verb.
    described = re.search(r"(?::|\s[-–—]+)\s+(.+)$", words)
    before_dash = ""
    if described and re.match(r"(?:borrow|take|use|copy|lift|adopt|import|bring in|pull)\b", described.group(1), re.I):
        # "his own pay and tax papers - borrow the retention carve-out from [1]": what it covers is
        # before the dash; after it is where to take the words from.
        before_dash = words[:described.start()]
        described = None
        if re.search(r"\b(?:carve[- ]?out|exclude|except(?:ion)? for|exempt)\b", before_dash, re.I):
            words, before_dash = before_dash, ""
    if described and (re.match(rf"(?:see|cf|e\.g|as|like|from|per|{ASK})\b", described.group(1), re.I)
                      or SUBJECT.match(described.group(1))):
        described = None  # where the words come from, or why ("- we must be able to move this"): not what
    borrow = re.search(r"\b(?:borrow|take|use|bring in|import|copy|add)\s+(?:in\s+)?(?:the\s+)?(.+?)\s+(?:language|"
                       r"wording|words|provision)\b", words, re.I)
    if borrow and borrow.group(1).lower() in ("the", "a", "an", "its", "their", "same", "usual"):
        borrow = None  # "take the wording from [2]": where from, not what
    not_apply = re.search(rf"(?:{NOT_APPLY})" + r"\s*(?:(?:if|to|where|when|for|in the case of|on)\s+)?(.*)", words, re.I)
    m = re.search(r"\b(?:carve[- ]?out|exclude|except(?:ion)? for|exempt|allow|let|permit)\b\s*(.*)", words, re.I)
    if borrow:
        phrase = borrow.group(1)
    elif before_dash.strip():
        phrase = before_dash
    elif described:
        phrase = described.group(1)
    elif not_apply and not_apply.group(1).strip():
        phrase = not_apply.group(1)
    else:
        phrase = m.group(1) if m else words
    # "Add the permitted-transfer exception": the name of the exception, not an ask.
    phrase = re.sub(r"^(?:add|include|insert|put in|bring in)\s+(?:in\s+)?(?:the\s+|an?\s+)?", "", phrase.strip(), flags=re.I)
    phrase = re.sub(r"\s*\b(?:exception|exclusion|carve[- ]?out)s?(?:\s+in)?\s*$", "", phrase.strip(), flags=re.I)
    phrase = re.split(r"\s*(?:,\s*)?\b(?:as in|as precedent|like the|like clause|from the|from precedent|take them from|"
                      r"following|per|see)\b|\s*[-–—]\s|"
                      # "fraud from [1]", "fraud in [1]": the word before the pointer says where from, not what
                      r"\s*(?:,\s*)?(?:\b(?:from|in|of|at|per|like|as\s+in)\s+)?\[\d+\]", phrase, maxsplit=1, flags=re.I)[0]
    # "breach of confidentiality, worded like [1]", "fraud, using the wording of [1]": how the carve-out is
    # to be written, after what it covers; the label names what it covers.
    phrase = _MANNER.split(phrase, maxsplit=1)[0]
    phrase = re.sub(r"^(?:the\s+)?(?:usual\s+)?(?:exclusions?|exceptions?|carve[- ]?outs?)\s+(?:for|of|from)\s+", "",
                    phrase.strip(), flags=re.I)
    phrase = re.sub(r"^(?:and|plus|from|to|for|of|on|the|a|an)\s+", "", phrase.strip(), flags=re.I)
    phrase = re.sub(r"\s*[(\[]\s*$", "", phrase)  # "... on their own ([1])": the pointer's opening bracket
    source = re.search(r"\b(?:from|in|like|as in)\s+(?:the\s+)?([\w&.'’ -]{2,40}?)\s+(?:precedent|agreement|clause|"
                       r"indemnity|does|provision)\b|\bfrom the ([A-Z]{2,}\w*)\b|\bclause (\d+(?:\.\d+)*)", text)
    phrase = QUOTED.sub(" ", phrase)
    named = re.search(r"\b(?:the|a|an)\s+((?:[\w-]+\s+){0,3}[\w-]+)\s+(?:carve[- ]?out|exception|exclusion)s?\b", text, re.I)
    if named and (re.match(r"(?:like|as|cf|see|from|per|in)\b", phrase.strip(), re.I) or SUBJECT.match(phrase.strip())) and \
            named.group(1).lower() not in ("same", "usual"):
        phrase = named.group(1)  # "a passive-holding carve-out like (i) of [1]": its name, not where from
    # Words about the carve-out, not its reach: "the Buyer carve-back in [1]", "the affiliate carve-out".
    phrase = re.sub(r"\b(?:carve[- ]?(?:out|back)s?|exceptions?|exclusions?|language|wording)\b(?:\s+in\b)?", " ",
                    phrase, flags=re.I)
    phrase = " ".join(phrase.split()).strip(" .,")
    if not phrase:  # "add the gross negligence carve-out from the AT&T precedent"
        named = re.search(r"\b(?:the|a|an)\s+([\w -]+?)\s+(?:carve[- ]?out|exception|exclusion)s?\b", text, re.I)
        phrase = named.group(1) if named and named.group(1).lower() not in ("same", "usual") else ""
    out: dict[str, Any] = {"precedent": precedent, "phrase": phrase}
    if source:
        out["source"] = next(g for g in source.groups() if g)
    return out


def renames(text: str) -> dict[str, str]:
    """"Change Employer to Company", "call the Provider the Supplier": old -> new."""
    out = {}
    for m in re.finditer(r"\b(?i:change|rename|call)\s+(?:the\s+)?([A-Z][\w&.-]*(?:\s[A-Z][\w&.-]*)?)\s+(?:to|the)\s+"
                         r"(?:the\s+)?([A-Z][\w&.-]*(?:\s[A-Z][\w&.-]*)?)", text):
        out[m.group(1)] = m.group(2)
    for m in re.finditer(r"\band\s+([A-Z][\w&.-]*)\s+to\s+([A-Z][\w&.-]*)\b", text):
        out.setdefault(m.group(1), m.group(2))
    return out


def after_verb(text: str, verb: re.Pattern[str]) -> str:
    m = verb.search(text)
    return re.sub(r"^(?:the|a|an)\s+", "", text[m.end():].strip(" .,"), flags=re.I) if m else ""


def unread_figures(text: str, values: list[float], clause: str = "") -> list[str]:
    """Figures in the instruction that no part of its reading takes (as its value or the old one), and
    that the clause does not already have: an ask the reading missed ("then automatic one-year
    renewals ... ninety days before the period ends")."""
    if not text:
        return []
    have = [f.value for f in F.figures(clause)] if clause else []
    out = []
    for f in F.figures(text):
        if f.kind not in ("period", "amount", "percentage") or KEPT_FIGURE.search(text[max(0, f.start - 20):f.start]):
            continue
        if any(abs(f.value - v) < 1e-9 for v in values + have):
            continue
        out.append(f.text)
    return out


_ASK_BEFORE = re.compile(rf"\b(?:{ASK})\b", re.I)


def recorded_figures(text: str, clause: str) -> str:
    """The words without the figures that record the work rather than ask ("Time entry, 0.2 hours: reviewed
    ..."): a period in a unit the clause never uses, that no ask word reaches (none before it) and that
    labels what follows (a colon after it) is the message's own record, never a period asked of the clause."""
    used = {f.unit for f in F.periods(clause)}
    out = text
    for f in reversed(F.periods(text)):
        if f.unit in used or _ASK_BEFORE.search(text[:f.start]) or not re.match(r"\s*:", text[f.end:]):
            continue
        out = out[:f.start] + out[f.end:]
    return out


# A clause's figure named by its number alone, in the plural: "bring both eighteens down to twelve", "the two
# 30s". Lawyers name the clause's figures so where each is obvious from the clause.
_PLURAL_NUMBER = re.compile(r"\b(?P<lead>both|all|the|these|those|two|three)\s+(?P<n>[a-z]+(?:-[a-z]+)?|\d+)['’]?s\b", re.I)


def in_clause_units(text: str, clause: str) -> str:
    """The text with each figure of the clause said by its number alone ("both eighteens") written in the
    clause's unit for that number ("both eighteen months"), where the clause has it in one unit only: the
    period reader then reads the figure the lawyer points at. A number the clause does not hold stays as said."""
    from index_builder.reading import numbers

    def unit_of(m: re.Match[str]) -> str:
        value = numbers.value(m.group("n"))
        units = {f.unit for f in F.periods(clause) if value is not None and abs(f.value - float(value)) < 1e-9}
        if value is None or len(units) != 1 or not next(iter(units)):
            return m.group(0)
        unit = UNITS.get(next(iter(units)) or "", "")
        return f"{m.group('lead')} {m.group('n')} {unit}" if unit else m.group(0)

    return _PLURAL_NUMBER.sub(unit_of, text)


def figure_of(part: Part) -> list[F.Figure]:
    """The figure a period or amount part asks for, as the core reads figures (a period asked in weeks or
    months also said in days, as contracts count them)."""
    if part.kind == "period" and part.params.get("value") is not None:
        return [f for f in F.periods(f"{part.params['value']} {part.params['unit']}")] + in_days(part)
    if part.kind == "amount" and part.params.get("amount") is not None:
        return [f for f in F.amounts(F.format_amount(part.params["amount"], currency=part.params.get("currency")))]
    return []


# How contracts write a period asked in weeks or months when they count in days: a month is 30 days.
_DAYS_IN = {"weeks": 7, "months": 30}


def in_days(part: Part) -> list[F.Figure]:
    """The period a part asks for, said in days ("one month" as "30 days", "three months" as "90 days")."""
    value, per = part.params.get("value"), _DAYS_IN.get(part.params.get("unit", ""))
    if value is None or not per or float(value) * per != int(float(value) * per):
        return []
    return F.periods(f"{int(float(value) * per)} days")
