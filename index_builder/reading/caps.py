"""Liability caps: how much a party can be liable for, of every kind a contract writes.

``caps(text)`` reads each limit on liability the way a lawyer parses the sentence: a **subject**
(whose liability, damages or indemnity), a **limiting verb** ("shall not exceed", "will in no
event be more than", "is limited (…) to", "capped at", "liable for no more than", "up to …",
"maximum liability … is") and a **measure**, which is one of:

* ``fixed``: an amount ("$1,000,000", "FIFTEEN MILLION DOLLARS"; a cover-page placeholder
  ``${general_cap_amount}`` or ``$[____]`` gives ``amount=None``);
* ``fees_period``: consideration paid or payable over a window ("the amounts paid … in the twelve
  (12) months preceding the claim", "one (1) month's fees", "revenues collected in the previous
  contractual year"); ``period_months`` is the window's length, ``None`` where the window has
  none stated ("during the [***] preceding the event", "under the Initial Term");
* ``fees_all``: consideration with no window ("all fees paid under this Agreement", "the price of
  the Product giving rise to the claim", "the amounts received hereunder");
* ``multiple``: N times, N% or a fraction of an amount ("THREE TIMES (3X) the value of the work
  order", "125% of the Price", "one half of the amount paid", "[***] times the fees");
* ``lesser_of`` / ``greater_of``: a choice ("the greater of (a) … and (b) …", "$500 or the amount
  of the invoice, whichever is less"), its limbs in ``parts``, each a cap of its own;
* ``redacted``: the measure itself is redacted ("[***]", "$[**]", "the [*] to NETGEAR");
* ``other``: a measure of another kind: a defined amount ("the General Cap Amount"), insurance
  coverage, damages recovered from a third party, service credits, a cost.

A fallback or an aggregate beside a per-claim limit ("X or, if no credits are specified, Y";
"X per claim, or in the aggregate, Y") is two caps. ``whose`` is the party whose liability is
capped as the clause names it ("each party" for either/each/neither party, "both" for one cap
shared by the parties). Each cap carries its span (``text[start:end]``, from the words that say
whose liability to the end of the measure). A cap's numbers are the figures of
``reading.figures`` inside its span: nothing is read twice, and no number is ever made up (a
multiplier or window left redacted or as a placeholder stays ``None``; a measure that cannot be
read is ``other`` or no cap at all).
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading.cap_measures import Cap, read_measure
from index_builder.reading.figures import Figure, figures as read_figures
from index_builder.reading.polarity import BOUND_AFTER, limiting_negation, measure_end

__all__ = ["Cap", "caps"]

_I = re.IGNORECASE

# -- the limiting verb: each match ends where the measure begins -----------------------------------
# A negation of another verb ("shall not apply to the extent X pays in excess of") makes no ceiling.
_NEG = limiting_negation
_CEIL = r"(?:exceed(?:s|ing)?|(?:be\s+)?(?:more|greater|higher)\s+than|(?:be\s+)?in\s+excess\s+of)"
_AGG = r"(?:\s*,?\s*(?:in\s+the\s+aggregate|in\s+total|cumulatively)\s*,?)?"
_LIMIT = re.compile(
    rf"{_NEG}(?:(?!\n[ \t]*\n)[^.;<]|\.(?=\S)){{0,500}}?\b{_CEIL}\b{_AGG}|"
    rf"\bno\s+(?:more|greater|higher)\s+than\b|"
    # "limited (solely / in the aggregate / separately for products and services) to": adverbs and a
    # short phrase of what or how (for / as to / per / under / in respect of ...) between verb and "to"
    r"\b(?:limited|restricted|capped)(?:\s+(?:in\s+(?:the\s+)?aggregate|in\s+amount|\w+ly|"
    r"further|in\s+any\s+event|at\s+all\s+times))*"
    r"(?:\s+(?:for|as\s+to|with\s+respect\s+to|in\s+respect\s+of|per|under|in\s+relation\s+to)(?:\s+(?!to\b|at\b)[\w'’-]+){1,6}?)?"
    r"(?:\s*\([^()]{0,400}\))?(?:\s*,[^.;()]{0,100}?,)?\s+(?:to|at)\b|"
    r"\bup\s+to\b(?!\s+(?:and\s+including|now|(?:the|such|that|this)\s+(?:date|time|point|end|extent)\b|"
    r"\d+\s*(?:days?|weeks?|months?|years?|hours?|%)))|"
    r"\b(?:maximum|total|aggregate|entire|cumulative)\s+(?:[\w-]+\s+){0,2}liabilit(?:y|ies)\b[^.;]{0,200}?"
    r"\b(?:is|shall\s+be|will\s+be)\b(?!\s+(?:limited|restricted|capped|subject|reduced|excluded|several|joint|"
    r"borne|determined|as\s+follows|unlimited))|"
    # "Supplier's liability ... shall be the lesser of ...", "... will be $1,000,000"
    r"\bliabilit(?:y|ies)\b[^.;]{0,200}?\b(?:is|shall\s+be|will\s+be)\b(?=\s+(?:(?:an\s+amount\s+)?equal\s+to\s+)?"
    r"(?:the\s+(?:lesser|greater|higher|lower)\s+of\b|[$€£]|US\$|(?:USD|EUR|GBP)\b|\[\s*\*))|"
    r"\bCap\s+Amount\s+(?:of|is|will\s+be|shall\s+be|equals?)\b", _I)
# What a limit limits: liability, damages, an indemnity, a recovery, an obligation in aggregate.
_LIABLE = re.compile(r"liab|reimburse|indemnif|damages|recover|\bcap\s+amount\b|\brequired\s+to\s+contribute\b|"
                     r"\b(?:aggregate|total|maximum|cumulative|entire)\s+(?:\w+\s+)?obligations?\b", _I)
# "General Liability insurance", "limits of liability": insurance, not a liability being capped.
_INSURANCE_NAME = re.compile(
    r"\b(?:(?:commercial|comprehensive|general|professional|products?|umbrella|excess|public|employers?['’]?|"
    r"contractual|automobile|auto|cyber|errors\s+and\s+omissions)\s+)*liability\s+(?:insurance|coverage|polic(?:y|ies)|"
    r"limits?)\b|\blimits?\s+of\s+liability\b", _I)
_RATE = re.compile(r"\s*(?:per|a|each|for\s+each)\s+(?:calendar\s+|business\s+)?(?:day|week|month|hour|unit|item)\b", _I)
# "up to" limits a liability, an indemnity or damages (not "reimburse expenses up to $5,000").
_LIABLE_UP_TO = re.compile(r"liab|indemnif|damages|recover", _I)
_INSURANCE = re.compile(r"\binsurance\b|\bcoverage\b|\bpolic(?:y|ies)\b|\binsured\b", _I)

_WHOSE_EACH = re.compile(r"\b(?:each|either|neither|any)\s+part(?:y|ies)\b|\b(?:a|one)\s+party(?:['’]s)?\s+(?:\w+\s+){0,4}liabilit|"
                         r"\bliabilit(?:y|ies)\s+of\s+(?:a|one|either|each)\s+party|\bto\s+the\s+other\b|\bone\s+party\s+to\s+(?:the\s+)?other", _I)
_WHOSE_BOTH = re.compile(r"\b(?:of\s+)?the\s+parties\b|\bboth\s+parties\b", _I)
_NOT_NAME = (r"(?!(?:IN|NO|EVENT|SHALL|WILL|THE|OF|AND|OR|ITS|TO|FOR|BY|ANY|ALL|EACH|UNDER|HEREUNDER|SUCH|THIS|"
             r"AGREEMENT|NOTWITHSTANDING|EXCEPT|SUBJECT|IF|WHERE|THAT|A|AN|MAXIMUM|TOTAL|AGGREGATE|CIRCUMSTANCES?|CASE|"
             r"BE|EXCEED|GREATER|MORE|HIGHER|THAN|LIMITED)\b)")
_NAME_WORD = rf"{_NOT_NAME}[A-Z][\w.&-]*"
_WHOSE_NAMED = re.compile(rf"\b(?P<n>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})['’][sS]?\s+(?:[\w'’-]+\s+){{0,5}}?(?i:liabilit)|"
                          rf"\b(?i:liabilit(?:y|ies)\s+of\s+(?:the\s+)?)(?P<m>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})|"
                          rf"\b(?P<l>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})\s+(?i:(?:shall|will|is|may)\s+(?:\w+\s+){{0,2}}?(?:be\s+)?(?:liable|required\s+to\s+contribute))\b")


def caps(text: str, figures: Sequence[Figure] | None = None) -> list[Cap]:
    """Every liability cap of ``text``, in text order (``figures``: its figures, when already read)."""
    found = list(figures) if figures is not None else read_figures(text)
    ends = _sentence_ends(text)
    limits = [m for m in _LIMIT.finditer(text) if not _ends_within(ends, m.start(), m.end()) and not _not_limited(text, m)]
    out: list[Cap] = []
    for i, m in enumerate(limits):
        if out and m.start() < out[-1].end:
            continue  # "is limited to, and will not exceed, ...": one cap
        nxt = limits[i + 1].start() if i + 1 < len(limits) else len(text)
        if (i + 1 < len(limits) and nxt - m.end() < 30 and not re.search(r"[\d$€£*\[{]", text[m.end():nxt])
                and not _bounds(text, m.end(), limits[i + 1])):
            continue  # "maximum liability is expressly limited to ...": the later words measure it
        if not _limits_liability(text, m, ends):
            continue
        # "X, not to exceed Y" / "X, up to $Y": the later verb bounds this measure, so it is read with it
        stop = next((n.start() for n in limits[i + 1:] if not _bounds(text, m.end(), n)), len(text))
        end = min(stop, _next_end(ends, m.end()), m.end() + 700)
        read = read_measure(text, m.end(), end, found)
        if _is_up_to(m):  # "up to" limits only with a measure of money: never "up to 30 days", "$500 per day"
            read = [c for c in read if c.kind != "other" and not _RATE.match(text, c.end)]
        if not read:
            continue
        low = _sentence_start(text, ends, m.start(), soft=not _is_up_to(m))
        # a second cap in one sentence ("Except for X, which shall not exceed $5M, each party's
        # liability shall not exceed ..."): its subject is after the first cap, not the sentence's start
        subject = _subject_start(text, max(low, out[-1].end) if out and out[-1].end < m.start() else low, m.start())
        whose = _whose(text[subject:m.end()]) or _whose(text[low:m.end()])
        first, *more = read
        out.append(_with(first, start=min(subject, first.start), end=first.end, whose=whose, text=text))
        out.extend(_with(c, start=c.start, end=c.end, whose=whose, text=text) for c in more)
    defined = _defined_caps(text, ends, found)
    if defined:  # "... in excess of the Maximum Liability": the definition states that cap; not again
        terms = [t.lower() for t, _ in defined]
        out = [c for c in out if not (c.kind == "other" and any(t in c.text.lower() for t in terms))]
        out = [c for c in out if not any(a < c.end and c.start < b for _, d in defined for a, b in [(d.start, d.end)])]
        out.extend(c for _, c in defined)
    taken = [(c.start, c.end) for c in out]
    rows = [_with(c, start=c.start, end=c.end, whose=None, text=text) for c in _cover_rows(text, found)
            if not any(a < c.end and c.start < b for a, b in taken)]
    return sorted(out + rows, key=lambda c: c.start)


def _bounds(text: str, after: int, m: re.Match[str]) -> bool:
    """Whether limit ``m`` bounds the measure that starts at ``after`` ("..., not to exceed $5,000")."""
    between = text[after:m.start()]
    return bool(BOUND_AFTER.match(m.group(0)) and re.search(r",\s*(?:but\s+(?:only\s+)?)?(?:in\s+any\s+event\s+)?$", between)
                and not re.search(r"[;:]|\n[ \t]*\n", between))


def _is_up_to(m: re.Match[str]) -> bool:
    return m.group(0).lower().startswith("up")


def _not_limited(text: str, m: re.Match[str]) -> bool:
    """ "including but not limited to": no limit (and no end to the measure before it)."""
    before = text[max(0, m.start() - 12):m.start()]
    return bool(re.search(r"\b(?:not|without)\s*$", before, _I)) and m.group(0).lower().startswith(("limited", "restricted"))


def _limits_liability(text: str, m: re.Match[str], ends: list[int]) -> bool:
    """Whether the limiting words limit a liability: the subject names one, and they open a measure."""
    if re.match(r"\s*:\s*(?:\n|\(?\s*(?:a|i|1)\s*[.)])", text[m.end():m.end() + 12], _I):
        return False  # "IBM is liable for no more than: a. indemnification payments ...": heads, not a measure
    up_to = _is_up_to(m)
    # "up to" reads under the liability its list opens ("limited to the following amounts: a) ...: up
    # to a maximum of ***"); the other verbs under their own clause's subject
    low = _sentence_start(text, ends, m.start(), soft=not up_to)
    context = _INSURANCE_NAME.sub(" ", text[low:m.end()])
    if not (_LIABLE_UP_TO if up_to else _LIABLE).search(context):
        return False
    return not (up_to and _INSURANCE.search(context))


# -- sentences --------------------------------------------------------------------------------------

_ABBREVIATION = re.compile(r"(?:\b[A-Za-z]|\b(?:Inc|Ltd|Co|Corp|No|Nos|Sec|Art|St|Mr|Ms|Mrs|Dr|vs|v|etc|approx|para))$", _I)


def _sentence_ends(text: str) -> list[int]:
    """Where sentences end: a full stop before the next sentence, "<omitted>", a blank line."""
    ends = []
    for m in re.finditer(r"\.(?=\s+(?:[A-Z(\[\"“‘'0-9]|$)|\s*$)|<omitted>|\n[ \t]*\n", text):
        if m.group(0) == "." and _ABBREVIATION.search(text[max(0, m.start() - 8):m.start()]):
            continue  # "U.S. Dollars", "Inc. shall"
        ends.append(m.start())
    return ends


def _ends_within(ends: list[int], start: int, end: int) -> bool:
    return any(start <= e < end for e in ends)


def _next_end(ends: list[int], at: int) -> int:
    return next((e for e in ends if e >= at), 1 << 30)


def _sentence_start(text: str, ends: list[int], at: int, soft: bool) -> int:
    """The start of the sentence around ``at``; ``soft``: of its clause (after the last ";")."""
    low = max([e for e in ends if e < at], default=-1) + 1
    if text.startswith("omitted>", low):
        low += len("omitted>")
    if soft:
        low = max(low, text.rfind(";", low, at) + 1)
    return max(low, at - 700)


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
        return (named.group("n") or named.group("m") or named.group("l")).strip()
    return None


def _with(cap: Cap, *, start: int, end: int, whose: str | None, text: str) -> Cap:
    parts = tuple(_with(p, start=p.start, end=p.end, whose=whose, text=text) for p in cap.parts)
    return Cap(cap.kind, start, end, text[start:end], cap.amount, cap.currency, cap.multiple,
               cap.period_months, cap.basis, whose, parts)


# -- a cap set through a defined term ----------------------------------------------------------------

# '"Maximum Liability" means ...', '"Liability Cap" shall mean ...': a term naming a limit on liability
# ("liability" and a word of limit in the term), or '"General Cap Amount" means', '"Indemnity Cap" means'
_DEFINITION = re.compile(r"[\"“”](?P<t>[^\"“”\n]{0,40}?(?:liabilit|\bcap\b)[^\"“”\n]{0,40}?)[\"“”]\s*(?:shall\s+)?means?\b[\s,:]*", _I)
_CAP_TERM = re.compile(r"liabilit[\w\s-]*\b(?:maximum|aggregate|total|cap|limit|ceiling|cumulative)\b|"
                       r"\b(?:maximum|aggregate|total|cap|limit|ceiling|cumulative)\b[\w\s-]*liabilit", _I)
# A cap term without "liability" ("Cap Amount", "Indemnity Cap"; not "Interest Rate Cap", "Fee Cap"):
# only a measure that can be valued makes it a cap, never an ``other`` read from its words alone.
_VALUED_TERM = re.compile(r"^(?:(?:general|increased|super|indemnity|indemnification|damages|aggregate|total)\s+)?"
                          r"cap(?:\s+amount)?$", _I)
# "with respect to Operator, ..., and with respect to Owner, ...": one measure per party
_FOR_PARTY = re.compile(r"(?:[,;]?\s*(?:and\s+)?)(?P<w>with\s+respect\s+to|in\s+respect\s+of|in\s+the\s+case\s+of|as\s+to|for)\s+"
                        r"(?P<p>(?:the\s+)?[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})\s*,\s*")


def _defined_caps(text: str, ends: list[int], found: Sequence[Figure]) -> list[tuple[str, Cap]]:
    """The caps a definition of a cap term states, one per party where it names one per party: the
    term and each cap ("\"Maximum Liability\" means, with respect to Operator, the Residual Value ...,
    and with respect to Owner, One Million Dollars ($1,000,000)")."""
    out: list[tuple[str, Cap]] = []
    low = text.lower()
    for m in _DEFINITION.finditer(text) if "liabilit" in low or "cap" in low else ():
        term = m.group("t").strip()
        valued_only = bool(_VALUED_TERM.match(term))
        if not (valued_only or _CAP_TERM.search(term)):
            continue
        body, end = m.end(), min(_next_end(ends, m.end()), m.end() + 700)
        limbs = [p for p in _FOR_PARTY.finditer(text, body, end)]
        if not limbs or limbs[0].start() > body:
            limbs = []
        spans = [(k.start("w"), k.end(), limbs[i + 1].start() if i + 1 < len(limbs) else end, k.group("p"))
                 for i, k in enumerate(limbs)] or [(m.start(), body, end, None)]
        for i, (limb, a, b, whose) in enumerate(spans):
            read = read_measure(text, a, b, found)
            if not read and valued_only:
                continue
            if not read:  # the definition says it is a cap: a measure we cannot value is "other"
                bare = text[a:b]
                cut = len(bare) - len(bare.lstrip(" ,:"))
                stop = a + cut + _plain_end(bare[cut:])
                if stop <= a + cut:
                    continue
                read = [Cap("other", a + cut, stop, "", basis=re.sub(r"\s+", " ", text[a + cut:stop])[:100])]
            start = m.start() if i == 0 else limb
            first, *more = read
            out.append((term, _with(first, start=start, end=first.end, whose=whose, text=text)))
            out.extend((term, _with(c, start=c.start, end=c.end, whose=whose, text=text)) for c in more)
    return out


def _plain_end(phrase: str) -> int:
    """Where a measure we cannot value ends: at the clause's ";" or a proviso."""
    m = measure_end(valued=False).search(phrase)
    return len(phrase[:m.start()] if m else phrase.rstrip(" .,;"))


# -- cover pages ------------------------------------------------------------------------------------

# A cover page's cap row: "General Cap Amount" (or "Increased Cap Amount") and its options, each on
# a line of its own behind a check box, or the click-through's "[[ 1x the fees ... ]]".
_COVER = re.compile(r"(?:General|Increased)\s+Cap\s+Amount\b(?!\s+(?:is|means|will|shall|of))", _I)
_OPTION = re.compile(r"^[ \t]*(?P<box>\[\s*(?P<x>[xX✓✔]?)\s*\]|\(\s*(?P<y>[xX✓✔]?)\s*\))[ \t]*(?P<body>\S.*)$", re.M)
_DEFAULT = re.compile(r"(?:General|Increased)\s+Cap\s+Amount\W{0,6}\s*\[\[\s*(?P<body>[^\[\]]+?)\s*\]\]", _I)


def _cover_rows(text: str, found: Sequence[Figure]) -> list[Cap]:
    """The options a cover page offers for a cap amount: only the ticked one where one is ticked."""
    cover = _COVER.search(text)
    if cover is None:
        return []
    out = []
    for m in _DEFAULT.finditer(text):
        out.extend(read_measure(text, m.start("body"), m.end("body"), found)[:1])
    options = [m for m in _OPTION.finditer(text) if m.start() > cover.start()]
    ticked = [m for m in options if m.group("x") or m.group("y")]
    for m in ticked or options:
        out.extend(read_measure(text, m.start("body"), m.end("body"), found)[:1])
    return out


