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
from index_builder.reading.document import Definition, Document
from addin_server.conform.model import ConformResult


def document_of(pipeline: SearchPipeline, clause: Clause, window: int, access: Filters = ()) -> list[Clause]:
    """The clause's source document as far as the index and the caller's walls allow, in order."""
    before, after = pipeline.backend.neighbours(clause.clause_id, window)
    allowed = [c for c in before + [clause] + after if not access or clause_matches(c, access)]
    return [c for c in allowed if c.doc_id == clause.doc_id]


def merged_source(pipeline: SearchPipeline, clauses: Sequence[Clause], settings: ConformSettings,
                  access: Filters = ()) -> Document:
    """One SourceDocument for one or more precedents (a redraft may cite several)."""
    docs = [source_document(document_of(pipeline, c, settings.source_window, access)) for c in clauses]
    if len(docs) == 1:
        return docs[0]
    defs: dict[str, Definition] = {}
    for doc in docs:
        for d in doc.definitions:
            defs.setdefault(d.term.lower(), d)
    parties = {p.name: p for doc in docs for p in doc.parties}
    names = {doc.self_name for doc in docs}
    # Numbers are per document: the first precedent's section map; a name for itself only when all agree.
    return Document(tuple(defs.values()), tuple(parties.values()), docs[0].sections if docs else (),
                    docs[0].reference_word if docs else "Section", names.pop() if len(names) == 1 else "",
                    "; ".join(d.citation for d in docs))


def conform_clauses(pipeline: SearchPipeline, clause_ids: Sequence[str], target: Document,
                    settings: ConformSettings, access: Filters = (), text: str | None = None,
                    overrides: dict[str, str] | None = None
                    ) -> tuple[ConformResult, list[Clause], Document]:
    """Conform the clause (or ``text``, e.g. a redraft grounded on these clauses) to ``target``."""
    clauses = pipeline.clauses(list(clause_ids), access)  # NotFoundError for unknown or walled ids
    source = merged_source(pipeline, clauses, settings, access)
    result = conform(text if text is not None else clauses[0].text, source, target, settings, overrides)
    return result, clauses, source
