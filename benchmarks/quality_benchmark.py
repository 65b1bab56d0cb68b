"""Quality benchmark on ACORD: the configured pipeline vs the plain hybrid baseline.

Usage (from the repo root; build the reranker first with `index-builder train-reranker`):
    python benchmarks/quality_benchmark.py [--split test] [--data ../shared/data/acord]
        [--skip-baseline] [--json benchmarks/results/quality.json]

Prints one table: for each query form (short, medium, long wording, clause-as-query) the
baseline (hybrid BM25 + MiniLM, RRF, no expansion, no reranker, the old BM25 parameters)
and the configured pipeline; NDCG@5/10, 3/4/5-star P@5 and per-query latency. Latency is
measured twice: at evaluation depth (1000 candidates per retriever, as the paper scores)
and at serving depth (settings.retrieval.candidate_depth, top 10), which is what a lawyer waits for.
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
from index_builder.index.embedder import SentenceTransformerEmbedder
from index_builder.evaluate.runner import EvalConfig, ensure_acord_index, run_acord_eval
from index_builder.evaluate.evaluation import eval_queries
from index_builder.index.lexical import BM25Index
from index_builder.retrieve.hybrid import build_retriever
from index_builder.settings import BM25Settings, Settings, load_settings

log = logging.getLogger("quality")
FORMS = (("query", "short"), ("query", "medium"), ("query", "long"), ("clause", "short"))
COLUMNS = ("ndcg@5", "ndcg@10", "p@5_3star", "p@5_4star", "p@5_5star")


def baseline_settings(settings: Settings) -> Settings:
    """The pipeline before this work: no expansion, no reranker, BM25 k1 1.5 b 0.75, no bigrams."""
    return replace(settings, bm25=BM25Settings(k1=1.5, b=0.75, bigrams=False),
                   retrieval=replace(settings.retrieval, query_expansion="none"),
                   rerank=replace(settings.rerank, cross_encoder=""))


def evaluate(settings: Settings, embedder, index, split: str, label: str) -> list[dict]:  # type: ignore[no-untyped-def]
    # BM25 parameters are fixed at build time; rebuilding only the lexical part (under a
    # second) lets both configurations share one set of embeddings.
    index = replace(index, bm25=BM25Index.build([c.text for c in index.clauses], settings.bm25))
    rows = []
    for mode, wording in FORMS:
        config = EvalConfig(split=split, wording=wording, mode=mode)
        result = run_acord_eval(settings, config, embedder, index, progress=False)
        form = wording if mode == "query" else "clause-as-query"
        rows.append({**result.overall, "pipeline": label, "form": form,
                     "latency_ms": result.latency_ms,
                     "serving_latency_ms": serving_latency(settings, embedder, index, split, mode, wording)})
        log.info("%s %s: nDCG@5 %.1f nDCG@10 %.1f", label, form, result.overall["ndcg@5"],
                 result.overall["ndcg@10"])
    return rows


def serving_latency(settings: Settings, embedder, index, split: str, mode: str,  # type: ignore[no-untyped-def]
                    wording: str) -> dict[str, float]:
    """Per-query ms for the server's call: default depth and top_k, reranker included."""
    retriever = build_retriever(index, embedder, settings)
    corpus = {c.clause_id: c.text for c in index.clauses}
    queries = eval_queries(load_acord(settings.acord_dir), split, wording, mode, corpus)
    times = []
    for query in queries:
        started = time.perf_counter()
        retriever.search(query.text)
        times.append((time.perf_counter() - started) * 1000)
    ordered = sorted(times)
    return {"p50": round(ordered[len(ordered) // 2], 1),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
            "mean": round(statistics.fmean(times), 1)}


def table(rows: list[dict]) -> str:
    head = ("| pipeline | queries | n | NDCG@5 | NDCG@10 | 3★ P@5 | 4★ P@5 | 5★ P@5 | "
            "eval ms p50 | serve ms p50 / p95 |")
    lines = [head, "|" + "---|" * 10]
    for r in rows:
        cells = " | ".join(f"{r[c]:.1f}" for c in COLUMNS)
        serve = r["serving_latency_ms"]
        lines.append(f"| {r['pipeline']} | {r['form']} | {int(r['queries'])} | {cells} | "
                     f"{r['latency_ms'].get('p50', 0):.0f} | {serve['p50']:.0f} / {serve['p95']:.0f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, help="ACORD folder (default PRECEDENT_ACORD_DIR)")
    parser.add_argument("--split", choices=("train", "valid", "test"), default="test")
    parser.add_argument("--index", type=Path, default=Path("var/acord-index"))
    parser.add_argument("--skip-baseline", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    settings = load_settings(overrides={"acord_dir": args.data, "index_dir": args.index})
    embedder = SentenceTransformerEmbedder(settings.embedding)
    index = ensure_acord_index(settings, embedder, progress=False)
    rows = []
    if not args.skip_baseline:
        rows += evaluate(baseline_settings(settings), embedder, index, args.split, "baseline hybrid")
    rows += evaluate(settings, embedder, index, args.split, "configured")
    print(f"ACORD {args.split} split; reranker {settings.rerank.cross_encoder or 'off'}, "
          f"expansion {settings.retrieval.query_expansion}, BM25 k1 {settings.bm25.k1} b {settings.bm25.b}")
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps({"split": args.split, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
