"""The parts of a limitation of liability beside its caps: carve-outs, the exclusion of
consequential loss, and a super-cap.

``caps.caps`` reads the limits themselves (what liability is limited to); this module reads
what a lawyer looks for next in the same clause:

* ``carve_out``: where the clause takes some claims out of its limits, as lawyers write one
  ("except for / with respect to / in the case of", "excluding liability for", "save in respect
  of", "with the exception of", "shall not apply to", "not subject to the cap", "nothing in this
  Agreement limits liability for"), in a clause about liability, damages or a cap;
* ``consequential_exclusion``: consequential or indirect loss excluded ("Neither party shall be
  liable for", "in no event", "excluded", "waives", "disclaims");
* ``super_cap``: a second, higher (or lower) cap for named claims beside the general one, named
  as such ("Increased Cap Amount", "super cap") or read from the caps (two caps, one of them
  for named claims: "liability for breach of Section 9 shall not exceed $5,000,000").

Each returns the span of the words it was read from (``None`` when the clause has none), so a
caller can show them. Compare terms reads a clause's sub-provisions from here
(``terms.extract.subprovisions``).
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading.cap_measures import Cap

_I = re.IGNORECASE

_CARVE = re.compile(
    r"\bexcept\s+(?:as\s+(?:provided|set\s+(?:forth|out)|stated)\s+in|for|with\s+respect\s+to|in\s+respect\s+of|"
    r"in\s+(?:the\s+)?(?:case|event)\s+of|to\s+the\s+extent\s+(?:of|arising))\b|"
    r"\b(?:excluding|other\s+than)\s+(?:any\s+|a\s+)?(?:liability|claims?|damages|losses|obligations|breach)|"
    r"\bsave\s+(?:for|in\s+respect\s+of|as\s+(?:provided|set\s+out))\b|\bwith\s+the\s+exception\s+of\b|"
    r"\b(?:do(?:es)?|shall|will|should)\s+not\s+apply\s+to\b|"
    r"\bnot\s+(?:be\s+)?subject\s+to\s+(?:the|this|any|such)\s+(?:[\w-]+\s+){0,3}(?:limitations?|caps?|exclusions?)\b|"
    # (not "nothing ... will limit liability to the extent prohibited by law": the limits yield to law)
    r"\bnothing\s+in\s+this\s+(?:agreement|section|clause)\b(?![^.;]{0,200}\b(?:by|under)\s+(?:applicable\s+)?(?:laws?|statute)\b)"
    r"[^.;]{0,80}\b(?:limits?|excludes?|restricts?)\b", _I)
_LIABILITY = re.compile(r"liab|damages|\bcap\b", _I)
_CONSEQUENTIAL = re.compile(r"\bconsequential\b|\bindirect\b(?=[^.;]{0,80}?\b(?:damages?|loss(?:es)?)\b)", _I)
# "Neither party shall be liable for", "Supplier has no liability for", "is not liable", "excluded".
_EXCLUDED = re.compile(r"\b(?:not|neither|nor|no|never)\b[^.;]{0,80}?\b(?:liable|liabilit(?:y|ies)|responsible)\b|"
                       r"no\s+circumstances|in\s+no\s+event|exclud|waive|disclaim", _I)
_SUPER_NAMED = re.compile(r"Increased\s+Cap\s+Amount|\bsuper\s?-?cap\b", _I)
# A cap on some claims beside the general cap: the cap's own words name the claims it is for.
_SCOPED = re.compile(
    r"\b(?:for|under|arising\s+(?:from|out\s+of|under)|with\s+respect\s+to|in\s+respect\s+of|relating\s+to|"
    r"in\s+connection\s+with)\s+(?:(?:a|any|its|the|their|such|each)\s+)?(?:[\w()'’-]+\s+){0,3}?"
    r"(?:breach(?:es)?|section|clause|article|indemnif\w*|confidential\w*|data|infring\w*|privacy|security|"
    r"gross(?:ly)?|wil(?:l)?ful|fraud\w*|intellectual\s+property)\b", _I)

_CONTRIBUTION = re.compile(r"\brequired\s+to\s+contribute\b", _I)

Span = tuple[int, int]


def carve_out(text: str) -> Span | None:
    """Where ``text`` takes claims out of its limits, in a clause about liability or damages."""
    if not _LIABILITY.search(text):
        return None
    m = _CARVE.search(text)
    return m.span() if m else None


def consequential_exclusion(text: str) -> Span | None:
    """Where ``text`` excludes consequential or indirect loss (the consequential words' span)."""
    m = _CONSEQUENTIAL.search(text)
    return m.span() if m and _EXCLUDED.search(text) else None


def super_cap(text: str, caps: Sequence[Cap]) -> Span | None:
    """A super-cap: named as one, or two caps of which one is for named claims (that cap's span)."""
    named = _SUPER_NAMED.search(text)
    if named:
        return named.span()
    # a limit on contribution (securities indemnities: "no Underwriter shall be required to contribute
    # any amount in excess of ...") sits beside the indemnity's own limit; neither is a super-cap
    caps = [c for c in caps if not _CONTRIBUTION.search(c.text[:200])]
    if len(caps) >= 2:
        scoped = next((c for c in caps if _SCOPED.search(c.text[:300])), None)
        if scoped:
            return scoped.start, scoped.end
    return None
