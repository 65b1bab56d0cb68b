"""The places a contract names as its governing law or its courts: one list, one spelling,
one reading of the sentences that name them.

Compare terms (``terms.extract``: a clause's governing law and forum) and the index's facets
(``ingest.metadata.governing_law``: a document's) both read places from here, so the two never
disagree on which places exist, how one is written ("the Netherlands" -> "Netherlands") or
which sentences choose a law ("governed by the laws of the State of New York", "Delaware law
governs", "the courts located in Ontario").
"""

from __future__ import annotations

import re

US_STATES = (
    "Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho "
    "Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota "
    "Mississippi Missouri Montana Nebraska Nevada Ohio Oklahoma Oregon Pennsylvania Tennessee Texas Utah "
    "Vermont Virginia Washington Wisconsin Wyoming").split() + [
    "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Rhode Island",
    "South Carolina", "South Dakota", "West Virginia", "District of Columbia", "Puerto Rico"]
JURISDICTIONS = tuple(US_STATES) + (
    "England and Wales", "England", "Scotland", "Northern Ireland", "Ireland", "United Kingdom",
    "Ontario", "British Columbia", "Quebec", "Canada", "Germany", "France", "the Netherlands", "Netherlands",
    "Switzerland", "Singapore", "Hong Kong", "New South Wales", "Victoria", "Australia", "India", "Japan",
    "Israel", "Luxembourg", "Sweden", "Spain", "Italy")
# A regex alternation of every place, longest first ("New York" before "York", "England and Wales"
# before "England").
PLACES = "|".join(sorted((re.escape(j) for j in JURISDICTIONS), key=len, reverse=True))
_CANONICAL = {"the Netherlands": "Netherlands", "Washington, D.C.": "District of Columbia"}


def canonical(place: str) -> str:
    """A place as the facets and the market count it ("the Netherlands" -> "Netherlands")."""
    return _CANONICAL.get(place, place)


_PLACE = f"(?P<p>{PLACES})"
_LAW = [re.compile(p) for p in (
    rf"\b(?:governed\s+by|construed\s+(?:in\s+accordance\s+with|under)|subject\s+to),?\s+(?:and\s+construed\s+in\s+accordance\s+with,?\s+)?(?:the\s+)?(?:internal\s+|substantive\s+)?laws?\s+of\s+(?:the\s+)?(?:(?:State|Commonwealth|Province|Republic|Kingdom)\s+of\s+)?{_PLACE}\b",
    # "governed by and construed pursuant to the laws of", "governed by, and interpreted under, the law of"
    rf"\bgoverned\s+by,?(?:\s+and\s+(?:construed|interpreted)[^,.;]{{0,40}},?)?\s+the\s+(?:internal\s+)?laws?\s+of\s+"
    rf"(?:the\s+)?(?:(?:State|Commonwealth|Province)\s+of\s+)?{_PLACE}\b",
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


def law_places(text: str) -> list[tuple[str, int, int]]:
    """(place, start, end) of each place ``text`` names as its governing law, in the order of the
    phrasings above, canonical ("the Netherlands" -> "Netherlands"); the span is the place's words."""
    if "law" not in text:
        return []  # every phrasing has the word: skip the scans (index build cost)
    return _read(text, _LAW)


def forum_places(text: str) -> list[tuple[str, int, int]]:
    """(place, start, end) of each place whose courts ``text`` names, as ``law_places``."""
    return _read(text, _FORUM) if "ourt" in text or "venue" in text or re.search(r"resolved|adjudicated|brought", text) else []


def _read(text: str, patterns: list[re.Pattern[str]]) -> list[tuple[str, int, int]]:
    return [(canonical(m.group("p")), m.start("p"), m.end("p")) for pattern in patterns for m in pattern.finditer(text)]
