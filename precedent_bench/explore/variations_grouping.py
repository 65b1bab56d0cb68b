"""Variation explorer on the real agreements (issue 12, point 2): wordings, documents, time.

Reads every .docx under ``--data`` into clauses (the index builder's reader), embeds them
with the configured model (cached in ``--cache``), and for a few queries (whole clauses of
the Texas restrictive-covenant agreement, clauses of other forms, short phrases) takes every
clause at least ``min_score`` similar (dense cosine) and groups it with
``index_builder.retrieve.variations.explore``: how many major variations ("wordings"),
minor variations and documents a lawyer would see, and how long grouping takes. It then
times grouping of exactly 500 matches: the 500 nearest clauses to a query (many near copies)
and 500 clauses drawn at random (mostly distinct wordings: the most comparisons).

    precedent-bench variations   (a few minutes the first time: embedding)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import random
import statistics
import time
from pathlib import Path

import numpy as np

from index_builder.index.embedder import SentenceTransformerEmbedder
from index_builder.model import Clause, SearchHit
from index_builder.retrieve.variations import explore
from index_builder.settings import load_settings

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import CONTRACTS, RESULTS, agreement_clauses

log = logging.getLogger("variations_grouping")
CACHE = Path("var/bench/contracts-minilm.npy")  # the agreements' vectors, shared with spans_compare.py

# (label, document stem, section number) for clause queries; phrases are typed queries.
CLAUSE_QUERIES = (
    ("non-compete (Texas RCA s.10)", "openagreements-restrictive-covenant-texas", "10"),
    ("employee non-solicit (Texas RCA s.7)", "openagreements-restrictive-covenant-texas", "7"),
    ("governing law (Texas RCA s.21)", "openagreements-restrictive-covenant-texas", "21"),
    ("liability caps (Common Paper CSA s.8.1)", "common-paper-cloud-service-agreement", "8.1"),
)
PHRASES = ("non-compete after employment ends", "confidentiality obligations", "limitation of liability")


def embed(clauses: list[Clause], settings, cache: Path):  # type: ignore[no-untyped-def]
    digest = hashlib.sha256("\n\x00".join(c.text for c in clauses).encode()).hexdigest()[:16]
    path = cache.with_name(f"{cache.stem}-{digest}.npy")
    if path.is_file():
        return np.load(path, allow_pickle=False), None
    embedder = SentenceTransformerEmbedder(settings.embedding)
    vectors = embedder.embed([c.text for c in clauses])
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors, allow_pickle=False)
    return vectors, embedder


def matches(clauses: list[Clause], vectors: np.ndarray, query: np.ndarray, min_score: float,
            limit: int) -> list[SearchHit]:
    scores = vectors @ query
    order = np.argsort(-scores, kind="stable")[:limit]
    return [SearchHit(clauses[i], float(scores[i]), rank) for rank, i in enumerate(order, 1)
            if scores[i] >= min_score]


def timed(hits: list[SearchHit], major: float, minor: float, repeats: int = 5) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = explore(hits, major, minor)
        times.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(times), 1), result


def summary(result) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return {"matches": result.matches, "wordings": len(result.majors),
            "minor_variations": result.minor_count, "documents": len(result.documents),
            "top_majors": [{"count": m.count, "documents": len(m.documents),
                            "minors": len(m.minors),
                            "representative": m.representative.clause.clause_id,
                            "heading": m.representative.clause.heading,
                            "score": round(m.representative.score, 3)}
                           for m in result.majors[:5]]}


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--data", type=Path, default=CONTRACTS)
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--out", type=Path, default=RESULTS / "explore" / "variations_grouping.json")


def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    for noisy in ("sentence_transformers", "index_builder"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    settings = load_settings()
    r = settings.retrieval
    major, minor = r.explorer_major_threshold, r.explorer_minor_threshold
    clauses = agreement_clauses(args.data)
    vectors, embedder = embed(clauses, settings, args.cache)
    docs = len({c.doc_id for c in clauses})
    log.info("%d clauses from %d documents", len(clauses), docs)
    by_section = {(c.doc_id, c.section): i for i, c in enumerate(clauses)}
    queries: list[tuple[str, np.ndarray]] = []
    for label, doc, section in CLAUSE_QUERIES:
        if (doc, section) in by_section:
            queries.append((label, vectors[by_section[doc, section]]))
        else:
            log.warning("No section %s in %s: query skipped", section, doc)
    if PHRASES:
        embedder = embedder or SentenceTransformerEmbedder(settings.embedding)
        queries += [(f"phrase: {p}", row) for p, row in zip(PHRASES, embedder.embed(list(PHRASES)))]

    per_query, floors = {}, {}
    for label, query in queries:
        # The server's default floor: a whole clause as the query gets the clause floor.
        floor = r.explorer_min_score if label.startswith("phrase") else r.explorer_min_score_clause
        floors[label] = {}
        for other in (0.5, 0.6, 0.7, 0.8):
            _, swept = timed(matches(clauses, vectors, query, other, r.explorer_max_matches),
                             major, minor, 1)
            floors[label][str(other)] = {k: v for k, v in summary(swept).items() if k != "top_majors"}
        hits = matches(clauses, vectors, query, floor, r.explorer_max_matches)
        ms, result = timed(hits, major, minor)
        per_query[label] = {**summary(result), "min_score": floor, "grouping_ms": ms}
        log.info("%s: %s", label, {k: v for k, v in per_query[label].items() if k != "top_majors"})

    label, query = queries[0]
    sweep = {}
    for major_t in (0.5, 0.6, 0.7, 0.8, 0.9):
        for minor_t in (0.9, 0.95, 1.0):
            if minor_t >= major_t:
                _, result = timed(matches(clauses, vectors, query, r.explorer_min_score_clause, 500),
                                  major_t, minor_t, 1)
                sweep[f"major {major_t} / minor {minor_t}"] = {
                    k: v for k, v in summary(result).items() if k != "top_majors"}

    nearest = matches(clauses, vectors, query, -1.0, 500)
    randomly = [SearchHit(c, 0.0, i) for i, c in
                enumerate(random.Random(12).sample(clauses, min(500, len(clauses))), 1)]
    timing = {}
    for name, hits in (("500 nearest to the non-compete", nearest), ("500 random clauses", randomly)):
        ms, result = timed(hits, major, minor)
        timing[name] = {"grouping_ms": ms, "wordings": len(result.majors),
                        "minor_variations": result.minor_count}
        log.info("%s: %s", name, timing[name])
    out = {"corpus": {"documents": docs, "clauses": len(clauses), "model": settings.embedding.model},
           "settings": {"min_score_phrase": r.explorer_min_score,
                        "min_score_clause": r.explorer_min_score_clause, "major_threshold": major,
                        "minor_threshold": minor, "max_matches": r.explorer_max_matches},
           "queries": per_query, "relevance_floor_sweep": floors, "threshold_sweep_first_query": sweep, "timing_500": timing}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2) + "\n")
    log.info("Wrote %s", args.out)
