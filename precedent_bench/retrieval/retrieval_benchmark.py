"""Retrieval benchmark on ACORD: bm25 / dense / hybrid tables, build time, per-query latency.

Usage (from the repo root, after scripts/setup.sh):
    precedent-bench retrieval [--data ../shared/data/acord] [--fresh-build]

Writes retrieval.md and retrieval.json to --out (benchmarks/results/retrieval/). --fresh-build times
a build from nothing into a temporary folder (about 3 minutes on 2 cores) instead of reusing
var/acord-index. Each row goes through the served pipeline (``eval_pipeline``), as
`index-builder eval` does.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from index_builder.evaluate.acord import load_acord
from index_builder.evaluate.evaluation import eval_queries, latency_summary, score_runs
from index_builder.evaluate.runner import EvalConfig, eval_pipeline, run_acord_eval
from index_builder.index.build import build_index
from index_builder.index.embedder import SentenceTransformerEmbedder
from index_builder.index.store import load_index
from index_builder.settings import Settings, load_settings

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import ACORD, RESULTS
from precedent_bench.common.indexes import ACORD_INDEX, ensure_acord

log = logging.getLogger("benchmark")
COLUMNS = ("ndcg@5", "ndcg@10", "p@5_3star", "p@5_4star", "p@5_5star")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    settings = load_settings(overrides={"acord_dir": args.data, "index_dir": args.index})
    started = time.perf_counter()
    embedder = SentenceTransformerEmbedder(settings.embedding)
    model_load_s = time.perf_counter() - started
    build = _fresh_build(settings, embedder) if args.fresh_build else None
    ensure_acord(settings, embedder)
    index = load_index(settings.index_dir)

    rows = [_paper_row(settings, embedder, args.split)]
    for mode, wording in [("query", "short"), ("query", "medium"), ("query", "long"), ("clause", "short")]:
        for retriever in ("bm25", "dense", "hybrid"):
            config = EvalConfig(split=args.split, retriever=retriever, wording=wording, mode=mode)
            result = run_acord_eval(settings, config, eval_pipeline(settings, config, embedder),
                                    progress=False)
            label = wording if mode == "query" else "clause-as-query"
            rows.append({**result.overall, "retriever": retriever, "wording": label,
                         "latency_ms": result.latency_ms})
            log.info("%s %s: nDCG@5 %.1f", retriever, label, result.overall["ndcg@5"])
    lexical = _rank_bm25_comparison(settings, index, args.split)
    report = {"split": args.split, "model": embedder.model_id, "model_load_s": round(model_load_s, 1),
              "clauses": len(index.clauses), "build": build, "rows": rows, "bm25_libraries": lexical,
              "settings": {"fusion": settings.retrieval.fusion, "rrf_k": settings.retrieval.rrf_k,
                           "depth": settings.retrieval.candidate_depth, "bm25": vars(settings.bm25)}}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "retrieval.json").write_text(json.dumps(report, indent=2))
    (args.out / "retrieval.md").write_text(_markdown(report))
    sys.stdout.write(_markdown(report))
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--data", type=Path, default=ACORD)
    parser.add_argument("--index", type=Path, default=ACORD_INDEX)
    parser.add_argument("--split", default="test", choices=("train", "valid", "test"))
    parser.add_argument("--fresh-build", action="store_true", help="time a build from nothing")
    parser.add_argument("--out", type=Path, default=RESULTS / "retrieval",
                        help="folder for retrieval.md and retrieval.json")


def _paper_row(settings: Settings, embedder: SentenceTransformerEmbedder, split: str) -> dict:
    """Dense MiniLM with the query as written: the ACORD paper's bi-encoder row (57.1 / 57.2)."""
    plain = replace(settings, retrieval=replace(settings.retrieval, query_expansion="none"))
    config = EvalConfig(split=split, retriever="dense")
    result = run_acord_eval(plain, config, eval_pipeline(plain, config, embedder), progress=False)
    return {**result.overall, "retriever": "dense, no expansion (paper row)", "wording": "short",
            "latency_ms": result.latency_ms}


def _fresh_build(settings: Settings, embedder: SentenceTransformerEmbedder) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        fresh = replace(settings, index_dir=Path(tmp) / "index")
        first = build_index(fresh, [settings.acord_dir], embedder, progress=False)
        again = build_index(fresh, [settings.acord_dir], embedder, progress=False)
    return {"full_build_s": round(first.seconds, 1), "unchanged_rebuild_s": round(again.seconds, 2),
            "embedded": first.embedded}


def _rank_bm25_comparison(settings: Settings, index, split: str) -> list[dict]:  # type: ignore[no-untyped-def]
    """bm25s (what we ship) against rank_bm25 on the same tokens: ranking and speed."""
    from rank_bm25 import BM25Okapi

    acord = load_acord(settings.acord_dir)
    queries = eval_queries(acord, split)
    tokenizer = index.bm25.tokenizer
    ids = [c.clause_id for c in index.clauses]
    started = time.perf_counter()
    okapi = BM25Okapi([tokenizer(c.text) for c in index.clauses], k1=settings.bm25.k1, b=settings.bm25.b)
    okapi_build = time.perf_counter() - started
    out = []
    for name, score in (("bm25s", index.bm25.scores),
                        ("rank_bm25", lambda q: okapi.get_scores(tokenizer(q)))):
        runs, latencies = {}, []
        for query in queries:
            t = time.perf_counter()
            scores = np.asarray(score(query.text))
            top = np.argsort(-scores, kind="stable")[:100]
            latencies.append((time.perf_counter() - t) * 1000)
            runs[query.query_id] = [ids[i] for i in top]
        result = score_runs(queries, runs)
        out.append({"library": name, "ndcg@5": result.overall["ndcg@5"],
                    "ndcg@10": result.overall["ndcg@10"], "latency_ms": latency_summary(latencies),
                    **({"build_s": round(okapi_build, 2)} if name == "rank_bm25" else {})})
    return out


def _markdown(report: dict) -> str:  # type: ignore[type-arg]
    lines = [f"# ACORD retrieval benchmark ({report['split']} split)", "",
             f"Model {report['model']} (load {report['model_load_s']} s), {report['clauses']} clauses, "
             f"settings {json.dumps(report['settings'])}.", ""]
    if report["build"]:
        b = report["build"]
        lines += [f"Index build from nothing: {b['full_build_s']} s ({b['embedded']} clauses embedded); "
                  f"rebuild with nothing changed: {b['unchanged_rebuild_s']} s.", ""]
    lines += ["Rows use the configured pipeline (glossary expansion of short queries, BM25 settings "
              "above) except the paper row; latency is per query at evaluation depth (1000 per "
              "retriever), including query encoding.", "",
              "| retriever | queries | n | nDCG@5 | nDCG@10 | 3★ P@5 | 4★ P@5 | 5★ P@5 | 4★ P@5 norm | latency p50 / p95 ms |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for row in report["rows"]:
        cells = " | ".join(f"{row[c]:.1f}" for c in COLUMNS)
        lat = row["latency_ms"]
        lines.append(f"| {row['retriever']} | {row['wording']} | {int(row['queries'])} | {cells} | {row.get('p@5_4star_norm', 0):.1f} | "
                     f"{lat.get('p50')} / {lat.get('p95')} |")
    lines += ["", "BM25 libraries on the same tokens (short queries as written, no expansion; top-100, scoring + sort only):", "",
              "| library | nDCG@5 | nDCG@10 | latency p50 / p95 ms |", "|---|---|---|---|"]
    for row in report["bm25_libraries"]:
        lat = row["latency_ms"]
        lines.append(f"| {row['library']} | {row['ndcg@5']:.1f} | {row['ndcg@10']:.1f} | {lat['p50']} / {lat['p95']} |")
    return "\n".join(lines) + "\n"
