"""Conforming outside Word: the draft .docx read by the same ingest as the library, so
`addin-server annotate --conform` can say in each comment what inserting the precedent into
this draft would change."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from index_builder.index.backend import Filters
from index_builder.ingest import read_clauses
from index_builder.model import Clause
from index_builder.retrieve.pipeline import SearchPipeline
from index_builder.settings import ConformSettings
from index_builder.reading.document import Document
from addin_server.conform.conform import source_document
from addin_server.conform.model import ConformResult
from addin_server.conform.service import conform_clauses


def target_of(path: Path) -> Document:
    """The draft's definitions, parties and sections, as the index would read them."""
    return source_document(read_clauses(Path(path), doc_id=Path(path).stem, source_path=Path(path).name))


def describe(result: ConformResult) -> list[str]:
    """Comment lines: the mappings, references and missing terms, in words."""
    lines = []
    changed = [m for m in result.mappings if m.target and m.target != m.source]
    if changed:
        lines.append("Conformed to this draft: " + "; ".join(
            f"{m.source} \u2192 {m.target}" + ("" if m.apply else f" (suggested, {m.confidence:.2f}: check)")
            for m in changed))
    mapped = [r for r in result.cross_references if r.status == "mapped" and r.target != r.number]
    if mapped:
        lines.append("Cross-references: " + "; ".join(f"section {r.number} \u2192 {r.target}" for r in mapped))
    flagged = [r for r in result.cross_references if r.status in ("flagged", "suggested")]
    if flagged:
        lines.append("Check: " + "; ".join(f"section {r.number}" + (f" ({r.heading})" if r.heading else "") for r in flagged)
                     + " has no section with that heading in this draft")
    if result.missing_terms:
        lines.append("Not defined in this draft: " + ", ".join(m.term for m in result.missing_terms))
    return lines or ["Conformed to this draft: nothing to change."]


def explainer(pipeline: SearchPipeline, draft: Path, settings: ConformSettings,
              access: Filters = ()) -> Callable[[Clause], Sequence[str]]:
    target = target_of(draft)

    def explain(clause: Clause) -> Sequence[str]:
        result, _, _ = conform_clauses(pipeline, [clause.clause_id], target, settings, access)
        return describe(result)

    return explain
