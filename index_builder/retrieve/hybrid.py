"""Hybrid search: dense (FAISS) and BM25 candidates fused into one ranking, with filters."""

from __future__ import annotations

import logging
from typing import Any, Mapping, Protocol, Sequence

import faiss
import numpy as np

from index_builder.index.embedder import Embedder
from index_builder.errors import InvalidRequestError
from index_builder.retrieve.fusion import Candidates, ranks_of, reciprocal_rank_fusion, weighted_fusion
from index_builder.model import Clause, SearchHit
from index_builder.retrieve.query_expansion import QueryExpander
from index_builder.settings import RetrievalSettings, Settings
from index_builder.index.store import ClauseIndex

log = logging.getLogger(__name__)

RETRIEVERS = ("dense", "bm25")
Filters = Mapping[str, Any]


class Reranker(Protocol):
    """Reorders (a prefix of) a ranking; LLM and cross-encoder rerankers implement this."""

    def rerank(self, query: str, hits: Sequence[SearchHit]) -> list[SearchHit]:
        """Return the same hits in a new order, with scores and ranks updated."""
        ...


class HeadReranker(Reranker, Protocol):
    """A reranker that is only worth running on some queries (e.g. short ones)."""

    settings: Any

    def applies_to(self, query: str) -> bool: ...


class HybridRetriever:
    """Searches one loaded index with one embedder under fixed retrieval settings.

    Short queries are expanded with glossary definitions (settings.query_expansion) before
    both retrievers see them; an optional reranker reorders the top ``reranker.settings.depth``.
    """

    def __init__(self, index: ClauseIndex, embedder: Embedder, settings: RetrievalSettings,
                 retrievers: Sequence[str] = RETRIEVERS,
                 reranker: HeadReranker | None = None) -> None:
        unknown = set(retrievers) - set(RETRIEVERS)
        if unknown or not retrievers:
            raise InvalidRequestError(f"Retrievers must be among {RETRIEVERS}, got {retrievers}.")
        if "dense" in retrievers and embedder.model_id != index.model_id:
            log.warning("Index was embedded with %s but queries use %s: dense scores are "
                        "meaningless; rebuild the index.", index.model_id, embedder.model_id)
        self.index = index
        self.embedder = embedder
        self.settings = settings
        self.retrievers = tuple(retrievers)
        self.reranker = reranker
        self.expander = (QueryExpander(max_words=settings.expansion_max_words)
                         if settings.query_expansion == "glossary" else None)
        self._fields = _filterable_fields(index.clauses)

    def search(self, query: str, top_k: int | None = None, filters: Filters | None = None,
               depth: int | None = None) -> list[SearchHit]:
        """Top hits for a short phrase or a whole clause, best first."""
        if not query.strip():
            raise InvalidRequestError("The query is empty: select some text or type a phrase.")
        top_k = top_k or self.settings.top_k
        depth = max(depth or self.settings.candidate_depth, top_k)
        allowed = self._allowed(filters) if filters else None
        text = self.expander.expand(query) if self.expander else query
        runs: dict[str, Candidates] = {}
        if "dense" in self.retrievers:
            runs["dense"] = self._dense(text, depth, allowed)
        if "bm25" in self.retrievers:
            runs["bm25"] = self._bm25(text, depth, allowed)
        fused = self._fuse(runs)
        head = self._rerank_depth(query)
        ordered = sorted(fused.items(), key=lambda item: (-item[1], item[0]))[:max(top_k, head)]
        run_ranks = {name: ranks_of(c) for name, c in runs.items()}
        hits = [self._hit(pos, score, rank, runs, run_ranks)
                for rank, (pos, score) in enumerate(ordered, 1)]
        if head and self.reranker is not None:
            # The model reads the user's own words: definitions help recall, not judgement.
            hits = self.reranker.rerank(query, hits[:head]) + hits[head:]
        return hits[:top_k]

    def _rerank_depth(self, query: str) -> int:
        if self.reranker is None or not self.reranker.applies_to(query):
            return 0
        return int(self.reranker.settings.depth)

    def _dense(self, query: str, depth: int, allowed: np.ndarray | None) -> Candidates:
        vector = self.embedder.embed([query])
        params = None
        if allowed is not None:
            ids = np.flatnonzero(allowed).astype(np.int64)
            if not len(ids):
                return {}
            params = faiss.SearchParameters(sel=faiss.IDSelectorBatch(ids))
        scores, positions = self.index.dense.search(vector, min(depth, self.index.dense.ntotal),
                                                    params=params)
        return {int(p): float(s) for p, s in zip(positions[0], scores[0]) if p >= 0}

    def _bm25(self, query: str, depth: int, allowed: np.ndarray | None) -> Candidates:
        scores = self.index.bm25.scores(query)
        if allowed is not None:
            scores = np.where(allowed, scores, 0.0)
        depth = min(depth, len(scores))
        if depth == 0:
            return {}
        top = np.argpartition(-scores, depth - 1)[:depth]
        # Clauses sharing no term with the query are not candidates, however shallow the list.
        return {int(p): float(scores[p]) for p in top if scores[p] > 0}

    def _fuse(self, runs: dict[str, Candidates]) -> dict[int, float]:
        if len(runs) == 1:
            return dict(next(iter(runs.values())))
        if self.settings.fusion == "weighted":
            weights = {"dense": self.settings.dense_weight, "bm25": 1 - self.settings.dense_weight}
            return weighted_fusion(runs, weights)
        return reciprocal_rank_fusion(runs, k=self.settings.rrf_k)

    def _hit(self, pos: int, score: float, rank: int, runs: dict[str, Candidates],
             run_ranks: dict[str, dict[int, int]]) -> SearchHit:
        return SearchHit(
            clause=self.index.clauses[pos],
            score=float(score),
            rank=rank,
            retriever_ranks={n: r[pos] for n, r in run_ranks.items() if pos in r},
            retriever_scores={n: float(c[pos]) for n, c in runs.items() if pos in c},
        )

    def _allowed(self, filters: Filters) -> np.ndarray:
        """Boolean mask of clauses matching every filter (a list value means any of)."""
        mask = np.ones(len(self.index.clauses), dtype=bool)
        for name, wanted in filters.items():
            if name != "document" and name not in self._fields:
                raise InvalidRequestError(
                    f"Unknown filter field {name!r}. Known fields: "
                    f"{', '.join(sorted(self._fields | {'document'}))}.")
            values = {str(v).casefold() for v in (wanted if isinstance(wanted, list) else [wanted])}
            mask &= np.fromiter((_matches(c, name, values) for c in self.index.clauses),
                                dtype=bool, count=len(mask))
        return mask


def _matches(clause: Clause, name: str, values: set[str]) -> bool:
    if name == "document":  # the friendly filter: id or title
        return clause.doc_id.casefold() in values or clause.doc_title.casefold() in values
    value = clause.field_value(name)
    return value is not None and value.casefold() in values


def _filterable_fields(clauses: Sequence[Clause]) -> set[str]:
    names = {"clause_id", "doc_id", "doc_title", "source_path", "section", "heading"}
    for clause in clauses:
        names.update(clause.metadata)
    return names


def build_retriever(index: ClauseIndex, embedder: Embedder, settings: Settings,
                    retrievers: Sequence[str] = RETRIEVERS,
                    rerank: bool = True) -> HybridRetriever:
    """The configured pipeline: expansion, hybrid retrieval, and the cross-encoder if built."""
    from index_builder.retrieve.cross_encoder import load_reranker

    reranker = load_reranker(settings.rerank) if rerank else None
    return HybridRetriever(index, embedder, settings.retrieval, retrievers, reranker)
