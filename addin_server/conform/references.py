"""Cross-references in a precedent ("Section 8.4 (Exceptions)") mapped to the document's sections.

A reference maps when the document has a section at the same level with the same heading (the heading written
in the reference, else the precedent's own heading for that number); otherwise it is flagged
and left as written. Another document's sections ("Section 4 of the DPA") are not ours.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from index_builder.reading.document import Section
from index_builder.reading.references import own_references
from addin_server.conform.model import CrossReference

def _key(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", heading.lower().replace("&", "and")).strip()


def _level(number: str) -> int:
    return number.count(".") + number.count("(")


def _norm(number: str) -> str:
    return number.strip().rstrip(".").lower()


def find(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, number, heading written) for every internal reference, in order (the core's
    reader of cross-references, reading/references.py)."""
    return own_references(text)


def map_references(text: str, own: Sequence[Section], target: Sequence[Section],
                   rewrite: Callable[[str], str] = lambda heading: heading) -> list[tuple[int, int, CrossReference, str]]:
    """Each reference with its replacement text ("" when flagged).

    ``rewrite`` puts a heading in the document's terms ("Restrictions on Customer" ->
    "Restrictions on Client") for a second look when the heading as written finds nothing.
    """
    own_heading = {_norm(s.number): s.heading for s in own}
    by_heading: dict[str, list[Section]] = {}
    for s in target:
        if s.heading:
            by_heading.setdefault(_key(s.heading), []).append(s)
    out = []
    for start, end, number, written in find(text):
        heading = written or own_heading.get(_norm(number), "")
        matches = (by_heading.get(_key(heading)) or by_heading.get(_key(rewrite(heading)), [])) if heading else []
        shown = text[start:end]
        if len(matches) == 1 and _level(matches[0].number) != _level(number):
            # Same heading at another level ("Section 9 (Confidentiality)" -> "4.4 Confidentiality"):
            # likely a narrower provision. Shown to the lawyer, not applied.
            out.append((start, end, CrossReference(shown, number, heading, matches[0].number, "suggested"), ""))
        elif len(matches) == 1:
            new = matches[0].number + (f" ({matches[0].heading})" if written else "")
            ref = CrossReference(shown, number, heading, matches[0].number, "mapped")
            out.append((start, end, ref, new if _norm(matches[0].number) != _norm(number) or written != matches[0].heading and written else ""))
        else:
            out.append((start, end, CrossReference(shown, number, heading, "", "flagged"), ""))
    return out
