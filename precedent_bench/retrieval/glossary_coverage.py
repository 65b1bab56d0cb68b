"""Glossary coverage (benchmarks/results/quality/quality.md, step 17): queries the glossary does not know.

The glossary keeps the aliases some train or valid short query uses (step 8). So in train
cross-validation every held-out query finds its own terms in the glossary, while a new query
(a test query, a lawyer's) often does not: 19 of the 40 entries are used by one train/valid
query only. Two questions:

1. How optimistic is CV? Score each held-out query as a new query would be scored: expanded
   with the glossary *without the aliases only its own query uses* ("leave one query out").
2. Does the ranker generalise better when it is trained on such rows ("loo"), or on both the
   normal and the leave-one-out rows ("both"), instead of the normal ones?

    precedent-bench glossary-coverage --seeds 5 --json var/ltr/coverage.json
    precedent-bench glossary-coverage --glossary acord-train-valid --json ...  # without
        # the entries written outside ACORD (as before step 17)

    precedent-bench glossary-coverage --compare A.json 'normal->cv/loo' B.json 'loo->cv/loo'

Everything is train 5-fold CV by query and valid (model fitted on train); the test split is
never read. The means and paired figures of step 17's runs are kept in
benchmarks/results/glossary-coverage/glossary_coverage.json. Features of the leave-one-out texts are cached
under ``--loo-cache``.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import time
from dataclasses import replace
from pathlib import Path
from typing import Mapping, Sequence

from index_builder.retrieve.ltr_fit import RankerConfig
from index_builder.retrieve.glossary import DEFAULT_GLOSSARY, GLOSSARY
from index_builder.retrieve.query_expansion import QueryExpander

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import ACORD
from precedent_bench.common.indexes import ACORD_INDEX
from precedent_bench.retrieval.ltr_benchmark import baseline_rows, evaluate_rows, fit, folds, mean_metrics
from precedent_bench.retrieval.ltr_data import FORMS, Data, Group, LeaveOneOutData, parent, without_own
from precedent_bench.retrieval.query_rewrite import paired as paired_rows

log = logging.getLogger("coverage")


def changed(normal: Data, loo: Data, groups: Sequence[Group], form: str) -> set[str]:
    """Query ids whose retrieval text differs between the two (the leave-one-out ones).

    Clause queries are never expanded, so none is counted, though the ``expansion_cover``
    feature of a few of them changes (``LeaveOneOutData``).
    """
    return {q.query_id for q, *_ in groups if normal.text(q, form) != loo.text(q, form)}


def facts(normal: Data, loo: LeaveOneOutData, moved: Mapping[str, Mapping[str, set[str]]]) -> dict:
    """The counts quality.md step 17 quotes, from train and valid short queries only."""
    entry_users = {aliases: set().union(*(loo.users[a] for a in aliases.split("|")))
                   for aliases in GLOSSARY}
    extra = QueryExpander(loo.extra) if loo.extra else None
    out: dict = {"acord_entries": len(GLOSSARY),
                 "entries_used_by_one_query": sum(len(u) == 1 for u in entry_users.values())}
    for split in ("train", "valid"):
        queries = normal.queries(split, "short")
        lost = [q for q in queries if q.query_id in moved[split]["short"]]
        out[split] = {
            "short_queries": len(queries),
            "lose_own_aliases": len(lost),
            "lose_all_expansion": sum(loo.text(q, "short") == q.text for q in lost),
            "lose_all_acord_expansion": sum(
                not QueryExpander(without_own(GLOSSARY, loo.users, q.query_id)).definitions(q.text)
                for q in lost),
            "have_an_alias_of_the_other_glossary": None if extra is None else
            sum(bool(extra.definitions(q.text)) for q in queries),
            "of_those_losing_reexpanded_by_it": None if extra is None else
            sum(bool(extra.definitions(q.text)) for q in lost)}
    return out


def averaged(per_query: Mapping[str, list[dict]]) -> dict:
    """Per run: metrics of each query averaged over seeds, and their means (logged)."""
    runs = {}
    for key, seeds in per_query.items():
        mean = {f: {q: {m: statistics.fmean(r[f][q][m] for r in seeds) for m in seeds[0][f][q]}
                    for q in seeds[0][f]} for f in FORMS}
        runs[key] = {"means": {f: mean_metrics(list(rows.values())) for f, rows in mean.items()},
                     "per_query": mean}
        log.info("%-22s %s", key, " ".join(f"{f} {runs[key]['means'][f]['ndcg@5']:.1f}"
                                           for f in FORMS))
    return runs


def scored(model, groups: Sequence[Group]) -> dict[str, dict[str, float]]:  # type: ignore[no-untyped-def]
    return evaluate_rows(groups, lambda x: model.predict(x, num_threads=1))


def measure(normal: Data, loo: Data, seeds: Sequence[int]) -> dict:
    splits = {name: {s: {f: d.groups(s, f) for f in FORMS} for s in ("train", "valid")}
              for name, d in (("normal", normal), ("loo", loo))}
    moved = {s: {f: changed(normal, loo, splits["normal"][s][f], f) for f in FORMS}
             for s in ("train", "valid")}
    for s in moved:
        log.info("%s: queries whose retrieval text is not the same: %s", s,
                 {f: len(m) for f, m in moved[s].items()})
    # Training sets: the normal rows, the leave-one-out rows, or both (the leave-one-out copy
    # of a query only where its text differs, so unchanged queries are not counted twice).
    train_sets = {
        "normal": splits["normal"]["train"],
        "loo": splits["loo"]["train"],
        "both": {f: splits["normal"]["train"][f]
                 + [g for g in splits["loo"]["train"][f] if g[0].query_id in moved["train"][f]]
                 for f in FORMS},
    }
    report: dict = {"moved": {s: {f: sorted(m) for f, m in by.items()} for s, by in moved.items()},
                    "facts": facts(normal, loo, moved), "baselines": {}, "baselines_per_query": {},
                    "runs": {}}
    for name in ("normal", "loo"):
        for split in ("train", "valid"):
            rows = {f: baseline_rows(g) for f, g in splits[name][split].items()}
            report["baselines"][f"{split}/{name}"] = {
                f: {n: mean_metrics(list(r.values())) for n, r in by.items()} for f, by in rows.items()}
            if split == "valid":  # 6 queries a form: each one's figure is worth seeing
                report["baselines_per_query"][f"{split}/{name}"] = rows
    per_query: dict[str, list[dict]] = {}
    for trained_on, train in train_sets.items():
        started = time.perf_counter()
        for seed in seeds:
            config = replace(RankerConfig(), seed=seed)
            oof = {e: {f: {} for f in FORMS} for e in ("normal", "loo")}
            for held in folds(splits["normal"]["train"], 5, seed):
                model = fit(train, config, held)
                for e in oof:
                    for f in FORMS:
                        oof[e][f].update(scored(model, [g for g in splits[e]["train"][f]
                                                        if parent(g[0]) in held]))
            model = fit(train, config)
            for e in ("normal", "loo"):
                per_query.setdefault(f"{trained_on}->cv/{e}", []).append(oof[e])
                per_query.setdefault(f"{trained_on}->valid/{e}", []).append(
                    {f: scored(model, splits[e]["valid"][f]) for f in FORMS})
        log.info("trained on %s rows: %d seeds in %.0f s", trained_on, len(seeds),
                 time.perf_counter() - started)
    report["runs"] = averaged(per_query)
    return report


def fold_out(normal: Data, loo: LeaveOneOutData, seeds: Sequence[int], args: argparse.Namespace,
             glossary: Mapping[str, str]) -> dict:
    """CV where each held-out fold loses the glossary aliases only its own queries use.

    Harsher than leave-one-out (an alias two held-out queries share goes too), so closer to
    the lot of a batch of new queries. Valid queries are one such group. The ranker is
    trained as in ``run`` (normal or leave-one-out rows); each seed's folds need their own
    featurised texts (about a minute).
    """
    rows = {"normal": {f: normal.groups("train", f) for f in FORMS},
            "loo": {f: loo.groups("train", f) for f in FORMS}}
    valid_parents = {parent(q) for q in normal.queries("valid", "short")}
    data = LeaveOneOutData(args.data, args.index, args.loo_cache, glossary)
    per_query: dict[str, list[dict]] = {}
    extra_held: dict[int, list[str]] = {}  # per seed: aliases that leave-one-out keeps
    for seed in seeds:
        held_folds = folds(rows["normal"], 5, seed)
        extra_held[seed] = sorted(a for a, u in loo.users.items()
                                  if len(u) > 1 and any(u <= f for f in held_folds))
        data.hold_out_by(held_folds + [valid_parents])
        texts = {s: {f: data.groups(s, f) for f in FORMS} for s in ("train", "valid")}
        config = replace(RankerConfig(), seed=seed)
        for name, train in rows.items():
            oof: dict[str, dict] = {f: {} for f in FORMS}
            for held in held_folds:
                model = fit(train, config, held)
                for f in FORMS:
                    oof[f].update(scored(model, [g for g in texts["train"][f] if parent(g[0]) in held]))
            model = fit(train, config)
            per_query.setdefault(f"{name}->cv/fold", []).append(oof)
            per_query.setdefault(f"{name}->valid/fold", []).append(
                {f: scored(model, texts["valid"][f]) for f in FORMS})
        log.info("seed %d done", seed)
    return {"runs": averaged(per_query), "aliases_held_out_by_fold_only": extra_held}


def paired(report: dict, a: str, b: str, only: Mapping[str, set[str]] | None = None) -> dict:
    """Per form, run ``b`` against run ``a`` per query (NDCG@5; ``query_rewrite.paired``)."""
    out = {}
    for form in FORMS:
        rows_a, rows_b = report["runs"][a]["per_query"][form], report["runs"][b]["per_query"][form]
        if only is not None:
            rows_a = {q: v for q, v in rows_a.items() if q in only[form]}
        if len(rows_a) >= 2:
            out[form] = paired_rows(rows_a, rows_b, "ndcg@5")
    return out


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--data", type=Path, default=ACORD)
    parser.add_argument("--index", type=Path, default=ACORD_INDEX)
    parser.add_argument("--cache", type=Path, default=Path("var/ltr"))
    parser.add_argument("--loo-cache", type=Path, default=Path("var/ltr-loo"))
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--glossary", choices=("default", "acord-train-valid"), default="default",
                        help="the served glossary (ACORD train/valid entries, then the one written "
                        "without ACORD), or the ACORD-derived entries alone")
    parser.add_argument("--normal-glossary", choices=("default", "acord-train-valid"),
                        help="the normal rows' glossary, if not --glossary's: with "
                        "acord-train-valid and --glossary default, the ranker of the rows before "
                        "step 17 meets the leave-one-out texts of the served glossary")
    parser.add_argument("--fold-out", action="store_true", help="only the fold-out CV (each "
                        "held-out fold loses the aliases only its queries use)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--compare", nargs=4, metavar=("A.json", "RUN_A", "B.json", "RUN_B"),
                        help="only compare two runs of earlier reports per query, e.g. "
                        "a.json 'normal->cv/loo' b.json 'loo->cv/loo'")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("sentence_transformers").setLevel(logging.WARNING)
    if args.compare:
        a, run_a, b, run_b = args.compare
        both = {"runs": {"a": json.loads(Path(a).read_text())["runs"][run_a],
                         "b": json.loads(Path(b).read_text())["runs"][run_b]}}
        for form, v in paired(both, "a", "b").items():
            log.info("%s %s -> %s %s: %s %+.2f (SE %.2f, %d better, %d worse of %d)", a, run_a, b,
                     run_b, form, v["mean"], v["se"], v["better"], v["worse"], v["n"])
        return 0
    glossaries = {"default": DEFAULT_GLOSSARY, "acord-train-valid": GLOSSARY}
    normal = Data(args.data, args.index, args.cache,
                  glossaries[args.normal_glossary or args.glossary])
    loo = LeaveOneOutData(args.data, args.index, args.loo_cache, glossaries[args.glossary])
    seeds = range(args.seed, args.seed + args.seeds)
    if args.fold_out:
        report = fold_out(normal, loo, seeds, args, glossaries[args.glossary])
        report["paired"] = {"cv fold eval: loo - normal rows":
                            paired(report, "normal->cv/fold", "loo->cv/fold")}
        log.info("fold eval, loo - normal rows: %s", report["paired"])
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(report, indent=1))
        return 0
    report = measure(normal, loo, seeds)
    moved_cv = {f: set(m) for f, m in report["moved"]["train"].items()}
    comparisons = {
        "cv optimism (normal rows; loo - normal eval)": ("normal->cv/normal", "normal->cv/loo", None),
        "cv loo eval: loo rows - normal rows": ("normal->cv/loo", "loo->cv/loo", None),
        "cv loo eval: both - normal rows": ("normal->cv/loo", "both->cv/loo", None),
        "cv loo eval, moved queries: both - normal": ("normal->cv/loo", "both->cv/loo", moved_cv),
        "cv normal eval: both - normal rows": ("normal->cv/normal", "both->cv/normal", None),
        "cv normal eval: loo - normal rows": ("normal->cv/normal", "loo->cv/normal", None),
    }
    report["paired"] = {name: paired(report, a, b, only) for name, (a, b, only) in comparisons.items()}
    for name, by_form in report["paired"].items():
        log.info("%s: %s", name, " ".join(f"{f} {v['mean']:+.2f} (SE {v['se']:.2f}, {v['better']}/"
                                          f"{v['worse']} of {v['n']})" for f, v in by_form.items()))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1))
    return 0
