"""Combining an LLM's ratings with the retrieval order, so that a weak model cannot sink a good hit.

Ordering the head of the ranking by the LLM's rating alone lets a small model undo what
retrieval got right (the embedded 1.5B model lowered NDCG@5 on 8 ACORD queries). Instead each
rated hit gets ``weights.llm * rating / 4 + weights.retrieval * position score``, where the
position score runs from 1 (first) to 0 (last of the head), so the combined order moves a
hit only when the model is confident enough to outweigh its retrieval position. By default
the position, not the raw retrieval score, because the scores' scale depends on the first
stage (RRF, learned fusion) while positions do not; ``retrieval="minmax"`` uses the scores
scaled to 0..1 over the head instead. A hit the model could not rate keeps its place.
Weights are fitted on held-out queries (`precedent-bench llm-rerank`; quality.md, step 10).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class CombineWeights:
    """Share of the LLM rating and of the retrieval position in the combined score."""

    llm: float = 0.5
    retrieval: float = 0.5
    normalise: str = "position"  # or "minmax": retrieval scores scaled to 0..1 over the head
    # "absolute": rating / 4; "relative": ratings scaled to 0..1 over the head's rated hits,
    # for a small model whose ratings crowd into a narrow band (2.9-3.7 out of 0-4).
    llm_scale: str = "absolute"

    def __post_init__(self) -> None:
        if self.llm < 0 or self.retrieval < 0 or self.llm + self.retrieval <= 0:
            raise ValueError(f"Combination weights must be >= 0 and not both 0, got "
                             f"llm={self.llm}, retrieval={self.retrieval}.")
        if self.normalise not in ("position", "minmax"):
            raise ValueError(f"Unknown normalisation {self.normalise!r}: 'position' or 'minmax'.")
        if self.llm_scale not in ("absolute", "relative"):
            raise ValueError(f"Unknown LLM scale {self.llm_scale!r}: 'absolute' or 'relative'.")


def position_scores(n: int) -> list[float]:
    """1.0 for the first of n, 0.0 for the last, evenly spaced (1.0 when n == 1)."""
    return [1.0 - i / (n - 1) if n > 1 else 1.0 for i in range(n)]


def minmax_scores(scores: Sequence[float]) -> list[float]:
    """Scores scaled to 0..1 (all 1.0 when they are equal)."""
    low, high = min(scores, default=0.0), max(scores, default=0.0)
    return [(s - low) / (high - low) if high > low else 1.0 for s in scores]


def combine(retrieval_scores: Sequence[float], llm_scores: Sequence[float | None],
            weights: CombineWeights) -> list[float]:
    """Combined score per hit (higher is better); inputs are in retrieval order, best first.

    ``llm_scores`` are ratings 0..4, or None for a hit the model did not rate: such a hit
    scores as if the model agreed with retrieval, so it neither climbs nor sinks on account
    of the model. With ``weights.llm == 0`` the order is the retrieval order.
    """
    if len(retrieval_scores) != len(llm_scores):
        raise ValueError("combine needs one LLM score (or None) per retrieval score.")
    retrieval = (position_scores(len(retrieval_scores)) if weights.normalise == "position"
                 else minmax_scores(retrieval_scores))
    rated = [min(max(r, 0.0), 4.0) for r in llm_scores if r is not None]
    low, high = (min(rated), max(rated)) if rated else (0.0, 4.0)
    if weights.llm_scale == "absolute" or high <= low:
        low, high = 0.0, 4.0
    total = weights.llm + weights.retrieval
    combined = []
    for base, rating in zip(retrieval, llm_scores):
        llm = base if rating is None else (min(max(rating, 0.0), 4.0) - low) / (high - low)
        combined.append((weights.llm * llm + weights.retrieval * base) / total)
    return combined


def combined_order(retrieval_scores: Sequence[float], llm_scores: Sequence[float | None],
                   weights: CombineWeights) -> list[int]:
    """Indices of the hits in combined order; ties keep the retrieval order."""
    scores = combine(retrieval_scores, llm_scores, weights)
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))
