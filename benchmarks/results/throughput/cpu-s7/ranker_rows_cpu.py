"""The learned ranker's feature rows: CPU of this tree's extractor against a frozen tree's,
on the same captured pools, and the rows compared bit for bit (issue 39, session 7).

The fused pools (100 candidates) of never-seen short texts are captured once from the
served pipeline (ranker off, so the pool is the one the ranker is handed); then each
extractor builds every pool's rows, rounds interleaved (A B B A ...), timed with
time.thread_time. Each extractor keeps its own clause-terms cache, warmed by a first pass.
    python benchmarks/results/throughput/cpu-s7/ranker_rows_cpu.py INDEX OLD_TREE TEXTS ROUNDS
"""
import importlib.util, logging, sys, time
from dataclasses import replace
from pathlib import Path

import numpy as np

from index_builder.index.batcher import query_embedder
from index_builder.retrieve import ltr
from index_builder.retrieve.pipeline import SearchRequest, build_pipeline
from index_builder.settings import load_settings
from precedent_bench.unseen import library_texts, unseen

logging.disable(logging.WARNING)
index, old_tree, count, rounds = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
spec = importlib.util.spec_from_file_location("old_ltr", old_tree / "index_builder/retrieve/ltr.py")
old = importlib.util.module_from_spec(spec); sys.modules["old_ltr"] = old; spec.loader.exec_module(old)
settings = load_settings(overrides={"index_dir": index, "acord_dir": Path("/work/shared/data/acord")})
embedder = query_embedder(settings.embedding)
plain = build_pipeline(replace(settings, retrieval=replace(settings.retrieval, ranker="none")), embedder)
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", count, seed=71)
pools = [(t, plain.candidates(t, [], SearchRequest(text=t), 10)) for t in texts]
extractors = {"A": old.FeatureExtractor(plain.expander, settings.retrieval.rrf_k),
              "B": ltr.FeatureExtractor(plain.expander, settings.retrieval.rrf_k)}
same = 0
for t, pool in pools:  # warms both caches; the rows bit for bit
    a, b = extractors["A"](t, pool), extractors["B"](t, pool)
    same += a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))
print("pools", len(pools), "sizes", min(len(p) for _, p in pools), max(len(p) for _, p in pools),
      "rows identical bit for bit in", same, "of", len(pools))
cpu = {"A": 0.0, "B": 0.0}
for r in range(rounds):
    for name in ("AB" if r % 2 == 0 else "BA"):
        began = time.thread_time()
        for t, pool in pools:
            extractors[name](t, pool)
        cpu[name] += time.thread_time() - began
print(time.strftime("%H:%M UTC", time.gmtime()), f"{count} pools x {rounds} rounds",
      {k: round(v * 1000 / count / rounds, 3) for k, v in cpu.items()}, "ms CPU a pool's rows")
