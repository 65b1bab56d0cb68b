"""Rank fusion as pure functions over {clause_position: score} candidate maps."""

from __future__ import annotations

from typing import Mapping

Candidates = Mapping[int, float]  # clause position -> retriever score, any order


def ranks_of(candidates: Candidates) -> dict[int, int]:
    """1-based ranks by descending score; ties broken by position for determinism."""
    ordered = sorted(candidates.items(), key=lambda item: (-item[1], item[0]))
    return {pos: rank for rank, (pos, _) in enumerate(ordered, 1)}


def reciprocal_rank_fusion(runs: Mapping[str, Candidates], k: int = 60,
                           weights: Mapping[str, float] | None = None) -> dict[int, float]:
    """Sum of weight / (k + rank) over the runs that returned each clause (Cormack et al.)."""
    fused: dict[int, float] = {}
    for name, candidates in runs.items():
        weight = 1.0 if weights is None else weights.get(name, 1.0)
        for pos, rank in ranks_of(candidates).items():
            fused[pos] = fused.get(pos, 0.0) + weight / (k + rank)
    return fused


def weighted_fusion(runs: Mapping[str, Candidates], weights: Mapping[str, float]) -> dict[int, float]:
    """Weighted sum of min-max normalised scores; a run missing a clause contributes 0."""
    fused: dict[int, float] = {}
    for name, candidates in runs.items():
        if not candidates:
            continue
        low, high = min(candidates.values()), max(candidates.values())
        span = (high - low) or 1.0
        for pos, score in candidates.items():
            fused[pos] = fused.get(pos, 0.0) + weights.get(name, 0.0) * (score - low) / span
    return fused
