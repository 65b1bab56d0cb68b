"""Dates written in contract prose: "January 5, 2024", "5th day of January, 2024", "2024-01-05".

The core's one reader of dates (the index's effective-date facet reads through it) and its one
list of month names (a month is never a defined term). Which date a document takes effect on
is the caller's question: this reads where dates are written and what they are; "February 30"
is no date and is skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
_MONTH = "|".join(MONTHS)
_DATE = re.compile(
    rf"\b(?:({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})"
    rf"|(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:day of\s+)?({_MONTH}),?\s+(\d{{4}})|(\d{{4}})-(\d{{2}})-(\d{{2}}))\b")
_YEAR = re.compile(r"\d{4}")


@dataclass(frozen=True)
class WrittenDate:
    start: int
    end: int
    value: date


def dates(text: str) -> list[WrittenDate]:
    """Every date ``text`` writes, in order, with its span."""
    if not _YEAR.search(text):
        return []  # every form has a four-digit year: most paragraphs have none
    out = []
    for match in _DATE.finditer(text):
        value = _value(match.groups())
        if value is not None:
            out.append(WrittenDate(match.start(), match.end(), value))
    return out


def first_date(text: str) -> date | None:
    found = dates(text)
    return found[0].value if found else None


def _value(g: tuple[str | None, ...]) -> date | None:
    try:
        if g[0]:
            return date(int(g[2]), MONTHS.index(g[0]) + 1, int(g[1]))
        if g[4]:
            return date(int(g[5]), MONTHS.index(g[4]) + 1, int(g[3]))
        return date(int(g[6]), int(g[7]), int(g[8]))
    except ValueError:  # "February 30": not a date
        return None
