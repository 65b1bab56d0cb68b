"""Own-draft queries (issue 28): default vs BM25 vs dense, and a ranker trained on that shape.

    precedent-bench owndraft --seeds 3 --json benchmarks/results/owndraft/owndraft.json

Train and valid only (the drafts are written for those needs: benchmarks/owndraft/README.md).
Every figure of a learned ranker is out of sample: train queries by 5-fold CV by ACORD query
(a query's short/medium/long wordings, its clauses and its drafts are held out together), valid
queries by the model fitted on train. Rows are featurised as the shipped ranker's are: each
query's own glossary aliases held out (``LeaveOneOutData``, quality.md step 17). The shipped
ranker is reported too, but it was fitted on train + valid judgments, so on these needs it is
in sample. Configurations compared (``CONFIGS``): the shipped one (four ACORD forms), + the
synthetic drafts as training rows, + the fresh drafts too; each the mean over ``--seeds`` seeds.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import statistics
from dataclasses import asdict, replace
from pathlib import Path
from typing import Callable, Mapping, Sequence

import lightgbm
import numpy as np

from index_builder.retrieve.ltr_fit import RankerConfig
from index_builder.retrieve.glossary import DEFAULT_GLOSSARY
from index_builder.retrieve.ltr import content_terms

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import ACORD
from precedent_bench.common.indexes import ACORD_INDEX
from precedent_bench.retrieval.ltr_benchmark import baseline_rows, cross_validate_rows, evaluate_rows, fit
from precedent_bench.retrieval.ltr_data import DRAFT_FORMS, FORMS, Group, LeaveOneOutData

log = logging.getLogger("owndraft")
ALL_FORMS = FORMS + DRAFT_FORMS
CONFIGS = {
    "shipped config (4 ACORD forms)": RankerConfig(),
    "+ synthetic drafts": RankerConfig(forms=FORMS + ("synth",)),
    "+ synthetic and fresh drafts": RankerConfig(forms=ALL_FORMS),
}
PerQuery = dict[str, dict[str, float]]  # query id -> metric -> value
# Candidate features measured here before any goes into ltr.FEATURES (name -> column maker).
EXTRA = ("clause_cover",)  # share of the clause's content words that the query has


def with_extra(groups: dict[str, dict[str, list[Group]]], corpus: Mapping[str, str]
               ) -> dict[str, dict[str, list[Group]]]:
    """The same groups with ``EXTRA`` columns appended (the reverse of ``term_cover``: for a
    whole-clause query, how much of the candidate the draft covers)."""
    terms: dict[str, set[str]] = {}

    def cover(query_terms: set[str], clause_id: str) -> float:
        if clause_id not in terms:
            terms[clause_id] = set(content_terms(corpus[clause_id]))
        found = terms[clause_id]
        return len(found & query_terms) / len(found) if found else 0.0

    out: dict[str, dict[str, list[Group]]] = {}
    for split, by_form in groups.items():
        out[split] = {}
        for form, gs in by_form.items():
            out[split][form] = []
            for q, x, y, ids in gs:
                q_terms = set(content_terms(q.text))
                col = np.array([[cover(q_terms, c)] for c in ids], dtype=np.float32)
                out[split][form].append((q, np.hstack([x, col]), y, ids))
    return out


def summary(rows: PerQuery, metric: str) -> dict[str, float]:
    """Mean, standard error and count of one metric over queries."""
    values = [r[metric] for r in rows.values()]
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return {"mean": round(statistics.fmean(values), 2), "se": round(se, 2), "n": len(values)}


def paired(a: PerQuery, b: PerQuery, metric: str = "ndcg@5") -> dict[str, float]:
    """a minus b per query: mean, standard error, queries better and worse."""
    diffs = [a[q][metric] - b[q][metric] for q in a]
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return {"diff": round(statistics.fmean(diffs), 2), "se": round(se, 2),
            "better": sum(d > 0 for d in diffs), "worse": sum(d < 0 for d in diffs)}


def describe(rows: PerQuery, categories: Mapping[str, str]) -> dict:
    """NDCG@5/10 with standard errors, overall and per ACORD category."""
    out = {m: summary(rows, m) for m in ("ndcg@5", "ndcg@10")}
    by_cat: dict[str, PerQuery] = {}
    for q, r in rows.items():
        by_cat.setdefault(categories[q], {})[q] = r
    out["categories"] = {c: {m: summary(r, m) for m in ("ndcg@5", "ndcg@10")}
                         for c, r in sorted(by_cat.items())}
    return out


def seed_mean(runs: Sequence[PerQuery]) -> PerQuery:
    return {q: {m: round(statistics.fmean(r[q][m] for r in runs), 2) for m in ("ndcg@5", "ndcg@10")}
            for q in runs[0]}


def scorer(model) -> Callable[[np.ndarray], np.ndarray]:  # type: ignore[no-untyped-def]
    return lambda x: model.predict(x, num_threads=1)


def measure(data: LeaveOneOutData, seeds: Sequence[int], ranker: Path, extra: bool) -> dict:
    groups = {s: {f: data.groups(s, f) for f in ALL_FORMS} for s in ("train", "valid")}
    extended = with_extra(groups, data.corpus) if extra else None
    categories = {g[0].query_id: g[0].category for s in groups.values() for gs in s.values()
                  for g in gs}
    systems: dict[str, dict[str, dict[str, PerQuery]]] = {}  # system -> split -> form -> rows
    for split, by_form in groups.items():
        for form, gs in by_form.items():
            for name, rows in baseline_rows(gs).items():
                systems.setdefault(name, {}).setdefault(split, {})[form] = rows
    shipped = lightgbm.Booster(model_file=str(ranker / "model.txt"))
    systems["shipped ranker (in sample)"] = {
        s: {f: evaluate_rows(gs, scorer(shipped)) for f, gs in by_form.items()}
        for s, by_form in groups.items()}
    configs = [(n, c, groups) for n, c in CONFIGS.items()]
    if extended:
        configs += [(f"{n} + {', '.join(EXTRA)}", c, extended) for n, c in CONFIGS.items()
                    if c.forms != FORMS]
    for name, config, groups in configs:
        cv_runs, valid_runs = [], []
        for seed in seeds:
            seeded = replace(config, seed=seed)
            cv_runs.append(cross_validate_rows(groups["train"], seeded, seed=seed))
            model = fit(groups["train"], seeded)
            valid_runs.append({f: evaluate_rows(gs, scorer(model))
                               for f, gs in groups["valid"].items()})
            log.info("%s seed %d done", name, seed)
        systems[name] = {"train": {f: seed_mean([r[f] for r in cv_runs]) for f in ALL_FORMS},
                         "valid": {f: seed_mean([r[f] for r in valid_runs]) for f in ALL_FORMS}}
    return report(systems, categories, seeds)


def report(systems: dict, categories: Mapping[str, str], seeds: Sequence[int]) -> dict:
    out: dict = {"seeds": list(seeds), "configs": {n: asdict(c) for n, c in CONFIGS.items()},
                 "forms": {}, "per_query": {}}
    for form in ALL_FORMS:
        entry: dict = {}
        for name, by_split in systems.items():
            both = {**by_split["train"][form], **by_split["valid"][form]}
            entry[name] = {"train+valid": describe(both, categories),
                           "valid": describe(by_split["valid"][form], categories)}
            if name not in ("bm25 only", "dense only", "rrf"):
                best = {}
                for single in ("bm25 only", "dense only"):
                    other = {**systems[single]["train"][form], **systems[single]["valid"][form]}
                    best[f"minus {single}"] = {m: paired(both, other, m)
                                               for m in ("ndcg@5", "ndcg@10")}
                entry[name]["paired"] = best
        out["forms"][form] = entry
    out["per_query"] = {name: {f: {**s["train"][f], **s["valid"][f]} for f in ALL_FORMS}
                        for name, s in systems.items()}
    return out


def table(out: dict) -> str:
    """NDCG@5 (SE) / NDCG@10 per form and system, train+valid; then paired default - BM25."""
    lines = ["| system | " + " | ".join(ALL_FORMS) + " |", "|---" * (len(ALL_FORMS) + 1) + "|"]
    for name in out["forms"]["fresh"]:
        cells = []
        for form in ALL_FORMS:
            d = out["forms"][form][name]["train+valid"]
            cells.append(f"{d['ndcg@5']['mean']:.1f} ({d['ndcg@5']['se']:.1f}) / "
                         f"{d['ndcg@10']['mean']:.1f}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--data", type=Path, default=ACORD)
    parser.add_argument("--index", type=Path, default=ACORD_INDEX)
    parser.add_argument("--cache", type=Path, default=Path("var/ltr"))
    parser.add_argument("--ranker", type=Path, default=Path("index_builder/retrieve/ranker"))
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--extra", action="store_true", help=f"also fit with {EXTRA} appended")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("sentence_transformers").setLevel(logging.WARNING)
    data = LeaveOneOutData(args.data, args.index, args.cache, dict(DEFAULT_GLOSSARY))
    out = measure(data, range(args.seed, args.seed + args.seeds), args.ranker, args.extra)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out) + "\n")  # per-query rows make it large: no indent
    print(table(out))
    return 0
