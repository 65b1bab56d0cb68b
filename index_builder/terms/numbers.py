"""Numbers as contracts write them: "30", "1,000,000", "twelve", "forty-five", "twelve (12)".

Pure functions over strings; every parsed number keeps the span it came from, so whatever
figure is built on it can be traced to the clause's characters.
"""

from __future__ import annotations

import re

_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split())
         if w != "_"}
_SIMPLE = "|".join(sorted([*_UNITS, *_TENS], key=len, reverse=True))
# "forty-five", "one hundred", "three hundred sixty-five", "one hundred and twenty"
WORDS = (rf"(?:(?:{_SIMPLE})(?:[\s-]+hundred(?:[\s-]+(?:and[\s-]+)?(?:{_SIMPLE})(?:-(?:{_SIMPLE}))?)?)?"
         rf"(?:-(?:{_SIMPLE}))?)")
DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
# A number in words, digits, or both ("twelve (12)"): the figure is the pair as one span.
NUMBER = rf"(?:{WORDS}\s*\(\s*{DIGITS}\s*\)|{DIGITS}|{WORDS})"


def words_value(text: str) -> int | None:
    """'forty-five' -> 45, 'three hundred sixty-five' -> 365; None when not a number in words."""
    total, current = 0, 0
    parts = [p for p in re.split(r"[\s-]+", text.lower().strip()) if p and p != "and"]
    if not parts:
        return None
    for part in parts:
        if part in _UNITS:
            current += _UNITS[part]
        elif part in _TENS:
            current += _TENS[part]
        elif part == "hundred":
            current = max(current, 1) * 100
        else:
            return None
    return total + current


def value(text: str) -> float | None:
    """The value of a NUMBER match; for "twelve (12)" the digits, when words and digits agree."""
    text = text.strip()
    paired = re.fullmatch(rf"({WORDS})\s*\(\s*({DIGITS})\s*\)", text, re.I)
    if paired:
        said, written = words_value(paired.group(1)), float(paired.group(2).replace(",", ""))
        # "ten (12) days" is a drafting error: neither figure can be shown as the clause's.
        return written if said == written else None
    if re.fullmatch(DIGITS, text):
        return float(text.replace(",", ""))
    found = words_value(text)
    return None if found is None else float(found)
