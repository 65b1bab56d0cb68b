"""Plain data shapes that flow through every stage: clauses, filters, search hits, ratings.

Every layer of index_builder (and the server) may import this module; it imports nothing of
the project, so shapes shared by two layers live here rather than in the higher one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Clause:
    """One retrievable unit of text with the provenance a lawyer needs to cite it.

    ``section`` is the number as the reader sees it ("12.2", "8(a)"), even when Word
    generates it through automatic numbering. ``paragraph_start``/``paragraph_end`` are
    0-based, inclusive indices of the body paragraphs the clause spans in its document
    (both 0 for corpus entries that have no document).
    """

    clause_id: str
    text: str
    doc_id: str
    doc_title: str = ""
    source_path: str = ""
    section: str = ""
    heading: str = ""
    paragraph_start: int = 0
    paragraph_end: int = 0
    metadata: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        # Spelled out, not dataclasses.asdict: asdict deep-copies field by field, and a
        # build serialises every clause (it was a tenth of a build's CPU per clause).
        # Same keys in field order (tests/index_builder/test_build_cost.py compares it with asdict).
        return {"clause_id": self.clause_id, "text": self.text, "doc_id": self.doc_id,
                "doc_title": self.doc_title, "source_path": self.source_path,
                "section": self.section, "heading": self.heading,
                "paragraph_start": self.paragraph_start, "paragraph_end": self.paragraph_end,
                "metadata": dict(self.metadata)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Clause":
        return cls(
            clause_id=str(data["clause_id"]),
            text=str(data["text"]),
            doc_id=str(data["doc_id"]),
            doc_title=str(data.get("doc_title", "")),
            source_path=str(data.get("source_path", "")),
            section=str(data.get("section", "")),
            heading=str(data.get("heading", "")),
            paragraph_start=int(data.get("paragraph_start", 0)),
            paragraph_end=int(data.get("paragraph_end", 0)),
            metadata={str(k): str(v) for k, v in (data.get("metadata") or {}).items()},
        )

    def field_value(self, name: str) -> str | None:
        """Value of a top-level field or a metadata key, for filtering."""
        if name in _FILTERABLE_FIELDS:
            return str(getattr(self, name))
        return self.metadata.get(name)

    def citation(self) -> str:
        """Short human-readable source, e.g. 'Mutual NDA, section 3.2 (Confidentiality)'."""
        parts = [self.doc_title or self.doc_id]
        if self.section:
            parts.append(f"section {self.section}")
        label = ", ".join(parts)
        return f"{label} ({self.heading})" if self.heading else label


_FILTERABLE_FIELDS = frozenset(
    {"clause_id", "doc_id", "doc_title", "source_path", "section", "heading"}
)


@dataclass(frozen=True)
class SearchHit:
    """A clause in a ranked list, with how each retriever placed it.

    ``retriever_ranks`` and ``retriever_scores`` are keyed by retriever name ("dense",
    "bm25"); a retriever that did not return the clause has no key. Ranks are 1-based.
    """

    clause: Clause
    score: float
    rank: int
    retriever_ranks: dict[str, int] = field(default_factory=dict)
    retriever_scores: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Condition:
    """One filter condition: ``field`` holds one of ``values`` (or, negated, none of them).

    Filters are data (index/backend.py applies them inside the search): a tuple of
    conditions, all of which must hold.
    """

    field: str
    values: tuple[str, ...]
    negate: bool = False


Filters = tuple[Condition, ...]


@dataclass(frozen=True)
class Rating:
    """One candidate's rerank score (0..4), or None and why not."""

    score: float | None
    method: str  # "logprobs", "digit", "cache", "unparseable", "unavailable", "busy", "paused", "timeout"


@dataclass
class RerankOutcome:
    """What a reranker (retrieve/pipeline.py's ``Reranker``) returns: hits in reranked order
    with their ratings, and how the stage went."""

    ranked: list[tuple[SearchHit, Rating]]
    status: str  # "applied" or "unavailable"
    reason: str = ""
    calls: int = 0
    cached: int = 0
