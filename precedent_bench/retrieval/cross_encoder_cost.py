"""CPU cost of a cross-encoder on a search's head (issue 28, item 3): process time per 10 pairs.

    index-builder train-reranker --data ../shared/data/acord --out var/ce-slice --max-pairs 64
    python benchmarks/cross_encoder_cost.py --model var/ce-slice

The weights do not change the cost (the same MiniLM-L6 shape), so the 64-pair slice whose
training time was measured serves. One torch thread, as a served search gets; the corpus's
first clauses stand for the head (ACORD clauses: a few hundred tokens, cut at 256).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import torch

from index_builder.retrieve.cross_encoder import CrossEncoderReranker
from index_builder.settings import load_settings

QUERIES = ("cap on liability", "Termination for Convenience", "Most Favored Nation Clause")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=Path("var/ce-slice"))
    parser.add_argument("--data", type=Path, default=Path("../shared/data/acord"))
    parser.add_argument("--head", type=int, default=10)
    args = parser.parse_args()
    torch.set_num_threads(1)
    reranker = CrossEncoderReranker(args.model, load_settings().rerank)
    lines = (args.data / "corpus.jsonl").read_text().splitlines()[: 3 * args.head]
    texts = [json.loads(line)["text"] for line in lines]
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


if __name__ == "__main__":
    raise SystemExit(main())
