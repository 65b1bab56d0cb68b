"""Turn clause drafts into Clause records: ids, titles, provenance and defined terms."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

from index_builder.model import Clause
from index_builder.ingest.blocks import ParsedDocument
from index_builder.ingest.headings import heading_text
from index_builder.reading.document import is_heading
from index_builder.ingest.outline import Placed
from index_builder.ingest.segment import Draft
from index_builder.reading.defined_terms import defined_terms

# Kept upper case when a title is made from a file name.
_ACRONYMS = frozenset("nda mnda csa dpa baa sow sla ai psa llc safe ip us uk eu".split())


def build_clauses(
    drafts: Sequence[Draft], parsed: ParsedDocument, doc_id: str, source_path: str, title: str
) -> list[Clause]:
    """Clause records for one document, with ids unique within it."""
    ids = _clause_ids(drafts, doc_id)
    return [
        Clause(
            clause_id=clause_id,
            text=draft.text,
            doc_id=doc_id,
            doc_title=title,
            source_path=source_path,
            section=draft.section,
            heading=draft.heading,
            paragraph_start=min(part.block.index for part in draft.parts),
            paragraph_end=max(part.block.index for part in draft.parts),
            metadata=_metadata(draft, parsed.format),
        )
        for clause_id, draft in zip(ids, drafts)
    ]


def _clause_ids(drafts: Sequence[Draft], doc_id: str) -> list[str]:
    """f"{doc_id}#{section}", or #p{first paragraph} without a section; "-2" on repeats.

    Ids depend only on the file's content, so re-indexing the same file gives the same ids.
    """
    used: set[str] = set()
    ids = []
    for draft in drafts:
        base = f"{doc_id}#{draft.section or f'p{draft.parts[0].block.index}'}"
        clause_id, n = base, 1
        while clause_id in used:
            n += 1
            clause_id = f"{base}-{n}"
        used.add(clause_id)
        ids.append(clause_id)
    return ids


def _metadata(draft: Draft, fmt: str) -> dict[str, str]:
    metadata = {"type": "contract", "format": fmt}
    bold = [term for part in draft.parts for term in part.block.bold_terms]
    terms = defined_terms(draft.text, bold)
    if terms:
        metadata["defines"] = "; ".join(terms)
    return metadata


def document_title(parsed: ParsedDocument, placed: Sequence[Placed], path: Path) -> str:
    """Core-properties title, else the title or first unnumbered heading, else the file name."""
    if parsed.title:
        return parsed.title
    for part in placed:
        if part.role == "title":
            return heading_text(part.block)
    for part in placed:
        block = part.block
        if part.role == "heading" and block.outline_level is not None and not block.label:
            if is_heading(block.text, styled=True):
                return heading_text(block)
    return humanise(path.stem)


def humanise(stem: str) -> str:
    """"common-paper-mutual-nda" -> "Common Paper Mutual NDA"."""
    words = [w for w in re.split(r"[-_\s]+", stem) if w]
    return " ".join(
        w.upper() if w.lower() in _ACRONYMS else (w.capitalize() if w.islower() else w)
        for w in words
    )
