"""Change a period or an amount: the figure the part names, written as the clause writes its figures
(words and digits, units, currency marks) (operations.py)."""

from __future__ import annotations

import re

from index_builder.reading import figures as F
from index_builder.reading.numbers import SCALES, SMALL, to_words, words_value

from addin_server.draft.edits import Declined, OperationResult, edit
from addin_server.draft.instruction import Part
from addin_server.draft.parts_figures import targeted_old
from addin_server.draft.operations_base import AlreadyDone


NUMBER_WORDS = "|".join(sorted(list(SMALL) + list(SCALES), key=len, reverse=True))
_UNIT_WORDS = {"days": "day", "business days": "business day", "calendar days": "calendar day", "weeks": "week",
               "months": "month", "years": "year", "hours": "hour"}


def change_period(clause: str, part: Part) -> OperationResult:
    value, unit = part.params.get("value"), part.params.get("unit", "")
    if value is None:
        raise Declined("The period asked for could not be read.")
    if part.params.get("basis") == "fees":
        raise Declined("A cap measured by the fees of a period is reworded, not a figure swapped; the drafting "
                       "assistant can do it.")
    found = F.periods(clause)
    if not found:
        raise Declined("The clause states no period (such as “30 days”) to change; adding one is for the drafting "
                       "assistant.")
    old = targeted_old(part, clause, "period")
    if not old and not any(_same_unit(f, unit) for f in found):
        raise Declined(f"The clause has no period of {unit} to change (it says {', '.join(f.text for f in found)}); "
                       "adding a new limit is for the drafting assistant.")
    if not old:
        listed = ", ".join(f.text for f in found)
        raise Declined(f"The clause has more than one period ({listed}); say which one to change, for example "
                       "“change the 30 days to 15 days”.")
    if all(abs(o.value - value) < 1e-9 and _same_unit(o, unit) for o in old):
        _already(old, [f for f in found if not (abs(f.value - value) < 1e-9 and _same_unit(f, unit))])
    other = next((o for o in old if not _same_scale(o, value, unit) and not _named(o, part.text)), None)
    if other is not None:
        # "within 30 days of finding a new use" where the clause has a "2-years period": a figure of another
        # scale that the ask does not name is most likely a new deadline, not the old window changed.
        raise Declined(f"Your instruction gives {part.params.get('text') or f'{value:g} {unit}'} and does not name "
                       f"the clause's “{other.text}”, which counts in other units; whether it replaces that period or "
                       "adds a new one is for the drafting assistant.")
    edits = []
    for o in old:
        new = _spell_period(value, unit, o, clause)
        edits.append(edit(clause, o.start, o.end, new, f"the period changes from {o.text} to {new}, as instructed"))
    notes = [f"“{o.text}” had words and figure that differed." for o in old if o.disagree]
    return OperationResult("change_period", f"Period changed to {_spell_period(value, unit, old[0], clause)}", clause,
                           edits, notes=notes)


def _already(old: list[F.Figure], others: list[F.Figure]) -> None:
    """The value asked is a figure the clause already holds. Alone of its kind it is "already done";
    beside another figure of its kind the ask may well have meant that one ("the per-occurrence floor
    goes to ten million" where the clause says $5m per occurrence and $10m in the aggregate), so
    nothing is claimed: the part is declined and said not checked (drafting-g held-out, spent)."""
    if others:
        raise Declined(f"Your clause already says {old[0].text}, and also {others[0].text}; which figure the ask "
                       "moves is not read for sure, so nothing was changed.")
    raise AlreadyDone(f"The clause already says {old[0].text}; nothing was changed.")


_DAYS = {"hour": 1 / 24, "day": 1, "week": 7, "month": 30, "year": 365}


def _same_scale(f: F.Figure, value: float, unit: str) -> bool:
    """Whether the new period is of the old one's order: the same unit, or within a factor of eight
    ("ninety days" to "six months", "one year" to "eighteen months"). "30 days" for "2 years" is not
    that period changed but another one (a deadline where the clause has a window)."""
    def base(u: str) -> str:
        return re.sub(r"^(?:business|calendar)[ _]", "", _UNIT_WORDS.get(u, u)).rstrip("s")
    old, new = base(f.unit or ""), base(unit)
    if old == new or old not in _DAYS or new not in _DAYS or not f.value or not value:
        return True
    ratio = (value * _DAYS[new]) / (f.value * _DAYS[old])
    return 1 / 8 <= ratio <= 8


def _named(f: F.Figure, ask: str) -> bool:
    """Whether the ask states the old figure itself ("six months is too long", "the two-year tail")."""
    return any(abs(g.value - f.value) < 1e-9 and g.unit == f.unit for g in F.periods(ask))


def _same_unit(f: F.Figure, unit: str) -> bool:
    return _UNIT_WORDS.get(unit, unit).replace(" ", "_").replace("calendar_day", "day") == (f.unit or "")


# A unit before one of these nouns says what kind of period it is ("five (5) year periods", "a one-year cap"):
# singular whatever the number, and whether the noun is singular or plural.
_ATTRIBUTIVE = re.compile(r"\s+(?:period|term|extension|notice|cap|tail|window|look-?back|limit|minimum|maximum|"
                          r"commitment|restriction|deadline|moratorium)s?\b", re.I)


def _spell_period(value: float, unit: str, like: F.Figure, clause: str = "") -> str:
    """The new period in the form the clause used, every other word kept: "thirty (30) days" -> "fifteen
    (15) days", "36 consecutive months" -> "48 consecutive months", "one-year cap" -> "six-month cap", "a
    three (3) month period" -> "a six (6) month period"."""
    number = F.spell_number(int(value), like)
    if like.written == "both" and re.match(r"\d", like.text):
        # "3 (three) months": the clause puts the digits first; so does the new period ("6 (six) months").
        said = re.match(r"\d[\d,]*\s*\(\s*([^)]*?)\s*\)", like.text)
        words = to_words(int(value))
        if said and said.group(1).isupper():
            words = words.upper()
        elif said and said.group(1)[:1].isupper():
            words = words.capitalize()
        number = f"{int(value)} ({words})"
    singular = _UNIT_WORDS.get(unit, unit.rstrip("s"))
    lead = re.match(r"(?:[A-Za-z]+(?:[ -][A-Za-z]+)*\s*\(\s*\d[\d,.]*\s*\)|\d[\d,.]*\s*\([^)]*\)|\d[\d,.]*|"
                    r"[A-Za-z]+(?:-(?=[a-z]+-)[A-Za-z]+)*)", like.text)
    rest = like.text[lead.end():] if lead else ""
    unit_word = re.search(r"(?i)\b(business\s+day|calendar\s+day|day|week|month|year|hour)s?\b", rest)
    if rest.startswith("-"):
        return f"{number}-{singular}"
    if unit_word is None:
        return f"{number} {unit if value != 1 else singular}"
    attributive = bool(_ATTRIBUTIVE.match(clause[like.end:like.end + 16])) and not _was_plural(like.text)
    plural = value != 1 and not attributive
    same_unit = _UNIT_WORDS.get(unit, "").replace("calendar ", "") == unit_word.group(1).lower().replace("calendar ", "")
    words = (unit_word.group(1) if same_unit else singular) + ("s" if plural else "")
    if like.text.isupper():
        words = words.upper()
    elif unit_word.group(0)[:1].isupper():
        words = words.title()
    return number + rest[:unit_word.start()] + words + rest[unit_word.end():]


def _was_plural(text: str) -> bool:
    return bool(re.search(r"(?:days|weeks|months|years|hours)\b", text, re.I))


def change_amount(clause: str, part: Part) -> OperationResult:
    value = part.params.get("amount")
    if value is None:
        raise Declined("The amount asked for could not be read.")
    found = F.amounts(clause)
    if not found:
        raise Declined("The clause states no amount to change.")
    old = targeted_old(part, clause, "amount")
    if not old:
        raise Declined("The clause states " + f"{len(found)} amounts ({', '.join(f.text for f in found)}); say which "
                       "one to change.")
    if all(abs(o.value - value) < 1e-6 for o in old):
        _already(old, [f for f in found if abs(f.value - value) >= 1e-6])
    edits = []
    for o in old:
        start, end, new = _amount_span(clause, o, value)
        edits.append(edit(clause, start, end, new, f"the amount changes from {clause[start:end]} to {new}, as "
                                                   "instructed"))
    return OperationResult("change_amount", f"Amount changed to {edits[0].new}", clause, edits)


_CURRENCY_QUALIFIER = r"(?:U\.\s?S\.|US|United\s+States|Canadian|Australian|Singapore|Hong\s+Kong|New\s+Zealand)"
_WORDS_BEFORE = re.compile(rf"((?:{NUMBER_WORDS})(?:[ -]+(?:{NUMBER_WORDS}|and))*)(\s+(?:and\s+No/100\s+)?"
                           rf"(?:{_CURRENCY_QUALIFIER}\s+)?(?:Dollars|DOLLARS|dollars|Euros|Pounds|Rubles|Roubles)?)\s*\($", re.I)


def _amount_span(clause: str, like: F.Figure, value: float) -> tuple[int, int, str]:
    """(start, end, new text): the figure, and the words before it when the clause writes both
    ("One Million and No/100 Dollars ($1,000,000.00)")."""
    words = _WORDS_BEFORE.search(clause[max(0, like.start - 90):like.start])
    if like.written != "both" and words and clause[like.end:like.end + 1] == ")":
        start = like.start - len(words.group(0))
        figure = _write_amount(value, like)
        number = _words_like(value, words.group(1))
        return start, like.end + 1, f"{number}{words.group(2)} ({figure})"
    after = _WORDS_AFTER.match(clause, like.end)
    if like.written != "both" and after:
        # "£500 (five hundred pounds)": the same figure said twice; both change, or neither (the words
        # would otherwise still say the old amount, and no check reads a currency the reader does not know).
        said = after.group("words")
        unit = _WORDS_UNIT.search(said)
        number = said[:unit.start()] if unit else said
        if not re.fullmatch(rf"(?:{NUMBER_WORDS}|and|[\s-])+", number.strip(), re.I):
            raise Declined(f"The clause writes the amount in words as well (“{said}”), in a form the operation cannot "
                           "rewrite; the drafting assistant can.")
        new = f"{_write_amount(value, like)} ({_words_like(value, number.strip())}{unit.group(0) if unit else ''})"
        return like.start, after.end(), new
    if like.written != "both" and _says_amount_again(clause, like):
        raise Declined("The clause writes the amount in words as well, in a form the operation cannot rewrite; the "
                       "drafting assistant can.")
    return like.start, like.end, _write_amount(value, like)


# Words in brackets right after a figure that open with a number word: the figure said again in words
# ("£500 (five hundred pounds)"), not a note about it ("£5,000 (for each of two years)").
# (A currency code before the words, "RMB10,000 (RMB TEN THOUSAND)", the figures reader joins to the figure:
# written "both", rewritten by _write_amount.)
_WORDS_AFTER = re.compile(rf"\s*\(\s*(?P<words>(?:{NUMBER_WORDS})\b[^()\d]*?)\s*\)", re.I)
# A code before the words, as the reader knows them: it stays as written.
_CODE_LEAD = re.compile(rf"\s*(?:{F.CURRENCY_CODES})\s+", re.I)
# A bracket right after the figure (its words read for the figure's own value below): if it says the
# amount in a form not rewritten above, the operation declines rather than leave the old amount in words
# beside the new figure.
_BRACKET_AFTER = re.compile(r"\s*\(([^()\d]*)\)")
_NUMBER_RUN = re.compile(rf"\b(?:{NUMBER_WORDS})(?:[\s-]+(?:and[\s-]+)?(?:{NUMBER_WORDS}))*\b", re.I)


def _says_amount_again(clause: str, like: F.Figure) -> bool:
    bracket = _BRACKET_AFTER.match(clause, like.end)
    return bool(bracket) and any(words_value(m.group(0).lower()) == like.value
                                 for m in _NUMBER_RUN.finditer(bracket.group(1)))
_WORDS_UNIT = re.compile(r"\s+(?:(?:U\.\s?S\.|US|United\s+States|Canadian|Australian)\s+)?"
                         r"(?:dollars|euros|pounds(?:\s+sterling)?|ro?ubles|francs|yen|rupees|cents|pence|sterling)$", re.I)


def _words_like(value: float, old: str) -> str:
    number = to_words(int(value)) if float(value).is_integer() else ""
    if not number or number.isdigit():
        raise Declined("The clause writes the amount in words as well as figures, and the new amount cannot be "
                       "written in words here; the drafting assistant can.")
    if old.isupper():
        return number.upper()
    if old[:1].isupper():
        return "-".join(p[:1].upper() + p[1:] for p in " ".join(w.capitalize() if w != "and" else w
                                                                for w in number.split(" ")).split("-"))
    return number


def _same_marker(figure: str, old: str) -> str:
    """The new figure with the old one's currency marker: "US$2,000,000" -> "US$5,000,000", not "$5,000,000"."""
    had = re.search(r"(?:US|U\.S\.\s?|A|AU|C|CA|NZ|HK|S)\$(?=\s?\d)", old)
    if had and figure.startswith("$"):
        return had.group(0) + figure[1:]
    return figure


def _write_amount(value: float, like: F.Figure) -> str:
    """The new amount in the form the clause used: "$7,500", "Seven Thousand Five Hundred Dollars ($7,500)",
    "($2,000,000.00)", "$85,000USD"."""
    figure = _same_marker(F.format_amount(value, like), like.text)
    if re.search(r"\.\d\d\b", like.text) and "." not in figure:
        figure += ".00"
    suffix = re.search(r"\d([A-Z]{3})\b", like.text)
    if suffix:
        figure += suffix.group(1)
    space = re.search(r"\d([ \u00a0\u202f])\d{3}", like.text.split("(")[0])
    if space:
        figure = figure.replace(",", space.group(1))  # "RUB 50 000 000": the clause groups with spaces
    if like.written != "both":
        return figure
    digits_first = re.match(r"[^()]*\d[^()]*?\s*\((?P<words>[^()\d]+)\)$", like.text)
    if digits_first:  # "RUB 50 000 000 (fifty million roubles)": the figure, then the words in brackets
        said = digits_first.group("words")
        unit = re.search(r"\s+(?:[Dd]ollars|DOLLARS|[Ee]uros|[Pp]ounds(?: [Ss]terling)?|[Rr]o?ubles|[A-Z][a-z]+s)$", said)
        code = _CODE_LEAD.match(said)  # "(RMB TEN THOUSAND)": the code stays
        words = said[code.end():] if code else said
        return f"{figure} ({code.group(0).strip() + ' ' if code else ''}{_words_like(value, words)}{unit.group(0) if unit else ''})"
    words_part = re.match(r"(.*?)\s*\(", like.text)
    if not words_part:
        return figure
    old_words = words_part.group(1)
    # The currency's own words stay ("five million U.S. Dollars": "U.S." is no number word).
    tail = re.search(rf"\s+(?:and\s+No/100\s+)?(?:{_CURRENCY_QUALIFIER}\s+)?(?:[Dd]ollars|DOLLARS|[Ee]uros|[Pp]ounds|[A-Z][a-z]+)$",
                     old_words)
    number = to_words(int(value)) if float(value).is_integer() else None
    if number is None or number.isdigit():
        raise Declined("The clause writes the amount in words as well as figures, and the new amount cannot be "
                       "written in words here; the drafting assistant can.")
    if old_words[:1].isupper():
        number = " ".join(w.capitalize() if w not in ("and",) else w for w in re.split(r" ", number))
        number = "-".join(p[:1].upper() + p[1:] for p in number.split("-"))
    if old_words.isupper():
        number = number.upper()
    return f"{number}{tail.group(0) if tail else ''} ({figure})"
