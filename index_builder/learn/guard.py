"""The guard of `index-builder learn`: install a relearned ranker only when it is not worse.

A ranker taught by clicks can be taught wrong (a lawyer who picks whatever is last, a
script). Seven ACORD valid queries, the first guard's only judged data, move a point or
two by chance, and that let through a ranker trained on adversarial clicks
(benchmarks/results/learning, run 2). So the guard now:

* compares on as much judged data as there is, **paired per query**: ACORD queries the new
  ranker never trained on (``judged``: ACORD valid and train queries no one clicked, every
  wording of each), and ACORD queries both rankers train on, **cross-fitted**
  (``crossfit``): the queries are split into folds by query; for each fold the current
  recipe (the judged rows alone) and the new one (the same rows plus the events) are fitted
  without that fold and scored on it. Every wording of a query counts as one unit (their
  mean), since the wordings of one query do not vary independently;
* compares on held-out events (lists never trained on), paired per list;
* for each, bootstraps the mean per-unit difference (new minus current) and installs only
  when the one-sided lower bound (``LEVEL``) is above ``-margin`` NDCG@5 points on the
  judged queries and on the held-out events alike. Both figures, the difference and its
  interval are reported.

Held-out events alone cannot stop a bad teacher: they come from the same clickers, so the
ranker that learned their habit scores best on them. The judged queries are what stops
it; the bound makes sure a chance lead on a few of them is not read as "not worse".
"""

from __future__ import annotations

import logging
import random
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from index_builder.retrieve.ltr_fit import RankerConfig

log = logging.getLogger(__name__)

LEVEL = 0.95  # one-sided: the 5th percentile of the bootstrapped mean difference
SAMPLES = 2000  # bootstrap resamples
FOLDS = 5  # cross-fitting folds over the judged queries both rankers train on
SEED = 13


@dataclass
class Comparison:
    """One source of evidence: both rankers' mean NDCG@5, the paired difference and its bounds."""

    source: str  # "acord_judged" | "heldout_events"
    units: int  # queries (judged) or lists (events) compared
    current: float
    candidate: float
    difference: float  # candidate - current, mean over units
    interval: tuple[float, float]  # 90% two-sided bootstrap interval of the difference
    lower_bound: float  # its one-sided LEVEL lower bound (= interval[0])
    passed: bool | None  # None: nothing to compare
    detail: dict[str, int] = field(default_factory=dict)

    def describe(self, label: str) -> str:
        return (f"{label} {self.candidate:.2f} vs {self.current:.2f} (difference "
                f"{self.difference:+.2f}, {LEVEL:.0%} lower bound {self.lower_bound:+.2f}, "
                f"{self.units} {'queries' if self.source == 'acord_judged' else 'lists'})")


@dataclass
class CrossFit:
    """What cross-fitting needs: the judged groups both recipes train on, the events, how to fit."""

    base: Sequence[Any]  # relearn.Group, ``unit`` = the ACORD query
    events: Sequence[Any]  # training click groups
    config: RankerConfig
    event_share: float | None
    folds: int = FOLDS


@dataclass
class Verdict:
    judged: Comparison
    events: Comparison
    margin: float
    installed: bool
    reason: str

    def figures(self) -> tuple[dict[str, float], dict[str, float]]:
        """Both rankers' figures (the report's ``current`` and ``candidate``)."""
        cur = {"acord_judged_ndcg@5": self.judged.current, "heldout_events_ndcg@5": self.events.current}
        new = {"acord_judged_ndcg@5": self.judged.candidate, "heldout_events_ndcg@5": self.events.candidate}
        return cur, new

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


Scorer = Callable[[np.ndarray], np.ndarray]


def _scorer(model: Any) -> Scorer:
    return lambda x: model.predict(x, num_threads=1)


def units(groups: Sequence[Any], prefix: str) -> list[str]:
    """What each group is paired as: its query or list, else itself (``prefix#i``)."""
    return [g.unit or g.key or f"{prefix}#{i}" for i, g in enumerate(groups)]


def _judged(group: Any) -> bool:
    """Whether a group has something relevant to rank (an empty group has nothing)."""
    return len(group.y) > 0 and group.y.max() > 0


def per_group(groups: Sequence[Any], current: Scorer, candidate: Scorer, prefix: str,
              names: Sequence[str] | None = None) -> list[tuple[str, float, float, float]]:
    """(unit, current NDCG@5, candidate NDCG@5, weight) of each group with something relevant;
    ``names`` pairs the groups as given instead of by ``units``."""
    from index_builder.learn.relearn import ndcg5

    named = units(groups, prefix) if names is None else names
    return [(u, ndcg5(np.asarray(current(g.x)), g.y), ndcg5(np.asarray(candidate(g.x)), g.y), g.weight)
            for u, g in zip(named, groups) if _judged(g)]


def cross_fitted(plan: CrossFit) -> list[tuple[str, float, float, float]]:
    """Out-of-fold scores of the judged groups under both recipes (module docstring)."""
    from index_builder.learn.relearn import fit

    named = units(plan.base, "base")
    order = sorted(set(named))
    random.Random(SEED).shuffle(order)
    fold_of = {u: i % plan.folds for i, u in enumerate(order)}
    out = []
    for k in range(min(plan.folds, len(order))):
        inside = [g for g, u in zip(plan.base, named) if fold_of[u] != k]
        outside = [(g, u) for g, u in zip(plan.base, named) if fold_of[u] == k]
        if not outside or not any(_judged(g) for g in inside):
            continue
        current = fit(inside, [], plan.config)
        candidate = fit(inside, plan.events, plan.config, plan.event_share)
        out += [(u, c, n, 1.0) for u, c, n, _ in per_group(
            [g for g, _ in outside], _scorer(current), _scorer(candidate), "", names=[u for _, u in outside])]
    return out


def paired(source: str, scores: Sequence[tuple[str, float, float, float]], margin: float,
           weighted: bool = False, samples: int = SAMPLES) -> Comparison:
    """Per-unit means, their paired difference, and its bootstrap interval over units."""
    by_unit: dict[str, list[tuple[float, float, float]]] = {}
    for unit, cur, new, weight in scores:
        by_unit.setdefault(unit, []).append((cur, new, weight if weighted else 1.0))
    if not by_unit:
        nan = float("nan")
        return Comparison(source, 0, nan, nan, nan, (nan, nan), nan, None)
    rows = np.asarray([[np.average([c for c, _, _ in v], weights=[w for *_, w in v]),
                        np.average([n for _, n, _ in v], weights=[w for *_, w in v]),
                        sum(w for *_, w in v)] for v in by_unit.values()])
    cur, new, weight = rows[:, 0], rows[:, 1], rows[:, 2] if weighted else np.ones(len(rows))
    diff = new - cur
    rng = np.random.default_rng(SEED)
    picks = rng.integers(0, len(diff), size=(samples, len(diff)))
    means = (diff[picks] * weight[picks]).sum(axis=1) / weight[picks].sum(axis=1)
    low, high = (float(np.percentile(means, q)) for q in (100 * (1 - LEVEL), 100 * LEVEL))
    mean = lambda v: round(float(np.average(v, weights=weight)), 2)  # noqa: E731
    return Comparison(source, len(diff), mean(cur), mean(new), mean(diff),
                      (round(low, 2), round(high, 2)), round(low, 2), low >= -margin)


def guard(current: Any, candidate: Any, margin: float, judged: Sequence[Any] = (),
          crossfit: CrossFit | None = None, held: Sequence[Any] = ()) -> Verdict:
    """Both figures, the paired differences and bounds, and whether to install."""
    scores = per_group(judged, _scorer(current), _scorer(candidate), "judged")
    crossed = cross_fitted(crossfit) if crossfit is not None else []
    on_judged = paired("acord_judged", scores + crossed, margin)
    on_judged.detail = {"held_out_groups": len(scores), "cross_fitted_groups": len(crossed)}
    on_events = paired("heldout_events", per_group(held, _scorer(current), _scorer(candidate), "list"),
                       margin, weighted=True)
    if on_judged.passed is None:
        return Verdict(on_judged, on_events, margin, False,
                       "Not installed: no judged ACORD query to compare the rankers on.")
    failed = [c for c in (on_judged, on_events) if c.passed is False]
    labels = {"acord_judged": "ACORD judged queries", "heldout_events": "held-out events"}
    said = "; ".join(c.describe(labels[c.source]) for c in (on_judged, on_events) if c.passed is not None)
    if failed:
        reason = (f"Not installed: it may be worse by more than {margin:g} NDCG@5 points on "
                  + " and ".join(labels[c.source] for c in failed) + f". {said}")
        return Verdict(on_judged, on_events, margin, False, reason)
    events = "" if on_events.passed is not None else " (no held-out events to check yet)"
    return Verdict(on_judged, on_events, margin, True,
                   f"Installed: not worse by more than {margin:g} NDCG@5 points{events}. {said}")
