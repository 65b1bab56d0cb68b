"""Periods ("thirty (30) days", "12 months", "ten business days") and amounts ("$162,164").

A period is found in any of the forms contracts use: figures, words, or words with the
figure in brackets. ``spell`` writes one back in the form the clause already used, so
"thirty (30) days" becomes "fifteen (15) days", never "fifteen (30) days".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
WORDS: dict[str, int] = {w: i for i, w in enumerate(_UNITS)}
WORDS.update({w: 10 * i for i, w in enumerate(_TENS) if w})
for _t in range(2, 10):
    for _u in range(1, 10):
        WORDS[f"{_TENS[_t]}-{_u and _UNITS[_u]}"] = 10 * _t + _u
WORDS.update({"one hundred": 100, "hundred": 100, "a": 1, "an": 1})
_NUMBER_WORDS = "|".join(sorted((re.escape(w) for w in WORDS if w not in {"a", "an"}),
                                key=len, reverse=True))
UNIT = r"(?:(?:business|calendar|working) )?(?:days?|weeks?|months?|years?)"
PERIOD_RE = re.compile(
    rf"\b(?:(?P<word>{_NUMBER_WORDS})\s*\((?P<paren>\d{{1,4}})\)|(?P<digits>\d{{1,4}})|"
    rf"(?P<alone>{_NUMBER_WORDS}))\s+(?P<unit>{UNIT})\b", re.IGNORECASE)
AMOUNT_RE = re.compile(r"(?P<cur>[$£€])\s?(?P<num>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<cents>\d{2}))?")


@dataclass(frozen=True)
class Period:
    value: int
    unit: str  # normalised: "days", "business days", "months", "years", "weeks"
    start: int
    end: int
    form: str  # "words+figure", "figure", "words"
    text: str
    consistent: bool = True  # words and figure agree ("thirty (30)")


def to_words(n: int) -> str:
    if n < 20:
        return _UNITS[n]
    if n < 100:
        tens, units = divmod(n, 10)
        return _TENS[tens] + (f"-{_UNITS[units]}" if units else "")
    if n == 100:
        return "one hundred"
    return str(n)


def normal_unit(unit: str) -> str:
    unit = unit.lower()
    return unit if unit.endswith("s") else unit + "s"


def periods(text: str) -> list[Period]:
    found = []
    for m in PERIOD_RE.finditer(text):
        unit = normal_unit(m.group("unit"))
        if m.group("word"):
            value, figure = WORDS[m.group("word").lower()], int(m.group("paren"))
            found.append(Period(figure, unit, m.start(), m.end(), "words+figure", m.group(0),
                                value == figure))
        elif m.group("digits"):
            found.append(Period(int(m.group("digits")), unit, m.start(), m.end(), "figure",
                                m.group(0)))
        else:
            found.append(Period(WORDS[m.group("alone").lower()], unit, m.start(), m.end(),
                                "words", m.group(0)))
    return found


def spell(value: int, unit: str, like: Period | None) -> str:
    """The period in the form ``like`` used (words+figure when there is no example)."""
    unit = unit if value != 1 else unit.rstrip("s")
    form = like.form if like else "words+figure"
    words = to_words(value)
    if like is not None and like.text[:1].isupper():
        words = words.capitalize()
    if form == "figure":
        return f"{value} {unit}"
    if form == "words":
        return f"{words} {unit}"
    return f"{words} ({value}) {unit}"


def same_unit(a: str, b: str) -> bool:
    """Days and business days are different things; singular and plural are not."""
    return normal_unit(a) == normal_unit(b)


@dataclass(frozen=True)
class Amount:
    value: int
    currency: str
    start: int
    end: int
    text: str


def amounts(text: str) -> list[Amount]:
    return [Amount(int(m.group("num").replace(",", "")), m.group("cur"), m.start(), m.end(),
                   m.group(0)) for m in AMOUNT_RE.finditer(text)]


def format_amount(value: int, like: Amount | None) -> str:
    currency = like.currency if like else "$"
    grouped = f"{value:,}" if (like is None or "," in like.text or value >= 10000) else str(value)
    return f"{currency}{grouped}"
