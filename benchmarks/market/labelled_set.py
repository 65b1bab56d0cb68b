"""The hand-labelled term set: labels.txt resolved against the real agreements.

labels.txt holds clause ids and the terms read off each clause by hand (see README.md); this
module finds each clause in ../shared/data/contracts (the texts are not committed), turns every
label's surface into a character span, and splits the clauses tuning/held-out by agreement
family. A surface that is not in its clause is an error, not a skipped label.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
LABELS = HERE / "labels.txt"
PREFIXES = {"CP/": "common-paper-cc-by-4.0/common-paper-",
            "OA/": "openagreements-cc-by-4.0/openagreements-",
            "RC/": "openagreements-cc-by-4.0/openagreements-restrictive-covenant-"}
# Agreement families (a document's family decides its split; near copies of one form, such as
# the 50 state variants of the restrictive covenant, are one family and so never straddle it).
FAMILIES = [
    ("restrictive-covenant", r"restrictive-covenant"),
    ("employment", r"employment-offer-letter|confidentiality-invention-assignment"),
    ("corporate", r"founder-|board-|stockholder-|closing-checklist|working-group|due-diligence"),
    ("nda", r"-nda"),
    ("data-protection", r"data-processing|business-associate"),
    ("services", r"professional-services|statement-of-work|independent-contractor"),
    ("partnership-pilot", r"partnership|pilot|design-partner|letter-of-intent|amendment|term-sheet"),
    ("cloud-software", r"cloud-service|csa-|order-form|software-license|ai-addendum"),
]
HELD_OUT = frozenset({"restrictive-covenant", "services", "data-protection"})


@dataclass(frozen=True)
class Gold:
    type: str
    role: str
    value: str
    surface: str
    start: int
    end: int


@dataclass
class LabelledClause:
    clause_id: str
    doc_id: str
    text: str
    mutuality: str | None
    terms: list[Gold] = field(default_factory=list)

    @property
    def family(self) -> str:
        return family(self.doc_id)

    @property
    def split(self) -> str:
        return "held_out" if self.family in HELD_OUT else "tuning"


def family(doc_id: str) -> str:
    for name, pattern in FAMILIES:
        if re.search(pattern, doc_id):
            return name
    return "other"


def _expand(short: str) -> str:
    for prefix, full in PREFIXES.items():
        if short.startswith(prefix):
            return full + short[len(prefix):]
    return short


def parse_lines(text: str) -> list[tuple[str, str | None, list[tuple[str, str, str, str, int]]]]:
    """(clause id, mutuality, [(type, role, value, surface, occurrence)]) per labelled line."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        clause, mutuality, terms = (p.strip() for p in line.split("|"))
        parsed = []
        for term in ([] if terms == "-" else terms.split(" ; ")):
            head, _, surface = term.partition("@")
            kind, _, value = head.partition("=")
            type_, _, role = kind.partition(":")
            occurrence = 1
            if re.search(r"#\d+$", surface):
                surface, _, n = surface.rpartition("#")
                occurrence = int(n)
            parsed.append((type_.strip(), role.strip(), value.strip(), surface, occurrence))
        out.append((_expand(clause), None if mutuality == "-" else mutuality, parsed))
    return out


def load(contracts: Path) -> list[LabelledClause]:
    """The labelled clauses with their texts and spans (raises when a label does not fit)."""
    from index_builder.ingest import read_clauses

    lines = parse_lines(LABELS.read_text("utf-8"))
    texts: dict[str, str] = {}
    for doc_id in sorted({cid.split("#")[0] for cid, _, _ in lines}):
        path = contracts / f"{doc_id}.docx"
        # labelled before template text left the index: read as it was (as the sets' samplers do)
        texts.update((c.clause_id, c.text) for c in read_clauses(path, doc_id, str(path), keep_template_text=True))
    out = []
    for clause_id, mutuality, terms in lines:
        if clause_id not in texts:
            raise ValueError(f"labels.txt: no clause {clause_id} in {contracts}")
        text = texts[clause_id]
        gold = []
        for type_, role, value, surface, occurrence in terms:
            start = -1
            for _ in range(occurrence if surface else 0):
                start = text.find(surface, start + 1)
            if surface and start < 0:
                raise ValueError(f"labels.txt: {clause_id}: {surface!r} (#{occurrence}) is not in the clause")
            gold.append(Gold(type_, role, value, surface, start, start + len(surface) if surface else -1))
        out.append(LabelledClause(clause_id, clause_id.split("#")[0], text, mutuality, gold))
    return out
