"""Simulated lawyers teach the ranker (issue 27): a learning curve from position-biased clicks.

    precedent-bench learning                      # curve + guard, no test
    precedent-bench learning --look-at-test       # later: the one look at test

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
from dataclasses import asdict
import json
import logging
import random
import statistics
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from index_builder.retrieve.ltr_fit import RankerConfig
from index_builder.learn.guard import CrossFit, guard
from index_builder.learn.relearn import (EVENT_SHARE, ROWS_FILE, Group, click_groups,
                                         estimate_propensities, fit, held_out, mean_ndcg5)
from index_builder.retrieve.glossary import DEFAULT_GLOSSARY

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import ACORD
from precedent_bench.common.indexes import ACORD_INDEX
from precedent_bench.retrieval.ltr_data import FORMS, Data, LeaveOneOutData, parent

log = logging.getLogger("learning")
SHIPPED = RankerConfig(splits=("train", "valid"))  # the shipped ranker's settings (ranker.json)
CLICKERS = {  # P(pick | examined) by ACORD grade 0..4
    "clean": (0.02, 0.15, 0.35, 0.7, 0.95),
    "noisy": (0.15, 0.25, 0.35, 0.45, 0.55),
}
SERVED = 10
SWAP_SHARE = 0.1
GUARD_MARGIN = 0.5  # NDCG@5 points at the bound: the shipped default, fixed before these cases ran


def to_groups(groups: Sequence[Any]) -> list[Group]:
    return [Group(x, y, key=q.query_id, unit=parent(q)) for q, x, y, _ in groups]


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


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--data", type=Path, default=ACORD)
    parser.add_argument("--index", type=Path, default=ACORD_INDEX)
    parser.add_argument("--cache", type=Path, default=Path("var/ltr"))
    parser.add_argument("--checkpoints", default="250,1000,3000",
                        help="sessions after which the ranker is relearned and measured")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/learning"))
    parser.add_argument("--rows", type=Path, default=ROWS_FILE,
                        help="the shipped rows (`precedent-bench ltr rows`), for --guard-only")
    parser.add_argument("--guard-only", action="store_true",
                        help="only the guard cases, from --rows and ACORD's query ids (no index)")
    parser.add_argument("--setups", default=",".join(SETUPS),
                        help="guard set-ups to run with --guard-only (added to guard.json's)")
    parser.add_argument("--look-at-test", action="store_true",
                        help="score the saved final rankers on ACORD test (once, at the very end)")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    models = args.cache / "learning-models"
    if args.look_at_test:
        return look_at_test(args, models)
    if args.guard_only:
        return guard_only(args)
    started = time.perf_counter()
    checkpoints = [int(c) for c in args.checkpoints.split(",")]
    data = LeaveOneOutData(args.data, args.index, args.cache, DEFAULT_GLOSSARY)
    train = {f: data.groups("train", f) for f in FORMS}
    valid = [g for f in FORMS for g in to_groups(data.groups("valid", f))]
    by_fold = split_folds([g for f in FORMS for g in to_groups(train[f])],
                          [parent(g[0]) for g in train["short"]])
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
    report["guard"] = guard_cases(by_fold, valid)
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


SETUPS = ("fold-a", "fold-a-long", "small-start", "learn")


def guard_cases(by_fold: dict[str, list[Group]], valid: list[Group], sessions: int = 3000,
                seed: int = 7, setups: Sequence[str] = SETUPS) -> dict[str, Any]:
    """The guard (index_builder/learn/guard.py) on rankers taught by an adversary (always the
    last of the ten results) and by clean clickers, in each set-up:

    * fold-a, the weak fold A: the current ranker knows fold A only; lawyers search B; judged
      queries never trained on: ACORD valid and fold C (every wording), A cross-fitted; the
      events weigh a quarter of A (as `learn`), or, as in run 1, each click group one ACORD
      query; fold-a-long: the same with four times the sessions;
    * small-start: the current ranker knows 5 of A's 20 queries (A's other 15 join the
      judged queries never trained on), so clicks have more to teach;
    * learn: `index-builder learn` itself (run_learn) on a usage database: the "shipped"
      rows are A + C + valid (B's queries are the lawyers'), the current ranker is trained on
      them, and every judged query is cross-fitted.
    """
    out: dict[str, Any] = {}
    a_units = sorted({g.unit for g in by_fold["A"]})
    few = [g for g in by_fold["A"] if g.unit in a_units[:5]]
    rest = [g for g in by_fold["A"] if g.unit not in a_units[:5]]
    plans = {"fold-a": ("weak fold A", by_fold["A"], valid + by_fold["C"], sessions),
             "fold-a-long": ("weak fold A", by_fold["A"], valid + by_fold["C"], 4 * sessions),
             "small-start": ("small start (5 queries)", few, valid + by_fold["C"] + rest, sessions)}
    for setup in setups:
        if setup == "learn":
            out.update(learn_command_cases(by_fold, valid, sessions, seed))
            continue
        label, known, judged, n = plans[setup]
        base = fit(known, [], SHIPPED)
        for clicker in ("adversary", "clean"):
            lawyers = Lawyers(by_fold["B"], "clean", random.Random(seed), adversarial=clicker == "adversary")
            lawyers.serve_with(base)
            lists = [lawyers.session(k) for k in range(n)]
            props = estimate_propensities(lists, "auto")
            train = click_groups([x for x in lists if not held_out(x["list_id"])], props)
            held = click_groups([x for x in lists if held_out(x["list_id"])], props)
            shares = (("quarter weight", EVENT_SHARE), ("unweighted (run 1)", None))
            for weighting, share in shares if setup == "fold-a" and clicker == "adversary" else shares[:1]:
                candidate = fit(known, train, SHIPPED, share)
                verdict = guard(base, candidate, GUARD_MARGIN, judged=judged,
                                crossfit=CrossFit(known, train, SHIPPED, share), held=held)
                only_valid = {name: mean_ndcg5(valid, lambda x, m=m: m.predict(x, num_threads=1))
                              for name, m in (("current", base), ("candidate", candidate))}
                name = f"{label}, {clicker}, {weighting}, {n:,} sessions"
                out[name] = {**verdict.to_dict(), "acord_valid_only": only_valid,
                             "propensities": props.source}
                log.info("guard, %s: %s", name, verdict.reason)
    return out


def learn_command_cases(by_fold: dict[str, list[Group]], valid: list[Group], sessions: int,
                        seed: int) -> dict[str, Any]:
    """`index-builder learn` (run_learn) on a usage database filled through the store's API."""
    import tempfile

    from index_builder.learn.command import run_learn
    from index_builder.learn.relearn import save_rows
    from index_builder.learn.store import ShownItem, UsageEvent, UsageStore
    from index_builder.retrieve.ltr import save_ranker
    from index_builder.settings import load_settings

    shipped_rows = by_fold["A"] + by_fold["C"] + valid
    shipped = fit(shipped_rows, [], SHIPPED)
    out = {}
    for clicker in ("adversary", "clean"):
        with tempfile.TemporaryDirectory() as tmp:
            rows_path = Path(tmp) / "rows.npz"
            save_rows(rows_path, [(g.x, g.y) for g in shipped_rows],
                      ["train"] * (len(shipped_rows) - len(valid)) + ["valid"] * len(valid),
                      ["short"] * len(shipped_rows), [g.unit for g in shipped_rows])
            save_ranker(shipped, Path(tmp) / "shipped", {"config": asdict(SHIPPED), "version": "shipped-sim"})
            settings = load_settings({}, {"index_dir": Path(tmp) / "index",
                                          "retrieval.ranker": str(Path(tmp) / "shipped"),
                                          "learning.guard_tolerance": GUARD_MARGIN})
            store = UsageStore.open(settings)
            lawyers = Lawyers(by_fold["B"], "clean", random.Random(seed + 4),
                              adversarial=clicker == "adversary")
            lawyers.serve_with(shipped)
            for n in range(sessions):
                shown = lawyers.session(n)
                list_id = store.record_list("sim@firm.example", f"query {n}", [
                    ShownItem(i["position"], i["rank"], i["clause_id"], np.asarray(i["features"]))
                    for i in shown["items"]], "shipped-sim", "acord", shown["swapped"])
                store.record_events("sim@firm.example", [
                    UsageEvent(list_id, e["kind"], e["clause_id"], e["rank"], e["position"])
                    for e in shown["events"]])
            report, _ = run_learn(settings, rows_path=rows_path)
            name = f"index-builder learn (rows A+C+valid), {clicker}, {sessions:,} sessions"
            out[name] = report.to_dict()
            log.info("%s: %s", name, report.reason)
    return out


def folds_from_rows(rows_path: Path, data: Path) -> tuple[dict[str, list[Group]], list[Group]]:
    """Folds A/B/C and valid from the shipped rows (ranker/rows.npz) and ACORD's query ids:
    the same groups LeaveOneOutData gives (rows.npz is made from them, in the same order),
    without the index. Fold A's starting ranker scores 63.91 / 62.25 either way."""
    from index_builder.evaluate.acord import load_acord
    from index_builder.evaluate.evaluation import eval_queries
    from index_builder.learn.relearn import load_rows

    class NoText(dict):  # clause-as-query ids need no clause text
        def __missing__(self, key: str) -> str:
            return ""

    acord = load_acord(data)
    rows = load_rows(rows_path)
    names = []
    for split in dict.fromkeys(rows.splits):
        for form in FORMS:
            mode, wording = ("clause", "short") if form == "clause" else ("query", form)
            names += [(split, form, q.query_id) for q in eval_queries(acord, split, wording, mode, NoText())]
    if [(s, f) for s, f, _ in names] != list(zip(rows.splits, rows.forms)):
        raise SystemExit(f"{rows_path} does not match ACORD's queries; remake it with `precedent-bench ltr rows`.")
    groups = [Group(g.x, g.y, key=q, unit=q.split(" <- ")[0]) for g, (_, _, q) in zip(rows.groups, names)]
    train = [(g, f) for g, (s, f, _) in zip(groups, names) if s == "train"]
    valid = [g for g, (s, _, _) in zip(groups, names) if s == "valid"]
    return split_folds([g for g, _ in train], [g.unit for g, f in train if f == "short"]), valid


def split_folds(train: list[Group], parents: list[str]) -> dict[str, list[Group]]:
    """A 40% / B 40% / C 20% of the train queries by query (seed 13)."""
    parents = sorted(set(parents))
    random.Random(13).shuffle(parents)
    cut_a, cut_b = int(0.4 * len(parents)), int(0.8 * len(parents))
    fold = {p: ("A" if i < cut_a else "B" if i < cut_b else "C") for i, p in enumerate(parents)}
    return {name: [g for g in train if fold.get(g.unit) == name] for name in "ABC"}


def guard_only(args: argparse.Namespace) -> int:
    """The guard cases alone, from the shipped rows (no index needed): guard.json + guard.md."""
    started = time.perf_counter()
    by_fold, valid = folds_from_rows(args.rows, args.data)
    path = args.out / "guard.json"
    earlier = json.loads(path.read_text())["cases"] if path.is_file() else {}
    setups = args.setups.split(",")
    report = {"margin": GUARD_MARGIN, "folds": {k: len({g.unit for g in v}) for k, v in by_fold.items()},
              "groups": {k: len(v) for k, v in by_fold.items()}, "valid_groups": len(valid),
              "cases": {**earlier, **guard_cases(by_fold, valid, setups=setups)}}
    report["seconds"] = round(time.perf_counter() - started, 1)  # of this run's set-ups
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "guard.json").write_text(json.dumps(report, indent=2) + "\n")
    (args.out / "guard.md").write_text(guard_table(report))
    print(guard_table(report))
    return 0


def guard_table(report: dict[str, Any]) -> str:
    lines = ["| case | ACORD judged: current / new (diff, 90% interval) | held-out events: current / new "
             "(diff, 90% interval) | verdict |", "|---|---|---|---|"]
    for name, case in report["cases"].items():
        comps = case.get("comparisons") or {"acord_judged": case["judged"], "heldout_events": case["events"]}
        cells = []
        for key in ("acord_judged", "heldout_events"):
            c = comps[key]
            cells.append(f"{c['current']:.2f} / {c['candidate']:.2f} ({c['difference']:+.2f}, "
                         f"[{c['interval'][0]:+.2f}, {c['interval'][1]:+.2f}]; {c['units']} "
                         f"{'queries' if key == 'acord_judged' else 'lists'})")
        verdict = "installed" if case["installed"] else "**refused**"
        lines.append(f"| {name} | {cells[0]} | {cells[1]} | {verdict} |")
    took = report["seconds"]
    lines.append(f"\nMargin {report['margin']} NDCG@5 points at the 95% one-sided lower bound "
                 f"(the interval's left end). Run time: {took}{' s' if isinstance(took, float) else ''}.")
    return "\n".join(lines) + "\n"


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
    if report.get("guard"):
        lines.append("\nThe guard (guard.md has the same table, from --guard-only):\n")
        lines.append(guard_table({"cases": report["guard"], "margin": GUARD_MARGIN,
                                  "seconds": report.get("seconds", "-")}))
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
