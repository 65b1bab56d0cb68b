"""`precedent-bench query-model`: does a cheaper query model keep the served ranking? (issue 39)

    precedent-bench query-model --index var/acord-index --twin openvino-int8 \\
        --out benchmarks/results/throughput

The index stays as built (its own model's vectors); only the queries are embedded one way
(A: the index's own model) or the other (B: ``--twin``, a quantised or re-hosted copy of the
same weights). Every query goes through the served pipeline (expansion, dense + BM25, the
learned ranker, folding: ``index-builder eval``'s path, 1,000 deep), on ACORD **train and
valid** only (test is never opened here), in every shape a lawyer sends: the short, medium
and long wordings, a 5-star clause as the query, and the own drafts (benchmarks/owndraft:
57 written fresh, and the synthetic drafts when ``drafts.py make`` has written them).
Per shape: NDCG@5 of A and B, the paired difference B - A with its 95% bootstrap interval
(queries resampled), how many queries moved at all, and the cosine of the two query vectors.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from index_builder.evaluate.acord import load_acord
from index_builder.evaluate.evaluation import EvalQuery, eval_queries, score_ranking
from index_builder.evaluate.runner import EvalConfig, acord_clauses, eval_pipeline, eval_search
from index_builder.settings import load_settings
from precedent_bench.retrieval.ltr_data import draft_queries

log = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parents[1]
SPLITS = ("train", "valid")  # never test
SHAPES = ("short", "medium", "long", "clause", "fresh", "synth")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("query-model", help="NDCG@5 of the served pipeline with queries embedded by "
                                           "the index's model vs a twin (ACORD train+valid, own drafts)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--index", type=Path, default=Path("var/acord-index"))
    p.add_argument("--acord", type=Path, default=REPO.parent / "shared/data/acord")
    p.add_argument("--twin", default="openvino-int8", help="PRECEDENT_QUERY_EMBEDDING value for B")
    p.add_argument("--shapes", default=",".join(SHAPES))
    p.add_argument("--baseline", default="index",
                   help="PRECEDENT_QUERY_EMBEDDING value for A (default: the index's own model)")
    p.add_argument("--input-shapes", nargs=2, metavar=("A", "B"),
                   help="PRECEDENT_QUERY_SHAPES for A and B (e.g. off 1x16,1x32): the same model "
                        "with and without fixed input shapes")
    p.add_argument("--out", type=Path, help="folder for query-model-<twin>.json and .md")
    p.set_defaults(handler="precedent_bench.query_model:run_command", ab=False)


def queries(acord_dir: Path, shape: str) -> list[EvalQuery]:
    acord = load_acord(acord_dir)
    out: list[EvalQuery] = []
    for split in SPLITS:
        if shape in ("fresh", "synth"):
            out += draft_queries(acord, split, shape)
        elif shape == "clause":
            corpus = {c.clause_id: c.text for c in acord_clauses(acord_dir)}
            out += eval_queries(acord, split, mode="clause", corpus=corpus)
        else:
            out += eval_queries(acord, split, wording=shape)
    return out


def run_command(args: argparse.Namespace) -> int:
    from index_builder.index.batcher import query_embedder
    from precedent_bench.stats import paired_interval

    # Every shape's queries first: a missing own-draft file stops the run before an hour of
    # searches, not after them (the results are written only at the end).
    shapes = {shape: queries(args.acord, shape) for shape in args.shapes.split(",") if shape}
    settings = load_settings(overrides={"index_dir": args.index, "acord_dir": args.acord})
    variants = {"A": replace(settings.embedding, query_backend=args.baseline),
                "B": replace(settings.embedding, query_backend=args.twin)}
    if args.input_shapes:
        variants = {k: replace(v, query_shapes=shapes)
                    for (k, v), shapes in zip(variants.items(), args.input_shapes)}
    result_shapes = {k: v.query_shapes for k, v in variants.items()} if args.input_shapes else None
    embedders = {k: query_embedder(v, command=True) for k, v in variants.items()}
    config = EvalConfig(split="train+valid")
    searches = {k: eval_search(eval_pipeline(settings, config, e), config) for k, e in embedders.items()}
    result: dict[str, Any] = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                              "index": str(args.index), "splits": list(SPLITS),
                              "models": {k: e.model_id for k, e in embedders.items()}, "shapes": {},
                              **({"input_shapes": result_shapes} if result_shapes else {})}
    for shape, items in shapes.items():
        per_query: dict[str, dict[str, float]] = {}
        for item in items:
            scores = {}
            for name in ("A", "B"):
                ranking = [h.clause.clause_id for h in searches[name](item.text)
                           if h.clause.clause_id != item.exclude]
                scores[name] = score_ranking(ranking, item.judged)["ndcg@5"]  # already x 100
            vectors = [embedders[k].embed([item.text])[0] for k in ("A", "B")]
            per_query[item.query_id] = {**scores, "cosine": float(np.dot(*vectors))}
        result["shapes"][shape] = summarise(per_query, paired_interval)
        log.info("%s: %s", shape, {k: v for k, v in result["shapes"][shape].items() if k != "per_query"})
    table = report(result, args.twin)
    name = args.twin if not args.input_shapes else f"{args.twin}-shapes"
    sys.stdout.write(table + "\n")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"query-model-{name}.json").write_text(json.dumps(result, indent=1))
        (args.out / f"query-model-{name}.md").write_text(table + "\n")
    for embedder in embedders.values():
        close = getattr(embedder, "close", None)
        if close:
            close()
    return 0


def summarise(per_query: Mapping[str, Mapping[str, float]], interval: Any) -> dict[str, Any]:
    a = [q["A"] for q in per_query.values()]
    b = [q["B"] for q in per_query.values()]
    delta, low, high = interval([y - x for x, y in zip(a, b)])
    cosines = [q["cosine"] for q in per_query.values()]
    return {"n": len(a), "ndcg5_a": round(float(np.mean(a)), 2) if a else None,
            "ndcg5_b": round(float(np.mean(b)), 2) if b else None,
            "delta": round(delta, 2), "low": round(low, 2), "high": round(high, 2),
            "moved": sum(abs(y - x) > 1e-9 for x, y in zip(a, b)),
            "cosine_mean": round(float(np.mean(cosines)), 5) if cosines else None,
            "cosine_min": round(float(np.min(cosines)), 5) if cosines else None,
            "per_query": dict(per_query)}


def report(result: Mapping[str, Any], twin: str) -> str:
    shapes = result.get("input_shapes")
    a = (f"{result['models']['A']} (input shapes {shapes['A']})" if shapes
         else f"{result['models']['A']} (the index's own)")
    b = f"{result['models']['B']}" + (f" (input shapes {shapes['B']})" if shapes else "")
    lines = [f"Query model A = {a} vs B = {b}, "
             f"{result['when']}; served pipeline, ACORD {' + '.join(result['splits'])}, index "
             f"{result['index']}; NDCG@5 x 100, B - A with its 95% paired bootstrap interval.", "",
             "| query shape | queries | NDCG@5 A | NDCG@5 B | B - A [95% interval] | queries whose NDCG@5 moved | "
             "query-vector cosine, mean (min) | within 0.5 |",
             "|---|---|---|---|---|---|---|---|"]
    for shape, s in result["shapes"].items():
        within = "yes" if s["n"] and abs(s["delta"]) <= 0.5 else "no"
        lines.append(f"| {shape} | {s['n']} | {s['ndcg5_a']} | {s['ndcg5_b']} | {s['delta']:+.2f} "
                     f"[{s['low']:+.2f}, {s['high']:+.2f}] | {s['moved']} | {s['cosine_mean']} "
                     f"({s['cosine_min']}) | {within} |")
    return "\n".join(lines)
