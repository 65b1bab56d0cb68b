"""CPU of the learned ranker alone (features, LightGBM, reorder) by head, on captured pools.

The fused pools (100 candidates) of never-seen short texts are captured once from the served
pipeline; then each pool is rescored by every head in turn, rounds interleaved, timed with
time.thread_time (issue 39, session 6).
    python benchmarks/results/throughput/cpu-s6/head_rescore_cpu.py INDEX TEXTS ROUNDS HEADS
"""
import logging, sys, time
from dataclasses import replace
from pathlib import Path

from index_builder.index.batcher import query_embedder
from index_builder.retrieve.ltr import load_ranker, ranker_folder
from index_builder.retrieve.pipeline import SearchRequest, build_pipeline
from index_builder.settings import load_settings
from precedent_bench.unseen import library_texts, unseen

logging.disable(logging.WARNING)
index, count, rounds = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
heads = [int(h) for h in sys.argv[4].split(",")]
settings = load_settings(overrides={"index_dir": index, "acord_dir": Path("/work/shared/data/acord")})
embedder = query_embedder(settings.embedding)
plain = build_pipeline(replace(settings, retrieval=replace(settings.retrieval, ranker="none")), embedder)
folder = ranker_folder(settings.retrieval.ranker)
rankers = {h: load_ranker(folder, plain.expander, settings.retrieval.rrf_k, h) for h in heads}
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", count, seed=62)
pools = [(t, plain.candidates(t, [], SearchRequest(text=t), 10)) for t in texts]
print("pool sizes", min(len(p) for _, p in pools), max(len(p) for _, p in pools))
cpu = {h: 0.0 for h in heads}
for r in range(rounds):
    for h in heads[r % len(heads):] + heads[:r % len(heads)]:
        began = time.thread_time()
        for t, pool in pools:
            rankers[h].rescore_with_rows(t, pool)
        cpu[h] += time.thread_time() - began
print(time.strftime("%H:%M UTC", time.gmtime()), f"{count} pools x {rounds} rounds",
      {h: round(cpu[h] * 1000 / count / rounds, 3) for h in heads}, "ms CPU a rescore")
