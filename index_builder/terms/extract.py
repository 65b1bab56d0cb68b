"""Deterministic term extraction: the negotiable terms a clause states, each with its span.

The figures and liability caps are the clause-reading core's (``index_builder.reading.figures``
and ``reading.caps``); this module adds what Compare terms needs on top of them:

* each figure's ``role`` (notice, cure, non_compete, ...), read from the words around it;
* ``governing_law`` and ``forum``: a jurisdiction from a fixed list, named in a choice-of-law or
  a courts phrase;
* clause-level: ``mutuality`` (mutual / one_sided / None), from who each sentence binds
  (``reading.binding``), and ``subprovisions`` present (liability_cap, super_cap, cap_carveout,
  consequential_exclusion), from ``reading.caps`` and ``reading.limitations``.

The invariant, tested over every clause of the real agreements: a figure is only ever built from
characters of the clause (``text[start:end]``) and its value is read from them.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from typing import Any

from index_builder.reading import binding, limitations
from index_builder.reading.caps import Cap, caps as read_caps
from index_builder.reading.figures import Figure, figures as read_figures, mask
from index_builder.reading.jurisdictions import forum_places, law_places

# Bump when extraction or the stored shape changes: a rebuild then re-extracts every clause, and
# a stored reading of another version is read again from the text (stored.terms_of).
VERSION = "terms-9"  # 9: cure verbs, "competes"/"competitor", a period's own noun

_I = re.IGNORECASE
_TYPES = {"period": "period", "amount": "money", "percentage": "percentage", "multiple": "multiple"}

SUBPROVISIONS = ("liability_cap", "super_cap", "cap_carveout", "consequential_exclusion")


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
    written: str = ""  # digits | words | both | ocr (figures only)
    disagree: bool = False  # words and digits differ; the words were read

    @property
    def key(self) -> str:
        """The bucket a market distribution counts it in: "12 month", "USD 100000", "50", "3x"."""
        if self.type in {"governing_law", "forum"} or self.type.startswith("cap:"):
            return str(self.value)
        number = _number(float(self.value))
        if self.type == "money":
            return f"{self.unit} {number}"
        if self.type == "multiple":
            return f"{number}x"
        return number if self.type == "percentage" else f"{number} {self.unit}"

    @property
    def label(self) -> str:
        """The bucket as a lawyer reads it: "12 months", "USD 100,000", "50%", "1x fees of 12 months"."""
        if self.type.startswith("cap:"):
            return self._cap_label()
        if self.type == "period":
            number = _number(float(self.value))
            unit = self.unit.replace("_", " ")
            return f"{number} {unit}" + ("" if float(self.value) == 1 else "s")
        if self.type == "money":
            return f"{self.unit} {float(self.value):,.2f}".removesuffix(".00")
        if self.type == "percentage":
            return f"{_number(float(self.value))}%"
        if self.type == "multiple":
            return f"{_number(float(self.value))}x"
        return str(self.value)

    def _cap_label(self) -> str:
        """A liability cap (terms.cap_terms): "USD 1,000,000", "fees of 12 months", "3x fees of 12
        months"; the other kinds carry their label as their value."""
        kind = self.type.split(":", 1)[1]
        if isinstance(self.value, str):
            return self.value
        if kind == "fixed":
            return f"{self.unit} {float(self.value):,.2f}".removesuffix(".00").strip()
        if kind == "fees_period":
            return f"fees of {_number(float(self.value))} months"
        months = self.unit.removesuffix("m")
        return f"{_number(float(self.value))}x" + (f" fees of {months} months" if months else "")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ClauseTerms:
    terms: tuple[Term, ...] = ()  # figures (with their roles), governing law and forum
    mutuality: str | None = None
    subprovisions: tuple[str, ...] = ()
    caps: tuple[Cap, ...] = ()  # liability caps (reading.caps), each with its kind and span
    version: str = VERSION

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "terms": [t.to_json() for t in self.terms],
                "mutuality": self.mutuality, "subprovisions": list(self.subprovisions),
                "caps": [c.to_json() for c in self.caps]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "ClauseTerms":
        keys = ("type", "value", "unit", "role", "start", "end", "text", "written", "disagree")
        terms = tuple(Term(**{k: t[k] for k in keys if k in t}) for t in data.get("terms") or [])
        return cls(terms, data.get("mutuality"), tuple(data.get("subprovisions") or []),
                   tuple(Cap.from_json(c) for c in data.get("caps") or []), str(data.get("version", "")))


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def extract(text: str) -> ClauseTerms:
    """Every term of one clause, in text order, with the clause-level reading."""
    masked = mask(text)
    figures = read_figures(text)
    found_caps = tuple(read_caps(text, figures))
    terms = [_in_cap(_term(f, masked), found_caps) for f in figures]
    _places(text, masked, terms)
    return ClauseTerms(tuple(sorted(terms, key=lambda t: (t.start, t.type))), mutuality(masked),
                       subprovisions(masked, found_caps), found_caps)


def _term(figure: Figure, masked: str) -> Term:
    kind = _TYPES[figure.kind]
    unit = figure.currency if figure.kind == "amount" else figure.unit or ("%" if figure.kind == "percentage" else "")
    return Term(kind, figure.value, unit or "", _role(figure, masked), figure.start, figure.end, figure.text,
                figure.written, figure.disagree)


def _in_cap(term: Term, caps: tuple[Cap, ...]) -> Term:
    """A figure that measures a liability cap (its amount, multiple or fee window: "the fees paid
    in the 12 months before the claim") is the cap's, role ``cap``: Compare terms shows it in the
    cap's own family, never as a look-back period or a loose amount."""
    for cap in caps:
        for part in (cap, *cap.parts):
            if part.start <= term.start and term.end <= part.end and part.kind in _MEASURED.get(term.type, ()):
                return replace(term, role="cap")
    return term


_MEASURED = {"money": ("fixed",), "multiple": ("multiple",), "percentage": ("multiple",),
             "period": ("fees_period", "multiple")}


def _role(figure: Figure, masked: str) -> str:
    if figure.kind == "period":
        return period_role(masked, figure.start, figure.end)
    if figure.kind == "percentage":
        context = _sentence_around(masked, figure.start, figure.end).lower()
        return "interest" if "interest" in context and "late" in context or "per annum" in context \
            else "credit" if "credit" in context else "other"
    return ""


def _places(text: str, masked: str, found: list[Term]) -> None:
    for type_, read in (("governing_law", law_places), ("forum", forum_places)):
        seen: set[str] = set()
        for place, start, end in read(masked):
            if place not in seen:
                seen.add(place)
                found.append(Term(type_, place, "", "", start, end, text[start:end]))


# -- roles ---------------------------------------------------------------------------------------

_ROLES = [
    ("non_solicit", r"solicit|recruit|\bhire\b"),
    # every form of "compete" a restraint is written with: "any business that competes", "work for
    # a competitor" (a new user's "competes" read "Other period")
    ("non_compete", r"non-?compet|not\s+to\s+compete|\bcompet(?:e|es|ed|ing|ition|itions|itive|itors?)\b|"
                    r"restricted\s+period|non-?investment"),
    # putting a breach right: "cure", and the British "remedy", "rectify", "make good" when they
    # are the verb the period bounds ("fails to remedy that breach within 30 days", "is not
    # remedied"), never the noun of "without prejudice to any other right or remedy"
    ("cure", r"\bcure|\b(?:to|not|shall|will|must|fails?|failed|failing)\s+(?:\w+\s+)?(?:remedy|rectify|make\s+good)\b|"
             r"\b(?:remed(?:ied|ying)|rectif(?:ied|ying|ication)|made\s+good|making\s+good)\b|\bremedy\s+period"),
    # How long information must be kept confidential (a cover page's "Confidential Information
    # Duration", or a duration in a sentence that forbids disclosure): a lawyer compares it with
    # other confidentiality periods, not with survival or notice periods (a new user's "for a
    # period of three (3) years after this Agreement ends" came out "Other period").
    ("confidentiality", r"confidential(?:ity)?\s+(?:information\s+)?(?:duration|period)|\bin\s+(?:strict\s+)?confidence|"
                        r"\b(?:keep|kept|hold|held|maintain|treat)\w*\s+(?:[a-z-]+\s+){0,6}?(?:confidential|secret)|"
                        r"\b(?:not|never)\s+(?:to\s+)?(?:\w+\s+){0,2}?(?:disclose|divulge|reveal)|non-?disclosure(?!\s+agreement)|public\s+disclosure"),
    ("survival", r"surviv|term\s+of\s+the\s+agreement\s+and\s+for|after\s+(?:the\s+)?(?:expiration|termination)\s+of\s+(?:this|the)\s+agreement"),
    ("response", r"\brespon(?:d|se)"),
    ("notice", r"notice|notif|deemed\s+given|mailing|advance|in\s+writing"),
    ("renewal", r"renew"),
    ("term", r"(?:agreement|terms)\s+(?:will|shall)\s+(?:start|commence|continue)|initial\s+term|"
             r"remain\s+in\s+(?:full\s+)?(?:force|effect)"),
    ("payment", r"\bpa(?:y|id|yment|yable)\b|invoice"),
    ("retention", r"\brecords?\b|\bretain|\bmaintain"),
]


_ROLE_PATTERNS = [(role, re.compile(pattern, _I)) for role, pattern in _ROLES]
_CURE = dict(_ROLE_PATTERNS)["cure"]


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
    head = _HEAD_NOUN.match(after)
    if head:  # "30 days' written notice", "a 30-day cure period": the noun it measures says its role,
        # unless a cure verb before it in its sentence runs from that notice ("fails to cure a
        # breach following 30 days notice": the time to cure)
        lead = context[:max(0, context.find(text[start:end]))]
        cured = re.match(r"cure|remedy|rectification", head.group(1)) or _CURE.search(lead)
        return "cure" if cured else "notice"
    for role, pattern in _ROLE_PATTERNS:
        if pattern.search(context) and (role != "confidentiality" or _lasts(before, after, context)):
            return role
    return "other"


# The noun a period measures directly ("thirty (30) days' prior written notice", "a 15-day cure
# period"): it governs the period whatever else its sentence says ("terminate on 30 days' notice if
# the Supplier fails to remedy ..." is a notice period).
_HEAD_NOUN = re.compile(r"(?:[’']s?|-)?\s*(?:(?:prior|advance|written|express|further)\s+){0,3}"
                        r"(notice|cure\s+period|remedy\s+period|rectification\s+period)\b")


_LABEL = re.compile(r"confidential(?:ity)?\s+(?:information\s+)?(?:duration|period)", _I)
_FOR_A_PERIOD = re.compile(r"(?:\bfor|\bduring|\bof|\buntil|\blasting)\s+(?:a\s+(?:further\s+)?(?:period|term)\s+of\s+)?"
                           r"(?:at\s+least\s+|not\s+less\s+than\s+)?$")
_RUNS_FROM = re.compile(r"\W*(?:after|following|from|thereafter|beyond|of\s+(?:its|the)\s+disclosure)")


def _lasts(before: str, after: str, context: str) -> bool:
    """Whether a period in a confidentiality sentence is how long the duty lasts ("for a period
    of three years", "two years after disclosure", a cover page's duration), not a deadline in
    it ("notify within 5 days of any unauthorised disclosure")."""
    return bool(_LABEL.search(context) or _FOR_A_PERIOD.search(before) or _RUNS_FROM.match(after)) \
        and not re.search(r"within\s*$", before)


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


# -- clause-level readings -----------------------------------------------------------------------

def mutuality(text: str) -> str | None:
    """Who the clause binds, as the core reads each sentence (reading/binding.py): "mutual" when
    every party it burdens (obligations, prohibitions, limits that shelter a party) is both sides
    ("each party shall", "neither party's liability") and no right in it is one side's alone,
    "one_sided" when the parties it burdens are one named party, None when it burdens no party,
    burdens named parties on both sides, or burdens both alike while giving one side a right the
    other lacks ("Company may terminate ... the parties will continue performing"): that clause
    favours the right-holder, and "mutual" would tell the lawyer it is even-handed. A clause that
    only grants rights is mutual when both sides have them ("Either party may terminate") and
    otherwise None: one party's right binds nobody. A right named for each side in turn ("Company
    may terminate ...; Contractor may terminate ...") is both sides'. "A party" ("nothing limits
    a party's liability") is a rule about any party, not a promise of either, and is not counted;
    nor is a role any party may come to hold ("A Protected Party may participate", "an
    Indemnified Party shall have the right"): it is no one side's."""
    reading = binding.read(text)
    read = [p for p in reading.provisions if p.bound and not _indefinite(text, p.subject[0], p.subject[1])]
    burdens = {p.bound for p in read if p.kind != "right"}
    lone_right = any(p.kind == "right" and not reading.mirrored(p) for p in read)
    if lone_right and (burdens == {binding.MUTUAL} or (not burdens and any(p.mutual for p in read))):
        # (Rights only: "may be terminated by either party ... The Company may terminate at any time" gives
        # both a right and one side another; as with a duty of both, that favours the right-holder.)
        return None
    sides = burdens if burdens else {p.bound for p in read} & {binding.MUTUAL}
    if sides == {binding.MUTUAL}:
        return "mutual"
    if len(sides) == 1:
        return "one_sided"
    return None


_INDEFINITE = re.compile(r"an?\s+party\b", _I)
_ANY_OF_ROLE = re.compile(r"\ban?\s+$", _I)  # not "each": "each Seller" is one side of several


def _indefinite(text: str, start: int, end: int) -> bool:
    """Whether the subject at ``start:end`` is any party ("a party") or any holder of a role ("a
    Protected Party", "an Indemnified Party"): the core reads the role as a name, the article
    says it is not one."""
    return bool(_INDEFINITE.match(text, start, end) or _ANY_OF_ROLE.search(text, max(0, start - 8), start))


def subprovisions(text: str, caps: tuple[Cap, ...] | None = None) -> tuple[str, ...]:
    """The parts of a limitation of liability the clause has, in SUBPROVISIONS order: a cap
    (reading/caps.py), a super-cap, a carve-out, an exclusion of consequential loss
    (reading/limitations.py). ``caps``: the clause's caps, when already read."""
    found = tuple(read_caps(text)) if caps is None else caps
    present = {"liability_cap": bool(found), "super_cap": limitations.super_cap(text, found) is not None,
               "cap_carveout": limitations.carve_out(text) is not None,
               "consequential_exclusion": limitations.consequential_exclusion(text) is not None}
    return tuple(name for name in SUBPROVISIONS if present[name])
