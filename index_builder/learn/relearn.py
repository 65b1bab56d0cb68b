"""Relearn the learned fusion from the firm's usage, correcting for position bias, behind a guard.

Training rows: the shipped ACORD rows (the judged candidates the shipped ranker was trained
on, ``retrieve/ranker/rows.npz``) plus one group per positive event: the shown results'
feature rows, the picked result labelled with its grade (Insert, Copy, used in redraft,
thumbs up: 2; Compare, Show full clause: 1) against the results not picked (0). Results
picked as well or better are left out of that group, so two good picks never compete.

Position bias: lawyers pick from the top whatever its worth, so each group is weighted by
1/propensity of the picked position (inverse propensity scoring, Joachims et al. 2017).
Propensities come from the randomised adjacent swaps (``PRECEDENT_FEEDBACK_SWAP_SHARE``):
the same k-th result is picked less often one place lower, and the ratio is p(k+1)/p(k).
Without enough swaps the position-based model's usual 1/k is assumed, and said so.

The guard (``guard.py``): the new ranker is installed only if, paired per query and per
list, a bootstrap bound says it is not worse (by more than ``PRECEDENT_LEARN_GUARD_TOLERANCE``
NDCG@5 points) on judged ACORD queries AND on held-out events (a fifth of the shown lists,
chosen by list id, never trained on).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from index_builder.retrieve.ltr_fit import RankerConfig, fit_ranker

log = logging.getLogger(__name__)

GRADES = {"insert": 2, "copy": 2, "redraft_used": 2, "thumbs_up": 2, "compare": 1, "show_full": 1,
          "thumbs_down": 0, "not_relevant": 0}
DEPTH = 10  # propensities for the first ten places; lower places share the tenth's
MIN_SWAPS = 20  # swapped lists per adjacent pair before its ratio is trusted
MAX_WEIGHT = 10.0  # 1/propensity is clipped: a rare deep pick must not outweigh all else
ROWS_FILE = Path(__file__).resolve().parent.parent / "retrieve" / "ranker" / "rows.npz"


@dataclass
class Group:
    """One training group: feature rows, grades, weight; ``picked`` is the position (1-based)."""

    x: np.ndarray
    y: np.ndarray
    weight: float = 1.0
    picked: int = 0
    key: str = ""
    unit: str = ""  # what the guard pairs on: the ACORD query (all its wordings), or the list


@dataclass
class Propensities:
    values: list[float]  # p(1) = 1, ..., p(DEPTH)
    source: str  # "swaps", "assumed 1/k", "none"
    swaps: dict[int, int] = field(default_factory=dict)  # swapped lists per pair

    def weight(self, position: int) -> float:
        p = self.values[min(position, len(self.values)) - 1]
        return min(MAX_WEIGHT, 1.0 / max(p, 1e-6))


def held_out(list_id: str, share: float = 0.2) -> bool:
    """A fixed fifth of the lists (by id) is never trained on: the guard's own events."""
    return int(list_id[:8], 16) % 1000 < share * 1000


def grades_of(shown: dict[str, Any]) -> dict[int, int]:
    """Per position, the best grade its events gave (explicit negatives 0)."""
    out: dict[int, int] = {}
    for e in shown["events"]:
        if e["position"] >= 1 and e["kind"] in GRADES:
            out[e["position"]] = max(out.get(e["position"], 0), GRADES[e["kind"]])
    return out


def click_groups(lists: Iterable[dict[str, Any]], propensities: Propensities | None) -> list[Group]:
    """One group per picked result of each list (``store.training_lists`` shape)."""
    groups = []
    for shown in lists:
        items = [i for i in shown["items"] if i["position"] >= 1 and i["features"] is not None]
        if len(items) < 2:
            continue
        grades = grades_of(shown)
        x = np.asarray([i["features"] for i in items], dtype=np.float32)
        positions = [i["position"] for i in items]
        for row, pos in enumerate(positions):
            grade = grades.get(pos, 0)
            if grade <= 0:
                continue
            keep = [j for j, p in enumerate(positions) if j == row or grades.get(p, 0) < grade]
            y = np.array([grade if j == row else 0 for j in keep], dtype=np.float32)
            weight = propensities.weight(pos) if propensities else 1.0
            groups.append(Group(x[keep], y, weight, pos, shown["list_id"], shown["list_id"]))
    return groups


def estimate_propensities(lists: Sequence[dict[str, Any]], mode: str = "auto") -> Propensities:
    """p(k) from randomised adjacent swaps (module docstring); ``mode``: auto, swaps, assumed, none."""
    if mode == "none":
        return Propensities([1.0] * DEPTH, "none")
    prior = [1.0 / k for k in range(1, DEPTH + 1)]
    if mode == "assumed":
        return Propensities(prior, "assumed 1/k")
    # Pick rate of the item served at k in unswapped lists, and of the item that would have
    # been at k but was served at k+1 (swapped at k).
    at_k = np.zeros(DEPTH + 1)
    lists_k = np.zeros(DEPTH + 1)
    moved = np.zeros(DEPTH + 1)
    swapped_k = np.zeros(DEPTH + 1)
    for shown in lists:
        picks = {p for p, g in grades_of(shown).items() if g > 0}
        size = sum(1 for i in shown["items"] if i["position"] >= 1)
        k = shown.get("swapped")
        if k:
            if k < DEPTH:
                swapped_k[k] += 1
                moved[k] += (k + 1) in picks
            continue
        for pos in range(1, min(size, DEPTH) + 1):
            lists_k[pos] += 1
            at_k[pos] += pos in picks
    counts = {i: int(swapped_k[i]) for i in range(1, DEPTH)}
    values, measured = [1.0], 0
    for k in range(1, DEPTH):
        if measured == k - 1 and swapped_k[k] >= MIN_SWAPS and at_k[k] > 0 and moved[k] > 0:
            ratio = min(1.0, max(0.05, (moved[k] / swapped_k[k]) / (at_k[k] / lists_k[k])))
            measured = k
        else:
            ratio = k / (k + 1)  # beyond the measured places, the prior's shape
        values.append(values[-1] * ratio)
    if not measured:
        return Propensities(prior, f"assumed 1/k (too few swapped lists, {MIN_SWAPS} per place "
                                   f"needed)", counts)
    source = "swaps" if measured == DEPTH - 1 else f"swaps for places 1-{measured + 1}, then 1/k"
    return Propensities(values, source, counts)


# --- the shipped ACORD rows -------------------------------------------------------------------

@dataclass
class AcordRows:
    """Judged candidates of ACORD queries as feature rows, grouped per query (ltr_benchmark rows)."""

    groups: list[Group]  # ``unit``: the ACORD query when the rows name it, else the group
    splits: list[str]
    forms: list[str]

    def of(self, split: str) -> list[Group]:
        return [g for g, s in zip(self.groups, self.splits) if s == split]


def load_rows(path: Path = ROWS_FILE) -> AcordRows:
    with np.load(path, allow_pickle=False) as data:
        x, y, offsets = data["x"], data["y"], data["offsets"]
        splits, forms = json.loads(str(data["splits"])), json.loads(str(data["forms"]))
        # The ACORD query of each group (rows made before the paired guard lack them: then
        # each wording counts as its own unit, which makes the guard's interval narrower).
        queries = json.loads(str(data["queries"])) if "queries" in data.files else [""] * len(splits)
    groups = [Group(x[a:b], y[a:b], key=f"{s}/{f}/{n}", unit=q and f"{s}/{q}")
              for n, (a, b, s, f, q) in enumerate(zip(offsets[:-1], offsets[1:], splits, forms, queries))]
    return AcordRows(groups, splits, forms)


def save_rows(path: Path, groups: Sequence[tuple[np.ndarray, np.ndarray]], splits: Sequence[str],
              forms: Sequence[str], queries: Sequence[str] | None = None) -> None:
    """``queries``: the ACORD query id of each group (a clause-as-query's parent query), kept
    only as a short hash: the guard pairs a query's wordings by equality and needs no text,
    and the shipped file then holds no ACORD wording."""
    offsets = np.cumsum([0] + [len(y) for _, y in groups])
    queries = [q and hashlib.sha256(q.encode("utf-8")).hexdigest()[:16] for q in (queries or [])]
    np.savez_compressed(path, x=np.vstack([x for x, _ in groups]).astype(np.float32),
                        y=np.concatenate([y for _, y in groups]).astype(np.float32),
                        offsets=offsets, splits=json.dumps(list(splits)),
                        forms=json.dumps(list(forms)),
                        queries=json.dumps(queries or [""] * len(splits)))


# --- fit and judge --------------------------------------------------------------------------

EVENT_SHARE = 0.25  # events together weigh a quarter of the ACORD queries, whatever their number


def fit(base: Sequence[Group], events: Sequence[Group], config: RankerConfig,
        event_share: float | None = EVENT_SHARE):  # type: ignore[no-untyped-def]
    """A LightGBM ranker on the ACORD groups plus the event groups.

    ``event_share``: the events' total weight as a share of the ACORD groups' (their IPS
    weights keep their ratios). Without it (None) each event group weighs as much as one
    ACORD query, and thousands of clicks drown the judgments (results/learning, run 1).
    """
    chosen = list(base) + list(events)
    scale = 1.0
    if event_share is not None and events:
        scale = event_share * sum(g.weight for g in base) / sum(g.weight for g in events)
    weights = [g.weight for g in base] + [g.weight * scale for g in events]
    return fit_ranker([(g.x, g.y) for g in chosen], config, weights)


def ndcg5(scores: np.ndarray, grades: np.ndarray) -> float:
    """NDCG@5 (linear gain, as pytrec_eval) of ranking one group by ``scores``, in percent."""
    order = np.lexsort((np.arange(len(scores)), -scores))[:5]
    ideal = np.sort(grades)[::-1][:5]
    discount = 1.0 / np.log2(np.arange(2, 7))
    best = float((ideal * discount[:len(ideal)]).sum())
    return 100.0 * float((grades[order] * discount[:len(order)]).sum()) / best if best else 0.0


def mean_ndcg5(groups: Sequence[Group], score: Callable[[np.ndarray], np.ndarray],
               weighted: bool = False) -> float:
    """Mean (IPS-weighted for event groups) NDCG@5 over groups with something relevant."""
    kept = [g for g in groups if g.y.max() > 0]
    if not kept:
        return float("nan")
    values = [ndcg5(np.asarray(score(g.x)), g.y) for g in kept]
    weights = [g.weight if weighted else 1.0 for g in kept]
    return round(float(np.average(values, weights=weights)), 2)
