"""Deterministic term extraction: the negotiable figures a clause states, each with its span.

What a clause may carry (docs/market.md lists them with examples):

* ``period``: a number and a unit of time ("30 days", "twelve (12) months", "365-calendar-day"),
  with the role it plays (notice, cure, non_compete, ...) read from the words around it;
* ``money``: a currency and an amount ("$162,164", "EUR 2.5 million", "1,000 pounds");
* ``percentage``: "8%", "fifty percent (50%)";
* ``fee_cap``: a cap as a multiple of fees ("2x the fees paid ... in the 12 month period",
  "the fees paid or payable ... in the twelve (12) month period", "12 months' fees");
* ``governing_law`` and ``forum``: a jurisdiction from a fixed list, named in a choice-of-law or
  a courts phrase;
* clause-level: ``mutuality`` (mutual / one_sided / None) and ``subprovisions`` present
  (liability_cap, super_cap, cap_carveout, consequential_exclusion).

The invariant, tested over every clause of the real agreements: a figure is only ever built from
characters of the clause (``text[start:end]``) and its value parses from them. Placeholders and
drafting notes (``{cap_multiplier}x``, ``[Number of days ... (commonly 60, 90, or 120 days)]``,
``<!-- Note ... -->``) are masked before matching, so an example in a note is never a figure.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from index_builder.terms.numbers import DIGITS, NUMBER, value as number_value

VERSION = "terms-1"  # bump when extraction changes: a rebuild then re-extracts every clause

_I = re.IGNORECASE
_UNIT = r"(?:(?:calendar|business|working|consecutive)[\s-]+)?(?:day|week|month|year)s?"
_PERIOD = re.compile(
    rf"(?<![\w§.])(?P<n>{NUMBER})(?:\s+or\s+more)?(?:\s+consecutive)?[\s-]+(?P<u>{_UNIT})(?![\w])(?:['’]s?)?", _I)
_CURRENCY = {"$": "USD", "us$": "USD", "usd": "USD", "€": "EUR", "eur": "EUR", "£": "GBP",
             "gbp": "GBP", "chf": "CHF", "dollars": "USD", "euros": "EUR", "euro": "EUR",
             "pounds sterling": "GBP", "pounds": "GBP"}
_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "k": 1e3, "m": 1e6, "bn": 1e9}
# Amounts may group thousands with spaces ("100 000 €", French and ISO style) as well as commas;
# a digit group never starts right after another digit and a space (that would cut "100 000").
_AMOUNT = rf"(?:\d{{1,3}}(?:[ \u00a0\u202f]\d{{3}})+(?![\d,])|{DIGITS})"
_MONEY_BEFORE = re.compile(
    rf"(?P<c>US\$|\$|€|£|\b(?:USD|EUR|GBP|CHF)\b)\s?(?P<n>{_AMOUNT})(?:\s?(?P<s>thousand|million|billion|bn|m|k)\b)?", _I)
_MONEY_AFTER = re.compile(
    rf"(?<![\w.,])(?<!\d[ \u00a0\u202f])(?P<n>{_AMOUNT})(?:\s?(?P<s>thousand|million|billion)\b)?\s?(?P<c>\b(?:USD|EUR|GBP|CHF)\b|€|dollars|euros?|pounds sterling|pounds)", _I)
_PERCENT = re.compile(rf"(?<![\w.])(?P<n>{NUMBER})\s?(?:%|percent\b|per cent\b)(?:\s*\(\s*(?P<d>{DIGITS})\s?%\s*\))?", _I)
_MULTIPLE = re.compile(
    rf"(?<![\w{{}}])(?P<m>{NUMBER})\s?(?:x|×|times)\s+(?:the\s+)?(?:total\s+|annual\s+)?(?:fees|amounts?|charges)", _I)
_MONTHS_FEES = re.compile(rf"(?<![\w.])(?P<n>{NUMBER})\s+months?['’]?s?\s+(?:of\s+)?(?:the\s+)?fees", _I)
_FEES = re.compile(r"\b(?:the\s+)?(?:fees|amounts?)\s+(?:paid|payable)", _I)
# Spans no figure may come from: placeholders, drafting notes, HTML comments.
_MASKS = [re.compile(p, re.S) for p in (
    r"\{[^{}]*\}\]?", r"<!--.*?-->", r"\[\s*#?\s*\]", r"(?<!\[)\[(?!\[)(?:Drafting note|drafting note|[A-Z][a-z])[^\[\]]*\]")]

JURISDICTIONS = (
    "Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii "
    "Idaho Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan "
    "Minnesota Mississippi Missouri Montana Nebraska Nevada Ohio Oklahoma Oregon Pennsylvania "
    "Tennessee Texas Utah Vermont Virginia Washington Wisconsin Wyoming England Scotland Ireland "
    "Germany France Switzerland Singapore Ontario Canada Australia Netherlands Luxembourg Sweden "
    "Spain Italy Japan India".split()) + [
    "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota",
    "Rhode Island", "South Carolina", "South Dakota", "West Virginia", "District of Columbia",
    "Puerto Rico", "England and Wales", "Hong Kong", "United Kingdom", "British Columbia"]
_PLACE = "(?P<p>" + "|".join(sorted((re.escape(j) for j in JURISDICTIONS), key=len, reverse=True)) + ")"
_LAW = [re.compile(p) for p in (
    rf"\b(?:governed\s+by|construed\s+(?:in\s+accordance\s+with|under)|subject\s+to),?\s+(?:and\s+construed\s+in\s+accordance\s+with,?\s+)?(?:the\s+)?(?:internal\s+|substantive\s+)?laws?\s+of\s+(?:the\s+)?(?:(?:State|Commonwealth|Province|Republic|Kingdom)\s+of\s+)?{_PLACE}\b",
    rf"\blaws?\s+(?:is|are)\s+the\s+laws?\s+of\s+(?:the\s+)?(?:State\s+of\s+)?{_PLACE}\b",
    rf"\bthat\s+law\s+is\s+the\s+law\s+of\s+(?:the\s+)?(?:State\s+of\s+)?{_PLACE}\b",
    rf"\bgoverned\s+by\s+{_PLACE}\s+law\b",
    rf"\b{_PLACE}\s+law\s+(?:governs|shall\s+govern|will\s+govern|applies)\b",
)]
_FORUM = [re.compile(p) for p in (
    rf"\bcourts?\s+(?:located\s+)?(?:in|of)\s+(?:the\s+)?(?:(?:State|Commonwealth|County)\s+of\s+)?{_PLACE}\b",
    rf"\b(?:in|to)\s+(?:the\s+)?(?:state\s+or\s+federal\s+|state\s+and\s+federal\s+|federal\s+or\s+state\s+)?{_PLACE}\s+courts\b",
    rf"\b(?:resolved|adjudicated|brought|venue)\s+(?:exclusively\s+)?in\s+{_PLACE}\b",
)]

_MUTUAL = re.compile(r"\b(?:either|each|neither)\s+party(?:['’]s)?\s+(?:(?:total|aggregate|cumulative)\s+)*(?:will|shall|must|may|is|agrees|irrevocably|liability|be\s+liable)\b|"
                     r"\bwill\s+either\s+party\s+be\b|\bboth\s+parties\b|\bthe\s+parties\s+(?:will|shall|must|agree|may)\b|\bmutually\s+agree", _I)
_PARTIES = ("Customer|Provider|Company|Contractor|Employee|Employer|Recipient|Discloser|Licensee|"
            "Licensor|Supplier|Vendor|Client|Consultant|Partner|Buyer|Seller|Purchaser|Executive|Founder")
_ONE = re.compile(rf"\b(?P<who>{_PARTIES})(?:['’]s)?\s+(?:(?:total|aggregate|cumulative|entire)\s+)*(?:will|shall|must|may|agrees|liability)\b")
_NO_LIABLE = re.compile(rf"\bwill\s+(?P<who>{_PARTIES})\s+be\s+liable\b")

SUBPROVISIONS = ("liability_cap", "super_cap", "cap_carveout", "consequential_exclusion")
_CAP = re.compile(r"liability\b[^.]{0,200}?\b(?:will|shall)\s+not\s+(?:be\s+more\s+than|exceed)|liability\b[^.]{0,80}\blimited\s+to\b|"
                  r"liability[^.]{0,80}\bsubject\s+to\s+the\s+[^.]{0,40}limitations?\s+of\s+liability|"
                  r"(?:^|\n)\W*(?:General|Increased)\s+Cap\s+Amount|(?:^|\n)\s*Limitation\s+of\s+liability\s+amount|\bsuper\s?-?cap\b", _I)
_SUPER = re.compile(r"Increased\s+Cap\s+Amount|\bsuper\s?-?cap\b", _I)
_CARVE = re.compile(r"\bexcept\s+(?:as\s+provided\s+in|for)\b|\bdo(?:es)?\s+not\s+apply\s+to\b", _I)
_LIABILITY = re.compile(r"liab|damages|\bcap\b", _I)
_CONSEQUENTIAL = re.compile(r"consequential", _I)
_EXCLUDED = re.compile(r"not\s+be\s+liable|no\s+circumstances|in\s+no\s+event|exclud|waive|disclaim", _I)


@dataclass(frozen=True)
class Term:
    """One figure: ``text[start:end]`` of its clause is where it stands, word for word."""

    type: str
    value: float | str
    unit: str
    role: str
    start: int
    end: int
    text: str

    @property
    def key(self) -> str:
        """The bucket a market distribution counts it in: "12 month", "USD 100000", "50", "1x/12m"."""
        if self.type in {"governing_law", "forum", "fee_cap"}:
            return str(self.value)
        number = _number(float(self.value))
        if self.type == "money":
            return f"{self.unit} {number}"
        return number if self.type == "percentage" else f"{number} {self.unit}"

    @property
    def label(self) -> str:
        """The bucket as a lawyer reads it: "12 months", "USD 100,000", "50%", "1x fees of 12 months"."""
        if self.type == "period":
            number = _number(float(self.value))
            unit = self.unit.replace("_", " ")
            return f"{number} {unit}" + ("" if float(self.value) == 1 else "s")
        if self.type == "money":
            return f"{self.unit} {float(self.value):,.2f}".removesuffix(".00")
        if self.type == "percentage":
            return f"{_number(float(self.value))}%"
        if self.type == "fee_cap":
            multiple, months = str(self.value).rstrip("m").split("x/")
            return f"{multiple}x fees of {months} months"
        return str(self.value)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ClauseTerms:
    terms: tuple[Term, ...] = ()
    mutuality: str | None = None
    subprovisions: tuple[str, ...] = ()
    version: str = VERSION

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "terms": [t.to_json() for t in self.terms],
                "mutuality": self.mutuality, "subprovisions": list(self.subprovisions)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "ClauseTerms":
        terms = tuple(Term(**{k: t[k] for k in ("type", "value", "unit", "role", "start", "end", "text")})
                      for t in data.get("terms") or [])
        return cls(terms, data.get("mutuality"), tuple(data.get("subprovisions") or []),
                   str(data.get("version", "")))


@dataclass
class _Found:
    """Figures so far; the spans they took, sorted, so a later pattern cannot reuse their words."""

    items: list[Term] = field(default_factory=list)
    taken: list[tuple[int, int]] = field(default_factory=list)

    def free(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.taken, (start, start))
        before = self.taken[i - 1] if i else None
        after = self.taken[i] if i < len(self.taken) else None
        return (before is None or before[1] <= start) and (after is None or after[0] >= end)

    def add(self, term: Term) -> None:
        self.items.append(term)
        bisect.insort(self.taken, (term.start, term.end))


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def extract(text: str) -> ClauseTerms:
    """Every term of one clause, in text order, with the clause-level reading."""
    masked = _mask(text)
    found = _Found()
    _fee_caps(text, masked, found)
    _percentages(text, masked, found)
    _money(text, masked, found)
    _periods(text, masked, found)
    _places(text, masked, found)
    terms = tuple(sorted(found.items, key=lambda t: (t.start, t.type)))
    return ClauseTerms(terms, mutuality(masked), subprovisions(masked))


def _mask(text: str) -> str:
    """The text with placeholders and notes blanked out (same length, so spans still hold)."""
    for pattern in _MASKS:
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    return text


def _term(text: str, type_: str, value: float | str, unit: str, role: str, start: int, end: int) -> Term:
    return Term(type_, value, unit, role, start, end, text[start:end])


def _fee_caps(text: str, masked: str, found: _Found) -> None:
    for m in _MULTIPLE.finditer(masked):
        multiple = number_value(m.group("m"))
        period = _PERIOD.search(masked, m.end(), min(len(masked), m.end() + 160))
        if multiple is None or period is None or _unit(period.group("u")) != "month":
            continue
        months = number_value(period.group("n"))
        if months is None:
            continue
        found.add(_term(text, "fee_cap", f"{multiple:g}x/{months:g}m", "", "cap", m.start(), period.end()))
    for m in _MONTHS_FEES.finditer(masked):
        months = number_value(m.group("n"))
        if months is not None and found.free(m.start(), m.end()):
            found.add(_term(text, "fee_cap", f"1x/{months:g}m", "", "cap", m.start(), m.end()))
    for sentence_start, sentence in _sentences(masked):
        if not re.search(r"liabilit", sentence, _I) or not re.search(r"not\s+(?:be\s+more\s+than|exceed)|limited\s+to", sentence, _I):
            continue
        fees = _FEES.search(sentence)
        period = _PERIOD.search(sentence, fees.end()) if fees else None
        if fees and period and _unit(period.group("u")) == "month" and number_value(period.group("n")) is not None:
            start, end = sentence_start + fees.start(), sentence_start + period.end()
            if found.free(start, end):
                found.add(_term(text, "fee_cap", f"1x/{number_value(period.group('n')):g}m", "", "cap", start, end))


def _percentages(text: str, masked: str, found: _Found) -> None:
    for m in _PERCENT.finditer(masked):
        said = number_value(m.group("n"))
        digits = float(m.group("d").replace(",", "")) if m.group("d") else None
        if said is None or (digits is not None and digits != said) or not found.free(m.start(), m.end()):
            continue
        context = _sentence_around(masked, m.start(), m.end()).lower()
        role = "interest" if "interest" in context and "late" in context or "per annum" in context \
            else "credit" if "credit" in context else "other"
        found.add(_term(text, "percentage", said, "%", role, m.start(), m.end()))


def _money(text: str, masked: str, found: _Found) -> None:
    for pattern in (_MONEY_BEFORE, _MONEY_AFTER):
        for m in pattern.finditer(masked):
            amount = float(re.sub(r"[,\s\u00a0\u202f]", "", m.group("n")))
            scale = _SCALE.get((m.group("s") or "").lower(), 1.0)
            if not found.free(m.start(), m.end()):
                continue
            found.add(_term(text, "money", amount * scale, _CURRENCY[m.group("c").lower()], "", m.start(), m.end()))


def _periods(text: str, masked: str, found: _Found) -> None:
    for m in _PERIOD.finditer(masked):
        amount = number_value(m.group("n"))
        if amount is None or amount <= 0 or not found.free(m.start(), m.end()):
            continue
        end = m.end()
        while end > m.start() and masked[end - 1] in "'’":  # "30 days’ notice": the figure ends at the unit
            end -= 1
        found.add(_term(text, "period", amount, _unit(m.group("u")), period_role(masked, m.start(), end),
                        m.start(), end))


def _places(text: str, masked: str, found: _Found) -> None:
    for type_, patterns in (("governing_law", _LAW), ("forum", _FORUM)):
        seen: set[str] = set()
        for pattern in patterns:
            for m in pattern.finditer(masked):
                place = m.group("p")
                if place not in seen:
                    seen.add(place)
                    found.items.append(_term(text, type_, place, "", "", m.start("p"), m.end("p")))


def _unit(raw: str) -> str:
    raw = raw.lower().replace("-", " ")
    base = next(u for u in ("day", "week", "month", "year") if u in raw)
    return "business_day" if base == "day" and ("business" in raw or "working" in raw) else base


# -- roles ---------------------------------------------------------------------------------------

_ROLES = [
    ("non_solicit", r"solicit|recruit|\bhire\b"),
    ("non_compete", r"non-?compet|not\s+to\s+compete|\bcompet(?:e|ing|ition|itive)\b|restricted\s+period|non-?investment"),
    ("cure", r"\bcure"),
    ("survival", r"surviv|confidential\s+information\s+duration|term\s+of\s+the\s+agreement\s+and\s+for|after\s+(?:the\s+)?(?:expiration|termination)\s+of\s+(?:this|the)\s+agreement"),
    ("response", r"\brespon(?:d|se)"),
    ("notice", r"notice|notif|deemed\s+given|mailing|advance|in\s+writing"),
    ("renewal", r"renew"),
    ("term", r"(?:agreement|terms)\s+(?:will|shall)\s+(?:start|commence|continue)|initial\s+term|"
             r"remain\s+in\s+(?:full\s+)?(?:force|effect)"),
    ("payment", r"\bpa(?:y|id|yment|yable)\b|invoice"),
    ("retention", r"\brecords?\b|\bretain|\bmaintain"),
]


_ROLE_PATTERNS = [(role, re.compile(pattern, _I)) for role, pattern in _ROLES]


def period_role(text: str, start: int, end: int) -> str:
    """What a period governs, from its sentence (cover-page blocks: the lines above it)."""
    before, after = text[max(0, start - 40):start].lower(), text[end:end + 60].lower()
    if re.match(r"\s*for\s+each\s+day", after):
        return "other"  # tolling: "extended by one day for each day of the breach"
    if re.search(r"(?:past|last|preceding|consecutive|lookback\s+period\s+is)\s*$", before) or (
            re.search(r"(?:during|in|within)\s+the\s*$", before)
            and re.match(r"\W*(?:period\s+)?(?:immediately\s+)?(?:before|preceding|prior)", after)):
        return "lookback"
    context = _sentence_around(text, start, end)
    for role, pattern in _ROLE_PATTERNS:
        if pattern.search(context):
            return role
    return "other"


_WINDOW = 600  # characters either side of a figure that its sentence may span


def _sentence_around(text: str, start: int, end: int) -> str:
    """The sentence holding [start, end): split at . ; and at list items, but a short cover-page
    line ("12 months") keeps the lines above it ("Non-Competition / Duration")."""
    low, high = max(0, start - _WINDOW), min(len(text), end + _WINDOW)  # a sentence is never longer
    left = max(text.rfind(". ", low, start), text.rfind(";", low, start), _item_start(text, start), low - 1)
    right_candidates = [i for i in (text.find(". ", end, high), text.find(";", end, high),
                                    text.find("\n", end, high)) if i >= 0]
    right = min(right_candidates) if right_candidates else high
    return text[left + 1:right]


def _item_start(text: str, start: int) -> int:
    """Start of the line holding ``start`` when the line is a list item or long prose; for a short
    value line, the start of the block (the label lines above it count as its sentence)."""
    low = max(0, start - _WINDOW)
    line_start = text.rfind("\n", low, start)
    line_end = text.find("\n", start, start + _WINDOW)
    line = text[line_start + 1:line_end if line_end >= 0 else start + _WINDOW]
    if line_start < 0 or len(line) > 40 or re.match(r"\s*(?:\(?[a-z0-9]{1,4}[.)])\s", line):
        return line_start
    return text.rfind(". ", low, line_start)


def _sentences(text: str) -> list[tuple[int, str]]:
    out, start = [], 0
    for m in re.finditer(r"(?<=[.;])\s+|\n", text):
        out.append((start, text[start:m.start()]))
        start = m.end()
    out.append((start, text[start:]))
    return out


# -- clause-level readings -----------------------------------------------------------------------

def mutuality(text: str) -> str | None:
    """"mutual" when only both/either/each party is bound, "one_sided" when one named party is,
    None when the clause binds no party or binds named parties on both sides."""
    mutual = bool(_MUTUAL.search(text))
    named = {m.group("who") for p in (_ONE, _NO_LIABLE) for m in p.finditer(text)}
    if mutual and not named:
        return "mutual"
    if len(named) == 1 and not mutual:
        return "one_sided"
    return None


def subprovisions(text: str) -> tuple[str, ...]:
    found = []
    if _CAP.search(text):
        found.append("liability_cap")
    if _SUPER.search(text) and _CAP.search(text):
        found.append("super_cap")
    if _LIABILITY.search(text) and _CARVE.search(text):
        found.append("cap_carveout")
    if _CONSEQUENTIAL.search(text) and _EXCLUDED.search(text):
        found.append("consequential_exclusion")
    return tuple(found)
