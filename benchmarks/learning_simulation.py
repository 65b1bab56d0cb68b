"""Simulated lawyers teach the ranker (issue 27): a learning curve from position-biased clicks.

    python benchmarks/learning_simulation.py                      # curve + guard, no test
    python benchmarks/learning_simulation.py --look-at-test       # later: the one look at test

No firm uses Precedent yet, so lawyers are simulated on ACORD. ACORD's 52 train queries are
split by query (seed 13) into three folds:

* A (40%): the "shipped" rows the starting ranker is trained on;
* B (40%): the firm's lawyers' queries: each session draws one B query in one of its
  wordings (short, medium, long, or a 5-star clause as the query, as the add-in sends),
  is served the current ranker's top 10 of its judged candidates and clicks as a
  position-based click model says: a result at place k is examined with probability 1/k and
  picked with a probability set by its ACORD grade (clean clickers) or barely by it (noisy
  clickers). 10% of sessions swap two adjacent results (PRECEDENT_FEEDBACK_SWAP_SHARE), from
  which propensities are estimated exactly as `index-builder learn` does;
* C (20%): held-out train queries, never clicked, with ACORD valid: the figures.

At each of ``--checkpoints`` (sessions so far) the ranker is relearned with the code `index-builder learn`
runs (index_builder/learn/relearn.py: click groups, propensity weights, LightGBM on A's rows
plus the events, the events weighing a quarter of A's queries in all: ``EVENT_SHARE``), with
or without position-bias correction, and served to the next sessions. (Run 1, kept under
run1-unbalanced/, weighed each click group as one ACORD query: clicks drowned the judgments.)
The reference "oracle" is a ranker trained on A + B's true judgments. A simulated user who
always picks the last result shows the guard refusing what they teach. Test is scored only
with ``--test``, once, at the very end, for the final rankers.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import statistics
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from index_builder.evaluate.training import RankerConfig
from index_builder.learn.relearn import (Group, click_groups, estimate_propensities, fit, guard,
                                         held_out, mean_ndcg5)
from index_builder.retrieve.glossary import DEFAULT_GLOSSARY
from ltr_data import FORMS, Data, LeaveOneOutData, parent

log = logging.getLogger("learning")
SHIPPED = RankerConfig(splits=("train", "valid"))  # the shipped ranker's settings (ranker.json)
CLICKERS = {  # P(pick | examined) by ACORD grade 0..4
    "clean": (0.02, 0.15, 0.35, 0.7, 0.95),
    "noisy": (0.15, 0.25, 0.35, 0.45, 0.55),
}
SERVED = 10
SWAP_SHARE = 0.1


def to_groups(groups: Sequence[Any]) -> list[Group]:
    return [Group(x, y, key=q.query_id) for q, x, y, _ in groups]


class Lawyers:
    """Sessions over fold B's groups: serve the top 10 under a ranker, simulate picks."""

    def __init__(self, groups: list[Group], clicker: str, rng: random.Random,
                 adversarial: bool = False) -> None:
        self.groups = [g for g in groups if g.y.max() > 0]
        self.attract = CLICKERS[clicker]
        self.rng = rng
        self.adversarial = adversarial
        self.scores: list[np.ndarray] = []

    def serve_with(self, model: Any) -> None:
        """Score every B group once per ranker (sessions between relearns share it)."""
        stacked = np.vstack([g.x for g in self.groups])
        flat = model.predict(stacked, num_threads=1)
        offsets = np.cumsum([0] + [len(g.y) for g in self.groups])
        self.scores = [flat[a:b] for a, b in zip(offsets[:-1], offsets[1:])]

    def session(self, n: int) -> dict[str, Any]:
        i = self.rng.randrange(len(self.groups))
        group, scores = self.groups[i], self.scores[i]
        top = list(np.lexsort((np.arange(len(scores)), -scores))[:SERVED])
        swapped = None
        if self.rng.random() < SWAP_SHARE:
            swapped = self.rng.randrange(1, len(top))
            top[swapped - 1], top[swapped] = top[swapped], top[swapped - 1]
        items = [{"position": k, "rank": k, "clause_id": f"{i}:{row}",
                  "features": group.x[row].tolist()} for k, row in enumerate(top, 1)]
        picks = ([len(top)] if self.adversarial else
                 [k for k, row in enumerate(top, 1)
                  if self.rng.random() < 1.0 / k and self.rng.random() < self.attract[int(group.y[row])]])
        return {"list_id": f"{self.rng.getrandbits(128):032x}", "swapped": swapped, "items": items,
                "events": [{"kind": "insert", "position": k, "rank": k,
                            "clause_id": items[k - 1]["clause_id"]} for k in picks]}


def curve(base_rows: list[Group], lawyers: Lawyers, base_model: Any, held: dict[str, list[Group]],
          correction: str, checkpoints: Sequence[int]) -> tuple[list[dict[str, Any]], Any, list]:
    """Relearn at each checkpoint (sessions so far); NDCG@5 on the held-out sets there."""
    model, lists, points = base_model, [], []
    points.append(_point(0, model, held, 0, "-"))
    for start, end in zip([0, *checkpoints], checkpoints):
        lawyers.serve_with(model)  # the ranker relearned last is served until the next point
        lists.extend(lawyers.session(n) for n in range(start, end))
        props = estimate_propensities(lists, "auto" if correction == "ips" else "none")
        groups = click_groups(lists, props)
        model = fit(base_rows, groups, SHIPPED)
        points.append(_point(end, model, held, len(groups), props.source))
        log.info("%s: %s", correction, points[-1])
    return points, model, lists


def _point(n: int, model: Any, held: dict[str, list[Group]], groups: int, source: str) -> dict[str, Any]:
    predict = lambda x: model.predict(x, num_threads=1)  # noqa: E731
    return {"sessions": n, "click_groups": groups, "propensities": source,
            **{name: mean_ndcg5(gs, predict) for name, gs in held.items()}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/acord"))
    parser.add_argument("--index", type=Path, default=Path("var/acord-index"))
    parser.add_argument("--cache", type=Path, default=Path("var/ltr"))
    parser.add_argument("--checkpoints", default="250,1000,3000",
                        help="sessions after which the ranker is relearned and measured")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/learning"))
    parser.add_argument("--look-at-test", action="store_true",
                        help="score the saved final rankers on ACORD test (once, at the very end)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    models = args.cache / "learning-models"
    if args.look_at_test:
        return look_at_test(args, models)
    started = time.perf_counter()
    checkpoints = [int(c) for c in args.checkpoints.split(",")]
    data = LeaveOneOutData(args.data, args.index, args.cache, DEFAULT_GLOSSARY)
    train = {f: data.groups("train", f) for f in FORMS}
    valid = [g for f in FORMS for g in to_groups(data.groups("valid", f))]
    parents = sorted({parent(g[0]) for g in train["short"]})
    random.Random(13).shuffle(parents)
    cut_a, cut_b = int(0.4 * len(parents)), int(0.8 * len(parents))
    fold = {p: ("A" if i < cut_a else "B" if i < cut_b else "C") for i, p in enumerate(parents)}
    by_fold = {name: [Group(x, y, key=q.query_id) for f in FORMS for q, x, y, _ in train[f]
                      if fold.get(parent(q)) == name] for name in "ABC"}
    held = {"valid": valid, "train_fold_C": by_fold["C"]}
    base = fit(by_fold["A"], [], SHIPPED)
    oracle = fit(by_fold["A"] + by_fold["B"], [], SHIPPED)
    report: dict[str, Any] = {
        "folds": {k: len({parent_id(g) for g in v}) for k, v in by_fold.items()},
        "groups": {k: len(v) for k, v in by_fold.items()}, "valid_groups": len(valid),
        "base": _point(0, base, held, 0, "-"), "oracle_A+B_judgments": _point(0, oracle, held, 0, "-"),
        "config": {"checkpoints": checkpoints, "seeds": args.seeds,
                   "served": SERVED, "swap_share": SWAP_SHARE, "clickers": CLICKERS}, "curves": {}}
    finals: dict[str, Any] = {}
    for clicker in ("clean", "noisy"):
        for correction in ("none", "ips"):
            runs = []
            for seed in range(args.seeds):
                lawyers = Lawyers(by_fold["B"], clicker, random.Random(100 + seed))
                points, model, lists = curve(by_fold["A"], lawyers, base, held, correction,
                                             checkpoints)
                runs.append(points)
                finals.setdefault(f"{clicker}/{correction}", (model, lists))
            report["curves"][f"{clicker}/{correction}"] = _averaged(runs)
    report["guard"] = guard_demo(by_fold, base, valid, finals["clean/ips"])
    report["learn_command"] = learn_command_demo(by_fold["B"] + by_fold["C"])
    report["seconds"] = round(time.perf_counter() - started, 1)
    models.mkdir(parents=True, exist_ok=True)
    for name, model in {"base": base, "oracle": oracle, **{k: v[0] for k, v in finals.items()}}.items():
        model.save_model(str(models / f"{name.replace('/', '-')}.txt"))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "simulation.json").write_text(json.dumps(report, indent=2) + "\n")
    (args.out / "learning_curve.md").write_text(table(report))
    plot(report, args.out / "learning_curve.png")
    print(table(report))
    return 0


def parent_id(group: Group) -> str:
    return group.key.split(" <- ")[0]


def _averaged(runs: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    out = []
    for points in zip(*runs):
        row = dict(points[0])
        for name in ("valid", "train_fold_C"):
            values = [p[name] for p in points]
            row[name] = round(statistics.fmean(values), 2)
            row[f"{name}_runs"] = values
        out.append(row)
    return out


def guard_demo(by_fold: dict[str, list[Group]], base: Any, valid: list[Group],
               clean: tuple[Any, list]) -> dict[str, Any]:
    """The guard on an adversarial user's ranker (always the last result) and on the clean one."""
    out = {}
    adversary = Lawyers(by_fold["B"], "clean", random.Random(7), adversarial=True)
    adversary.serve_with(base)
    bad_lists = [adversary.session(n) for n in range(3000)]
    for name, lists in (("adversarial (always the last result)", bad_lists),
                        ("clean clickers, bias-corrected", clean[1])):
        props = estimate_propensities(lists, "auto")
        train = click_groups([x for x in lists if not held_out(x["list_id"])], props)
        heldout = click_groups([x for x in lists if held_out(x["list_id"])], props)
        candidate = fit(by_fold["A"], train, SHIPPED)
        cur, new, ok, reason = guard(base, candidate, valid, heldout, 0.5)
        out[name] = {"current": cur, "candidate": new, "installed": ok, "reason": reason,
                     "propensities": props.source}
        log.info("guard, %s: %s", name, reason)
    return out


def learn_command_demo(train_groups: list[Group], sessions: int = 2000) -> dict[str, Any]:
    """`index-builder learn` itself (run_learn) on a usage database filled through the store's
    API: the shipped ranker serves train queries, clicked by clean lawyers and by an
    adversary; the guard compares against the shipped ranker on the shipped rows' valid."""
    import tempfile

    from index_builder.learn.command import run_learn
    from index_builder.learn.store import ShownItem, UsageEvent, UsageStore
    from index_builder.retrieve.ltr import BUILTIN
    from index_builder.settings import load_settings
    import lightgbm

    shipped = lightgbm.Booster(model_file=str(BUILTIN / "model.txt"))
    out = {}
    for name, adversarial in (("adversarial (always the last result)", True),
                              ("clean clickers", False)):
        with tempfile.TemporaryDirectory() as tmp:
            settings = load_settings({}, {"index_dir": Path(tmp) / "index", "retrieval.ranker": "builtin",
                                          "learning.swap_share": SWAP_SHARE})
            store = UsageStore.open(settings)
            lawyers = Lawyers(train_groups, "clean", random.Random(11), adversarial=adversarial)
            lawyers.serve_with(shipped)
            for n in range(sessions):
                shown = lawyers.session(n)
                list_id = store.record_list("sim@firm.example", f"query {n}", [
                    ShownItem(i["position"], i["rank"], i["clause_id"], np.asarray(i["features"]))
                    for i in shown["items"]], "builtin", "acord", shown["swapped"])
                store.record_events("sim@firm.example", [UsageEvent(list_id, e["kind"], e["clause_id"], e["rank"], e["position"])
                                                         for e in shown["events"]])
            report, folder = run_learn(settings)
            out[name] = {**report.to_dict(), "folder": None}
            log.info("index-builder learn, %s: %s", name, report.reason)
    return out


def look_at_test(args: argparse.Namespace, models: Path) -> int:
    """ACORD test, once, at the end: the starting ranker, each final ranker, the oracle."""
    import lightgbm

    report_path = args.out / "simulation.json"
    report = json.loads(report_path.read_text())
    if "test" in report:
        raise SystemExit(f"ACORD test was already looked at ({report['test']['looked_at']}).")
    data = Data(args.data, args.index, args.cache, DEFAULT_GLOSSARY)
    test = [g for f in FORMS for g in to_groups(data.groups("test", f))]
    when = datetime.now(timezone.utc).isoformat(timespec="seconds")
    log.info("looking at ACORD test once (%s)", when)
    rankers = {name: lightgbm.Booster(model_file=str(path)) for name, path in
               sorted((p.stem, p) for p in models.glob("*.txt"))}
    report["test"] = {"looked_at": when, "groups": len(test),
                      **{name: mean_ndcg5(test, lambda x, m=m: m.predict(x, num_threads=1))
                         for name, m in rankers.items()}}
    report_path.write_text(json.dumps(report, indent=2) + "\n")
    (args.out / "learning_curve.md").write_text(table(report))
    print(table(report))
    return 0


def table(report: dict[str, Any]) -> str:
    lines = ["| sessions | " + " | ".join(f"{k} valid / C" for k in report["curves"]) + " |",
             "|---:|" + "---:|" * len(report["curves"])]
    first = next(iter(report["curves"].values()))
    for i, point in enumerate(first):
        cells = [f"{c[i]['valid']:.1f} / {c[i]['train_fold_C']:.1f}" for c in report["curves"].values()]
        lines.append(f"| {point['sessions']} | " + " | ".join(cells) + " |")
    o = report["oracle_A+B_judgments"]
    lines.append(f"\nOracle (A+B true judgments): valid {o['valid']:.1f}, C {o['train_fold_C']:.1f}.")
    for name, g in report["guard"].items():
        lines.append(f"\nGuard, {name}: {g['reason']} (current {g['current']}, candidate "
                     f"{g['candidate']}; propensities {g['propensities']})")
    for name, g in report.get("learn_command", {}).items():
        lines.append(f"\n`index-builder learn` vs the shipped ranker, {name}: {g['reason']} (current "
                     f"{g['current']}, candidate {g['candidate']}; propensities "
                     f"{g['propensities']['source']})")
    if "test" in report:
        lines.append(f"\nACORD test (looked at once, {report['test']['looked_at']}): " + ", ".join(
            f"{k} {v:.1f}" for k, v in report["test"].items() if isinstance(v, float)))
    return "\n".join(lines) + "\n"


def plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=False)
    for ax, held in zip(axes, ("valid", "train_fold_C")):
        for name, points in report["curves"].items():
            ax.plot([p["sessions"] for p in points], [p[held] for p in points], marker="o",
                    linestyle="-" if name.endswith("ips") else "--", label=name)
        ax.axhline(report["oracle_A+B_judgments"][held], color="grey", linestyle=":",
                   label="oracle (true judgments)")
        ax.set_title(f"NDCG@5 on {'ACORD valid' if held == 'valid' else 'held-out train fold C'}")
        ax.set_xlabel("simulated sessions")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("NDCG@5")
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    raise SystemExit(main())
