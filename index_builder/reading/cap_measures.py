"""Reading the measure of a liability cap: what a limit limits liability *to*.

``read_measure(text, start, end, figures)`` reads ``text[start:end]``, the words after a limiting
verb ("shall not exceed", "is limited to"), as a lawyer parses them: a choice ("the lesser of (i)
... ; or (ii) ...", "A or B, whichever is greater"), a fallback or an aggregate beside a per-claim
limit ("A or, if no credits are specified, B"), or one measure: an amount, a multiple ("THREE TIMES
(3X)", "125% of the Price", "[***] times the fees"), consideration over a window or in all, a
redaction, or another measure (a defined amount, insurance, damages recovered). The kinds are
those of ``reading.caps``; a measure's numbers are the figures read inside it, never made up.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, Sequence

from index_builder.reading.figures import Figure, mask
from index_builder.reading.polarity import ceiling_after, floor_after, measure_end

_I = re.IGNORECASE

# -- the measure's words --------------------------------------------------------------------------
_NOT_A_CAP = re.compile(r"^\W*(?:(?:the\s+)?(?:repair|replacement|refund|re-?performance)\b|"
                        r"(?:the\s+)?(?:following|terms|provisions|limitations)\b|"
                        r"(?:the\s+|such\s+)?(?:fullest\s+|maximum\s+)?extent\b)", _I)
_EQUAL = r"(?:(?:(?:an?\s+)?(?:amount|sum)\s+)?(?:equal|equivalent)\s+to\s+)?"
_LESSER = re.compile(rf"^\W*{_EQUAL}(?:the\s+)?(?:lesser|lessor|lease|smaller|lower|least)\s*,?\s+of\b\s*:?", _I)
_GREATER = re.compile(rf"^\W*{_EQUAL}(?:the\s+)?(?:greater|greatest|higher|highest|larger)\s+of\b\s*:?", _I)
_WHICHEVER = re.compile(r",?\s*(?:whichever|whatever)(?:\s+(?:amount|sum))?\s+is\s+(?:the\s+)?(?P<w>greater|greatest|higher|highest|"
                        r"larger|less|lesser|lower|lowest|smaller)", _I)
_GREATER_WORDS = {"greater", "greatest", "higher", "highest", "larger"}
# Words that only introduce the measure: "an amount equal to", "direct damages equal to", "the sum
# total of", "a maximum aggregate amount of".
_LEAD = re.compile(
    r"\s*(?:(?:(?:actual|direct|proven)\s*,?\s*(?:and\s+)?)*damages\s+(?:equal|equivalent)\s+to\s+|"
    r"(?:(?:an?|the|any)\s+)?(?:further\s+)?maximum(?:\s+(?:aggregate|total|cumulative))*(?:\s+amount)?(?:\s+of)?\s+|"
    r"(?:(?:an?|the|any)\s+)?(?:(?:aggregate|total|sum|amount|value)\s+)+"
    r"(?:(?:equal|equivalent)\s+to|of|not\s+to\s+exceed)\s+)+", _I)
_ENUMERATOR = re.compile(r"\s*\(\s*(?:[ivx]{1,4}|l{2,3}|[a-h]|\d{1,2})\s*\)\s*|\s*(?:[a-h]|[ivx]{1,4}|\d{1,2})[.)]\s+", _I)
_REDACTION = r"(?:\[[^\]\w]*\*[^\]\w]*\]|\*{2,}|\[\s*(?:redacted|omitted|confidential)[^\]]*\])"
_REDACTED = re.compile(rf"^\W{{0,3}}(?:the\s+)?(?:amount\s+(?:of\s+)?)?(?:US\s?|USD\s?)?\$?\s*{_REDACTION}", _I)
_REDACTED_TIMES = re.compile(rf"^\W{{0,3}}(?:{_REDACTION}\s*)+(?:x|×|times)\b", _I)
_PLACE_AMOUNT = re.compile(r"^\W{0,3}(?:the\s+)?\$\s?(?:\{[^{}]*\}|\[[\s_●•#.]*\])")
_PLACE_MULTIPLE = re.compile(r"^\W{0,3}\{[^{}]*\}\s*(?:x|×|times)\b", _I)
_DEFINED = re.compile(r"^\W{0,3}the\s+(?:[A-Z][\w-]*\s+){1,3}(?:Cap|Amount|Limit|Maximum|Obligation)\b")
# A measure of damages alone ("Deltathree's direct damages", "your actual loss"): not a cap on its
# own ("limited to direct damages" excludes the indirect ones); a limb of a choice, ``other``.
_DAMAGES_ONLY = re.compile(
    r"^\W*(?:(?:the|your|its|their|such|any|[\w.&-]+['’]s?)\s+)*(?:(?:actual|direct|proven|documented|reasonable|"
    r"out-of-pocket|general|money|monetary)[\s,]+(?:and\s+)?)*(?:damages?|loss(?:es)?)\b", _I)
# What a party supplies: "the cost of the products" is their price, "the cost of procuring substitutes" is not.
_SUPPLIED = (r"(?:(?:the|such|any|those|these|its|our)\s+)?"
             r"(?!(?:substitut|replac|alternat|procur|repair|re-?perform|cover|remov|recall)\w*)(?:[\w-]+\s+)?(?:products?|goods|equipment|services?|software|licen[cs]es?|deliverables|items?|units?|materials|systems?|hardware)\b")
_OTHER = re.compile(rf"\b(?:insurance|coverage|proceeds|recover(?:s|ed|y|able)?|restor\w*|costs?\s+of(?!\s+{_SUPPLIED})|credits?)\b", _I)
# Consideration: a fee word is one on its own; an amount or sum is one only where it is paid.
_FEE_WORD = re.compile(rf"\b(?:fees?|charges?|prices?|costs?\s+of\s+{_SUPPLIED}|payments?(?!\s+of\b)|compensation|revenues?|royalt(?:y|ies)|"
                       r"consideration|monies|moneys|invoices?|remuneration|commissions?)\b", _I)
_AMOUNT_WORD = re.compile(r"\b(?:amounts?|sums?|value|total|money(?!\s+damages))\b", _I)
# The value of an order or contract is its price ("THE TOTAL VALUE OF THE WORK ORDER").
_DEAL = re.compile(r"\b(?:value|amount|total)\s+of\s+(?:the|this|such|any|each|that|an?)\s+(?:[\w-]+\s+){0,2}?"
                   r"(?:(?:purchase|work|sales?)\s+)?(?:orders?|contracts?|agreement|statements?\s+of\s+work|SOWs?|"
                   r"transactions?)\b", _I)
# "the fees paid in the 12 months ... multiplied by two": a multiple of the fees
_MULTIPLIED = re.compile(r"\bmultiplied\s+by\s+(?:\([a-z]\)\s+)?$", _I)
_PAID = re.compile(r"\b(?:paid|pays?|payable|receive[sd]?|receivable|owed|owing|due|collected|charged|earned|"
                   r"invoiced|billed|spent)\b", _I)
# The window of a fee measure.
_PER_MONTH = re.compile(r"\b(?:one|1|(?:one|a)\s*\(\s*1\s*\))\s+month['’]?s?\s+(?:of\s+)?(?:the\s+)?(?:fees|charges)", _I)
_YEAR = re.compile(r"\b(?:previous|preceding|prior|last|current)\s+(?:contract(?:ual)?\s+|calendar\s+|fiscal\s+)?year\b|"
                   r"\bper\s+(?:contract\s+)?year\b|\bannual\s+(?:fees|charges)|"
                   # "in the Contract Year in which the claim arises", "during any calendar year"
                   r"\b(?:in|during|within|for|over)\s+(?:the|any|each|that|such|a|one)\s+(?:single\s+)?"
                   r"(?:contract(?:ual)?|calendar|fiscal|financial|agreement|license|licence|subscription)\s+year\b", _I)
# A window of one unit written without a number: "the fees for the month during which the loss
# occurred", "the charges paid in the calendar quarter in which the claim arose"; not "the month or
# months in which", a window of no stated length.
_ONE_UNIT = re.compile(r"\b(?:during|in|within|over|for|throughout)\s+(?:the|any|a|each|such|that|one|a\s+single)\s+"
                       r"(?:(?:single|calendar|contract|billing|fiscal|full)\s+)?(?P<u>month|quarter|year)\b(?![\w-])"
                       # "in the month or months in which ...": more than one, of no stated length
                       r"(?!\s+(?:or|and/or|and)\s+(?:more\s+)?(?:months?|quarters?|years?|periods?)\b)", _I)
_WINDOW = re.compile(
    r"\b(?:during|in|within|over|for|throughout|under)\s+(?:the|any|a|each|such|that)\s+(?:[^\s.;,]+\s+){0,6}?"
    r"(?:period|months?|years?|quarters?|(?:initial|renewal|then[- ]current|current)\s+term)\b|"
    rf"\b(?:preceding|prior|previous|past|last|most\s+recent)\s+(?:{_REDACTION}\s*)+|"
    rf"\b(?:during|in|within|over|for|throughout)\s+(?:the|any|a|each)\s+(?:\w+\s+){{0,2}}?(?:{_REDACTION}\s*)+", _I)
_MONTHS = {"month": 1.0, "year": 12.0, "day": 1 / 30, "business_day": 1 / 21, "week": 12 / 52, "hour": 0.0}
# A fallback ("or, if no credits are specified, ...") or an aggregate beside a per-claim limit ("...,
# or in the aggregate, with respect of all claims, ...") starts a second measure.
# A limit per claim beside one for all claims ("$1,000,000 per claim, not to exceed $5,000,000 in the
# aggregate") is two caps, not a choice.
_PER_CLAIM = re.compile(r"\b(?:per|each|any\s+one|for\s+(?:any|each)\s+(?:single\s+)?)\s*(?:claim|occurrence|incident|event|"
                        r"accident|loss)\b", _I)
_ALL_CLAIMS = re.compile(r"\b(?:in\s+the\s+aggregate|aggregate|in\s+total|cumulative(?:ly)?|for\s+all\s+claims|"
                         r"per\s+(?:contract\s+|calendar\s+)?year|annual(?:ly)?)\b", _I)
# What the limit applies to, written between the verb and the measure: "exceed, per claim or series of
# claims arising from the same cause of action, [* * *]", "exceed, with respect to any one event, $5M".
_QUALIFIER = re.compile(r"(?:per|for\s+(?:any|each|all|every)|in\s+respect\s+of|with\s+respect\s+to|in\s+relation\s+to|"
                        r"in\s+the\s+aggregate|in\s+total|cumulatively)\b[^,;.:()\[\]$€£\d]{0,150},\s*", _I)
_SECOND = re.compile(r",?\s*\bor\b\s*,?\s*(?=(?:if|where|in\s+the\s+aggregate|with\s+respect|for\s+all)\b)", _I)
# A limb of a choice starts with a measure: an amount, a number, "the ...", a redaction or a
# placeholder; so "paid or payable" is one limb and "$50,000 or the amount paid" two.
_LIMB_START = (r"(?=\s*(?:[$€£\[*{(\d]|(?:US|USD|EUR|GBP)\b|the\b|an?\b|any\b|"
               r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred)\b))")
_OR = re.compile(r"\s*[;,]?\s*\b(?:and/or|or)\b" + _LIMB_START + r"|\s*;\s*", _I)
_AND = re.compile(r"\s*[;,]?\s*\band\b" + _LIMB_START, _I)
# A difference of two amounts is a measure of its own, whatever it is the difference of.
_DIFFERENCE = re.compile(r"^\W*(?:the\s+)?(?:amount|sum|extent)\s+by\s+which\b", _I)
_THEREOF = re.compile(r"^\W*(?:any|the|such|each)\s+(?:[\w-]+\s+){0,2}(?:portion|part)\s+(?:thereof|of\s+(?:it|them))", _I)


@dataclass(frozen=True)
class Cap:
    """One limit on liability; ``text`` is ``clause[start:end]``."""

    kind: str  # fixed | fees_period | fees_all | multiple | lesser_of | greater_of | redacted | other
    start: int
    end: int
    text: str
    amount: float | None = None
    currency: str | None = None
    multiple: float | None = None
    period_months: float | None = None
    basis: str | None = None
    whose: str | None = None
    parts: tuple["Cap", ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["parts"] = [p.to_json() for p in self.parts]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Cap":
        fields = {k: data.get(k) for k in ("kind", "start", "end", "text", "amount", "currency", "multiple",
                                           "period_months", "basis", "whose")}
        return cls(**fields, parts=tuple(cls.from_json(p) for p in data.get("parts") or []))


def read_measure(text: str, start: int, end: int, found: Sequence[Figure]) -> list[Cap]:
    """The caps a measure states, ``text[start:end]``: none, one, or a fallback/aggregate beside it."""
    phrase = text[start:end]
    start += len(phrase) - len(phrase.lstrip(" \t,:"))
    qualifier = _QUALIFIER.match(text, start, end)
    if qualifier:  # "BE GREATER THAN, PER CLAIM OR SERIES OF CLAIMS ..., [* * *]": the measure follows
        start = qualifier.end()
    choice = _choice(text, start, end, found)
    if choice is not None:
        return [choice]
    stop = start + _simple_end(text[start:end])
    bounded = _bounded(text, start, stop, found) or _per_claim_and_aggregate(text, start, stop, found)
    if bounded is not None:
        return bounded
    second = _depth0(_SECOND, text[start:stop])
    if second is None:
        first = _simple(text, start, stop, found)
        return [first] if first is not None else []
    split, after = start + second[0], start + second[1]
    first = _simple(text, start, split, found)
    other = _after_qualifiers(text, after, stop, found)
    if other is not None:
        other = Cap(other.kind, split, other.end, "", other.amount, other.currency, other.multiple,
                    other.period_months, other.basis, parts=other.parts)
    return [c for c in (first, other) if c is not None]


_AND_AGGREGATE = re.compile(r"\s*[,;]?\s*\band\b(?:\s*,)?\s*(?=(?:(?:in\s+the\s+)?aggregate|in\s+total|for\s+all)\b|[$€£\d]|\[[\s*]*\*|"
                            r"(?:US|USD|EUR|GBP)\b|(?:one|two|three|four|five|ten|twenty|fifty|hundred)\b)", _I)


def _per_claim_and_aggregate(text: str, start: int, stop: int, found: Sequence[Figure]) -> list[Cap] | None:
    """ "USD 2 million per claim and USD 5 million in the aggregate": two caps."""
    for a, b in _depth0_all(_AND_AGGREGATE, text[start:stop]):
        split, after = start + a, start + b
        if not (_PER_CLAIM.search(text[start:split]) and _ALL_CLAIMS.search(text[after:stop])):
            continue
        first = _simple(text, start, split, found)
        second = _simple(text, after, stop, found) or _after_qualifiers(text, after, stop, found)
        if first is not None and second is not None and "other" not in (first.kind, second.kind):
            return [first, Cap(second.kind, split, second.end, "", second.amount, second.currency, second.multiple,
                               second.period_months, second.basis, parts=second.parts)]
    return None


def _bounded(text: str, start: int, stop: int, found: Sequence[Figure]) -> list[Cap] | None:
    """A measure with a ceiling or floor after it: the lesser/greater of the two, or, for a per-claim
    limit beside one for all claims, two caps. None where the words hold no such bound."""
    # A ceiling or a floor after the measure (polarity.ceiling_after / floor_after).
    for pattern, kind in ((ceiling_after, "lesser_of"), (floor_after, "greater_of")):
        bound = _depth0(pattern, text[start:stop])
        if bound is None or bound[0] == 0:
            continue
        split, after = start + bound[0], start + bound[1]
        first = _simple(text, start, split, found)
        second = _simple(text, after, stop, found, part=True)
        if second is None or second.kind == "other":
            return None  # "not to exceed the extent ...": no second measure; read as before
        if first is None:
            return [second]  # "limited to direct damages, not to exceed $5,000": the amount alone
        if kind == "lesser_of" and _PER_CLAIM.search(text[start:split]) and _ALL_CLAIMS.search(text[after:stop]):
            return [first, Cap(second.kind, split, second.end, "", second.amount, second.currency, second.multiple,
                               second.period_months, second.basis, parts=second.parts)]
        return [Cap(kind, start, second.end, "", parts=(first, second))]
    return None


def _after_qualifiers(text: str, start: int, end: int, found: Sequence[Figure]) -> Cap | None:
    """The measure after "if no credits are specified," / "in the aggregate, with respect of all claims,"."""
    for m in re.finditer(r",", text[start:end]):
        cap = _simple(text, start + m.end(), end, found)
        if cap is not None:
            return cap
    return None


def _simple_end(phrase: str) -> int:
    """A plain measure ends at the clause's ";", a list item on a new line, or a new clause."""
    cut = len(phrase)
    m = _depth0(re.compile(r";|\n(?=\s*(?:\[|\(?[a-z0-9]{1,3}[.)]\s))", _I), phrase)
    if m is not None:
        cut = m[0]
    return min(cut, _measure_end(phrase[:cut]))


def _measure_end(phrase: str) -> int:
    """The measure ends before a new clause of the sentence ("; provided", ", except", "and in no event")."""
    # A proviso, an exception, "notwithstanding" or a second limit: polarity.measure_end's words.
    m = measure_end(valued=True).search(phrase)
    return m.start() if m else len(phrase)


def _depth0(pattern: re.Pattern[str], phrase: str) -> tuple[int, int] | None:
    """The first match of ``pattern`` outside brackets."""
    for a, b in _depth0_all(pattern, phrase):
        return a, b
    return None


def _depth0_all(pattern: re.Pattern[str], phrase: str) -> list[tuple[int, int]]:
    depth, out = 0, []
    for m in re.finditer(r"[()\[\]]|" + pattern.pattern, phrase, pattern.flags):
        token = m.group(0)
        if token in ("(", "["):
            depth += 1
        elif token in (")", "]"):
            depth = max(0, depth - 1)
        elif depth == 0 and token.strip():
            out.append((m.start(), m.end()))
    return out


def _choice(text: str, start: int, end: int, found: Sequence[Figure]) -> Cap | None:
    """ "the lesser/greater of A and B", "A or B, whichever is less": the limbs, each a cap."""
    phrase = text[start:end]
    for pattern, kind in ((_LESSER, "lesser_of"), (_GREATER, "greater_of")):
        m = pattern.match(phrase)
        if m:
            body = start + m.end()
            stop = body + _choice_end(text[body:end])
            parts = _limbs(text, body, stop, found)
            if len(parts) >= 2:
                return Cap(kind, start, parts[-1].end, "", parts=tuple(parts))
    which = _WHICHEVER.search(phrase)
    if which and _simple_end(phrase[:which.start()]) >= which.start() - 1:
        parts = _limbs(text, start, start + which.start(), found)
        if len(parts) >= 2:
            kind = "greater_of" if which.group("w").lower() in _GREATER_WORDS else "lesser_of"
            return Cap(kind, start, parts[-1].end, "", parts=tuple(parts))
    return None


def _choice_end(phrase: str) -> int:
    """A choice runs over its enumerated limbs ("(i) £1000; or (ii) 125% of the Price") to the
    clause's end: a ";" that does not go on to another limb, or a new clause."""
    cut = len(phrase)
    for a, _ in _depth0_all(re.compile(r";"), phrase):
        if not re.match(r";\s*(?:(?:and/or|and|or)\b|\(?\s*(?:[ivx]{1,4}|[a-h]|\d{1,2})\s*[.)])", phrase[a:], _I):
            cut = a
            break
    return min(cut, _measure_end(phrase[:cut]))


_SCHEMES = (["i", "ii", "iii", "iv", "v", "vi"], list("abcdefgh"), [str(n) for n in range(1, 9)], ["x", "y", "z"])
# OCR reads the roman "(ii)" as "(ll)" and may drop the space after it ("(ll)THE MONEY PAID").
_ENUM = re.compile(r"(?:^|(?<=[\s:;,]))\(?\s*(?P<e>[ivx]{1,4}|l{2,3}|[a-hyz]|\d)\s*\)(?=\s|[^\W\d_])|"
                   r"(?:^|(?<=\n))\s*(?P<d>[a-h]|[ivx]{1,4}|\d)\.(?=\s)", _I)


def _enumerators(phrase: str) -> list[tuple[int, int]]:
    """The limbs' own numbers, "(i)" ... "(ii)", "(a)" ... "(b)", "1)" ... "2)", in sequence (so the
    "(1)" of "ONE (1) MILLION DOLLARS" is not one)."""
    marks = [(m.start(), m.end(), (m.group("e") or m.group("d")).lower().replace("ll", "ii").replace("iil", "iii"))
             for m in _ENUM.finditer(phrase)]
    best: list[tuple[int, int]] = []
    for k, (a, b, label) in enumerate(marks):
        for scheme in _SCHEMES:
            if label != scheme[0]:
                continue
            chain, want = [(a, b)], 1
            for a2, b2, label2 in marks[k + 1:]:
                if want < len(scheme) and label2 == scheme[want]:
                    chain.append((a2, b2))
                    want += 1
            if len(chain) > len(best):
                best = chain
        if best:
            break
    return best if len(best) >= 2 else []


def _limbs(text: str, start: int, end: int, found: Sequence[Figure]) -> list[Cap]:
    """The limbs of a choice, split at their numbers, else at "or" (or "and") outside brackets."""
    phrase = text[start:end]
    marks = _enumerators(phrase)
    if marks:
        spans = [(b, marks[k + 1][0] if k + 1 < len(marks) else len(phrase)) for k, (_, b) in enumerate(marks)]
    else:
        cuts = _depth0_all(_OR, phrase) or _depth0_all(_AND, phrase)
        spans, at = [], 0
        for a, b in cuts:
            if a > at:
                spans.append((at, a))
            at = b
        spans.append((at, len(phrase)))
    parts: list[Cap] = []
    for a, b in spans:
        piece = phrase[a:b]
        b = a + len(re.sub(r"[\s;,]*(?:\b(?:and/or|and|or)\b)?[\s;,:]*$", "", piece, flags=_I))
        if b <= a:
            continue
        cap = _simple(text, start + a, start + b, found, part=True)
        bare = text[start + a:start + b].strip(" ,;:")
        if cap is None and parts and _THEREOF.match(bare):
            prev = parts[-1]  # "the purchase price paid for the products, or any defective portion thereof"
            cap = Cap(prev.kind, start + a, start + b, "", prev.amount, prev.currency, prev.multiple,
                      prev.period_months, _basis(bare))
        elif cap is None and bare and not (bare.startswith("(") and bare.endswith(")")):
            cap = Cap("other", start + a, start + b, "", basis=_basis(bare))  # a limb we cannot read: no value
        if cap is not None:
            parts.append(cap)
    return parts


def _simple(text: str, start: int, end: int, found: Sequence[Figure], part: bool = False) -> Cap | None:
    """One measure: fixed, fees over a period or in all, a multiple, redacted, other; None if none."""
    enumerator = _ENUMERATOR.match(text, start, end)
    if enumerator:
        start = enumerator.end()  # "(i) $[**]": the limb begins after its number
    lead = _LEAD.match(text, start, end)
    body = lead.end() if lead else start
    phrase = text[start:end]
    bare = phrase.strip(" ,;:")
    if not bare or _NOT_A_CAP.match(phrase) or (bare.startswith("(") and bare.endswith(")")):
        return None
    end = start + _measure_end(phrase)
    measure = text[body:end]
    inside = [f for f in found if start <= f.start and f.end <= end]
    if _REDACTED_TIMES.match(measure):  # "[***] [***] times the fees paid during the preceding [***] months"
        _, months = _window(measure, inside)
        return Cap("multiple", start, end, "", period_months=months, basis=_basis(measure))
    if _REDACTED.match(measure):
        return Cap("redacted", start, end, "")
    if _PLACE_AMOUNT.match(measure):
        return Cap("fixed", start, end, "", currency="USD")
    if _PLACE_MULTIPLE.match(measure):
        return Cap("multiple", start, end, "", period_months=_window(measure, inside)[1], basis=_basis(measure))
    if _DEFINED.match(measure):
        return Cap("other", start, end, "", basis=_basis(measure))
    first = _leading_figure(text, body, inside)
    if first is not None and first.kind == "amount":
        return Cap("fixed", start, first.end, "", amount=first.value, currency=first.currency)
    if first is not None and first.kind in ("multiple", "percentage"):
        rest = text[first.end:end]
        restated = re.match(r"\s*\([^()]{1,40}\)", rest)  # "50% (fifty percent) of the monies paid"
        if first.kind == "multiple" or re.match(r"\s*of\b", rest[restated.end() if restated else 0:], _I):
            multiple = first.value if first.kind == "multiple" else first.value / 100
            return Cap("multiple", start, end, "", multiple=multiple,
                       period_months=_window(rest, [f for f in inside if f.start >= first.end])[1], basis=_basis(rest))
    if _DIFFERENCE.match(measure):  # "the amount by which the total price ... exceeds the damages paid"
        return Cap("other", start, end, "", basis=_basis(measure))
    fee = _FEE_WORD.search(measure[:120])
    other = _OTHER.search(measure[:160])
    if other and (fee is None or other.start() < fee.start()):  # "insurance coverage paid": coverage
        return Cap("other", start, end, "", basis=_basis(measure))
    if _DAMAGES_ONLY.match(measure):
        return Cap("other", start, end, "", basis=_basis(measure)) if part else None
    amount = _AMOUNT_WORD.search(measure[:60])
    if fee or (amount and _PAID.search(measure[:200])) or _DEAL.search(text[start:end][:100]) or _PER_MONTH.search(measure):
        times = next((f for f in inside if f.kind == "multiple" and _MULTIPLIED.search(text[max(start, f.start - 30):f.start])), None)
        if times is not None:
            return Cap("multiple", start, end, "", multiple=times.value, period_months=_window(measure, inside)[1],
                       basis=_basis(measure))
        window, months = _window(measure, inside)
        kind = "fees_period" if window else "fees_all"
        return Cap(kind, start, end, "", period_months=months, basis=_basis(measure))
    if amount and amount.start() < 20:  # "the amount which would have been required ...": a measure of its own
        return Cap("other", start, end, "", basis=_basis(measure))
    if lead and _AMOUNT_WORD.search(lead.group(0)) and re.match(r"\W*(?:such|the|that|any)\s+\w", measure, _I):
        return Cap("other", start, end, "", basis=_basis(measure))  # "the amount of such settlement offer"
    return None


def _leading_figure(text: str, at: int, inside: Sequence[Figure]) -> Figure | None:
    """The figure the measure opens with: before it, no more than a few words and no consideration
    ("the sum of £500,000"; not "the amounts paid, up to $5,000")."""
    if not inside:
        return None
    first = inside[0]
    before = text[at:first.start]
    if first.start - at > 80 or _FEE_WORD.search(before) or _PAID.search(before):
        return None
    return first


def _window(measure: str, inside: Sequence[Figure]) -> tuple[bool, float | None]:
    """Whether the consideration is counted over a window, and its length in months (None where
    the window has no stated length: "during the [***] preceding", "under the Initial Term")."""
    if _PER_MONTH.search(measure):
        return True, 1.0
    for f in inside:
        if f.kind == "period" and f.unit in _MONTHS and _MONTHS[f.unit]:
            return True, round(f.value * _MONTHS[f.unit], 4)
    if _YEAR.search(measure):
        return True, 12.0
    one = _ONE_UNIT.search(measure)
    if one:  # "your fee for the month during which the loss occurred": one month, with no number
        return True, {"month": 1.0, "quarter": 3.0, "year": 12.0}[one.group("u").lower()]
    if _WINDOW.search(mask(measure)) or _WINDOW.search(measure):
        return True, None
    return False, None


def _basis(phrase: str) -> str:
    words = re.sub(r"\s+", " ", phrase).strip(" ,.;:")
    return words[:100]
