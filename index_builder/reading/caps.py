"""Liability caps: how much a party can be liable for, of every kind a contract writes.

``caps(text)`` finds each limit on liability ("... liability ... shall not exceed ...", "limited
to", "capped at", "in no event ... in an amount greater than", "up to a maximum of") and reads
what it limits liability to:

* ``fixed``: an amount ("$1,000,000", "FIFTEEN MILLION DOLLARS"; a cover-page placeholder
  ``${general_cap_amount}`` gives ``amount=None``);
* ``fees_period``: fees or amounts paid or payable over a period (``period_months``: 12 for "the
  twelve (12) months before the claim", 2 for "a sixty (60) day term", 1 for "one (1) month's
  fees"; ``None`` for "payments made under the Initial Term") — a fee window, not a look-back
  figure of its own;
* ``fees_all``: fees or amounts paid under the agreement, an order or for the product at issue,
  with no period;
* ``multiple``: N times an amount ("THREE TIMES (3X) the value of the work order", "2x the fees
  paid in the 12 month period", "one half of the amount paid", "3% of the bill of materials");
* ``lesser_of`` / ``greater_of``: their limbs in ``parts``, each a cap of its own;
* ``redacted``: the amount is redacted ("[***]", "***");
* ``other``: an amount defined elsewhere ("the General Cap Amount"), insurance proceeds, damages
  recovered.

``whose`` is the party whose liability is capped as the clause names it ("each party" for
either/each/neither party, "both" for one cap shared by the parties). Each cap carries its span
(``text[start:end]``, from the words that say whose liability to the end of the limit). A cap's
numbers are the figures of ``reading.figures`` inside its span: nothing is read twice, and no
number is ever made up (a multiplier left as a placeholder stays ``None``).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, Sequence

from index_builder.reading.figures import Figure, figures as read_figures, mask

_I = re.IGNORECASE

# The words that limit: each ends where the limit's measure begins.
_LIMIT = re.compile(
    r"\b(?:not|never|neither|no\s+event|no\s+case|no\s+circumstances)\b(?:[^.;]|\.(?=\S)){0,300}?\b(?:exceed|be\s+(?:more|greater)\s+than|"
    r"be\s+in\s+excess\s+of)\b(?:\s*,?\s*(?:in\s+the\s+aggregate|in\s+total|cumulatively)\s*,?)?|"
    r"\bnot\s+to\s+exceed\b|"
    r"\b(?:limited|restricted)\s+(?:in\s+(?:the\s+)?aggregate\s+|solely\s+|exclusively\s+)?to\b|"
    r"\bcapped\s+at\b|"
    r"\bup\s+to\s+a\s+(?:further\s+)?maximum(?:\s+(?:amount\s+)?of)?\b|"
    r"\bin\s+an\s+amount\s+(?:greater|more)\s+than\b|\bin\s+excess\s+of\b|"
    r"\bmaximum\s+(?:aggregate\s+|total\s+|cumulative\s+)*liability\b[^.;]{0,200}?\b(?:is|shall\s+be|will\s+be)\b", _I)
_LIABLE = re.compile(r"liab|reimburse|indemnif|damages|recover", _I)
_NOT_A_CAP = re.compile(r"^\W*(?:(?:the\s+)?(?:repair|replacement|refund)\b|"
                        r"(?:the\s+)?(?:following|terms|provisions|limitations)\b)", _I)
_LESSER = re.compile(r"^\W*(?:(?:an?\s+)?amount\s+equal\s+to\s+)?(?:the\s+)?(?:lesser|lessor|lease|smaller|lower|least)\s*,?\s+of\b\s*:?", _I)
_GREATER = re.compile(r"^\W*(?:(?:an?\s+)?amount\s+equal\s+to\s+)?(?:the\s+)?(?:greater|greatest|higher|highest|larger)\s+of\b\s*:?", _I)
_WHICHEVER = re.compile(r",?\s*(?:whichever|whatever\s+amount)\s+is\s+(?:the\s+)?(?P<w>greater|greatest|higher|highest|"
                        r"larger|less|lesser|lower|lowest|smaller)", _I)
# A limb starts with a measure: an amount, a number, "the ...", a redaction or a placeholder; so
# "paid or payable" is one limb and "$50,000 or the amount paid" two.
_LIMB_START = r"(?=\s*(?:[$€£\[*{(\d]|(?:US|USD|EUR|GBP)\b|the\b|an?\b|any\b|" + \
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred)\b))"
_PART_SPLIT = re.compile(r"\s*(?:[;,]\s*)?(?:\band/or\b" + _LIMB_START + r"|\bor\b" + _LIMB_START +
                         r"|;|\band\b(?=\s*\(\s*(?:ii|b|2)\s*\)))\s*(?:\(\s*(?:[ivx]+|[a-d0-9])\s*\)\s*)?", _I)
_REDACTED = re.compile(r"^\W{0,3}(?:the\s+)?(?:amount\s+(?:of\s+)?)?(?:US)?\$?\s*(?:\[\s*\*[\s*]*\]|\*{2,}|\[\s*(?:redacted|omitted)[^\]]*\])", _I)
_PLACE_AMOUNT = re.compile(r"^\W{0,3}(?:the\s+)?\$\s?\{[^{}]*\}")
_PLACE_MULTIPLE = re.compile(r"^\W{0,3}\{[^{}]*\}\s*(?:x|×|times)\b", _I)
_DEFINED = re.compile(r"^\W{0,3}the\s+(?:[A-Z][\w-]*\s+){0,3}(?:Cap|Amount|Limit|Maximum)\b")
_FEES = re.compile(r"\b(?:fees?|amounts?|sums?|prices?|payments?|charges?|compensation|revenues?|royalt(?:y|ies)|"
                   r"consideration|monies|moneys|value\s+of|total\s+value|purchase\s+price|invoice)\b", _I)
_PER_MONTH = re.compile(r"\b(?:one|1|(?:one|a)\s*\(\s*1\s*\))\s+month['’]?s?\s+(?:of\s+)?(?:the\s+)?(?:fees|charges)", _I)
_LAST_YEAR = re.compile(r"\b(?:previous|preceding|prior|last|current)\s+(?:contract(?:ual)?\s+|calendar\s+|fiscal\s+)?year\b|"
                        r"\bper\s+(?:contract\s+)?year\b|\bannual\s+(?:fees|charges)", _I)
_UNSTATED_TERM = re.compile(r"\b(?:under|during)\s+the\s+(?:Initial|Renewal)\s+Term\b", _I)
_OTHER = re.compile(r"\b(?:insurance|proceeds|recover(?:s|ed|y)?|restor\w*|cost\s+of)\b", _I)
_DAMAGES = re.compile(r"\bdamages\b", _I)
_PAID = re.compile(r"\b(?:paid|payable|pays|received|receivable|owed|collected|charged|price)\b", _I)
_MONTHS = {"month": 1.0, "year": 12.0, "day": 1 / 30, "business_day": 1 / 21, "week": 12 / 52, "hour": 0.0}

_WHOSE_EACH = re.compile(r"\b(?:each|either|neither|any)\s+part(?:y|ies)\b|\b(?:a|one)\s+party(?:['’]s)?\s+(?:\w+\s+){0,4}liabilit|"
                         r"\bliabilit(?:y|ies)\s+of\s+(?:a|one|either|each)\s+party|\bto\s+the\s+other\b|\bone\s+party\s+to\s+(?:the\s+)?other", _I)
_WHOSE_BOTH = re.compile(r"\b(?:of\s+)?the\s+parties\b|\bboth\s+parties\b", _I)
_NOT_NAME = r"(?!(?:IN|NO|EVENT|SHALL|WILL|THE|OF|AND|ANY|ALL|EACH|UNDER|HEREUNDER|SUCH|THIS|AGREEMENT)\b)"
_NAME_WORD = rf"{_NOT_NAME}[A-Z][\w.&-]*"
_WHOSE_NAMED = re.compile(rf"\b(?P<n>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})['’]S?\s+(?:[\w-]+\s+){{0,5}}?(?i:liabilit)|"
                          rf"\b(?i:liabilit(?:y|ies)\s+of\s+(?:the\s+)?)(?P<m>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})")


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


def caps(text: str, figures: Sequence[Figure] | None = None) -> list[Cap]:
    """Every liability cap of ``text``, in text order (``figures``: its figures, when already read)."""
    found = list(figures) if figures is not None else read_figures(text)
    masked = mask(text)
    out: list[Cap] = []
    limits = [m for m in _LIMIT.finditer(text)]
    for i, m in enumerate(limits):
        if out and m.start() < out[-1].end:
            continue  # "is limited to, and will not exceed, ...": one cap
        if i + 1 < len(limits) and limits[i + 1].start() - m.end() < 30 \
                and not re.search(r"[\d$€£*\[{]", text[m.end():limits[i + 1].start()]):
            continue  # "maximum liability is expressly limited to ...": the later words measure it
        if re.search(r"\b(?:not|without)\s*$", text[max(0, m.start() - 12):m.start()], _I) \
                and m.group(0).lower().startswith(("limited", "restricted")):
            continue  # "including but not limited to"
        sentence_start = _sentence_start(text, m.start())
        # "liability ... shall be limited to the following amounts: (a) ... up to a maximum of ***":
        # a list item's maximum is read under the liability its list opens
        low = m.start() - 600 if m.group(0).lower().startswith("up to") else max(sentence_start, m.start() - 600)
        if not _LIABLE.search(text[max(0, low):m.end()]):
            continue
        nxt = limits[i + 1].start() if i + 1 < len(limits) else len(text)
        end = _limit_end(text, m.end(), nxt)
        cap = _read_limit(text, masked, m.end(), end, found)
        if cap is None:
            continue
        subject = _subject_start(text, sentence_start, m.start())
        whose = _whose(text[sentence_start:m.end()])
        out.append(_with(cap, start=min(subject, cap.start), end=cap.end, whose=whose, text=text))
    taken = [(c.start, c.end) for c in out]
    rows = [_with(c, start=c.start, end=c.end, whose=None, text=text) for c in _cover_rows(text, masked, found)
            if not any(a < c.end and c.start < b for a, b in taken)]
    return sorted(out + rows, key=lambda c: c.start)


# A cover page's cap row: "General Cap Amount" (or "Increased Cap Amount") and its options, each on
# a line of its own behind a check box, or the click-through's "[[ 1x the fees ... ]]".
_COVER = re.compile(r"(?:General|Increased)\s+Cap\s+Amount\b(?!\s+(?:is|means|will|shall))", _I)
_OPTION = re.compile(r"^[ \t]*(?P<box>\[\s*(?P<x>[xX✓✔]?)\s*\]|\(\s*(?P<y>[xX✓✔]?)\s*\))[ \t]*(?P<body>\S.*)$", re.M)
_DEFAULT = re.compile(r"(?:General|Increased)\s+Cap\s+Amount\W{0,6}\s*\[\[\s*(?P<body>[^\[\]]+?)\s*\]\]", _I)


def _cover_rows(text: str, masked: str, found: Sequence[Figure]) -> list[Cap]:
    """The options a cover page offers for a cap amount: only the ticked one where one is ticked."""
    if not _COVER.search(text):
        return []
    out = []
    for m in _DEFAULT.finditer(text):
        cap = _read_limit(text, masked, m.start("body"), m.end("body"), found)
        if cap is not None:
            out.append(cap)
    options = [m for m in _OPTION.finditer(text) if m.start() > _COVER.search(text).start()]
    ticked = [m for m in options if m.group("x") or m.group("y")]
    for m in ticked or options:
        cap = _read_limit(text, masked, m.start("body"), m.end("body"), found)
        if cap is not None:
            out.append(cap)
    return out


def _with(cap: Cap, *, start: int, end: int, whose: str | None, text: str) -> Cap:
    parts = tuple(_with(p, start=p.start, end=p.end, whose=whose, text=text) for p in cap.parts)
    return Cap(cap.kind, start, end, text[start:end], cap.amount, cap.currency, cap.multiple,
               cap.period_months, cap.basis, whose, parts)


def _sentence_start(text: str, at: int) -> int:
    low = max(0, at - 700)
    cut = max(text.rfind(". ", low, at), text.rfind(".\n", low, at), text.rfind("\n\n", low, at),
              text.rfind(";", low, at))
    return cut + 1 if cut >= 0 else low


def _limit_end(text: str, start: int, nxt: int) -> int:
    """Where the measure ends: the sentence's end, or the next limit's start."""
    end = min(len(text), start + 500, nxt)
    for m in re.finditer(r"\.(?:\s|$)|\n\s*\n|\n(?=\s*(?:\[|\(?[a-z0-9]{1,3}[.)]\s))|"
                         r";(?!\s*(?:or|and)\b)(?!\s*\(\s*(?:[ivx]+|[a-d0-9])\s*\))", text[start:end], _I):
        return start + m.start()
    return end


def _subject_start(text: str, low: int, at: int) -> int:
    """Where the words that say whose liability begin ("each party's total liability ...")."""
    window = text[low:at]
    m = re.search(r"(?:\b(?:each|either|neither|any|a|one)\s+part(?:y|ies)(?:['’]s?)?|\b[\w.&-]+['’]s?)\s+(?:[\w-]+\s+){0,5}?liabilit|"
                  r"\b(?:the\s+)?(?:[\w-]+\s+){0,3}liabilit", window, _I)
    return low + m.start() if m else at


def _whose(before: str) -> str | None:
    if _WHOSE_EACH.search(before):
        return "each party"
    if _WHOSE_BOTH.search(before):
        return "both"
    named = _WHOSE_NAMED.search(before)
    if named:
        return (named.group("n") or named.group("m")).strip()
    return None


def _read_limit(text: str, masked: str, start: int, end: int, found: Sequence[Figure]) -> Cap | None:
    """The cap a measure states, ``text[start:end]``; None when it is not a cap."""
    phrase = text[start:end]
    lead = len(phrase) - len(phrase.lstrip(" \t,:"))
    start += lead
    phrase = text[start:end]
    for pattern, kind in ((_LESSER, "lesser_of"), (_GREATER, "greater_of")):
        m = pattern.match(phrase)
        if m:
            parts = _parts(text, masked, start + m.end(), end, found)
            if len(parts) >= 2:
                return Cap(kind, start, parts[-1].end, "", parts=tuple(parts))
    which = _WHICHEVER.search(phrase)
    if which:  # "*** or *** ..., whatever amount is the highest"
        parts = _parts(text, masked, start, start + which.start(), found)
        if len(parts) >= 2:
            kind = "greater_of" if which.group("w").lower() in {"greater", "greatest", "higher", "highest",
                                                                  "larger"} else "lesser_of"
            return Cap(kind, start, parts[-1].end, "", parts=tuple(parts))
    return _simple(text, masked, start, end, found)


def _parts(text: str, masked: str, start: int, end: int, found: Sequence[Figure]) -> list[Cap]:
    """The limbs of a lesser/greater-of: split at "or" / ";" outside brackets."""
    phrase = text[start:end]
    cuts, depth = [], 0
    for m in re.finditer(r"[()\[\]]|" + _PART_SPLIT.pattern, phrase, _I):
        token = m.group(0)
        if token in "([":
            depth += 1
        elif token in ")]":
            depth = max(0, depth - 1)
        elif depth == 0 and token.strip():
            cuts.append((m.start(), m.end()))
    spans, at = [], 0
    for a, b in cuts:
        if a > at:
            spans.append((at, a))
        at = b
    spans.append((at, len(phrase)))
    parts = []
    for a, b in spans:
        cap = _simple(text, masked, start + a, start + b, found, part=True)
        if cap is not None:
            parts.append(cap)
    return parts


def _simple(text: str, masked: str, start: int, end: int, found: Sequence[Figure],
            part: bool = False) -> Cap | None:
    phrase = text[start:end]
    enumerator = re.match(r"\s*\(\s*(?:[ivx]+|[a-d0-9])\s*\)\s*", phrase, _I)
    if enumerator:  # "(i) $[**]": the limb begins after its number
        start += enumerator.end()
        phrase = text[start:end]
    bare = phrase.strip(" ,;:")
    if not bare or _NOT_A_CAP.match(phrase) or (bare.startswith("(") and bare.endswith(")")):
        return None
    if _DAMAGES.match(bare.lower().removeprefix("direct ").removeprefix("actual ")) or \
            re.match(r"(?:the\s+)?(?:actual\s+|direct\s+)+damages", bare, _I):
        return Cap("other", start, end, "", basis=_basis(phrase)) if part else None
    inside = [f for f in found if start <= f.start and f.end <= end]
    stop = _measure_end(phrase)
    end = start + stop
    phrase = phrase[:stop]
    inside = [f for f in inside if f.end <= end]
    if _REDACTED.match(phrase):
        return Cap("redacted", start, end, "")
    if _PLACE_AMOUNT.match(phrase):
        return Cap("fixed", start, end, "", currency="USD")
    if _PLACE_MULTIPLE.match(phrase):
        return Cap("multiple", start, end, "", period_months=_months(phrase, inside), basis=_basis(phrase))
    if _DEFINED.match(phrase):
        return Cap("other", start, end, "", basis=_basis(phrase))
    first = inside[0] if inside and inside[0].start - start < 40 else None
    if first is not None and first.kind == "amount":
        return Cap("fixed", start, first.end, "", amount=first.value, currency=first.currency)
    if first is not None and first.kind in ("multiple", "percentage"):
        rest = text[first.end:end]
        if first.kind == "multiple" or re.match(r"\s*of\b", rest, _I):
            multiple = first.value if first.kind == "multiple" else first.value / 100
            return Cap("multiple", start, end, "", multiple=multiple, period_months=_months(rest, inside[1:]),
                       basis=_basis(rest))
    if _OTHER.search(phrase[:160]) or (_DAMAGES.search(phrase[:100]) and not _PAID.search(phrase[:160])):
        return Cap("other", start, end, "", basis=_basis(phrase))
    if _FEES.search(phrase[:120]):
        if _PER_MONTH.search(phrase):
            return Cap("fees_period", start, end, "", period_months=1.0, basis=_basis(phrase))
        months = _months(phrase, inside)
        if months is not None or _LAST_YEAR.search(phrase) or _UNSTATED_TERM.search(phrase):
            if months is None and _LAST_YEAR.search(phrase):
                months = 12.0
            return Cap("fees_period", start, end, "", period_months=months, basis=_basis(phrase))
        return Cap("fees_all", start, end, "", basis=_basis(phrase))
    return None


def _measure_end(phrase: str) -> int:
    """The measure ends before a new clause of the sentence ("; provided", ", except", "and in no event")."""
    m = re.search(r",?\s+(?:provided|except|excluding|save|and\s+in\s+no\s+event|and\s+(?:neither|each|either)\s+party|"
                  r"notwithstanding|unless)\b", phrase, _I)
    return m.start() if m else len(phrase)


def _months(phrase: str, inside: Sequence[Figure]) -> float | None:
    """The fee window in months: the first period among the measure's figures."""
    for f in inside:
        if f.kind == "period" and f.unit in _MONTHS and _MONTHS[f.unit]:
            return round(f.value * _MONTHS[f.unit], 4)
    return None


def _basis(phrase: str) -> str:
    words = re.sub(r"\s+", " ", phrase).strip(" ,.;:")
    return words[:100]
