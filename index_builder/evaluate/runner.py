"""Glue for `index-builder eval` and the benchmarks: ensure an ACORD index, run, rerank, score."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Sequence

from index_builder.evaluate.acord import check_acord_dir, load_acord
from index_builder.index.build import build_index
from index_builder.index.embedder import Embedder
from index_builder.evaluate.evaluation import EvalResult, eval_queries, latency_summary, run_queries, score_runs
from index_builder.model import SearchHit
from index_builder.retrieve.hybrid import Reranker, build_retriever
from index_builder.settings import Settings
from index_builder.index.store import ClauseIndex, load_index

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EvalConfig:
    """What to measure: which queries, which retrievers, and optional reranking."""

    split: str = "test"
    retriever: str = "hybrid"  # hybrid | dense | bm25
    wording: str = "short"  # short | medium | long
    mode: str = "query"  # query | clause
    rerank_depth: int = 20  # LLM reranker only; the cross-encoder uses settings.reranker
    cross_encoder: bool = True  # use the configured cross-encoder when its weights exist
    limit: int | None = None
    # ACORD drops unjudged clauses before scoring, so the ranking must reach deep enough to
    # hold ten judged ones: 1000 reproduces the paper; serving uses candidate_depth (100).
    depth: int = 1000

    def title(self, settings: Settings, model_id: str, reranker: str = "none") -> str:
        wording = self.wording if self.mode == "query" else "clause-as-query"
        return (f"ACORD {self.split} | {self.retriever} | {wording} | model {model_id} | "
                f"fusion {settings.retrieval.fusion} | expansion "
                f"{settings.retrieval.query_expansion} | depth {self.depth} | rerank {reranker}")


def ensure_acord_index(settings: Settings, embedder: Embedder, progress: bool = True) -> ClauseIndex:
    """The ACORD index at settings.index_dir, built or updated first (a no-op when current)."""
    check_acord_dir(settings.acord_dir)
    report = build_index(settings, [settings.acord_dir], embedder, progress=progress)
    if report.embedded:
        log.info("Embedded %d ACORD clauses in %.0f s", report.embedded, report.seconds)
    return load_index(settings.index_dir)


def run_acord_eval(settings: Settings, config: EvalConfig, embedder: Embedder,
                   index: ClauseIndex, reranker: Reranker | None = None,
                   progress: bool = True) -> EvalResult:
    """Evaluate the configured pipeline on ACORD with the paper's conventions."""
    acord = load_acord(settings.acord_dir)
    retrievers = ("dense", "bm25") if config.retriever == "hybrid" else (config.retriever,)
    retrieval = replace(settings.retrieval, candidate_depth=config.depth)
    retriever = build_retriever(index, embedder, replace(settings, retrieval=retrieval),
                                retrievers, rerank=config.cross_encoder)
    corpus = {c.clause_id: c.text for c in index.clauses}
    queries = eval_queries(acord, config.split, config.wording, config.mode, corpus)
    if config.limit:
        queries = queries[: config.limit]
    depth = config.depth

    def search(text: str) -> Sequence[SearchHit]:
        hits = retriever.search(text, top_k=depth, depth=depth)
        if reranker is None:
            return hits
        head = reranker.rerank(text, hits[: config.rerank_depth])
        return list(head) + list(hits[config.rerank_depth:])

    runs, latencies = run_queries(queries, search, progress=progress)
    result = score_runs(queries, runs)
    result.latency_ms = latency_summary(latencies)
    return result
