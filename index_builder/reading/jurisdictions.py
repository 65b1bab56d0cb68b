"""The places a contract names as its governing law or its courts: one list, one spelling.

Compare terms (``terms.extract``: a clause's governing law and forum) and the index's facets
(``ingest.metadata.governing_law``: a document's) both read places from here, so the two never
disagree on which places exist or how one is written ("the Netherlands" -> "Netherlands").
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
