"""Every clause at least as similar as a floor: the explorer's and the market's search.

``/variations`` groups these matches into wordings and ``/market`` counts their figures, so
they want *all* clauses past a relevance floor (dense cosine), not a ranked top k: one dense
search inside the engine, filters and walls applied there, no fusion, rescoring or folding.
``SearchPipeline.matches`` is the entry point; it lives in this layer so that no view keeps a
search path of its own.
"""

from __future__ import annotations

from typing import Any, Sequence

from index_builder.index.backend import SearchBackend
from index_builder.index.embedder import Embedder
from index_builder.ingest.definitions import unit_filters
from index_builder.model import Filters, SearchHit


def default_floor(texts: Sequence[str], retrieval: Any) -> float:
    """The relevance floor: higher when every query text is a whole clause, not a phrase."""
    clause = all(len(t.split()) > retrieval.expansion_max_words for t in texts)
    return retrieval.explorer_min_score_clause if clause else retrieval.explorer_min_score


def dense_matches(backend: SearchBackend, embedder: Embedder, texts: Sequence[str],
                  filters: Filters, min_score: float, limit: int,
                  vectors: Any = None) -> list[SearchHit]:
    """Clauses at least ``min_score`` similar (cosine) to any query text, best first
    (``vectors``: the texts' embeddings when the caller embedded a batch at once)."""
    if vectors is None:
        vectors = embedder.embed(list(texts))
    # Wordings and market counts are of clauses unless definitions are asked for by filter.
    filters = unit_filters(filters, backend.fields())
    scored = [(cid, s) for cid, s in backend.dense(vectors, limit, filters) if s >= min_score]
    clauses = backend.get([cid for cid, _ in scored])
    return [SearchHit(clause=clause, score=round(float(score), 4), rank=rank,
                      retriever_ranks={"dense": rank}, retriever_scores={"dense": float(score)})
            for rank, ((_, score), clause) in enumerate(zip(scored, clauses), 1)
            if clause is not None]
