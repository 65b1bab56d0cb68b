import json, os, sys, time
from dataclasses import replace
from pathlib import Path
from index_builder.settings import load_settings
from index_builder.index.embed_cache import set_torch_threads
from index_builder.index import embedder as emb, load_embedder
from precedent_bench.unseen import library_texts, unseen
settings = load_settings(overrides={"index_dir": "/work/wt/i39-batch/var/acord-index"}).embedding
q = replace(emb.query_settings(settings), threads=int(sys.argv[1]))
set_torch_threads(1)
model = load_embedder(q)
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 40_000)
model.embed(texts[:32])
pos = 100
for b in (1, 2, 4, 8, 16, 32):
    n = 0; t0 = os.times(); w0 = time.perf_counter()
    while n < 800:
        model.embed(texts[pos:pos + b]); pos += b; n += b
    t1 = os.times()
    print(b, f"cpu ms/text {(t1.user+t1.system-t0.user-t0.system)*1000/n:.2f}", f"wall ms/text {(time.perf_counter()-w0)*1000/n:.2f}", os.getloadavg()[0])
