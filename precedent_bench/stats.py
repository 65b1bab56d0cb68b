"""Paired comparisons of two prompts: per-item deltas, bootstrap intervals, plain verdicts.

Every item (a drafting task, an ACORD query) is scored under prompt A and prompt B; the
statistic is the mean of the paired differences B - A, and its interval comes from
resampling items (scipy's bootstrap over the differences, which is the paired bootstrap).
Categories are compared the same way on their own items. Intervals are per group and not
corrected for the number of groups: with nine categories, one spurious "better" in a
hundred runs of identical prompts is expected per group at 95%.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np
from scipy import stats

# Below this many paired items an interval says little; the verdict says so instead.
MIN_ITEMS = 5


@dataclass(frozen=True)
class Paired:
    """One item scored under both prompts (scores on a 0..1 or 0..100 scale, higher better)."""

    item_id: str
    category: str
    a: float
    b: float

    @property
    def delta(self) -> float:
        return self.b - self.a


@dataclass(frozen=True)
class Delta:
    """B - A over one group of items, with its bootstrap interval."""

    group: str
    n: int
    mean_a: float
    mean_b: float
    delta: float
    low: float
    high: float
    confidence: float

    @property
    def direction(self) -> str:
        """'better', 'worse', 'same' (interval straddles 0) or 'too few'."""
        if self.n < MIN_ITEMS:
            return "too few"
        if self.low > 0:
            return "better"
        if self.high < 0:
            return "worse"
        return "same"

    def interval(self, digits: int = 2) -> str:
        return f"{self.delta:+.{digits}f} [{self.low:+.{digits}f}, {self.high:+.{digits}f}]"


def paired_interval(deltas: Sequence[float], confidence: float = 0.95, resamples: int = 10_000,
                    seed: int = 0) -> tuple[float, float, float]:
    """Mean of the paired differences and its percentile bootstrap interval."""
    values = np.asarray(deltas, dtype=float)
    if values.size == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())
    # Identical differences (two identical prompts, a cached re-run): the interval is the
    # point itself; scipy would warn about degenerate data.
    if values.size < 2 or np.ptp(values) == 0:
        return mean, mean, mean
    result = stats.bootstrap((values,), np.mean, confidence_level=confidence,
                             n_resamples=resamples, method="percentile",
                             random_state=np.random.default_rng(seed))
    ci = result.confidence_interval
    return mean, float(ci.low), float(ci.high)


def compare(items: Iterable[Paired], confidence: float = 0.95, resamples: int = 10_000,
            seed: int = 0) -> list[Delta]:
    """The overall delta first ("all"), then one per category, alphabetically."""
    items = list(items)
    groups: dict[str, list[Paired]] = {"all": items}
    for item in sorted(items, key=lambda i: i.category):
        groups.setdefault(item.category, []).append(item)
    out = []
    for name, members in groups.items():
        delta, low, high = paired_interval([m.delta for m in members], confidence, resamples, seed)
        out.append(Delta(name, len(members), _mean(m.a for m in members),
                         _mean(m.b for m in members), delta, low, high, confidence))
    return out


def verdict(deltas: Sequence[Delta], digits: int = 2) -> str:
    """One plain sentence: where B is better or worse, and that elsewhere nothing differs.

    e.g. "B is better on make-mutual, +0.18 [0.07, 0.29]; no difference elsewhere (6 categories)."
    """
    overall = next((d for d in deltas if d.group == "all"), None)
    categories = [d for d in deltas if d.group != "all"]
    parts = []
    for word in ("better", "worse"):
        for d in categories:
            if d.direction == word:
                parts.append(f"B is {word} on {d.group}, {d.interval(digits)}")
    same = [d for d in categories if d.direction == "same"]
    few = [d for d in categories if d.direction == "too few"]
    if parts and same:
        parts.append(f"no difference elsewhere ({len(same)} categor{'y' if len(same) == 1 else 'ies'})")
    elif not parts and same:
        parts.append(f"no difference in any of {len(same)} categor{'y' if len(same) == 1 else 'ies'}")
    if few:
        parts.append(f"too few items to tell on {', '.join(d.group for d in few)}")
    head = ""
    if overall is not None:
        word = {"better": "B is better overall", "worse": "B is worse overall",
                "same": "No difference overall", "too few": "Too few items overall"}[overall.direction]
        head = f"{word}, {overall.interval(digits)} over {overall.n} items"
    return "; ".join(p for p in [head, *parts] if p) + "."


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return float(np.mean(values)) if values else math.nan
