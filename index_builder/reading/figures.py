"""Figures in a clause: periods, amounts, percentages and multiples, each with its span.

``figures(text)`` is the one reader of figures in the tree: the index build and Compare terms
(index_builder/terms), the drafting operations and the run-time checks (addin_server/draft) all
call it. What it reads:

* ``period``: "30 days", "thirty (30) days’", "30 (thirty) days", "one hundred eighty [180] calendar
  days", "twelve-month", "6months",
  "ten business days", "two (2) personal appearance days", "one and one half years", "48 hours",
  "12 quarters" (read as 36 months);
* ``amount``: "$162,164", "US$1,O00,000" (OCR'd zeros), "$40MM", "USD $10MM", "RMB1 million",
  "EUR 2.5 million", "100 000 €", "FIFTEEN MILLION DOLLARS", "One Million Dollars ($1,000,000)",
  "four hundred thousand ($400,000) dollars", "seven cents (7 cents)";
* ``percentage``: "8%", "fifty percent (50%)", "eighty-two and one-half percent (82.5%)",
  "25 basis points (0.25%)";
* ``multiple``: "3x", "THREE TIMES (3X)", "twenty four (24) times", "twice the", "one-half",
  "one fifth (1/5th)".

Words and digits that disagree ("fifty-five (45) days") are read as the words say, flagged
``disagree``. The invariant, tested over real clauses: ``text[start:end]`` is the figure's own
words and its value is read from them; placeholders and drafting notes (``{cap_multiplier}x``,
``[Number of days ... (commonly 60, 90, or 120 days)]``, ``<!-- Note -->``) are masked first,
so no figure ever comes from a note. Not figures: dates, ordinals ("the 20th day"), section
numbers, counts ("two copies"), weights ("100 pounds"), ages ("18 years of age").
"""

from __future__ import annotations

import bisect
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from index_builder.reading.numbers import DIGITS, MIXED, NUMBER, OCR_DIGITS, WORDS, FRACTION, read, to_words, words_value
from index_builder.reading.numbers import JOIN as _J_WORDS, WORD_TOKEN as _WORD_TOKENS
from index_builder.reading.template import blank

_I = re.IGNORECASE

# -- what is never a figure -------------------------------------------------------------------------
def mask(text: str) -> str:
    """The text with placeholders, notes and commented-out options blanked out (same length, so
    spans still hold): the one template reader's (reading/template.py), with every comment and
    any bracket that opens on a capitalised word ("[Number of days ...]") taken as template text."""
    return blank(text, comments="all", brackets="capitalised")


# -- patterns ---------------------------------------------------------------------------------------
_MOD = (r"(?:calendar|business|working|trading|banking|consecutive|successive|additional|full|"
        r"contract|fiscal|personal[ \t]+appearance)")
_UNIT = r"(?P<u>hours?|days?|weeks?|months?|years?|quarters?)"
_PERIOD = re.compile(
    rf"(?<![\w§.$€£,/-])(?P<n>{NUMBER})(?:[ \t]+or[ \t]+more)?(?P<mods>(?:[ \t]*-?[ \t]*{_MOD}){{0,2}})"
    rf"[ \t]*-?[ \t]*{_UNIT}\b(?![ \t]+of[ \t]+age\b)(?<!years[ \t]old)(?:['’]s?)?", _I)

_SYMBOL = {"$": "USD", "us$": "USD", "u.s.$": "USD", "a$": "AUD", "au$": "AUD", "c$": "CAD",
           "ca$": "CAD", "hk$": "HKD", "s$": "SGD", "€": "EUR", "£": "GBP", "¥": "JPY", "rmb": "CNY"}
# The currency codes the reader knows (public: the amount operation keeps one before words it rewrites).
CURRENCY_CODES = _CODES = "USD|EUR|GBP|CHF|AUD|CAD|CNY|RMB|JPY|HKD|SGD|INR|SEK|NOK|DKK|NZD|RUB|ZAR|BRL|MXN|KRW|PLN|CZK|HUF|TRY|ILS|AED|SAR|TWD"
_NAMES = {"dollar": "USD", "euro": "EUR", "pounds sterling": "GBP", "pound sterling": "GBP",
          "australian dollar": "AUD", "canadian dollar": "CAD", "hong kong dollar": "HKD",
          "singapore dollar": "SGD", "us dollar": "USD", "u.s. dollar": "USD", "united states dollar": "USD", "yuan": "CNY",
          "renminbi": "CNY", "swiss franc": "CHF", "yen": "JPY", "rouble": "RUB", "ruble": "RUB"}
_SYM = r"(?:U\.?S\.?[ \t]?\$|A\$|AU\$|C\$|CA\$|HK\$|S\$|\$|€|£|¥)"
_AMT = rf"(?:\d{{1,3}}(?:[ \u00a0\u202f]\d{{3}})+(?![\d,])|{OCR_DIGITS}|{DIGITS}|\.\d+|O(?![\w,.]))"
_SCALE_TAIL = r"(?:(?P<s>MM|mm|[mMkK]|bn|BN)\b|[ \t]?(?P<sw>thousand|million|billion)\b)"
_BEFORE = (rf"(?P<c>(?:\b(?:{_CODES})[ \t]?)?{_SYM}|\b(?:{_CODES})(?![a-z])\.?)[ \t]?(?P<n>{_AMT})"
           rf"{_SCALE_TAIL}?")
_NAME = (r"(?:(?:australian|canadian|hong[ \t]+kong|singapore|united[ \t]+states|us|u\.s\.)[ \t]+dollars?|dollars?|"
         r"euros?|pounds?[ \t]+sterling|yuan|renminbi|swiss[ \t]+francs?|yen|roubles?|rubles?)")
# The figure said again in words: "£1,000,000 (one million pounds)", "RMB10,000 (RMB TEN THOUSAND)". Bare
# "pounds" names the currency only here, after a figure whose symbol already did (alone it is also a weight).
_MONEY_BEFORE = re.compile(_BEFORE + rf"(?:[ \t]*\([ \t]*(?:(?:{_CODES})[ \t]+)?(?P<w>{WORDS})(?:[ \t]+(?:{_NAME}|pounds?))?"
                                     rf"[ \t]*\))?", _I)
# "One Million Dollars ($1,000,000)", "ONE (1) MILLION DOLLARS ($1,000,000)", "One Hundred and No/100
# Dollars ($100.00)" (a cheque's cents): the words, their scale and cents, then the digits in brackets.
_MONEY_WORDS_PAIR = re.compile(
    rf"(?<![\w-])(?P<w>{WORDS}(?:[ \t]*\([ \t]*{DIGITS}[ \t]*\))?)(?:[ \t]+(?P<ws>thousand|million|billion))?"
    rf"(?:[ \t]+and[ \t]+(?P<cents>no|\d{{1,2}})[ \t]*/[ \t]*100)?"
    rf"(?:[ \t]+(?P<wc>{_NAME}))?[ \t]*\([ \t]*{_BEFORE}[ \t]*(?:{_CODES})?[ \t]*\)"
    rf"(?:[ \t]*(?P<tail>{_NAME}))?", _I)
_MONEY_AFTER = re.compile(
    rf"(?<![\w.,$])(?<!\d[ \u00a0\u202f])(?P<n>{NUMBER}|\d{{1,3}}(?:[ \u00a0\u202f]\d{{3}})+)"
    rf"(?:[ \t]?(?P<sw>thousand|million|billion))?[ \t]?(?P<c>\b(?:{_CODES})\b|€|{_NAME}\b)", _I)
_CENTS = re.compile(rf"(?<![\w$.])(?P<n>{NUMBER})[ \t]+cents?\b(?:[ \t]*\([ \t]*(?P<d>{DIGITS})[ \t]+cents?[ \t]*\))?", _I)
_SCALE = {"grand": 1e3, "thousand": 1e3, "million": 1e6, "billion": 1e9, "k": 1e3, "m": 1e6, "mm": 1e6, "bn": 1e9}

_PERCENT = re.compile(
    rf"(?<![\w.])(?P<n>{NUMBER}|_+\d+(?:\.\d+)?_+)[ \t]?(?:%|percent\b|per[ \t]cent\b|per[ \t]centum\b)"
    rf"(?:[ \t]*\([ \t]*(?P<d>{DIGITS})[ \t]?%[ \t]*\))?", _I)
_BASIS_POINTS = re.compile(
    rf"(?<![\w.])(?P<n>{NUMBER})[ \t]+basis[ \t]+points?(?:[ \t]*\([ \t]*(?P<d>{DIGITS})[ \t]?%[ \t]*\))?", _I)
_WHAT = (r"(?:the|an?|such|all|any|its|their|his|her|total|aggregate|fees?|amounts?|value|sum|price|"
         r"monthly|annual|average|then|that|this|those|each|charges?|compensation|payments?|"
         r"purchase|contract|royalt(?:y|ies))\b")
_TIMES = re.compile(
    rf"(?<![\w{{}}.])(?P<n>{NUMBER})[ \t]*(?:x|×|times)\b(?:[ \t]*\([ \t]*(?P<d>{DIGITS})[ \t]?[x×][ \t]*\))?"
    rf"(?=[ \t]*(?:\([^()]*\)[ \t]*)?(?:{_WHAT}|[.,;:)]|$))", _I)
_TWICE = re.compile(r"\b(?:twice|double)(?=[ \t]+(?:the|its|their|such|that|any)\b)", _I)
# "the fees paid in the 12 months ... multiplied by (a) twenty-four (24)": the multiplier follows
_MULTIPLIED = re.compile(rf"\bmultiplied[ \t]+by[ \t]+(?:\([a-z]\)[ \t]+)?(?P<n>{NUMBER})(?![ \t]*(?:%|percent))", _I)
# "one-half", "one fifth (1/5th)": a fraction in words, its digits in brackets after it if written
_FRACTION = re.compile(rf"(?<![\w-])(?<!and )(?P<n>{FRACTION}(?:[ \t]*[(\[][ \t]*{MIXED}[ \t]*[)\]])?)(?![\w-])", _I)


# -- the figure -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Figure:
    """One figure; ``text`` is ``clause[start:end]``, word for word."""

    kind: str  # period | amount | percentage | multiple
    value: float
    unit: str | None  # periods: day, business_day, week, month, year, hour
    currency: str | None  # amounts: ISO code
    start: int
    end: int
    text: str
    written: str = "digits"  # digits | words | both | ocr
    disagree: bool = False  # words and digits differ; the words were read

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Found:
    """Figures so far; the spans they took, sorted, so a later pattern cannot reuse their words."""

    items: list[Figure] = field(default_factory=list)
    taken: list[tuple[int, int]] = field(default_factory=list)

    def free(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.taken, (start, start))
        before = self.taken[i - 1] if i else None
        after = self.taken[i] if i < len(self.taken) else None
        return (before is None or before[1] <= start) and (after is None or after[0] >= end)

    def add(self, text: str, kind: str, value: float, unit: str | None, currency: str | None,
            start: int, end: int, written: str, disagree: bool = False) -> None:
        while end > start and text[end - 1] in "'’ \t":  # "30 days’ notice": the figure ends at the unit
            end -= 1
        if value < 0 or not self.free(start, end):
            return
        self.items.append(Figure(kind, value, unit, currency, start, end, text[start:end], written, disagree))
        bisect.insort(self.taken, (start, end))


# A line break, form feed or vertical tab between a figure's words is a space ("eighteen\n(18)
# months" where a document wraps): the patterns read spaces and tabs, and one character for one keeps
# every span pointing into the text as written.
_BREAKS = str.maketrans("\n\r\f\v\x85\u2028\u2029", "       ")



def same(a: Figure, b: Figure) -> bool:
    """The same figure, wherever it stands: kind, value and unit ("30 days" in the clause and in a draft)."""
    return a.kind == b.kind and abs(a.value - b.value) < 1e-9 and (a.unit or "") == (b.unit or "")

def figures(text: str) -> list[Figure]:
    """Every figure of ``text``, in text order."""
    masked = mask(text).translate(_BREAKS)
    found = _Found()
    low = masked.lower()  # the guards scan lower case: case-blind patterns are four times slower
    for reader, needs in _READERS:
        if needs.search(low):  # most clauses name no currency, percentage or multiple
            reader(text, masked, found)
    return sorted(found.items, key=lambda f: (f.start, f.kind))


def without_figures(text: str) -> str:
    """``text`` with every figure read here blanked out (same length, so spans still hold): what a check
    reads for words once the numbers check has the figures ("thirty (30) days")."""
    chars = list(text)
    for f in figures(text):
        chars[f.start:f.end] = " " * (f.end - f.start)
    return "".join(chars)


def periods(text: str) -> list[Figure]:
    return [f for f in figures(text) if f.kind == "period"]


def amounts(text: str) -> list[Figure]:
    return [f for f in figures(text) if f.kind == "amount"]


# -- readers ----------------------------------------------------------------------------------------

_SHARE_AFTER = re.compile(r"[ \t]*(?:[(\[][ \t]*\d+(?:\.\d+)?[ \t]*%|of[ \t]+(?:the|all|any|its|such|each|gross|net)\b)", _I)


def _periods(text: str, masked: str, found: _Found) -> None:
    for m in _PERIOD.finditer(masked):
        number = read(m.group("n"))
        if number is None or number.value <= 0:
            continue
        unit = m.group("u").lower().rstrip("s")
        mods = m.group("mods").lower()
        value = number.value
        if unit == "year" and value >= 1000:
            continue  # "the 2018 Calendar Year" names a year; no term runs a thousand years
        if unit == "quarter":
            if _SHARE_AFTER.match(masked, m.end()):
                continue  # "one quarter (25%) of the gross amounts": a share, not three months
            unit, value = "month", value * 3
        elif unit == "day" and re.search(r"business|working|trading|banking", mods):
            unit = "business_day"
        found.add(text, "period", value, unit, None, m.start(), m.end(), number.written, number.disagree)


def _currency(raw: str) -> str:
    raw = re.sub(r"\s+", " ", raw.strip().lower().rstrip(".")).replace(" $", "$")
    if raw in _SYMBOL:
        return _SYMBOL[raw]
    if raw.endswith("$") and raw[:-1].strip().upper() in _CODES.split("|"):
        return raw[:-1].strip().upper().replace("RMB", "CNY")  # "USD $10MM"
    if raw.upper() in _CODES.split("|"):
        return raw.upper().replace("RMB", "CNY")
    name = re.sub(r"s$", "", raw).replace("pound sterling", "pounds sterling")
    return _NAMES.get(name, _NAMES.get(raw, "USD"))


def _scaled(m: re.Match[str]) -> tuple[float, str, bool] | None:
    raw = m.group("n")
    number = read(raw) if raw != "O" else None
    if raw == "O":
        value, written, disagree = 0.0, "ocr", False
    elif number is None:
        grouped = re.sub(r"[ \u00a0\u202f]", "", raw)
        if not re.fullmatch(rf"{DIGITS}|\.\d+", grouped):
            return None
        value, written, disagree = float(grouped.replace(",", "")), "digits", False
    else:
        value, written, disagree = number.value, number.written, number.disagree
    scale = (m.groupdict().get("s") or m.groupdict().get("sw") or "").lower()
    return value * _SCALE.get(scale, 1.0), written, disagree


# Lower-case words without which _MONEY_AFTER (a currency after the number) and _CENTS cannot match.
_NAMED = r"dollar|euro|pound|yuan|renminbi|franc|yen|roubl|rubl"
_AFTER_NEEDS = re.compile(rf"\b(?:{_CODES.lower()})\b|€|{_NAMED}")
# ... and without which _MONEY_WORDS_PAIR cannot: its digits in brackets open with a currency.
_CENTS_NEEDS, _BASIS_NEEDS = "cent", "basis"
_PAIR_NEEDS = re.compile(rf"\([ \t]*(?:[$€£¥]|u\.?s|[a-z]{{1,2}}\$|\b(?:{_CODES.lower()}))")


def _amounts(text: str, masked: str, found: _Found) -> None:
    low = masked.lower()
    for m in _MONEY_WORDS_PAIR.finditer(masked) if _PAIR_NEEDS.search(low) else ():  # "One Million Dollars ($1,000,000)"
        digits = _scaled(m)
        said = read(m.group("w"))
        if digits is None or said is None:
            continue
        value = said.value * _SCALE.get((m.group("ws") or "").lower(), 1.0)
        cents = (m.group("cents") or "no").lower()
        value += 0.0 if cents == "no" else int(cents) / 100
        written = "ocr" if digits[1] == "ocr" else "both"
        found.add(text, "amount", value, None, _currency(m.group("c")), m.start(), m.end(), written,
                  abs(value - digits[0]) > 1e-6)
    for m in _MONEY_BEFORE.finditer(masked):
        digits = _scaled(m)
        if digits is None:
            continue
        value, written, disagree = digits
        if m.group("w"):  # "$1,000,000 (one million dollars)"
            said = read(m.group("w"))
            if said is not None:
                written, disagree, value = "both", abs(said.value - value) > 1e-6, said.value
        found.add(text, "amount", value, None, _currency(m.group("c")), m.start(), m.end(), written, disagree)
    for m in _MONEY_AFTER.finditer(masked) if _AFTER_NEEDS.search(low) else ():
        got = _scaled(m)
        if got is not None:
            found.add(text, "amount", got[0], None, _currency(m.group("c")), m.start(), m.end(), got[1], got[2])
    for m in _CENTS.finditer(masked) if _CENTS_NEEDS in low else ():
        number = read(m.group("n"))
        if number is None:
            continue
        written, disagree = number.written, number.disagree
        if m.group("d"):
            written, disagree = "both", abs(number.value - float(m.group("d").replace(",", ""))) > 1e-9
        found.add(text, "amount", number.value / 100, None, "USD", m.start(), m.end(), written, disagree)


def _percentages(text: str, masked: str, found: _Found) -> None:
    for m in _PERCENT.finditer(masked):
        raw = m.group("n").strip("_")
        number = read(raw)
        if number is None:
            continue
        written, disagree = number.written, number.disagree
        if m.group("d"):
            digits = float(m.group("d").replace(",", ""))
            disagree = disagree or abs(digits - number.value) > 1e-9
            written = "both" if number.written == "words" else written
        found.add(text, "percentage", number.value, None, None, m.start(), m.end(), written, disagree)
    for m in _BASIS_POINTS.finditer(masked) if _BASIS_NEEDS in masked.lower() else ():
        number = read(m.group("n"))
        if number is None:
            continue
        value = float(m.group("d")) if m.group("d") else number.value / 100
        found.add(text, "percentage", value, None, None, m.start(), m.end(),
                  "both" if m.group("d") else number.written)


def _multiples(text: str, masked: str, found: _Found) -> None:
    for m in _TIMES.finditer(masked):
        number = read(m.group("n"))
        if number is None or number.value <= 0:
            continue
        written, disagree = number.written, number.disagree
        if m.group("d"):
            disagree = disagree or abs(float(m.group("d")) - number.value) > 1e-9
            written = "both" if number.written == "words" else written
        found.add(text, "multiple", number.value, None, None, m.start(), m.end(), written, disagree)
    for m in _MULTIPLIED.finditer(masked):
        number = read(m.group("n"))
        if number is not None and number.value > 0:
            found.add(text, "multiple", number.value, None, None, m.start("n"), m.end("n"), number.written,
                      number.disagree)
    for m in _TWICE.finditer(masked):
        found.add(text, "multiple", 2.0, None, None, m.start(), m.end(), "words")
    for m in _FRACTION.finditer(masked):
        number = read(m.group("n"))
        if number is not None:
            found.add(text, "multiple", number.value, None, None, m.start(), m.end(), number.written)


# What each reader's patterns cannot match without: a cheap scan that skips a reader, never changes
# what it reads (each is a superset of its patterns' required words; the index build reads every
# clause, and the number patterns are the costly part of it).
_READERS = (
    (_amounts, re.compile(rf"[$€£¥]|\b(?:{_CODES.lower()})|{_NAMED}|cent")),
    (_percentages, re.compile(r"%|per[ \t]?cent|basis[ \t]+point")),
    (_periods, re.compile(r"hour|day|week|month|year|quarter")),
    (_multiples, re.compile(r"[\d) \t][x×]\b|times|twice|double|multipl|half|third|quarter|fourth|fifth|sixth|"
                            r"seventh|eighth|ninth|tenth")),
)


# -- writing a figure back the way the clause wrote it (the drafting operations) ------------------

def spell_number(value: int, like: Figure | None = None) -> str:
    """A number in the form ``like`` used: "fifteen (15)" for "thirty (30)", "15" for "30",
    "fifteen" for "thirty", "FIFTEEN (15)" for "THIRTY (30)"; words and figure with no example."""
    written = like.written if like else "both"
    words = to_words(value)
    if like is not None and like.text[:1].isupper():
        words = words.upper() if like.text.isupper() else words.capitalize()
    if written in ("digits", "ocr"):
        return str(value)
    if written == "words":
        return words
    return f"{words} ({value})"


_SIGN = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}


def format_amount(value: float, like: Figure | None = None, currency: str | None = None) -> str:
    """An amount written as ``like`` wrote its currency and grouping ("$150,000", "€2,500"), or
    in ``currency`` ("RUB 30,000,000"; dollars when neither is given)."""
    if like is not None:
        sign = re.match(rf"{_SYM}|(?:{_CODES})[ \t]?", like.text, _I)
        prefix = sign.group(0) if sign else (_SIGN.get(like.currency or "", (like.currency or "") + " "))
    else:
        prefix = _SIGN.get(currency or "USD", f"{currency} ")
    number = f"{value:,.2f}".removesuffix(".00")
    if like is not None and "," not in like.text and value < 10000:
        number = number.replace(",", "")
    return f"{prefix}{number}"


# -- counts: every other number ---------------------------------------------------------------------
# A number right after one of these names a place in a document ("Section 7.2", "Article 10",
# "Exhibit 3"), not a quantity: a redraft that cites "this Section 7.2" claims no figure.
_PLACE_BEFORE = re.compile(r"(?:\b(?:sections?|articles?|clauses?|paragraphs?|subsections?|exhibits?|schedules?|"
                           r"annex(?:es)?|appendix|appendices|attachments?|parts?|items?|rules?|chapters?)[ \t]*|§[ \t]*)$", _I)
_REFERENCE = re.compile(r"(?:\b(?P<w>section|article|clause|paragraph|subsection|exhibit|schedule|annex|appendix|"
                        r"attachment|part|item|rule|chapter)s?|(?P<sign>§))[ \t]*"
                        r"(?P<n>\d+(?:\.\d+)*(?:\([a-z0-9]{1,4}\))*)", _I)
_COUNT = re.compile(rf"(?<![\w.,]){NUMBER}(?![\w])", _I)


def counts(text: str) -> list[Figure]:
    """The numbers of ``text`` that no figure above holds, as kind "count" ("five copies",
    "2020", "8.4" in "8.4 percent" is a percentage and not here); a number naming a place in a
    document ("Section 7.2") is none. Where a figure's words and digits disagree ("Five
    Thousand Dollars ($10,000)") its digits are read here too, so a changed digit is seen."""
    taken = [f for f in figures(text) if not f.disagree]
    masked = list(mask(text))
    for f in taken:
        masked[f.start:f.end] = " " * (f.end - f.start)
    rest = "".join(masked)
    out = []
    for m in _COUNT.finditer(rest):
        if _PLACE_BEFORE.search(rest[max(0, m.start() - 16):m.start()]):
            continue
        number = read(m.group(0))
        if number is not None:
            out.append(Figure("count", number.value, None, None, m.start(), m.end(), text[m.start():m.end()],
                              number.written, number.disagree))
    return out


# A unit of time named as a word, with or without a number ("weeks", "within a month"). Not
# "quarter": on its own it is as often a fraction ("a quarter of the fees") as three months.
_DURATION_WORD = re.compile(r"\b(hour|day|week|month|year)(s?)\b", _I)


def duration_words(text: str) -> dict[str, str]:
    """The units of time a text names, as unit -> the word as written ({"week": "weeks"}): a
    redraft that speaks of weeks where its precedent speaks only of days has changed a period
    even where no number is given."""
    out: dict[str, str] = {}
    for m in _DURATION_WORD.finditer(text):
        out[m.group(1).lower()] = m.group(0)
    return out


def references(text: str) -> list[tuple[str, str]]:
    """The places in a document a text names, as (kind, number): ("section", "16.4") for "Section
    16.4", ("article", "10") for "ARTICLE 10" (the numbers ``counts`` leaves out)."""
    return [((m.group("w") or "section").lower(), m.group("n")) for m in _REFERENCE.finditer(text)]


# -- every number of a text: figures, dates and counts (the run-time number check) ---------------
# What is not a number of the deal: a citation marker ("[1]"), a limb or list number standing alone in
# brackets ("(2)"), a dotted reference with no word before it ("pursuant to 5.2", "6.1 (a)"), and the
# word "one" alone, which is as often a pronoun ("one party", "no one") as a count.
_MARKERS = re.compile(r"\[\s*\d+(?:\s*[,;-]\s*\d+)*\s*\]")
# A list's own numbering: "1." or "2)" opening a line.
_LIST_NUMBER = re.compile(r"(?m)^[ \t]*\d{1,2}[.)](?=[ \t])")
# A count with its scale, as lawyers and clients shorten it: "3m", "2 million", "500k", "a thousand",
# "a hundred and twenty" ("a" is "one" before a scale word).
# "a quarter, not a third", "a fifth of the fees": a fraction said with "a", where it is a share (never
# "a third party", "a fifth day").
_A_FRACTION = re.compile(r"\ba[ \t]+(?P<w>half|third|quarter|fourth|fifth|sixth|seventh|eighth|ninth|tenth)"
                         r"(?=[ \t]+(?:of|not|instead|rather|share)\b|[ \t]*[,.;:)]|[ \t]*$)", _I)
_SCALED_COUNT = re.compile(rf"(?<![\w.,$€£])(?:(?P<d>{DIGITS})[ \t]?(?P<s>mm|m|k|bn|thousand|million|billion|grand)\b|"
                           rf"\ba[ \t]+(?P<w>(?:hundred|thousand|million|billion)(?:(?:[ \t]+and)?{_J_WORDS}(?:{_WORD_TOKENS}))*)\b)", _I)
_DOTTED = re.compile(r"\d+(?:\.\d+)+")
_PER_UNIT = {"week": ("day", 7), "year": ("month", 12), "hour": (None, 0)}


def mentions(text: str) -> list[Figure]:
    """Every number ``text`` writes, in text order: its figures (periods, amounts, percentages,
    multiples), its dates (kind "date", ``value`` the date's ordinal, ``unit`` its ISO form), and the
    counts left ("130,300 Pin Codes", "by fifty-two"). Not read: citation markers, section and clause
    numbers, limb numbers in brackets, bare dotted references, ordinals, and "one" alone."""
    from index_builder.reading.dates import dates
    blank = list(text)
    out: list[Figure] = []
    for d in dates(text):
        out.append(Figure("date", float(d.value.toordinal()), d.value.isoformat(), None, d.start, d.end,
                          text[d.start:d.end], "digits"))
        blank[d.start:d.end] = " " * (d.end - d.start)
    for m in _MARKERS.finditer(text):
        blank[m.start():m.end()] = " " * (m.end() - m.start())
    for m in _LIST_NUMBER.finditer(text):
        blank[m.start():m.end()] = " " * (m.end() - m.start())
    rest = "".join(blank)
    out += figures(rest)
    for m in _SCALED_COUNT.finditer(rest):
        value = read(m.group("d")).value * _SCALE[m.group("s").lower()] if m.group("d") else \
            words_value("one " + m.group("w"))
        if value is None or any(f.start < m.end() and m.start() < f.end for f in out):
            continue
        out.append(Figure("count", value, None, None, m.start(), m.end(), text[m.start():m.end()],
                          "words" if m.group("w") else "digits"))
        rest = rest[:m.start()] + " " * (m.end() - m.start()) + rest[m.end():]
    for m in _A_FRACTION.finditer(rest):
        if not any(f.start < m.end() and m.start() < f.end for f in out):
            out.append(Figure("count", words_value("one " + m.group("w")) or 0.0, None, None, m.start(), m.end(),
                              text[m.start():m.end()], "words"))
    for f in counts(rest):
        if f.disagree or any(g.start <= f.start < g.end for g in out):
            continue  # a figure's digits that disagree with its words: the figure says it
        if _DOTTED.fullmatch(f.text) or f.text.lower() == "one" or \
                rest[f.start - 1:f.start] == "(" and rest[f.end:f.end + 1] == ")":
            continue
        out.append(f)
    return sorted(out, key=lambda f: f.start)


def number_keys(f: Figure) -> set[tuple[str, float]]:
    """The values a number says, so that equivalents meet: a count by its value, a period also in the
    units it converts to exactly ("two weeks" = "14 days", "one year" = "12 months"), a date by its day
    (a date's year is read as a count too, so "2029" names it)."""
    if f.kind == "date":
        return {("date", f.value)}
    keys = {("n", round(f.value, 6))}
    if f.kind == "percentage":  # "25%" is "a quarter"
        keys.add(("n", round(f.value / 100, 6)))
    if f.kind == "period" and f.unit in _PER_UNIT:
        unit, per = _PER_UNIT[f.unit]
        if unit:
            keys.add((unit, round(f.value * per, 6)))
    if f.kind == "period" and f.unit in ("day", "month"):
        keys.add((f.unit, round(f.value, 6)))
    return keys


def date_year(f: Figure) -> set[tuple[str, float]]:
    """A date's year as a count: what a text that writes "2030" gives a date (a day of the month alone
    names no date)."""
    if f.kind != "date" or not f.unit:
        return set()
    return {("n", float(f.unit.split("-")[0]))}
