"""Query by examples: several clauses the lawyer points at, combined in both retrievers.

Contract Discovery (Borchmann et al., 2020) retrieves from a few examples rather than one
query. Averaging the examples' vectors is one way, and only a dense one; here each
retriever combines them in its own terms, and the best combination is measured on ACORD
(`precedent-bench few-shot`, benchmarks/results/explore/explore.md):

* dense ``max``: every example is a query row; a clause scores its best similarity to any
  example (the backend's ``dense`` with several rows). ``mean``: one row, the normalised
  centroid, which ranks by the *sum* of similarities to the examples. ``rrf``: one run per
  example, fused by reciprocal rank.
* lexical ``sum``: BM25 summed over the example texts (the backend's ``lexical`` with several
  texts), so a long example outweighs a short one. ``norm``: each example's scores divided
  by its best score before summing, so each example counts the same. ``rrf``: one run per
  example, fused by reciprocal rank.

A typed query, when there is one, is one more text beside the examples. The examples
themselves (by id, or a clause with the same wording as a pasted example) never come back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol, Sequence

import numpy as np

from index_builder.index.backend import Filters, Scored, SearchBackend
from index_builder.model import SearchHit
from index_builder.retrieve.fusion import reciprocal_rank_fusion
from index_builder.retrieve.variations import words

log = logging.getLogger(__name__)

DENSE_MODES = ("max", "mean", "rrf")
LEXICAL_MODES = ("sum", "norm", "rrf")


class Embedder(Protocol):
    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray: ...


@dataclass(frozen=True)
class Combination:
    """How each retriever combines several query texts (see the module docstring)."""

    dense: str = "mean"  # chosen on ACORD train+valid (`precedent-bench few-shot`)
    lexical: str = "rrf"
    rrf_k: int = 60  # within a retriever, for the "rrf" modes

    def __post_init__(self) -> None:
        if self.dense not in DENSE_MODES or self.lexical not in LEXICAL_MODES:
            raise ValueError(f"Combination modes: dense one of {DENSE_MODES}, lexical one of "
                             f"{LEXICAL_MODES}; got {self.dense!r}, {self.lexical!r}.")


def dense_run(backend: SearchBackend, vectors: np.ndarray, depth: int, filters: Filters,
              mode: str, rrf_k: int = 60) -> Scored:
    """Dense candidates for several query rows, combined by ``mode``."""
    vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
    if len(vectors) == 1 or mode == "max":
        return backend.dense(vectors, depth, filters)
    if mode == "mean":
        centroid = vectors.mean(axis=0)
        norm = float(np.linalg.norm(centroid))
        return backend.dense((centroid / (norm or 1.0))[None, :], depth, filters)
    return _rrf([backend.dense(row[None, :], depth, filters) for row in vectors], depth, rrf_k)


def lexical_run(backend: SearchBackend, texts: Sequence[str], depth: int, filters: Filters,
                mode: str, rrf_k: int = 60) -> Scored:
    """BM25 candidates for several query texts, combined by ``mode``."""
    if len(texts) == 1 or mode == "sum":
        return backend.lexical(list(texts), depth, filters)
    runs = [backend.lexical([text], depth, filters) for text in texts]
    if mode == "rrf":
        return _rrf(runs, depth, rrf_k)
    summed: dict[str, float] = {}
    for run in runs:
        top = run[0][1] if run else 0.0
        for clause_id, score in run:
            summed[clause_id] = summed.get(clause_id, 0.0) + (score / top if top > 0 else 0.0)
    return _ordered(summed, depth)


def example_runs(backend: SearchBackend, embedder: Embedder, texts: Sequence[str], depth: int,
                 filters: Filters = (), combination: Combination = Combination(),
                 retrievers: Sequence[str] = ("dense", "bm25"),
                 vectors: np.ndarray | None = None) -> dict[str, Scored]:
    """{"dense": ..., "bm25": ...} candidate runs for the query texts (typed query + examples).

    ``vectors`` are the texts' embeddings when the caller already has them. The runs go to
    the pipeline's usual fusion; drop the examples afterwards with ``without_examples``.
    """
    keep = [i for i, t in enumerate(texts) if t.strip()]
    texts = [texts[i] for i in keep]
    if not texts:
        return {}
    runs: dict[str, Scored] = {}
    if "dense" in retrievers:
        rows = np.asarray(vectors)[keep] if vectors is not None else embedder.embed(texts)
        runs["dense"] = dense_run(backend, rows, depth, filters, combination.dense,
                                  combination.rrf_k)
    if "bm25" in retrievers:
        runs["bm25"] = lexical_run(backend, texts, depth, filters, combination.lexical,
                                   combination.rrf_k)
    return runs


def without_examples(hits: Sequence[SearchHit], example_ids: Sequence[str],
                     example_texts: Sequence[str] = ()) -> list[SearchHit]:
    """The hits minus the examples: by clause id, and by identical wording for pasted text."""
    ids = set(example_ids)
    wordings = {tuple(words(t)) for t in example_texts if t.strip()}
    return [h for h in hits if h.clause.clause_id not in ids
            and (not wordings or tuple(words(h.clause.text)) not in wordings)]


def _rrf(runs: list[Scored], depth: int, k: int) -> Scored:
    ranked = {str(i): {cid: rank for rank, (cid, _) in enumerate(run, 1)} for i, run in enumerate(runs)}
    fused = reciprocal_rank_fusion({name: {} for name in ranked}, k=k, ranks=ranked)
    return _ordered(fused, depth)


def _ordered(scores: dict[str, float], depth: int) -> Scored:
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:depth]
