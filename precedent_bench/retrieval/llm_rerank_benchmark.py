"""LLM rerank that never hurts (quality.md, step 10): rate the head with the embedded model,
then fit how much of its rating to combine with the retrieval position.

    precedent-bench ltr heads            # first-stage heads -> var/ltr/heads.json
    nice -n 10 precedent-bench llm-rerank rate [--budget-s 780]   # resumable
    precedent-bench llm-rerank fit [--json benchmarks/results/llm-rerank/llm_rerank.json]

``rate`` starts the embedded Qwen2.5-Coder-1.5B (``addin-server local-llm fetch``) with the
server's own prompt and reranker (prompts/rerank.prompt, addin_server/rerank.py), rates every
(query, clause) of every head and appends each rating to var/ltr/llm-ratings.jsonl as it
comes, so a run stopped by ``--budget-s`` continues where it stopped. ``fit`` reads only
that file: NDCG of the first stage, of the LLM's order alone (today's rerank), and of
``combine`` (index_builder/retrieve/combine.py) for a grid of weights, with leave-one-query-
out choice of the weight, and how many queries each one hurts.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import time
from dataclasses import replace
from pathlib import Path

from index_builder.evaluate.evaluation import score_ranking
from index_builder.model import Clause, SearchHit
from index_builder.retrieve.combine import CombineWeights, combined_order
from index_builder.settings import load_settings

from precedent_bench.catalogue import require, subparser

log = logging.getLogger("llm_rerank")
GRID = [round(0.1 * i, 1) for i in range(11)]  # LLM share; retrieval gets the rest


def _key(query: str, clause_id: str) -> str:
    return f"{clause_id}\t{query}"


def load_ratings(path: Path) -> dict[str, float | None]:
    ratings: dict[str, float | None] = {}
    if path.is_file():
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                ratings[_key(row["query"], row["clause_id"])] = row["rating"]
    return ratings


def cmd_rate(args: argparse.Namespace) -> dict:
    require("llm", "llm-rerank rate", "the embedded model rates the heads")
    from addin_server.llm.client import OpenAIChatClient
    from addin_server.llm.local import LocalLLMServer
    from addin_server.rerank import LLMReranker, load_rerank_prompt

    heads = json.loads(args.heads.read_text())
    ratings = load_ratings(args.ratings)
    todo = [(item, h) for item in heads["items"][:args.items] for h in item["hits"][:args.depth]
            if _key(item["query"], h["clause_id"]) not in ratings]
    log.info("%d pairs to rate (%d already rated)", len(todo), len(ratings))
    if not todo:
        return {"rated": 0, "left": 0}
    settings = load_settings()
    server = LocalLLMServer(settings.local_llm).start()
    # A cold prompt on two shared cores can take minutes: generous per-call limits here.
    llm = replace(server.llm_settings(settings.llm), request_timeout_s=600.0, deadline_s=900.0,
                  max_attempts=1)
    reranker = LLMReranker(OpenAIChatClient(llm), load_rerank_prompt(
        settings.server.prompts_dir / "rerank.prompt"), llm)
    started, rated, times = time.monotonic(), 0, []
    with open(args.ratings, "a", encoding="utf-8") as out:
        for item, h in todo:
            if time.monotonic() - started > args.budget_s:
                break
            t0 = time.monotonic()
            hit = SearchHit(Clause(h["clause_id"], h["text"], ""), score=h["score"], rank=1)
            rating = reranker.rerank_detailed(item["query"], [hit]).ranked[0][1]
            times.append(time.monotonic() - t0)
            if rating.method in ("unavailable", "timeout"):
                log.warning("no rating for one pair (%s); it stays to do", rating.method)
                continue
            out.write(json.dumps({"query": item["query"], "clause_id": h["clause_id"],
                                  "rating": rating.score, "method": rating.method,
                                  "seconds": round(times[-1], 2)}) + "\n")
            out.flush()
            rated += 1
            if rated % 20 == 0:
                log.info("rated %d/%d, median %.1f s per call", rated, len(todo),
                         statistics.median(times))
    reranker.close()
    server.stop()
    return {"rated": rated, "left": len(todo) - rated,
            "median_s": round(statistics.median(times), 2) if times else None}


def _orders(item: dict, ratings: dict[str, float | None], depth: int
            ) -> dict[str, list[str]] | None:
    ids = [h["clause_id"] for h in item["hits"][:depth]]
    scores = [h["score"] for h in item["hits"][:depth]]
    got = [ratings.get(_key(item["query"], c), "missing") for c in ids]
    if "missing" in got:
        return None
    llm = [None if g is None else float(g) for g in got]  # type: ignore[arg-type]
    orders = {"first stage": ids,
              "llm order": [ids[i] for i in sorted(range(len(ids)),
                                                   key=lambda i: (-(llm[i] or -1), i))]}
    for scale in ("absolute", "relative"):
        for norm in ("position", "minmax"):
            for w in GRID:
                order = combined_order(scores, llm, CombineWeights(w, round(1 - w, 1), norm, scale))
                orders[f"{norm}/{scale} {w}"] = [ids[i] for i in order]
    return orders


def cmd_fit(args: argparse.Namespace) -> dict:
    heads = json.loads(args.heads.read_text())
    ratings = load_ratings(args.ratings)
    per_item = []
    for item in heads["items"][:args.items]:
        orders = _orders(item, ratings, args.depth)
        if orders is None:
            continue
        # judged clauses after the head keep their order
        tail = [h["clause_id"] for h in item["hits"][args.depth:]] + item["tail"]
        per_item.append({name: score_ranking(order + tail, item["judged"])
                         for name, order in orders.items()} | {"_id": item["id"]})
    if not per_item:
        raise SystemExit("No fully rated head yet: run `rate` first.")
    names = [n for n in per_item[0] if n != "_id"]
    mean = lambda name, rows, m="ndcg@5": statistics.fmean(r[name][m] for r in rows)  # noqa: E731
    table = {n: {"ndcg@5": round(mean(n, per_item), 2), "ndcg@10": round(mean(n, per_item, "ndcg@10"), 2),
                 "hurt@5": sum(r[n]["ndcg@5"] < r["first stage"]["ndcg@5"] - 1e-9 for r in per_item),
                 "helped@5": sum(r[n]["ndcg@5"] > r["first stage"]["ndcg@5"] + 1e-9 for r in per_item)}
             for n in names}
    # Leave one query out: choose the weight on the others, score the one left out.
    combos = [n for n in names if n.startswith(("position/", "minmax/"))]
    loo = []
    for i, row in enumerate(per_item):
        rest = per_item[:i] + per_item[i + 1:]
        best = max(combos, key=lambda n: (mean(n, rest) + mean(n, rest, "ndcg@10"), -GRID.index(
            float(n.split()[1]))))
        loo.append((best, row[best], row["first stage"]))
    best_all = max(combos, key=lambda n: (table[n]["ndcg@5"] + table[n]["ndcg@10"],
                                          -float(n.split()[1])))
    report = {"items": len(per_item), "depth": args.depth, "table": table, "chosen_on_all": best_all,
              "loo": {"ndcg@5": round(statistics.fmean(r[1]["ndcg@5"] for r in loo), 2),
                      "ndcg@10": round(statistics.fmean(r[1]["ndcg@10"] for r in loo), 2),
                      "first_stage_ndcg@5": round(statistics.fmean(r[2]["ndcg@5"] for r in loo), 2),
                      "hurt@5": sum(r[1]["ndcg@5"] < r[2]["ndcg@5"] - 1e-9 for r in loo),
                      "chosen": sorted({r[0] for r in loo})}}
    return report


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("step", choices=("rate", "fit"))
    parser.add_argument("--heads", type=Path, default=Path("var/ltr/heads.json"))
    parser.add_argument("--ratings", type=Path, default=Path("var/ltr/llm-ratings.jsonl"))
    parser.add_argument("--budget-s", type=float, default=780.0, help="rate: stop after this long")
    parser.add_argument("--json", type=Path, help="fit: also write the report here")
    parser.add_argument("--depth", type=int, default=5, help="head size rated per query")
    parser.add_argument("--items", type=int, default=30, help="first N heads (valid ones come first)")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    report = cmd_rate(args) if args.step == "rate" else cmd_fit(args)
    text = json.dumps(report, indent=2)
    if args.json:
        args.json.write_text(text + "\n")
    log.info("report:\n%s", text)
    return 0
