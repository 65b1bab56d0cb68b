"""Numbers as contracts write them, read and written back.

Read: "30", "1,000,000", "2.50", ".0001"; OCR'd digits ("1,O00,000", "5OO,000": a letter O among
digits); words ("forty five", "three hundred sixty-five", "one million three hundred thousand",
"one and one half", "eighty-two and one-half", "one third", "two fifths"); and the two together, in
either order and in round or square brackets ("thirty (30)", "30 (thirty)", "one hundred eighty [180]",
"one fifth (1/5th)"). Where words and digits disagree ("ten (12)") the words
prevail, as the usual rule of construction has it, and the number says so (``disagree``).

Written: ``to_words`` for the drafting operations, which spell a new figure the way the clause
spelled the old one. Pure functions over strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
          "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
SMALL = {w: i for i, w in enumerate(_UNITS)} | {w: 10 * i for i, w in enumerate(_TENS) if w != "_"}
SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_FRACTIONS = {"half": 1 / 2, "halves": 1 / 2, "third": 1 / 3, "thirds": 1 / 3, "quarter": 1 / 4,
              "quarters": 1 / 4, "fourth": 1 / 4, "fourths": 1 / 4}
# "one fifth", "two-fifths", "one tenth": an ordinal is a denominator only after a count (never
# "the fifth day"), so these are read only in FRACTION's "count denominator" form.
_ORDINALS = {w: 1 / n for n, w in enumerate("_ _ _ _ _ fifth sixth seventh eighth ninth tenth".split()) if w != "_"}
_FRACTIONS |= _ORDINALS | {w + "s": v for w, v in _ORDINALS.items()}

_S = "|".join(sorted(SMALL, key=len, reverse=True))
_SC = "|".join(SCALES)
_TOKEN = rf"(?:{_S}|{_SC})"
_J = r"(?:[ \t]+|[ \t]*-[ \t]*)"  # words join by spaces or hyphens, never across a line
JOIN, WORD_TOKEN = _J, _TOKEN  # read after "a" in figures.mentions ("a hundred and twenty")
_SEQ = rf"(?:{_S})(?:{_J}{_TOKEN})*"
_SEQ_SCALE = rf"(?:{_S})(?:{_J}{_TOKEN})*?{_J}(?:{_SC})"
FRACTION = (r"(?:(?:one|a)[ \t-]+half|(?:one|two)[ \t-]+thirds?|(?:one|three)[ \t-]+(?:quarters?|fourths?)|"
            r"(?:one|two|three|four|five|six|seven|eight|nine)[ \t-]+(?:fifth|sixth|seventh|eighth|ninth|tenth)s?)")
# "one and one half", "eighty-two and one-half", "one hundred and twenty", "one third"
WORDS = (rf"(?:{FRACTION}\b|{_SEQ_SCALE}[ \t]+and[ \t]+{_SEQ}\b|"
         rf"{_SEQ}(?:[ \t]+and[ \t]+|-and-){FRACTION}\b|{_SEQ}\b)")
DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
# Digits an OCR pass garbled: a letter O standing for a zero ("1,O00,000", "5OO,000").
OCR_DIGITS = r"(?=[\dO,]*\d[\dO,]*[O])(?:[\dO]{1,3}(?:,[\dO]{3})+|[\dO]+)"
# A mixed number in digits, as the words beside it give it: "1½", "1 1/2", and "11∕2" (1½ flattened
# by a text extraction). Only read inside the brackets after words, where the words prevail.
MIXED = r"(?:\d{1,3}[ \t]?[½¼¾⅓⅔]|[½¼¾⅓⅔]|\d{1,3}[ \t]?\d[ \t]?[/∕⁄][ \t]?\d|\d[ \t]?[/∕⁄][ \t]?\d{1,2}(?:st|nd|rd|th)?)"
# A number in words, digits, or both, in either order ("twelve (12)", "30 (thirty)", "one and one half (1½)",
# "one fifth (1/5th)"); the second form in round or square brackets ("one hundred eighty [180]").
_OPEN, _CLOSE = r"[ \t]*[(\[][ \t]*", r"[ \t]*[)\]]"
NUMBER = (rf"(?:{WORDS}{_OPEN}(?:{MIXED}|{DIGITS}){_CLOSE}|{DIGITS}{_OPEN}{WORDS}{_CLOSE}|"
          rf"{DIGITS}|{WORDS})")


@dataclass(frozen=True)
class Number:
    value: float
    written: str  # digits | words | both | ocr
    disagree: bool = False  # words and digits differ; ``value`` is the words'


def words_value(text: str) -> float | None:
    """'forty-five' -> 45, 'one million three hundred thousand' -> 1300000, 'one and one half' ->
    1.5, 'two thirds' -> 0.666..; None when the words are not one number."""
    parts = [p for p in re.split(r"[\s-]+", text.lower().strip()) if p]
    if not parts or parts[-1] not in _FRACTIONS:
        return _whole([p for p in parts if p != "and"])
    # a fraction ends it: "[whole and] [count] half|third|quarter"
    head, count = (parts[:parts.index("and")], parts[parts.index("and") + 1:-1]) if "and" in parts \
        else ([], parts[:-1])
    n = 1.0 if count in ([], ["a"]) else _whole(count)
    whole = _whole(head) if head else 0.0
    if n is None or whole is None:
        return None
    return whole + n * _FRACTIONS[parts[-1]]


def _whole(parts: list[str]) -> float | None:
    total, current = 0.0, 0.0
    if not parts:
        return None
    for part in parts:
        if part in SMALL:
            current += SMALL[part]
        elif part == "hundred":
            current = max(current, 1) * 100
        elif part in SCALES:
            total += max(current, 1) * SCALES[part]
            current = 0.0
        else:
            return None
    return total + current


def _digits(text: str) -> tuple[float, bool]:
    ocr = "O" in text
    return float(text.replace("O", "0").replace(",", "")), ocr


def read(text: str) -> Number | None:
    """The value of a NUMBER (or OCR_DIGITS) match; words win where words and digits differ."""
    text = text.strip()
    mixed = re.fullmatch(rf"({WORDS})\s*[(\[]\s*{MIXED}\s*[)\]]", text, re.I)
    if mixed:  # "one and one half (1½)": the words say it (their digits only repeat them)
        said = words_value(mixed.group(1))
        return None if said is None else Number(said, "both")
    paired = (re.fullmatch(rf"({WORDS})\s*[(\[]\s*({DIGITS})\s*[)\]]", text, re.I)
              or re.fullmatch(rf"({DIGITS})\s*[(\[]\s*({WORDS})\s*[)\]]", text, re.I))
    if paired:
        a, b = paired.group(1), paired.group(2)
        words, digits = (a, b) if re.match(r"\d", b) else (b, a)
        said, written = words_value(words), float(digits.replace(",", ""))
        if said is None:
            return Number(written, "digits")
        return Number(said, "both", disagree=abs(said - written) > 1e-9)
    if re.fullmatch(DIGITS, text):
        return Number(float(text.replace(",", "")), "digits")
    if re.fullmatch(OCR_DIGITS, text):
        value, _ = _digits(text)
        return Number(value, "ocr")
    said = words_value(text)
    return None if said is None else Number(said, "words")


def value(text: str) -> float | None:
    found = read(text)
    return None if found is None else found.value


def to_words(n: int) -> str:
    """12 -> 'twelve', 45 -> 'forty-five', 365 -> 'three hundred sixty-five', 7500 -> 'seven thousand
    five hundred', 2000000 -> 'two million'."""
    if n < 20:
        return _UNITS[n]
    if n < 100:
        tens, units = divmod(n, 10)
        return _TENS[tens] + (f"-{_UNITS[units]}" if units else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_UNITS[hundreds]} hundred" + (f" {to_words(rest)}" if rest else "")
    for scale, size in (("billion", 1_000_000_000), ("million", 1_000_000), ("thousand", 1_000)):
        if n >= size and n < size * 1000:
            top, rest = divmod(n, size)
            return f"{to_words(top)} {scale}" + (f" {to_words(rest)}" if rest else "")
    return str(n)
