"""Conform clauses of the index: read each one's own document (walls applied), then map.

The precedent's definitions, parties and section map come from the clauses of its source
document that the caller may see: a walled clause never contributes a definition.
"""

from __future__ import annotations

from typing import Sequence

from index_builder.index.backend import Filters, clause_matches
from index_builder.model import Clause
from index_builder.retrieve.pipeline import SearchPipeline
from index_builder.settings import ConformSettings
from addin_server.conform.conform import conform, source_document
from addin_server.conform.model import ConformResult, Definition, Section, SourceDocument, TargetDocument


def document_of(pipeline: SearchPipeline, clause: Clause, window: int, access: Filters = ()) -> list[Clause]:
    """The clause's source document as far as the index and the caller's walls allow, in order."""
    before, after = pipeline.backend.neighbours(clause.clause_id, window)
    allowed = [c for c in before + [clause] + after if not access or clause_matches(c, access)]
    return [c for c in allowed if c.doc_id == clause.doc_id]


def merged_source(pipeline: SearchPipeline, clauses: Sequence[Clause], settings: ConformSettings,
                  access: Filters = ()) -> SourceDocument:
    """One SourceDocument for one or more precedents (a redraft may cite several)."""
    docs = [source_document(document_of(pipeline, c, settings.source_window, access)) for c in clauses]
    if len(docs) == 1:
        return docs[0]
    defs: dict[str, Definition] = {}
    for doc in docs:
        for d in doc.definitions:
            defs.setdefault(d.term.lower(), d)
    sections: tuple[Section, ...] = docs[0].sections if docs else ()  # numbers are per document
    parties = tuple(dict.fromkeys(p for doc in docs for p in doc.parties))
    return SourceDocument(tuple(defs.values()), parties, sections, "; ".join(d.citation for d in docs))


def conform_clauses(pipeline: SearchPipeline, clause_ids: Sequence[str], target: TargetDocument,
                    settings: ConformSettings, access: Filters = (), text: str | None = None,
                    overrides: dict[str, str] | None = None) -> tuple[ConformResult, list[Clause]]:
    """Conform the clause (or ``text``, e.g. a redraft grounded on these clauses) to ``target``."""
    clauses = pipeline.clauses(list(clause_ids), access)  # NotFoundError for unknown or walled ids
    source = merged_source(pipeline, clauses, settings, access)
    return conform(text if text is not None else clauses[0].text, source, target, settings, overrides), clauses
