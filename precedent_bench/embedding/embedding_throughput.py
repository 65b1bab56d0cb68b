"""Embedding throughput of the backends side by side in one run, and ACORD NDCG@5 of each.

Usage (from the repo root):
    nice -n 10 precedent-bench embedding-throughput [--backends torch,onnx,onnx-int8]
        [--limit 3931] [--chunk 256] [--out benchmarks/results/embedding-throughput/embedding_throughput.json]

A variant is ``backend[:threads=N][:seq=N][:batch=N][:model=NAME]``: e.g. ``torch,onnx-int8:threads=2:seq=128`` times
today's default (torch, 256 tokens) against int8 ONNX on two threads reading 128 tokens.

Every backend embeds the same ACORD clauses (the first --limit of them; all 3,931 by default).
The texts are cut into chunks and each chunk is embedded by every backend in turn (the order
rotating chunk by chunk), so a change in the load of a shared machine hits all backends alike;
the ratio is total time against total time. NDCG needs every clause: the rest are embedded
untimed, or taken from --reuse INDEX when that index was built with the same variant. Then each
variant embeds the queries of every shape (short, medium and long wording; a 5-star clause as
the query) of train and valid (never test: choices are made here) and ranks all clauses by
cosine: dense NDCG@5/10 with the paper's conventions (index_builder.evaluate.evaluation), query
and clause vectors always from the same variant. A row "holds" when it is --target-speedup
times the first backend (the plain loop) and loses at most --max-drop NDCG@5 on every shape
of every split. Load averages are recorded beside the timings.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from index_builder.evaluate.acord import Acord, load_acord
from index_builder.evaluate.evaluation import eval_queries, score_runs
from index_builder.index.documents import read_beir_corpus
from index_builder.index import load_embedder
from index_builder.index.embedder import Embedder
from index_builder.settings import EmbeddingSettings, load_settings

from precedent_bench.catalogue import require, subparser
from precedent_bench.common.data import ACORD, RESULTS

log = logging.getLogger("benchmark.embedding")


def interleaved_timing(embedders: Mapping[str, Embedder], texts: Sequence[str], chunk: int
                       ) -> tuple[dict[str, float], dict[str, np.ndarray]]:
    """Seconds each embedder spent on ``texts``, chunk by chunk in rotating order, and the vectors."""
    names = list(embedders)
    seconds = {name: 0.0 for name in names}
    parts: dict[str, list[np.ndarray]] = {name: [] for name in names}
    for n, start in enumerate(range(0, len(texts), chunk)):
        batch = list(texts[start:start + chunk])
        for name in names[n % len(names):] + names[:n % len(names)]:
            began = time.perf_counter()
            parts[name].append(embedders[name].embed(batch))
            seconds[name] += time.perf_counter() - began
        log.info("chunk %d: %d of %d texts (load %.1f)", n + 1, start + len(batch), len(texts),
                 os.getloadavg()[0])
    return seconds, {name: np.concatenate(parts[name]) for name in names}


def dense_runs(doc_ids: Sequence[str], doc_vectors: np.ndarray, query_ids: Sequence[str],
               query_vectors: np.ndarray, depth: int) -> dict[str, list[str]]:
    """Clause ids ranked by inner product (cosine for normalised vectors), best first."""
    scores = query_vectors @ doc_vectors.T
    depth = min(depth, len(doc_ids))
    runs = {}
    for qid, row in zip(query_ids, scores):
        top = np.argpartition(-row, depth - 1)[:depth]
        top = top[np.lexsort((top, -row[top]))]  # ties broken by position: deterministic
        runs[qid] = [doc_ids[i] for i in top]
    return runs


def shape_ndcg(acord: Acord, split: str, forms: Sequence[str], embedder: Embedder,
               doc_ids: Sequence[str], doc_vectors: np.ndarray, depth: int) -> dict[str, dict]:
    """Dense NDCG of one split for each query shape: a wording (short, medium, long) or "clause".

    A clause-as-query query is a 5-star clause's own text (what the add-in sends for a selected
    paragraph): its vector is the clause's, already embedded by the same variant, and the clause
    itself is not judged for its own query (eval_queries), so finding itself scores nothing.
    """
    corpus = dict(zip(doc_ids, doc_vectors))
    parts = split.split("+")  # "train+valid": both splits' queries pooled into one mean
    results = {}
    for form in forms:
        if form == "clause":
            texts = {c: "" for c in doc_ids}
            queries = [q for part in parts for q in eval_queries(acord, part, mode="clause", corpus=texts)]
            query_vectors = np.stack([corpus[q.exclude] for q in queries])
        else:
            queries = [q for part in parts for q in eval_queries(acord, part, form)]
            query_vectors = embedder.embed([q.text for q in queries])
        runs = dense_runs(doc_ids, doc_vectors, [q.query_id for q in queries], query_vectors, depth)
        results[form] = score_runs(queries, runs).overall
    return results


def verdict(row: dict, reference: dict, target: float, max_drop: float) -> dict:
    """Whether a variant holds: the target speedup, and no shape of any split more than
    ``max_drop`` NDCG@5 points below the reference (the plain loop)."""
    drops = {f"{split}/{form}": round(reference["ndcg@5_by_split"][split][form] - value, 2)
             for split, forms in row["ndcg@5_by_split"].items() for form, value in forms.items()}
    if not drops:  # timing only: quality not measured, so no verdict
        return {"ndcg@5_drop": {}, "worst_drop": None, "holds": None}
    worst = max(drops.values())
    return {"ndcg@5_drop": drops, "worst_drop": worst,
            "holds": row["speedup"] >= target and worst <= max_drop}


def agreement(vectors: np.ndarray, reference: np.ndarray) -> dict[str, float]:
    """Cosine of each vector to the reference vector of the same text."""
    cos = (vectors * reference).sum(axis=1)
    return {"mean": round(float(cos.mean()), 5), "min": round(float(cos.min()), 5),
            "p01": round(float(np.quantile(cos, 0.01)), 5)}


def _stored_vectors(index_dir: Path) -> tuple[str, dict[str, np.ndarray]]:
    """Clause vectors of an existing ACORD index and the model id that made them."""
    from index_builder.index.store import load_index

    index = load_index(index_dir)
    return index.model_id, {c.clause_id: index.embeddings[i] for i, c in enumerate(index.clauses)}


def _whole_corpus(embedder: Embedder, clauses: Sequence, timed: np.ndarray,
                  stored: tuple[str, dict[str, np.ndarray]] | None, same_seq: bool) -> np.ndarray:
    """Vectors of every clause for NDCG: the timed ones, then the rest (untimed)."""
    rest = clauses[len(timed):]
    if not rest:
        return timed
    if stored and stored[0] == embedder.model_id and same_seq \
            and all(c.clause_id in stored[1] for c in rest):
        log.info("%s: the other %d clause vectors from the stored index", embedder.model_id, len(rest))
        extra = np.stack([stored[1][c.clause_id] for c in rest])
    else:
        log.info("%s: embedding the other %d clauses for NDCG (untimed)", embedder.model_id, len(rest))
        extra = embedder.embed([c.text for c in rest])
    return np.concatenate([timed, extra.astype(np.float32)])


def variant_settings(base: EmbeddingSettings, spec: str, threads: int) -> EmbeddingSettings:
    """Embedding settings for ``backend[:threads=N][:seq=N][:batch=N][:model=NAME]`` (the rest
    from ``base``); NAME is a model alias or folder, e.g. the distilled student."""
    backend, *options = spec.split(":")
    values: dict[str, int | str] = {"threads": threads}
    for option in options:
        key, _, value = option.partition("=")
        if key not in ("threads", "seq", "batch", "model"):
            raise SystemExit(f"unknown variant option {key!r} in {spec!r}: use threads, seq, batch or model")
        values[key] = value if key == "model" else int(value)
    return replace(base, backend=backend, threads=int(values["threads"]),
                   max_seq_length=int(values.get("seq", base.max_seq_length)),
                   batch_size=int(values.get("batch", base.batch_size)),
                   model=str(values.get("model", base.model)))


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    backends = args.backends.split(",")
    if any(b.startswith("openvino") for b in backends):
        require("openvino", "embedding-throughput", "an OpenVINO backend")
    settings = load_settings(overrides={"acord_dir": args.data})
    clauses = read_beir_corpus(Path(args.data) / "corpus.jsonl", "acord")
    texts = [c.text for c in clauses][: args.limit or None]
    stored = _stored_vectors(Path(args.reuse)) if args.reuse else None
    embedders: dict[str, Embedder] = {}
    configs: dict[str, EmbeddingSettings] = {}
    load_s = {}
    for backend in backends:
        began = time.perf_counter()
        configs[backend] = variant_settings(settings.embedding, backend, args.threads)
        embedders[backend] = load_embedder(configs[backend])
        embedders[backend].embed(texts[:8])  # warm-up: first-call allocations are not throughput
        load_s[backend] = round(time.perf_counter() - began, 1)
    load_before = os.getloadavg()
    began = time.perf_counter()
    seconds, vectors = interleaved_timing(embedders, texts, args.chunk)
    wall = time.perf_counter() - began
    load_after = os.getloadavg()

    acord = load_acord(Path(args.data))
    splits = [split for split in args.split.split(",") if split]  # none: timing only
    doc_ids = [c.clause_id for c in clauses]
    reference = backends[0]
    rows = []
    for backend in backends:
        same_seq = configs[backend].max_seq_length == settings.embedding.max_seq_length
        if splits:
            vectors[backend] = _whole_corpus(embedders[backend], clauses, vectors[backend], stored,
                                             same_seq)
        by_split = {split: shape_ndcg(acord, split, args.forms.split(","), embedders[backend],
                                      doc_ids, vectors[backend], args.depth)
                    for split in splits}
        rows.append({
            "backend": backend, "model_id": embedders[backend].model_id,
            "seconds": round(seconds[backend], 1),
            "clauses_per_s": round(len(texts) / seconds[backend], 2),
            "speedup": round(seconds[reference] / seconds[backend], 2),
            "ndcg@5_by_split": {split: {form: round(v["ndcg@5"], 2) for form, v in forms.items()}
                                for split, forms in by_split.items()},
            "ndcg@10_by_split": {split: {form: round(v["ndcg@10"], 2) for form, v in forms.items()}
                                 for split, forms in by_split.items()},
            "cosine_to_" + reference: agreement(vectors[backend][: len(texts)],
                                                vectors[reference][: len(texts)]),
            "load_s": load_s[backend],
        })
        log.info("%s: %.1f clauses/s, x%.2f, dense NDCG@5 %s", backend, rows[-1]["clauses_per_s"],
                 rows[-1]["speedup"], rows[-1]["ndcg@5_by_split"])
    for row in rows:
        row.update(verdict(row, rows[0], args.target_speedup, args.max_drop))
    report = {"texts": len(texts), "corpus": len(clauses), "reuse": args.reuse, "chunk": args.chunk, "split": args.split, "forms": args.forms,
              "batch_size": settings.embedding.batch_size, "threads": args.threads,
              "cpus": os.cpu_count(), "wall_s": round(wall, 1),
              "loadavg_before": [round(x, 2) for x in load_before],
              "loadavg_after": [round(x, 2) for x in load_after],
              "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "rows": rows}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    log.info("Wrote %s", args.out)
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--data", default=str(ACORD))
    parser.add_argument("--backends", default="torch,onnx,onnx-int8",
                        help="comma-separated; the first is the reference for speedup and cosine")
    parser.add_argument("--limit", type=int, default=0, help="first N clauses only (0 = all)")
    parser.add_argument("--chunk", type=int, default=256)
    parser.add_argument("--threads", type=int, default=1,
                        help="ONNX Runtime threads (0 = one per core; 1 = the setting's default)")
    parser.add_argument("--reuse", default="", help="an ACORD index whose vectors stand in for "
                        "its own model's untimed clauses (--limit runs only)")
    parser.add_argument("--split", default="train,valid,train+valid",
                        help="comma-separated splits for NDCG, a+b pooled, '' for timing only (choices are made on "
                        "train and valid only: valid has 6 queries, so the pooled mean is the steadier)")
    parser.add_argument("--forms", default="short,medium,long,clause",
                        help="query shapes: wordings short, medium, long, and clause (clause as query)")
    parser.add_argument("--target-speedup", type=float, default=3.0)
    parser.add_argument("--max-drop", type=float, default=0.5,
                        help="largest NDCG@5 loss against the first backend allowed on any shape")
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--out", default=str(RESULTS / "embedding-throughput" / "embedding_throughput.json"))
