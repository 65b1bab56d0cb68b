"""Quality benchmark on ACORD: the configured pipeline against its parts, through SearchPipeline.

Usage (from the repo root, after `index-builder build --index var/acord-index ../shared/data/acord`):
    precedent-bench quality [--split test] [--json benchmarks/results/quality/quality.json]

For each query form (short, medium, long wording, clause-as-query) it scores, with the
paper's conventions (benchmarks/results/quality/quality.md): BM25 alone and dense alone (both with
glossary expansion, as in the configured pipeline), hybrid RRF with the query as written,
hybrid RRF with glossary expansion, and the configured pipeline
(expansion + learned fusion, PRECEDENT_RANKER). Each goes through ``SearchPipeline.search``
as the server calls it, only deeper (1000 candidates per retriever). Variation folding is off
unless ``--fold``: the paper's convention (and every anchor figure) scores near copies as
separate clauses, and folding 1000 candidates costs seconds per query on two cores.
Latency: per query at that depth, and the server's call (candidate_depth, top 10) for the
configured pipeline.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import time
from dataclasses import replace
from pathlib import Path

from index_builder.evaluate.acord import load_acord
from index_builder.evaluate.evaluation import eval_queries
from index_builder.evaluate.runner import (
    EvalConfig,
    acord_clauses,
    ensure_acord_index,
    eval_pipeline,
    run_acord_eval,
)
from index_builder.index.embedder import SentenceTransformerEmbedder
from index_builder.retrieve.ltr import load_ranker, ranker_folder
from index_builder.retrieve.pipeline import SearchPipeline, SearchRequest
from index_builder.settings import Settings, load_settings

from precedent_bench.catalogue import subparser
from precedent_bench.common.indexes import ACORD_INDEX

log = logging.getLogger("quality")
FORMS = (("query", "short"), ("query", "medium"), ("query", "long"), ("clause", "short"))
COLUMNS = ("ndcg@5", "ndcg@10", "p@5_3star", "p@5_4star", "p@5_5star")
# label -> (retriever, expansion, learned fusion)
PIPELINES = {
    "BM25 only + glossary": ("bm25", "glossary", False),
    "dense only + glossary": ("dense", "glossary", False),
    "hybrid RRF": ("hybrid", "none", False),
    "hybrid RRF + glossary": ("hybrid", "glossary", False),
    "configured (glossary + learned fusion)": ("hybrid", "glossary", True),
}


def make_pipeline(settings: Settings, config: EvalConfig, embedder, ranked: bool) -> SearchPipeline:  # type: ignore[no-untyped-def]
    """The eval pipeline with the learned ranker attached exactly when ``ranked``."""
    plain = replace(settings, retrieval=replace(settings.retrieval, ranker="none"))
    pipeline = eval_pipeline(plain, config, embedder)
    folder = ranker_folder(settings.retrieval.ranker) if ranked else None
    rescorer = (load_ranker(folder, pipeline.expander, settings.retrieval.rrf_k)
                if folder is not None else None)
    return SearchPipeline(pipeline.backend, embedder, settings, None, rescorer, False,
                          pipeline.retrievers)


def serving_latency(pipeline: SearchPipeline, settings: Settings, split: str, mode: str,
                    wording: str) -> dict[str, float]:
    """Per-query ms for the server's call: default depth and top_k."""
    corpus = {c.clause_id: c.text for c in acord_clauses(settings.acord_dir)}
    queries = eval_queries(load_acord(settings.acord_dir), split, wording, mode, corpus)
    times = []
    for query in queries:
        started = time.perf_counter()
        pipeline.search(SearchRequest(text=query.text))
        times.append((time.perf_counter() - started) * 1000)
    ordered = sorted(times)
    return {"p50": round(ordered[len(ordered) // 2], 1),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
            "mean": round(statistics.fmean(times), 1)}


def evaluate(settings: Settings, embedder, split: str, labels: list[str]) -> list[dict]:  # type: ignore[no-untyped-def]
    rows = []
    for mode, wording in FORMS:
        form = wording if mode == "query" else "clause-as-query"
        for label in labels:
            retriever, expansion, ranked = PIPELINES[label]
            s = replace(settings, retrieval=replace(settings.retrieval, query_expansion=expansion))
            config = EvalConfig(split=split, retriever=retriever, wording=wording, mode=mode)
            pipeline = make_pipeline(s, config, embedder, ranked)
            result = run_acord_eval(s, config, pipeline, progress=False)
            row = {**result.overall, "pipeline": label, "form": form, "latency_ms": result.latency_ms}
            if ranked:
                serve = make_pipeline(s, replace(config, depth=s.retrieval.candidate_depth),
                                      embedder, ranked)
                row["serving_latency_ms"] = serving_latency(serve, s, split, mode, wording)
            rows.append(row)
            log.info("%s %s: nDCG@5 %.1f nDCG@10 %.1f", label, form, result.overall["ndcg@5"],
                     result.overall["ndcg@10"])
    return rows


def table(rows: list[dict]) -> str:
    head = ("| pipeline | queries | n | NDCG@5 | NDCG@10 | 3★ P@5 | 4★ P@5 | 5★ P@5 | "
            "eval ms p50 | serve ms p50 / p95 |")
    lines = [head, "|" + "---|" * 10]
    for r in rows:
        cells = " | ".join(f"{r[c]:.1f}" for c in COLUMNS)
        serve = r.get("serving_latency_ms")
        serve_cell = f"{serve['p50']:.0f} / {serve['p95']:.0f}" if serve else ""
        lines.append(f"| {r['pipeline']} | {r['form']} | {int(r['queries'])} | {cells} | "
                     f"{r['latency_ms'].get('p50', 0):.0f} | {serve_cell} |")
    return "\n".join(lines)


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--data", type=Path, help="ACORD folder (default PRECEDENT_ACORD_DIR)")
    parser.add_argument("--split", choices=("train", "valid", "test"), default="test")
    parser.add_argument("--index", type=Path, default=ACORD_INDEX)
    parser.add_argument("--only", nargs="+", choices=list(PIPELINES), help="a subset of the rows")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    parser.add_argument("--fold", action="store_true", help="fold near copies as the server does")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("sentence_transformers").setLevel(logging.WARNING)
    overrides = {"index_dir": args.index, **({"acord_dir": args.data} if args.data else {})}
    settings = load_settings(overrides=overrides)
    if not args.fold:
        settings = replace(settings, retrieval=replace(settings.retrieval, variation_threshold=0.0))
    embedder = SentenceTransformerEmbedder(settings.embedding)
    ensure_acord_index(settings, embedder, progress=False)
    rows = evaluate(settings, embedder, args.split, args.only or list(PIPELINES))
    # The printed table is this command's output, not logging.
    print(f"ACORD {args.split} split; ranker {settings.retrieval.ranker}; BM25 k1 "  # noqa: T201
          f"{settings.bm25.k1} b {settings.bm25.b}; depth 1000 per retriever; folding "
          f"{settings.retrieval.variation_threshold or 'off'}")
    print(table(rows))  # noqa: T201
    if args.json:
        args.json.write_text(json.dumps({"split": args.split, "rows": rows}, indent=2) + "\n")
    return 0
