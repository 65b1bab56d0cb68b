"""What every drafting operation shares: "already done", how a party is written (with "the", capitals,
the clause's apostrophe), the spans provisions cover, and edits in order."""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading.binding import Provision

from addin_server.draft.edits import Declined, Edit


class AlreadyDone(Declined):
    """The clause already says what was asked: nothing to change."""


ROLE_NOUNS = re.compile(r"\s+(?:(?:total|entire|aggregate|sole|prior|written|reasonable|own|cumulative|maximum|overall)\s+)*"
                         r"(?:liability|option|name|names|logo|logos|marks|trademarks|identity|information|personnel|"
                         r"employees|records|books|facilities|premises|"
                         r"election|discretion|consent|approval|obligations?|rights?|benefit|expense|cost|request|"
                         r"ownership|behalf|breach|default|request)\b", re.I)


def cap(text: str, at: int, words: str) -> str:
    before = text[:at].rstrip()
    start = not before or before[-1] in ".!?\n:;" or re.search(r"(?:^|\n)\s*\(?[a-z0-9]{1,3}[.)]$", before)
    return words[0].upper() + words[1:] if start else words


def apostrophe_of(text: str) -> str:
    """The clause's own apostrophe; a curly one where it has none."""
    return "'" if "'" in text and "’" not in text else "’"


def provision_spans(provisions: Sequence[Provision]) -> list[tuple[int, int]]:
    return sorted({(p.start, p.end) for p in provisions})


def compounds(text: str, name: str) -> list[str]:
    return sorted(set(re.findall(rf"\b{re.escape(name)} [A-Z][a-z]+(?: [A-Z][a-z]+)*", text)))


def the_named(name: str | None) -> str:
    if not name:
        return "the other party"
    return name if name.isupper() or not name[:1].isupper() or " " in name or "-" in name else f"the {name}"




def sorted_edits(edits: list[Edit]) -> list[Edit]:
    out: list[Edit] = []
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if out and e.start < out[-1].end:
            continue  # a mention already replaced as part of a subject
        out.append(e)
    return out
