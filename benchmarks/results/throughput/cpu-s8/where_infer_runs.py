"""Which thread runs an OpenVINO inference (the caller's on a sync infer(), or the plugin's
stream thread on start_async + wait), what streams and threads a compile config gives, and the
CPU a call costs (process and calling thread). (issue 39, session 8) The served static int8
query model, never-seen short texts (glossary-expanded as served), one text a call.
    python benchmarks/results/throughput/cpu-s8/where_infer_runs.py INDEX ROUNDS CONFIG [CONFIG ...]
CONFIG: "-" (as served: THROUGHPUT hint, 2 threads) or KEY=VALUE,KEY=VALUE (OpenVINO properties).
"""
import os, sys, time
from dataclasses import replace
from pathlib import Path
import openvino as ov
from index_builder.settings import load_settings
from index_builder.index.embedder import query_settings, padded, length_batches
from index_builder.index import load_embedder
from precedent_bench.unseen import library_texts, unseen

index, rounds, configs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
s = load_settings(overrides={"index_dir": index})
q = query_settings(s.embedding)
emb = load_embedder(replace(q, threads=max(q.threads, q.query_workers)))
xml = next(Path(q.onnx_dir).rglob("model-int8s1-*.xml"))
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 300, seed=21)
ids = [padded(b) for _, b in length_batches(emb._tokenizer, texts, 1)]
core = ov.Core()

def parse(c):
    if c == "-":
        return {"PERFORMANCE_HINT": "THROUGHPUT", "INFERENCE_NUM_THREADS": 2}
    out = {}
    for kv in c.split(","):
        k, v = kv.split("=", 1)
        out[k] = int(v) if v.isdigit() else (v == "YES" if v in ("YES", "NO") else v)
    return out

compiled = {c: core.compile_model(str(xml), "CPU", parse(c)) for c in configs}
for c, m in compiled.items():
    props = {p: str(m.get_property(p)) for p in ("NUM_STREAMS", "INFERENCE_NUM_THREADS", "PERFORMANCE_HINT", "ENABLE_CPU_PINNING", "OPTIMAL_NUMBER_OF_INFER_REQUESTS")}
    print(c, props, flush=True)

def run(m, mode):
    r = m.create_infer_request()
    p0, t0 = os.times(), time.thread_time()
    for i, mask in ids:
        if mode == "sync":
            r.infer({"input_ids": i, "attention_mask": mask})
        else:
            r.start_async({"input_ids": i, "attention_mask": mask}); r.wait()
    p1, t1 = os.times(), time.thread_time()
    n = len(ids)
    return (p1.user + p1.system - p0.user - p0.system) * 1000 / n, (t1 - t0) * 1000 / n

for m in compiled.values():
    run(m, "sync")
res = {(c, mode): [] for c in configs for mode in ("sync", "async")}
for rnd in range(rounds):
    order = [(c, mode) for c in configs for mode in ("sync", "async")]
    for key in (order if rnd % 2 == 0 else order[::-1]):
        res[key].append(run(compiled[key[0]], key[1]))
print(time.strftime("%H:%M UTC", time.gmtime()), "load", os.getloadavg()[0], len(ids), "texts, one a call")
for (c, mode), v in res.items():
    print(f"  {c} {mode}: process CPU ms a call {[round(a, 2) for a, _ in v]}, calling thread {[round(b, 2) for _, b in v]}")
