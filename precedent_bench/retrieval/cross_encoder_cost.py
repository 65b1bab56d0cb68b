"""CPU cost of a cross-encoder on a search's head (issue 28, item 3): process time per 10 pairs.

    index-builder train-reranker --data ../shared/data/acord --out var/ce-slice --max-pairs 64
    precedent-bench cross-encoder-cost --model var/ce-slice

The weights do not change the cost (the same MiniLM-L6 shape), so the 64-pair slice whose
training time was measured serves. One torch thread, as a served search gets; the corpus's
first clauses stand for the head (ACORD clauses: a few hundred tokens, cut at 256).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from index_builder.retrieve.cross_encoder import CrossEncoderReranker
from index_builder.settings import load_settings

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import ACORD, acord_corpus

QUERIES = ("cap on liability", "Termination for Convenience", "Most Favored Nation Clause")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--model", type=Path, default=Path("var/ce-slice"))
    parser.add_argument("--data", type=Path, default=ACORD)
    parser.add_argument("--head", type=int, default=10)


def run(args: argparse.Namespace) -> int:
    import torch  # here, not at the top: building every parser (tests/bench) needs no torch

    torch.set_num_threads(1)
    reranker = CrossEncoderReranker(args.model, load_settings().rerank)
    texts = [row["text"] for row in acord_corpus(args.data)[: 3 * args.head]]
    reranker.scores(QUERIES[0], texts[: args.head])  # warm-up
    cpu = []
    for query in QUERIES:
        for n in range(3):
            started = time.process_time()
            reranker.scores(query, texts[n * args.head:(n + 1) * args.head])
            cpu.append(1000 * (time.process_time() - started))
    print(f"CPU per search ({args.head} pairs, 1 thread): median {statistics.median(cpu):.0f} ms, "
          f"max {max(cpu):.0f} ms over {len(cpu)} heads")
    return 0
