"""Turn contract documents (.docx, .txt, .md) into clauses with provenance.

    clauses = read_clauses(Path("nda.docx"), doc_id="forms/nda", source_path="forms/nda.docx")

Each clause is a numbered section of the first or second level (or, in a document without
numbering, a group of paragraphs under a heading) with its section number as the reader
sees it, its heading, and the body paragraphs it spans.
"""

from __future__ import annotations

import logging
from pathlib import Path

from index_builder.errors import DocumentError
from index_builder.model import Clause
from index_builder.ingest import metadata
from index_builder.ingest.clauses import build_clauses, document_title
from index_builder.ingest.outline import place
from index_builder.ingest.segment import segment
from index_builder.ingest.template import without_template_text
from index_builder.ingest.readers import READERS, SUPPORTED_SUFFIXES

__all__ = ["SUPPORTED_SUFFIXES", "read_clauses"]

log = logging.getLogger(__name__)


def read_clauses(path: Path, doc_id: str, source_path: str,
                 notes: list[str] | None = None, keep_template_text: bool = False) -> list[Clause]:
    """Segment one document into clauses; raises DocumentError if it cannot be read.

    ``notes`` collects what the reader left out of the text (for the build report).
    ``keep_template_text``: keep notes to the drafter and rows of blanks, as the reading before
    session 7 did; only the labelled sets' samplers ask for it, so that their draws reproduce.
    """
    path = Path(path)
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        supported = ", ".join(sorted(SUPPORTED_SUFFIXES))
        raise DocumentError(
            f"{path}: unsupported file type {path.suffix or '(none)'!r}; supported: {supported}"
        )
    parsed = reader(path)
    if notes is not None:
        notes.extend(parsed.notes)  # e.g. "left out 2 runs of invisible text (white on white)"
    if not parsed.blocks:
        raise DocumentError(f"{path}: empty document (no text in its body)")
    placed = place(parsed.blocks)
    title = document_title(parsed, placed, path)
    # Notes to the drafter and rows of blanks are a template's instructions, not precedent.
    drafts, left_out = without_template_text(segment(placed)) if not keep_template_text else (segment(placed), None)
    if notes is not None and left_out is not None and left_out.note():
        notes.append(left_out.note())
    clauses = build_clauses(drafts, parsed, doc_id, source_path, title)
    # Document fields (type, governing law, parties, date) for filters and facets: read from
    # the whole parsed document, since cover-page tables never become clause text.
    clauses = metadata.with_fields(clauses, metadata.from_parsed(parsed, title, path))
    log.debug("%s: %d paragraphs -> %d clauses", path, len(parsed.blocks), len(clauses))
    return clauses
