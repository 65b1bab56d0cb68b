"""Fitting the learned-fusion ranker (retrieve/ltr.py): its LightGBM settings, the fit, and
the fused candidate pool its training rows are made from.

`index-builder learn` (learn/relearn.py) and the ranker benchmarks fit with these; the
served ranker only loads what they save (ltr.load_ranker).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from index_builder.model import Clause, SearchHit
from index_builder.retrieve.fusion import ranks_of, reciprocal_rank_fusion
from index_builder.retrieve.ltr import FEATURES


@dataclass(frozen=True)
class RankerConfig:
    """LightGBM lambdarank settings of the measured ranker; saved beside the model."""

    splits: tuple[str, ...] = ("train",)
    forms: tuple[str, ...] = ("short", "medium", "long", "clause")
    trees: int = 150
    leaves: int = 7
    learning_rate: float = 0.05
    min_data_in_leaf: int = 100
    feature_fraction: float = 0.8
    seed: int = 13
    # Training weight of each query form's groups, e.g. (("short", 2.0),); unnamed forms 1.
    form_weights: tuple[tuple[str, float], ...] = ()
    # Gain of grades 0..4 in the NDCG lambdarank optimises; () is LightGBM's 2^grade - 1.
    # (0, 1, 2, 3, 4) is the gain pytrec_eval's NDCG, the metric we report, uses.
    label_gain: tuple[float, ...] = ()
    objective: str = "lambdarank"  # or "rank_xendcg"
    truncation: int = 0  # lambdarank_truncation_level; 0 is LightGBM's default

    def weight(self, form: str) -> float:
        return dict(self.form_weights).get(form, 1.0)


def ranker_params(config: RankerConfig) -> dict:
    """LightGBM parameters: lambdarank on grades 0..4, one thread, deterministic."""
    extra: dict = {}
    if config.label_gain:
        extra["label_gain"] = list(config.label_gain)
    if config.truncation:
        extra["lambdarank_truncation_level"] = config.truncation
    return {**extra, "objective": config.objective, "metric": "ndcg", "eval_at": [5, 10],
            "num_leaves": config.leaves, "learning_rate": config.learning_rate,
            "min_data_in_leaf": config.min_data_in_leaf,
            "feature_fraction": config.feature_fraction, "bagging_seed": config.seed,
            "feature_fraction_seed": config.seed, "seed": config.seed, "deterministic": True,
            "force_row_wise": True, "num_threads": 1, "verbosity": -1}


def fit_ranker(groups: Sequence[tuple[np.ndarray, np.ndarray]], config: RankerConfig,  # type: ignore[no-untyped-def]
               weights: Sequence[float] | None = None):
    """Train on (features, grades) per query; only judged candidates should be passed.

    ``weights``: one per group (lambdarank scales each row's gradient by its weight, so a
    constant per group weighs the query), e.g. ``config.weight(form)``.
    """
    import lightgbm

    weights = [1.0] * len(groups) if weights is None else list(weights)
    kept = [(x, y, w) for (x, y), w in zip(groups, weights) if len(y) and y.max() > 0]
    if not kept:
        raise ValueError("No query has a relevant judged candidate: nothing to learn from.")
    features = np.vstack([x for x, _, _ in kept])
    labels = np.concatenate([y for _, y, _ in kept])
    row_weights = (None if all(w == 1.0 for _, _, w in kept)
                   else np.concatenate([np.full(len(y), w) for _, y, w in kept]))
    # A benchmark's ablation (ltr_benchmark.py cv --ablate) passes fewer columns: auto names.
    names = list(FEATURES) if features.shape[1] == len(FEATURES) else "auto"
    data = lightgbm.Dataset(features, labels, group=[len(y) for _, y, _ in kept],
                            weight=row_weights, feature_name=names, free_raw_data=False)
    return lightgbm.train(ranker_params(config), data, num_boost_round=config.trees)


def fused_candidates(text: str, clauses: Sequence[Clause], embeddings: np.ndarray, bm25,  # type: ignore[no-untyped-def]
                     query_vector: np.ndarray, depth: int, rrf_k: int = 60,
                     exclude: str = "") -> list[SearchHit]:
    """The pipeline's fused pool for one query: dense and BM25 top ``depth``, RRF-ordered.

    Same scores and ranks as SearchPipeline.candidates (cosine over the stored embeddings,
    bm25s over the (expanded) text, clauses with no shared term dropped from BM25), computed
    straight from the index arrays so that training data needs no server objects.
    """
    dense = embeddings @ query_vector
    lexical = bm25.scores(text)
    runs: dict[str, dict[int, float]] = {}
    top = np.argsort(-dense, kind="stable")[:depth]
    runs["dense"] = {int(p): float(dense[p]) for p in top}
    top = np.argsort(-lexical, kind="stable")[:depth]
    runs["bm25"] = {int(p): float(lexical[p]) for p in top if lexical[p] > 0}
    ranks = {name: ranks_of(run) for name, run in runs.items()}
    fused = reciprocal_rank_fusion(runs, k=rrf_k)
    ordered = sorted(fused, key=lambda p: (-fused[p], p))
    return [SearchHit(clause=clauses[p], score=fused[p], rank=rank,
                      retriever_ranks={n: r[p] for n, r in ranks.items() if p in r},
                      retriever_scores={n: run[p] for n, run in runs.items() if p in run})
            for rank, p in enumerate(ordered, 1) if clauses[p].clause_id != exclude]
