"""Matching spans (issue 12, point 3): the lexical scorer against the dense one, and their cost.

No span-level judgments exist for the agreements, so this measures agreement: for typed
queries, the 10 nearest clauses each (MiniLM), how often the lexical scorer's window is the
dense scorer's, or overlaps it, and how long each takes. Reuses the clauses and the vector
cache of `precedent-bench variations` (run that first).

    precedent-bench spans
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

import numpy as np

from index_builder.index.embedder import SentenceTransformerEmbedder
from index_builder.retrieve.spans import best_spans
from index_builder.settings import load_settings

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import CONTRACTS, agreement_clauses
from precedent_bench.explore.variations_grouping import CACHE, embed

log = logging.getLogger("spans_compare")
QUERIES = ("non-compete after employment ends", "limitation of liability",
           "return of confidential information", "assignment of inventions to the company",
           "termination for convenience", "governing law and venue")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--data", type=Path, default=CONTRACTS)
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--top", type=int, default=10)


def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("sentence_transformers").setLevel(logging.WARNING)
    settings = load_settings()
    clauses = agreement_clauses(args.data)
    vectors, _ = embed(clauses, settings, args.cache)
    embedder = SentenceTransformerEmbedder(settings.embedding)
    counts = {"results": 0, "long": 0, "same": 0, "overlap": 0, "dense_ms": 0.0, "lexical_ms": 0.0}
    for query in QUERIES:
        row = embedder.embed([query])
        texts = [clauses[i].text for i in np.argsort(-(vectors @ row[0]))[:args.top]]
        started = time.perf_counter()
        dense = best_spans(row, texts, embedder)
        counts["dense_ms"] += (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        lexical = best_spans(None, texts, None, scorer="lexical", query_texts=[query])
        counts["lexical_ms"] += (time.perf_counter() - started) * 1000
        for a, b in zip(dense, lexical):
            counts["results"] += 1
            if a:
                counts["long"] += 1
                counts["same"] += bool(b) and (a[0].start, a[0].end) == (b[0].start, b[0].end)
                counts["overlap"] += bool(b) and a[0].start < b[0].end and b[0].start < a[0].end
    log.info("%s", json.dumps({**{k: round(v, 1) for k, v in counts.items()}, "queries": len(QUERIES)}))
