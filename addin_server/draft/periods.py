"""Periods and amounts as the drafting operations and checks use them: thin views of the
clause-reading core's figures (index_builder/reading/figures.py, the one reader), in the units an
instruction names ("days", "business days", "calendar days").

``spell`` writes a period back in the form the clause already used, so "thirty (30) days" becomes
"fifteen (15) days", never "fifteen (30) days".
"""

from __future__ import annotations

from dataclasses import dataclass

from index_builder.reading import figures as core

_UNITS = {"day": "days", "business_day": "business days", "week": "weeks", "month": "months",
          "year": "years", "hour": "hours"}
_FORMS = {"both": "words+figure", "words": "words", "digits": "figure", "ocr": "figure"}


@dataclass(frozen=True)
class Period:
    value: int | float
    unit: str  # normalised: "days", "business days", "calendar days", "months", "years", "weeks", "hours"
    start: int
    end: int
    form: str  # "words+figure", "figure", "words"
    text: str
    consistent: bool = True  # words and figure agree ("thirty (30)")
    figure: core.Figure | None = None


@dataclass(frozen=True)
class Amount:
    value: int | float
    currency: str  # ISO code
    start: int
    end: int
    text: str
    figure: core.Figure | None = None


def _whole(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def periods(text: str) -> list[Period]:
    out = []
    for f in core.periods(text):
        unit = _UNITS.get(f.unit or "", f.unit or "")
        if unit == "days" and "calendar" in f.text.lower():
            unit = "calendar days"
        out.append(Period(_whole(f.value), unit, f.start, f.end, _FORMS[f.written], f.text, not f.disagree, f))
    return out


def amounts(text: str) -> list[Amount]:
    return [Amount(_whole(f.value), f.currency or "", f.start, f.end, f.text, f) for f in core.amounts(text)]


def normal_unit(unit: str) -> str:
    unit = unit.lower()
    return unit if unit.endswith("s") else unit + "s"


def same_unit(a: str, b: str) -> bool:
    """Days and business days are different things; singular and plural are not."""
    return normal_unit(a) == normal_unit(b)


def spell(value: int, unit: str, like: Period | None) -> str:
    """The period in the form ``like`` used (words and figure when there is no example)."""
    unit = unit if value != 1 else unit.rstrip("s")
    if like is not None and like.text.isupper():
        unit = unit.upper()
    return f"{core.spell_number(value, like.figure if like else None)} {unit}"


def format_amount(value: int, like: Amount | None) -> str:
    return core.format_amount(value, like.figure if like else None)
