"""Strict mode on the real agreements (issue 31): does a clause copied from one agreement find
every near copy across the library, and only those?

Three steps, in this order (the labels are written before any strict-mode setting is tried):

    precedent-bench strict labels --index var/contracts-index
    precedent-bench strict tune   --index var/contracts-index
    precedent-bench strict test   --index var/contracts-index --min-similarity X --depth N

Queries: every clause of at least 15 words in six source agreements chosen for their families
(two state restrictive covenants, Alabama and California; Common Paper's cloud service agreement
and mutual NDA; the Texas offer letter; Bonterms' mutual NDA), split by a hash of the clause id
into a tuning half and a held-out half.

Labels (the answer key, independent of the search): for each query, every other clause in the
index whose text, normalised (lower case, leading clause number dropped, anything but letters
and digits a space), has a *character-level* similarity (rapidfuzz ``fuzz.ratio``, the indel
ratio over characters) of at least 90 with the query's. Found by comparing the query with every
clause, not through any search, and at another granularity (characters) than strict mode
(words), so a mode that merely agrees with itself would not score well. "Identical": the
normalised texts are equal.

Scored: the clause ids strict mode returns (results and the identical copies folded under
them), the query's own clause left out; micro precision, recall and F1 over (query, clause)
pairs, and the share of queries whose every near copy was found. Searches go through the
served ``SearchPipeline`` (mode="strict"), the path /api/v1/precedents takes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import re
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
from rapidfuzz import fuzz, process

from index_builder.retrieve.pipeline import SearchRequest, build_pipeline
from index_builder.settings import load_settings

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import RESULTS
from precedent_bench.common.indexes import CONTRACTS_INDEX, all_clauses

OUT = RESULTS / "cursor"
LABELS = OUT / "strict_labels.json"
SOURCES = ("openagreements-restrictive-covenant-alabama", "openagreements-restrictive-covenant-california",
           "common-paper-cloud-service-agreement", "common-paper-mutual-nda",
           "openagreements-employment-offer-letter-texas", "bonterms-mutual-nda")
MIN_QUERY_WORDS = 15
LABEL_RATIO = 90.0
_NUMBER = re.compile(r"^\s*(?:(?:section|article|clause)\s+)?(?:\d+(?:\.\d+)*\.?|\(?[a-z]{1,4}\)|[a-z]\.)\s+", re.I)
_NON_WORD = re.compile(r"[^a-z0-9]+")


def normalise(text: str) -> str:
    return _NON_WORD.sub(" ", _NUMBER.sub("", text).lower()).strip()


def _all_clauses(pipeline: Any) -> list[Any]:
    return all_clauses(pipeline.backend)


def _pipeline(index: Path) -> Any:
    from index_builder.index import load_embedder

    settings = load_settings(None, {"index_dir": index})
    return build_pipeline(settings, load_embedder(settings.embedding))


def labels(args: argparse.Namespace) -> None:
    pipeline = _pipeline(args.index)
    clauses = _all_clauses(pipeline)
    texts = [normalise(c.text) for c in clauses]
    position = {c.clause_id: i for i, c in enumerate(clauses)}
    queries = [c for c in clauses if Path(c.source_path or c.doc_id).stem in SOURCES
               and len(c.text.split()) >= MIN_QUERY_WORDS]
    out: dict[str, Any] = {"label_ratio": LABEL_RATIO, "clauses": len(clauses), "queries": {}}
    for query in queries:
        mine = normalise(query.text)
        scores = process.cdist([mine], texts, scorer=fuzz.ratio, dtype=np.float32)[0]
        near = {clauses[i].clause_id: round(float(scores[i]), 1) for i in np.flatnonzero(scores >= LABEL_RATIO)
                if clauses[i].clause_id != query.clause_id}
        identical = sorted(cid for cid in near if texts[position[cid]] == mine)
        half = "tune" if int(hashlib.sha256(query.clause_id.encode()).hexdigest(), 16) % 2 == 0 else "held_out"
        out["queries"][query.clause_id] = {"half": half, "near": sorted(near), "identical": identical,
                                           "documents": len({clauses[position[c]].doc_id for c in near})}
    LABELS.parent.mkdir(parents=True, exist_ok=True)
    LABELS.write_text(json.dumps(out, indent=1, sort_keys=True))
    with_copies = sum(1 for q in out["queries"].values() if q["near"])
    print(f"{len(queries)} queries over {len(clauses)} clauses; {with_copies} have near copies; "
          f"{sum(len(q['near']) for q in out['queries'].values())} (query, copy) pairs -> {LABELS}")


def _run(pipeline: Any, half: str, min_similarity: float, depth: int) -> dict[str, list[tuple[str, float]]]:
    """For each query of ``half``: (clause id, similarity) of everything strict mode returned."""
    gold = json.loads(LABELS.read_text())["queries"]
    chosen = sorted(cid for cid, q in gold.items() if q["half"] == half)
    by_id = {c.clause_id: c for c in pipeline.backend.get(chosen) if c is not None}
    found: dict[str, list[tuple[str, float]]] = {}
    times = []
    for cid in chosen:
        started = time.perf_counter()
        outcome = pipeline.search(SearchRequest(text=by_id[cid].text, top_k=50, mode="strict",
                                                min_similarity=min_similarity, depth=depth, spans=False))
        times.append((time.perf_counter() - started) * 1000)
        found[cid] = [(h.clause.clause_id, r.match.similarity) for r in outcome.results
                      for h in [r.hit, *[v for v, _ in r.variants]]]
    found["__times__"] = [("", t) for t in times]
    return found


def score(found: dict[str, list[tuple[str, float]]], half: str, min_similarity: float, depth: int,
          key: str = "near") -> dict[str, Any]:
    """Micro precision/recall against the labels, keeping what reaches ``min_similarity``."""
    gold = json.loads(LABELS.read_text())["queries"]
    tp = fp = fn = complete = 0
    misses: list[dict[str, Any]] = []
    queries = [cid for cid in found if cid != "__times__"]
    for cid in queries:
        got = {other for other, sim in found[cid] if sim >= min_similarity and other != cid}
        near = set(gold[cid][key])
        tp += len(got & near)
        fp += len(got - near)
        fn += len(near - got)
        complete += near <= got
        if near - got or got - near:
            misses.append({"query": cid, "missed": sorted(near - got)[:5], "extra": sorted(got - near)[:5]})
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    times = [t for _, t in found["__times__"]]
    return {"half": half, "labels": key, "min_similarity": min_similarity, "depth": depth,
            "queries": len(queries), "pairs": tp + fn, "precision": round(precision, 4),
            "recall": round(recall, 4), "f1": round(f1, 4), "queries_all_found": complete,
            "median_ms": round(statistics.median(times), 1),
            "p95_ms": round(float(np.percentile(times, 95)), 1), "disagreements": misses[:15]}


def _line(r: dict[str, Any]) -> str:
    return (f"{r['half']:8s} [{r['labels']}] t={r['min_similarity']:.2f} depth={r['depth']:4d}  "
            f"P {r['precision']:.3f}  R {r['recall']:.3f}  F1 {r['f1']:.3f}  all found "
            f"{r['queries_all_found']}/{r['queries']}  median {r['median_ms']} ms, p95 {r['p95_ms']} ms")


def tune(args: argparse.Namespace) -> None:
    """Tuning half only. One strict run per depth at the lowest level tried; the higher levels
    keep what reaches them (the same results the pipeline returns at that level, as its
    similarities do not depend on the level; the held-out run calls the pipeline itself)."""
    pipeline = _pipeline(args.index)
    rows = []
    for depth in (100, 300, 600):
        found = _run(pipeline, "tune", 0.7, depth)
        rows += [score(found, "tune", t, depth) for t in (0.7, 0.75, 0.8, 0.85, 0.9, 0.95)]
    for r in rows:
        print(_line(r))
    best = max(rows, key=lambda r: (r["f1"], -r["depth"], r["min_similarity"]))
    print("best on the tuning half:", _line(best))
    (OUT / "strict_tune.json").write_text(json.dumps({"rows": rows, "best": best}, indent=1))


def test(args: argparse.Namespace) -> None:
    """The held-out half, looked at once, with the chosen level and depth through the pipeline."""
    pipeline = _pipeline(args.index)
    rows = [score(_run(pipeline, "held_out", args.min_similarity, args.depth), "held_out",
                  args.min_similarity, args.depth)]
    # The same words only (1.0), scored against the identical labels.
    rows.append(score(_run(pipeline, "held_out", 1.0, args.depth), "held_out", 1.0, args.depth,
                      key="identical"))
    for r in rows:
        print(_line(r))
    (OUT / "strict_held_out.json").write_text(json.dumps(rows, indent=1))


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("step", choices=("labels", "tune", "test"))
    parser.add_argument("--index", type=Path, default=CONTRACTS_INDEX)
    parser.add_argument("--min-similarity", type=float, default=0.8)
    parser.add_argument("--depth", type=int, default=300)


def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.WARNING)
    {"labels": labels, "tune": tune, "test": test}[args.step](args)
