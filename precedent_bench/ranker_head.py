"""`precedent-bench ranker-head`: does the learned ranker need to score all 100 candidates? (issue 39)

    precedent-bench ranker-head --index var/acord-index --heads 20,30,40,50 \\
        --out benchmarks/results/throughput/cpu-s6

The learned ranker's features and model are about a quarter of a never-seen search's Python,
spent on the fused pool's 100 candidates while the page shows ten. With
``PRECEDENT_RANKER_HEAD=N`` it scores only the fused order's first N and the rest follow in
the fused order. This measures what that changes **as the product runs** (the served
pipeline at its served depth and page size: expansion, dense + BM25, fusion, the ranker,
folding; no LLM, no curation), A = every candidate scored, B = each head:

- on ACORD **train and valid** (test is never opened) in every shape a lawyer sends (short,
  medium, long wordings, a clause as the query, the own drafts): NDCG@5 of the served list
  as `index-builder eval` scores it (results and their folded copies, 1,000 deep since ACORD
  drops unjudged clauses; the head is then the head of 1,000 fused), the paired difference
  B - A with its 95% bootstrap interval, and how many queries' served pages (10 results of
  100 candidates, as the server answers) changed at all;
- on never-seen texts (`precedent_bench/unseen.py`: 6-12-word runs and whole clauses, as the
  throughput benchmark sends): how many pages (the ten results and their copies, in order)
  are identical to A's.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from index_builder.evaluate.evaluation import score_ranking
from index_builder.settings import load_settings
from precedent_bench.query_model import REPO, SHAPES, queries

log = logging.getLogger(__name__)

EVAL_DEPTH = 1000  # index-builder eval's (runner.EvalConfig.depth)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ranker-head", help="NDCG@5 and identical pages when the learned ranker "
                                           "scores only the fused head (PRECEDENT_RANKER_HEAD)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--index", type=Path, default=Path("var/acord-index"))
    p.add_argument("--acord", type=Path, default=REPO.parent / "shared/data/acord")
    p.add_argument("--contracts", type=Path, default=REPO.parent / "shared/data/contracts")
    p.add_argument("--heads", default="20,30,40,50", help="heads to compare with 0 (all)")
    p.add_argument("--shapes", default=",".join(SHAPES))
    p.add_argument("--unseen", type=int, default=400, help="never-seen short texts (and a "
                                                           "quarter as many whole clauses)")
    p.add_argument("--out", type=Path, help="folder for ranker-head.json and .md")
    p.set_defaults(handler="precedent_bench.ranker_head:run_command", ab=False)


def run_command(args: argparse.Namespace) -> int:
    from index_builder.index.batcher import query_embedder
    from index_builder.retrieve.ltr import load_ranker, ranker_folder
    from index_builder.retrieve.pipeline import SearchRequest, build_pipeline, served_list
    from precedent_bench.stats import paired_interval
    from precedent_bench.unseen import library_texts, unseen

    settings = load_settings(overrides={"index_dir": args.index, "acord_dir": args.acord})
    # No result cache: each query is asked once per pipeline and depth (as eval_pipeline).
    settings = replace(settings, retrieval=replace(settings.retrieval, ranker_head=0,
                                                   result_cache=0))
    embedder = query_embedder(settings.embedding)
    base = build_pipeline(settings, embedder)
    folder = ranker_folder(settings.retrieval.ranker)
    heads = [int(h) for h in args.heads.split(",") if h.strip()]
    pipelines = {0: base}
    for head in heads:
        pipelines[head] = base.with_rescorer(load_ranker(folder, base.expander,
                                                         settings.retrieval.rrf_k, head))

    def page(head: int, text: str, depth: int | None = None) -> list[str]:
        """The served list (results and copies); ``depth``: eval's deeper list (its convention:
        ACORD drops unjudged clauses, so NDCG@5 needs ~1,000 to keep ten judged ones)."""
        outcome = pipelines[head].search(SearchRequest(text=text, rerank=False, spans=False,
                                                       curation=False, top_k=depth, depth=depth))
        return [h.clause.clause_id for h in served_list(outcome)][:depth]

    result: dict[str, Any] = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                              "index": str(args.index), "splits": ["train", "valid"],
                              "depth": settings.retrieval.candidate_depth,
                              "top_k": settings.retrieval.top_k, "heads": heads,
                              "model": embedder.model_id, "shapes": {}, "unseen": {}}
    for shape in [s for s in args.shapes.split(",") if s]:
        items = queries(args.acord, shape)
        if not items:
            continue
        per_query: dict[str, dict[str, Any]] = {}
        for item in items:
            deep = {h: [c for c in page(h, item.text, EVAL_DEPTH) if c != item.exclude]
                    for h in pipelines}
            per_query[item.query_id] = {
                str(h): score_ranking(p, item.judged)["ndcg@5"] for h, p in deep.items()}
            pages = {h: page(h, item.text) for h in pipelines}
            per_query[item.query_id]["same"] = [h for h in heads if pages[h] == pages[0]]
        result["shapes"][shape] = summarise(per_query, heads, paired_interval)
        log.info("%s done (%d queries)", shape, len(items))
    library = library_texts(args.acord, args.contracts)
    for shape, count in (("short", args.unseen), ("clause", max(1, args.unseen // 4))):
        texts = unseen(library, shape, count, seed=6)
        same = {h: 0 for h in heads}
        for text in texts:
            pages = {h: page(h, text) for h in pipelines}
            for h in heads:
                same[h] += pages[h] == pages[0]
        result["unseen"][shape] = {"n": len(texts), "identical": same}
    table = report(result)
    sys.stdout.write(table + "\n")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "ranker-head.json").write_text(json.dumps(result, indent=1))
        (args.out / "ranker-head.md").write_text(table + "\n")
    close = getattr(embedder, "close", None)
    if close:
        close()
    return 0


def summarise(per_query: dict[str, dict[str, Any]], heads: Sequence[int], interval: Any
              ) -> dict[str, Any]:
    a = [q["0"] for q in per_query.values()]
    out: dict[str, Any] = {"n": len(a), "ndcg5_all": round(float(np.mean(a)), 2), "heads": {},
                           "per_query": per_query}
    for h in heads:
        b = [q[str(h)] for q in per_query.values()]
        delta, low, high = interval([y - x for x, y in zip(a, b)])
        out["heads"][str(h)] = {"ndcg5": round(float(np.mean(b)), 2), "delta": round(delta, 2),
                                "low": round(low, 2), "high": round(high, 2),
                                "moved": sum(abs(y - x) > 1e-9 for x, y in zip(a, b)),
                                "pages_changed": sum(h not in q["same"] for q in per_query.values())}
    return out


def report(result: dict[str, Any]) -> str:
    lines = [f"Learned ranker over every candidate (A, {result['depth']}) vs only the fused head "
             f"(B), {result['when']}; served pipeline (no LLM; NDCG@5 as index-builder eval scores it, "
             f"{EVAL_DEPTH} deep; pages = the served {result['top_k']} results and copies of "
             f"{result['depth']} candidates), query model {result['model']}, ACORD "
             f"{' + '.join(result['splits'])}, index {result['index']}; NDCG@5 x 100, B - A "
             "with its 95% paired bootstrap interval; pages changed = queries whose served list "
             "differs at all.", "",
             "| query shape | queries | NDCG@5 all | head | NDCG@5 head | B - A [95% interval] | "
             "NDCG@5 moved | pages changed | within 0.5 |", "|---|---|---|---|---|---|---|---|---|"]
    for shape, s in result["shapes"].items():
        for h, r in s["heads"].items():
            within = "yes" if abs(r["delta"]) <= 0.5 else "no"
            lines.append(f"| {shape} | {s['n']} | {s['ndcg5_all']} | {h} | {r['ndcg5']} | "
                         f"{r['delta']:+.2f} [{r['low']:+.2f}, {r['high']:+.2f}] | {r['moved']} | "
                         f"{r['pages_changed']} | {within} |")
    lines += ["", "| never-seen texts | texts | " + " | ".join(
        f"pages identical, head {h}" for h in result["heads"]) + " |",
              "|---|---|" + "---|" * len(result["heads"])]
    for shape, u in result["unseen"].items():
        lines.append(f"| {shape} | {u['n']} | " + " | ".join(
            str(u["identical"][h]) for h in result["heads"]) + " |")
    return "\n".join(lines)
