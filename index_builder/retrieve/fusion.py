"""Rank fusion as pure functions over {clause key: score} candidate maps."""

from __future__ import annotations

from typing import Any, Mapping

Candidates = Mapping[Any, float]  # clause key (id or position) -> retriever score, any order


def ranks_of(candidates: Candidates) -> dict[Any, int]:
    """1-based ranks by descending score; ties broken by position for determinism."""
    ordered = sorted(candidates.items(), key=lambda item: (-item[1], item[0]))
    return {pos: rank for rank, (pos, _) in enumerate(ordered, 1)}


def reciprocal_rank_fusion(runs: Mapping[str, Candidates], k: int = 60,
                           weights: Mapping[str, float] | None = None,
                           ranks: Mapping[str, Mapping[Any, int]] | None = None) -> dict[Any, float]:
    """Sum of weight / (k + rank) over the runs that returned each clause (Cormack et al.).

    ``ranks`` gives each run's ranks when the retriever already ordered its ties; without
    it, ranks follow the scores with ties broken by key.
    """
    fused: dict[Any, float] = {}
    for name, candidates in runs.items():
        weight = 1.0 if weights is None else weights.get(name, 1.0)
        run_ranks = ranks[name] if ranks is not None else ranks_of(candidates)
        for pos, rank in run_ranks.items():
            fused[pos] = fused.get(pos, 0.0) + weight / (k + rank)
    return fused


def weighted_fusion(runs: Mapping[str, Candidates], weights: Mapping[str, float]) -> dict[Any, float]:
    """Weighted sum of min-max normalised scores; a run missing a clause contributes 0."""
    fused: dict[Any, float] = {}
    for name, candidates in runs.items():
        if not candidates:
            continue
        low, high = min(candidates.values()), max(candidates.values())
        span = (high - low) or 1.0
        for pos, score in candidates.items():
            fused[pos] = fused.get(pos, 0.0) + weights.get(name, 0.0) * (score - low) / span
    return fused
