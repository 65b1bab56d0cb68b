"""Request-thread CPU of the search pipeline by learned-ranker head (issue 39, session 6).

One process, the served pipeline (spans on, no LLM), never-seen short texts; each text is
searched by every head in turn (rotating which goes first), timed with time.thread_time.
    python benchmarks/results/throughput/cpu-s6/head_cpu.py INDEX WARM COUNT HEADS
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
index, warm, count = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
heads = [int(h) for h in sys.argv[4].split(",")]
settings = load_settings(overrides={"index_dir": index, "acord_dir": Path("/work/shared/data/acord")})
settings = replace(settings, retrieval=replace(settings.retrieval, result_cache=0))
embedder = query_embedder(settings.embedding)
base = build_pipeline(settings, embedder)
folder = ranker_folder(settings.retrieval.ranker)
pipes = {h: base.with_rescorer(load_ranker(folder, base.expander, settings.retrieval.rrf_k, h)) for h in heads}
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", warm + count, seed=61)
for t in texts[:warm]:
    embedder.embed([base._texts(t, [])[0]])
    for p in pipes.values():
        p.search(SearchRequest(text=t, rerank=False, curation=False))
cpu = {h: 0.0 for h in heads}
for n, t in enumerate(texts[warm:]):
    embedder.embed([base._texts(t, [])[0]])  # the vector cached: the model is not timed
    order = heads[n % len(heads):] + heads[:n % len(heads)]
    for h in order:
        began = time.thread_time()
        pipes[h].search(SearchRequest(text=t, rerank=False, curation=False))
        cpu[h] += time.thread_time() - began
print(time.strftime("%H:%M UTC", time.gmtime()), "texts", count,
      {h: round(cpu[h] * 1000 / count, 3) for h in heads}, "ms request-thread CPU a search (pipeline.search)")
