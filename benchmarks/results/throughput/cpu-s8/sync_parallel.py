"""Two threads calling infer() at once on one compiled model of one stream and one thread: do
the inferences run in parallel on the callers' own threads (no OpenVINO executor thread busy),
and are the vectors the same as one at a time? (issue 39, session 8)
    python benchmarks/results/throughput/cpu-s8/sync_parallel.py INDEX
"""
import os, sys, threading, time
from dataclasses import replace
from pathlib import Path
import numpy as np
import openvino as ov
from index_builder.settings import load_settings
from index_builder.index.embedder import query_settings
from index_builder.index import load_embedder
from precedent_bench.unseen import library_texts, unseen

index = sys.argv[1]
q = query_settings(load_settings(overrides={"index_dir": index}).embedding)
emb = load_embedder(q)
xml = next(Path(q.onnx_dir).rglob("model-int8s1-*.xml"))
core = ov.Core()
m = core.read_model(str(xml)); m.reshape({"input_ids": [1, 32], "attention_mask": [1, 32]})
c = core.compile_model(m, "CPU", {"PERFORMANCE_HINT": "LATENCY", "NUM_STREAMS": 1, "INFERENCE_NUM_THREADS": 1})
print({p: str(c.get_property(p)) for p in ("NUM_STREAMS", "INFERENCE_NUM_THREADS", "ENABLE_CPU_PINNING")})
raw = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 400, seed=41)
ids = [e.ids[:32] for e in emb._tokenizer.encode_batch(raw)]
def arrays(t):
    i = np.zeros((1, 32), dtype=np.int64); a = np.zeros_like(i); i[0, :len(t)] = t; a[0, :len(t)] = 1; return i, a
req = c.create_infer_request()
alone = []
for t in ids:
    i, a = arrays(t); req.infer({"input_ids": i, "attention_mask": a}); alone.append(req.get_output_tensor(0).data.copy())
def tids(): return {int(x) for x in os.listdir("/proc/self/task")}
def tcpu():
    out = {}
    for x in tids():
        try:
            f = open(f"/proc/self/task/{x}/stat").read().rsplit(")", 1)[1].split(); out[x] = int(f[11]) + int(f[12])
        except OSError: pass
    return out
results = {}
def work(part, own):
    r = c.create_infer_request(); t0 = time.thread_time()
    for n in part:
        i, a = arrays(ids[n]); r.infer({"input_ids": i, "attention_mask": a}); results[n] = r.get_output_tensor(0).data.copy()
    own.append(time.thread_time() - t0)
for threads in (1, 2, 1, 2):
    results.clear(); own = []
    before = tcpu(); w0 = time.perf_counter(); p0 = os.times()
    ts = [threading.Thread(target=work, args=(list(range(k, len(ids), threads)), own)) for k in range(threads)]
    [t.start() for t in ts]; [t.join() for t in ts]
    wall = time.perf_counter() - w0; p1 = os.times(); after = tcpu()
    proc = p1.user + p1.system - p0.user - p0.system
    same = sum(np.array_equal(results[n], alone[n]) for n in range(len(ids)))
    print(f"{threads} thread(s): wall {wall:.2f} s, process CPU {proc:.2f} s, callers' CPU {sum(own):.2f} s, "
          f"other threads busy {sum(1 for x in after if x in before and after[x] - before[x] > 2)}, same bits {same} of {len(ids)}, load {os.getloadavg()[0]:.2f}", flush=True)
