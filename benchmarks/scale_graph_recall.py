"""1M: recall@10 (tie-aware) of a fresh HNSW graph (M 32, efC 100: the settings' defaults) built
over the stored vectors of var/scale-index-v3/1m-embedded-hnsw, same 100 queries as scale_benchmark.py.

Usage: nice -n 10 python benchmarks/scale_graph_recall.py [EF ...]   (default 256 512 1024 2048; prints JSON lines)
"""
import sys, json, time, os, statistics, numpy as np, faiss
sys.path.insert(0, "benchmarks")
from pathlib import Path
import scale_benchmark as sb
from index_builder.index.embedded import EmbeddedStore
from index_builder.index.store import dense_index
b = EmbeddedStore(Path("var/scale-index-v3/1m-embedded-hnsw")).open()
st = b.index.embeddings
vectors = sb.ClusteredEmbedder().embed(sb.query_texts(Path("var/scale/1m"), 100))
truth = []
for v in vectors:
    s = st @ v; top = np.argpartition(-s, 9)[:10]; truth.append(float(s[top].min()))
load0 = os.getloadavg(); t = time.perf_counter()
h = dense_index(st, {"kind": "hnsw", "m": 32, "ef_construction": 100})
build_s = time.perf_counter() - t
faiss.omp_set_num_threads(1)
out = {"m": 32, "ef_construction": 100, "hnsw_build_s": round(build_s, 1), "load_before": load0, "sweep": []}
for ef in [int(a) for a in sys.argv[1:]] or (256, 512, 1024, 2048):
    hits, tm = 0, []
    for v, tenth in zip(vectors, truth):
        a = time.perf_counter(); _, ids = h.search(v[None, :], 10, params=faiss.SearchParametersHNSW(efSearch=ef)); tm.append((time.perf_counter() - a) * 1000)
        got = ids[0][ids[0] >= 0]
        hits += int((st[got] @ v >= tenth - 1e-5).sum())
    out["sweep"].append({"ef_search": ef, "recall_at_10": round(hits / 1000, 4), "p50_ms": round(statistics.median(tm), 2)})
    print(json.dumps(out), flush=True)
out["load_after"] = os.getloadavg()
print(json.dumps(out), flush=True)
