"""Learned fusion on ACORD (benchmarks/results/quality/quality.md, step 9): choose on train, check on valid.

    precedent-bench ltr cv                 # 5-fold CV over train queries + valid
    precedent-bench ltr train --out DIR    # fit on train+valid, save the model
    precedent-bench ltr test --ranker DIR  # the one look at test, at the end
    precedent-bench ltr rows               # the shipped training rows (issue 27)

Candidates are the pipeline's fused pool (dense + BM25 at depth 1000 each, the default
glossary expansion of short queries), built straight from the index arrays
(``retrieve/ltr_fit.fused_candidates``). Only judged candidates are featurised: ACORD scoring drops
unjudged clauses, so they cannot change a metric. Query embeddings and feature matrices are
cached under var/ltr/ (a few MB; file names carry a hash of the glossary and rewrites that made
them), so reruns take seconds.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import statistics
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from index_builder.errors import InvalidRequestError
from index_builder.evaluate.evaluation import score_ranking
from index_builder.retrieve.ltr_fit import RankerConfig, fit_ranker
from index_builder.retrieve.glossary import DEFAULT_GLOSSARY, GLOSSARY
from index_builder.retrieve.ltr import FEATURES, save_ranker

from precedent_bench.catalogue import subparser
from precedent_bench.common import data as bench_data, indexes
from precedent_bench.retrieval.ltr_data import DEPTH, FORMS, Data, Group, LeaveOneOutData, parent

log = logging.getLogger("ltr")


# Ranker configurations compared in quality.md steps 13 (size, rows per leaf, weight per form)
# and 15 (the gain of each grade, truncation, objective).
GRIDS = {
    "size": [RankerConfig(trees=t, leaves=l) for t, l in ((150, 7), (300, 7), (150, 15), (300, 15))],
    "leaf": [RankerConfig(min_data_in_leaf=n) for n in (20, 50, 100, 200)],
    "gain": [RankerConfig(), RankerConfig(label_gain=(0, 1, 2, 3, 4)),
             RankerConfig(label_gain=(0, 1, 2, 3, 4), truncation=10),
             RankerConfig(truncation=10), RankerConfig(objective="rank_xendcg")],
    "forms": [RankerConfig(form_weights=(("short", w),)) for w in (1.0, 2.0, 4.0)]
    + [RankerConfig(forms=("short",)), RankerConfig(forms=("short", "medium", "long"))],
}


def chosen_config(args: argparse.Namespace) -> RankerConfig:
    """RankerConfig() with the fields ``--config`` names (JSON lists become tuples)."""
    fields = json.loads(args.config)
    if "form_weights" in fields:
        fields["form_weights"] = tuple((f, float(w)) for f, w in fields["form_weights"])
    for name in ("forms", "splits", "label_gain"):
        if name in fields:
            fields[name] = tuple(fields[name])
    return RankerConfig(**fields)


def ranked(scores: np.ndarray, ids: Sequence[str], keep: np.ndarray | None = None) -> list[str]:
    order = sorted(range(len(ids)), key=lambda i: (-scores[i], i))
    return [ids[i] for i in order if keep is None or keep[i]]


def column(name: str) -> Callable[[np.ndarray], np.ndarray]:
    j = FEATURES.index(name)
    return lambda x: np.nan_to_num(x[:, j], nan=-np.inf)


def evaluate_rows(groups: Sequence[Group], score: Callable[[np.ndarray], np.ndarray],
                  single: str = "") -> dict[str, dict[str, float]]:
    """Per query id: NDCG@5/10 and 4-star P@5 of ranking its group by ``score``."""
    rows = {}
    for query, x, _, ids in groups:
        keep = ~np.isnan(x[:, FEATURES.index(single)]) if single else None
        rows[query.query_id] = score_ranking(ranked(score(x), ids, keep), query.judged)
    return rows


def evaluate(groups: Sequence[Group], score: Callable[[np.ndarray], np.ndarray],
             single: str = "") -> dict[str, float]:
    """Mean NDCG@5/10 and 4-star P@5 of ranking each group by ``score``."""
    return mean_metrics(list(evaluate_rows(groups, score, single).values()))


def folds(groups_by_form: dict[str, list[Group]], k: int, seed: int) -> list[set[str]]:
    parents = sorted({parent(g[0]) for gs in groups_by_form.values() for g in gs})
    random.Random(seed).shuffle(parents)
    return [set(parents[i::k]) for i in range(k)]


def cross_validate_rows(train: dict[str, list[Group]], config: RankerConfig, k: int = 5,
                        seed: int = 13) -> dict[str, dict[str, dict[str, float]]]:
    """Out-of-fold metrics per form and query: each train query scored by a model that never saw it."""
    oof: dict[str, dict[str, dict[str, float]]] = {f: {} for f in train}
    for held in folds(train, k, seed):
        model = fit(train, config, held)
        for form, groups in train.items():
            oof[form].update(evaluate_rows([g for g in groups if parent(g[0]) in held],
                                           lambda x, m=model: m.predict(x, num_threads=1)))
    return oof


def cross_validate(train: dict[str, list[Group]], config: RankerConfig, k: int = 5,
                   seed: int = 13) -> dict[str, dict[str, float]]:
    """Out-of-fold metrics per form: each train query scored by a model that never saw it."""
    return {form: mean_metrics(list(rows.values()))
            for form, rows in cross_validate_rows(train, config, k, seed).items()}


def fit(groups: dict[str, list[Group]], config: RankerConfig, held: set[str] = frozenset()):  # type: ignore[no-untyped-def]
    """A ranker on the configured forms' groups, weighted per form, leaving out ``held`` queries."""
    chosen = [(form, g) for form in config.forms for g in groups[form] if parent(g[0]) not in held]
    return fit_ranker([(g[1], g[2]) for _, g in chosen], config,
                      [config.weight(form) for form, _ in chosen])


def target(cv: dict[str, dict[str, float]], metric: str = "ndcg@5") -> float:
    """The choice criterion: mean over forms with short queries (issue 13's target) counted twice."""
    weights = {"short": 2.0}
    total = sum(weights.get(f, 1.0) for f in cv)
    return round(sum(weights.get(f, 1.0) * m[metric] for f, m in cv.items()) / total, 2)


def mean_metrics(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    return {m: round(statistics.fmean(r[m] for r in rows if m in r), 2)
            for m in ("ndcg@5", "ndcg@10", "p@5_4star")}


def baseline_rows(groups: Sequence[Group]) -> dict[str, dict[str, dict[str, float]]]:
    return {"rrf": evaluate_rows(groups, column("rrf")),
            "bm25 only": evaluate_rows(groups, column("bm25"), single="bm25"),
            "dense only": evaluate_rows(groups, column("dense"), single="dense")}


def baselines(groups: Sequence[Group]) -> dict[str, dict[str, float]]:
    return {name: mean_metrics(list(rows.values())) for name, rows in baseline_rows(groups).items()}


def _per_query(runs: Sequence[dict[str, dict[str, dict[str, float]]]]) -> dict[str, dict[str, dict[str, float]]]:
    """Per form and query id, NDCG@5/10 averaged over seeds: for paired comparisons (step 15, 16)."""
    return {form: {q: {m: round(statistics.fmean(r[form][q][m] for r in runs), 2)
                       for m in ("ndcg@5", "ndcg@10")} for q in runs[0][form]}
            for form in runs[0]}


def cmd_cv(data: Data, args: argparse.Namespace) -> dict:
    train = {f: data.groups("train", f) for f in FORMS}
    valid = {f: data.groups("valid", f) for f in FORMS}
    report: dict = {"baselines": {}, "baselines_per_query": {}, "configs": []}
    for split, groups in (("train", train), ("valid", valid)):
        rows = {f: baseline_rows(g) for f, g in groups.items()}
        report["baselines"][split] = {f: {n: mean_metrics(list(r.values())) for n, r in by.items()}
                                      for f, by in rows.items()}
        report["baselines_per_query"][split] = {
            f: {n: {q: {m: round(v[m], 2) for m in ("ndcg@5", "ndcg@10")} for q, v in r.items()}
                for n, r in by.items()} for f, by in rows.items()}
    grid = GRIDS[args.grid] if args.grid else [chosen_config(args)]
    ablations = [()] + [tuple(a.split(",")) for a in args.ablate]
    for config, ablate in [(c, ()) for c in grid] + [(grid[0], a) for a in ablations[1:]]:
        started = time.perf_counter()
        tr, va = (_dropped(train, ablate), _dropped(valid, ablate)) if ablate else (train, valid)
        # LightGBM's feature sampling and the fold assignment move CV means by 1-2 points on
        # their own: every configuration is run with the same ``--seeds`` seeds and averaged.
        runs, cv_rows, valid_rows = [], [], []
        for seed in range(args.seed, args.seed + args.seeds):
            seeded = replace(config, seed=seed)
            model = fit(tr, seeded)
            cv_rows.append(cross_validate_rows(tr, seeded, seed=seed))
            valid_rows.append({f: evaluate_rows(g, lambda x, m=model: m.predict(x, num_threads=1))
                               for f, g in va.items()})
            runs.append(tuple({f: mean_metrics(list(r.values())) for f, r in rows.items()}
                              for rows in (cv_rows[-1], valid_rows[-1])))
        cv, on_valid = _average([r[0] for r in runs]), _average([r[1] for r in runs])
        report["configs"].append({"config": asdict(config), "ablate": list(ablate),
                                  "seeds": args.seeds, "train_cv": cv, "cv_target": target(cv),
                                  "valid": on_valid, "per_seed": runs,
                                  "per_query": {"train_cv": _per_query(cv_rows),
                                                "valid": _per_query(valid_rows)},
                                  "seconds": round(time.perf_counter() - started, 1)})
        log.info("%s ablate %s: cv target %.2f; cv %s; valid %s", asdict(config), ablate,
                 target(cv), _brief(cv), _brief(on_valid))
    return report


def _average(reports: Sequence[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    return {f: {m: round(statistics.fmean(r[f][m] for r in reports), 2) for m in reports[0][f]}
            for f in reports[0]}


def _brief(report: dict[str, dict[str, float]]) -> str:
    return " ".join(f"{f} {m['ndcg@5']:.1f}/{m['ndcg@10']:.1f}" for f, m in report.items())


def _dropped(groups: dict[str, list[Group]], names: Sequence[str]) -> dict[str, list[Group]]:
    """The same groups without the named feature columns: the model as if they never existed."""
    keep = [j for j, n in enumerate(FEATURES) if n not in names]
    return {form: [(q, x[:, keep], y, ids) for q, x, y, ids in gs] for form, gs in groups.items()}


def cmd_train(data: Data, args: argparse.Namespace) -> dict:
    config = replace(chosen_config(args), splits=tuple(args.splits))
    groups = {f: [g for s in config.splits for g in data.groups(s, f)] for f in config.forms}
    model = fit(groups, config)
    meta = {"config": asdict(config), "groups": sum(len(g) for g in groups.values()), "depth": DEPTH,
            "glossary_entries": len(data.glossary), "rows": args.rows,
            "glossary_fingerprint": data.expander.fingerprint,
            "command": f"precedent-bench ltr train --out {args.out} "
                       f"--splits {' '.join(config.splits)} --rows {args.rows}"
                       + (f" --glossary {args.glossary}" if args.glossary != "default" else "")
                       + (f" --config '{args.config}'" if json.loads(args.config) else "")}
    save_ranker(model, args.out, meta)
    log.info("saved ranker to %s (%d groups)", args.out, meta["groups"])
    return meta


def cmd_rows(data: Data, args: argparse.Namespace) -> dict:
    """The rows the shipped ranker was trained on (train+valid, each query's own glossary
    aliases held out), saved for `index-builder learn` (index_builder/learn/relearn.py)."""
    from index_builder.learn.relearn import ROWS_FILE, save_rows

    out = args.out if args.out != Path("var/ltr/ranker") else ROWS_FILE
    groups, splits, forms, queries = [], [], [], []
    for split in args.splits:
        for form in FORMS:
            for query, x, y, _ in data.groups(split, form):
                groups.append((x, y))
                splits.append(split)
                forms.append(form)
                queries.append(parent(query))  # the learn guard pairs a query's wordings
    save_rows(out, groups, splits, forms, queries)
    log.info("saved %d groups (%d rows) to %s", len(groups), sum(len(y) for _, y in groups), out)
    return {"groups": len(groups), "rows": sum(len(y) for _, y in groups), "out": str(out),
            "bytes": out.stat().st_size}


def cmd_test(data: Data, args: argparse.Namespace) -> dict:
    import lightgbm

    model = lightgbm.Booster(model_file=str(args.ranker / "model.txt"))
    out = {}
    for form in FORMS:
        groups = data.groups(args.split, form)
        out[form] = {**baselines(groups),
                     "ltr": evaluate(groups, lambda x: model.predict(x, num_threads=1))}
    return out


def cmd_heads(data: Data, args: argparse.Namespace) -> dict:
    """First-stage heads (top 10 judged) for the LLM study: all valid items, some train ones.

    Train queries are scored by a model trained on the other folds (never on themselves);
    valid ones by the model trained on all of train. ``--first-stage rrf`` uses plain RRF.
    """
    config = chosen_config(args)
    train = {f: data.groups("train", f) for f in FORMS}
    parents = sorted({parent(g[0]) for g in train["short"]})
    random.Random(args.seed).shuffle(parents)
    chosen_train = set(parents[:args.train_queries])
    items = []

    def add(split: str, form: str, groups: Sequence[Group], score) -> None:  # type: ignore[no-untyped-def]
        for q, x, _, ids in groups:
            order = ranked(score(x), ids)
            items.append({"id": f"{split}/{form}/{q.query_id}", "query": q.text,
                          "judged": q.judged, "tail": order[10:],
                          "hits": [{"clause_id": c, "text": data.corpus[c], "score": float(s)}
                                   for c, s in zip(order[:10], sorted(score(x), reverse=True))]})

    rrf = column("rrf")
    if args.first_stage == "rrf":
        for form in FORMS:
            add("valid", form, data.groups("valid", form), rrf)
        add("train", "short", [g for g in train["short"] if parent(g[0]) in chosen_train], rrf)
    else:
        model = fit(train, config)
        for form in FORMS:
            add("valid", form, data.groups("valid", form), lambda x: model.predict(x, num_threads=1))
        for held in folds(train, 5, config.seed):
            fold_model = fit(train, config, held)
            add("train", "short", [g for g in train["short"]
                                   if parent(g[0]) in held and parent(g[0]) in chosen_train],
                lambda x, m=fold_model: m.predict(x, num_threads=1))
    out = {"first_stage": args.first_stage, "config": asdict(config), "items": items}
    args.heads.write_text(json.dumps(out))
    log.info("wrote %d heads (%d pairs) to %s", len(items), sum(len(i["hits"]) for i in items),
             args.heads)
    return {"items": len(items)}


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("step", choices=("cv", "train", "test", "heads", "rows"))
    parser.add_argument("--data", type=Path, default=bench_data.ACORD)
    parser.add_argument("--index", type=Path, default=indexes.ACORD_INDEX)
    parser.add_argument("--cache", type=Path, default=Path("var/ltr"))
    parser.add_argument("--grid", choices=sorted(GRIDS), help="cv: a grid of configurations")
    parser.add_argument("--config", default="{}", help="cv/train: RankerConfig fields as JSON, "
                        'e.g. \'{"trees": 300, "form_weights": [["short", 2]]}\'')
    parser.add_argument("--ablate", nargs="*", default=[],
                        help="cv: feature groups to leave out, each a comma-separated list")
    parser.add_argument("--out", type=Path, default=Path("var/ltr/ranker"))
    parser.add_argument("--splits", nargs="+", default=["train", "valid"])
    parser.add_argument("--ranker", type=Path, default=Path("var/ltr/ranker"))
    parser.add_argument("--split", choices=("test", "valid", "train"), default="test",
                        help="test: the split a saved ranker is scored on (valid: check a "
                        "train-only ranker against the pipeline, precedent-bench quality)")
    parser.add_argument("--json", type=Path, help="write the report here")
    parser.add_argument("--heads", type=Path, default=Path("var/ltr/heads.json"))
    parser.add_argument("--first-stage", choices=("ltr", "rrf"), default="ltr")
    parser.add_argument("--train-queries", type=int, default=14, help="heads: train queries added")
    parser.add_argument("--seed", type=int, default=13, help="first seed (folds and model)")
    parser.add_argument("--seeds", type=int, default=1, help="cv: seeds to average over")
    parser.add_argument("--rewrites", type=Path, help="cv/train: a JSONL of LLM rewrites "
                        "(precedent-bench query-rewrite) appended to the retrieval text of queries "
                        "of at most 30 words (step 16)")
    parser.add_argument("--rewrite-retrievers", choices=("both", "bm25"), default="both",
                        help="which retrievers' text gets the rewrite (as step 3a did for the glossary)")
    parser.add_argument("--glossary", choices=("default", "acord-train-valid"), default="default",
                        help="the served glossary (the train/valid-derived entries, then the one "
                        "written without ACORD: step 17), or the train/valid-derived one alone "
                        "(steps 8-16)")
    parser.add_argument("--rows", choices=("loo", "normal"), default="loo",
                        help="train: featurise each query as a new query would be, its own "
                        "glossary aliases held out (step 17: the shipped model), or as it is")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("sentence_transformers").setLevel(logging.WARNING)
    glossary = DEFAULT_GLOSSARY if args.glossary == "default" else GLOSSARY
    rewrites: dict[str, str] = {}
    if args.rewrites:
        if args.step == "test":
            raise InvalidRequestError("rewrites exist for train and valid queries only (step 16); "
                                      "test is looked at once, at the end, without them")
        from precedent_bench.retrieval.query_rewrite import rewrite_texts

        rewrites = rewrite_texts(args.rewrites)
        log.info("%d cached rewrites for the current prompt and model", len(rewrites))
    kind = LeaveOneOutData if args.step in ("train", "rows") and args.rows == "loo" else Data
    data = kind(args.data, args.index, args.cache, glossary, rewrites,
                rewrite_dense=args.rewrite_retrievers == "both")
    if rewrites:
        for split in ("train", "valid"):
            for form in ("short", "medium", "long"):
                short = [q.text for q in data.queries(split, form)
                         if len(q.text.split()) <= data.expander.max_words]
                log.info("%s/%s: %d of %d queries of <= %d words have a rewrite", split, form,
                         sum(t in rewrites for t in short), len(short), data.expander.max_words)
    report = {"cv": cmd_cv, "train": cmd_train, "test": cmd_test,
              "heads": cmd_heads, "rows": cmd_rows}[args.step](data, args)
    text = json.dumps(report, indent=2)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text)
    log.info("report:\n%s", text)
    return 0
