"""The query model compiled for fixed input shapes against its dynamic-shape compile: CPU a
text, memory, and whether the vectors are the same bits (issue 39, session 7).

The served query model (static int8 MiniLM, OpenVINO, compiled as the server compiles it:
THROUGHPUT hint, 1 thread) is fed never-seen short texts one call at a time, at batch 1 and
at batch 2 (pairs of texts), by the compiled model the server uses (dynamic shapes: any batch,
any length) and by copies reshaped to fixed [batch, length] shapes, each text padded up to
the shortest bucket length that holds it (the attention mask hides the padding). CPU is the
process's (os.times: OpenVINO's own threads included), rounds interleaved.
    python benchmarks/results/throughput/cpu-s7/static_shapes.py INDEX BUCKETS ROUNDS

(Self-contained: reshapes and compiles with OpenVINO itself, runs on main as it is.)
"""
import os, sys, time
from pathlib import Path
import numpy as np
import openvino as ov
from index_builder.settings import load_settings
from index_builder.index.embedder import query_settings, padded, mean_pool
from index_builder.index import load_embedder
from precedent_bench.unseen import library_texts, unseen

def rss(): return int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20
index, buckets, rounds = sys.argv[1], [int(b) for b in sys.argv[2].split(",")], int(sys.argv[3])
s = load_settings(overrides={"index_dir": index})
query = query_settings(s.embedding)
emb = load_embedder(query)
xml = next(Path(query.onnx_dir).rglob("model-int8s*.xml"))
core = ov.Core()
dynamic = emb._compiled
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 400, seed=5)
enc = [e.ids for e in emb._tokenizer.encode_batch(texts)]
enc = [ids for ids in enc if len(ids) <= buckets[-1]]
pairs = [enc[i:i + 2] for i in range(0, len(enc) - 1, 2)]
static = {}
r0, t0 = rss(), time.time()
for batch in (1, 2):
    for length in buckets:
        m = core.read_model(str(xml))
        m.reshape({"input_ids": [batch, length], "attention_mask": [batch, length]})
        static[batch, length] = core.compile_model(m, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT", "INFERENCE_NUM_THREADS": 1})
print(time.strftime("%H:%M UTC", time.gmtime()), "load", os.getloadavg()[0], f"model {xml.name}; {len(enc)} texts of",
      min(map(len, enc)), "-", max(map(len, enc)), "tokens;", len(static), "fixed-shape compiles in",
      round(time.time() - t0, 1), "s, RSS +", round(rss() - r0), "MiB", flush=True)

def run_dynamic(group):
    r = dynamic.create_infer_request(); i, m = padded(group)
    r.infer({"input_ids": i, "attention_mask": m}); return mean_pool(r.get_output_tensor(0).data, m)

def run_static(group):
    length = next(b for b in buckets if b >= max(map(len, group)))
    i = np.zeros((len(group), length), dtype=np.int64); m = np.zeros_like(i)
    for row, ids in enumerate(group):
        i[row, :len(ids)] = ids; m[row, :len(ids)] = 1
    r = static[len(group), length].create_infer_request()
    r.infer({"input_ids": i, "attention_mask": m}); return mean_pool(r.get_output_tensor(0).data, m)

for name, groups in (("batch 1", [[ids] for ids in enc]), ("batch 2", pairs)):
    same = texts_seen = 0; cos = []
    for g in groups:
        a, b = run_dynamic(g), run_static(g)
        for x, y in zip(a, b):
            texts_seen += 1; same += np.array_equal(x.view(np.uint32), y.view(np.uint32))
            cos.append(float(x @ y / np.linalg.norm(x) / np.linalg.norm(y)))
    print(name, "vectors the same bits", same, "of", texts_seen, "cosine min", round(min(cos), 6), "mean", round(float(np.mean(cos)), 6))
    cpu = {"dynamic": 0.0, "fixed": 0.0}
    for rnd in range(rounds):
        for kind in (("dynamic", "fixed") if rnd % 2 == 0 else ("fixed", "dynamic")):
            t = os.times(); c0 = t.user + t.system
            for g in groups:
                (run_dynamic if kind == "dynamic" else run_static)(g)
            t = os.times(); cpu[kind] += t.user + t.system - c0
    n = sum(len(g) for g in groups) * rounds
    print(time.strftime("%H:%M UTC", time.gmtime()), name, "CPU ms a text", {k: round(v * 1000 / n, 3) for k, v in cpu.items()},
          "load", os.getloadavg()[0], flush=True)
