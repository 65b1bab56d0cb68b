"""Does the query model cost more CPU a call when the *other* vCPU is busy? (issue 39, session 8)

The served static int8 query model, compiled with one stream of one thread, pinned (taskset) to
vCPU 0 with the calls run synchronously on this (pinned) thread; never-seen short texts, one a
call. In turn: nothing else running by us, a pure-Python burner process pinned to vCPU 1 (the
other core), and a burner pinned to vCPU 0 (the same core, time-sliced). If the model costs
more with the burner on the *other* vCPU, the two vCPUs share a physical core's resources
(host hyper-threads or memory bandwidth), which no thread setting inside the server can undo.
    python benchmarks/results/throughput/cpu-s8/sibling.py INDEX ROUNDS
"""
import os, subprocess, sys, time
from dataclasses import replace
from pathlib import Path
import openvino as ov
from index_builder.settings import load_settings
from index_builder.index.embedder import query_settings, padded, length_batches
from index_builder.index import load_embedder
from precedent_bench.unseen import library_texts, unseen

BURN = ("import random\nd={i:str(i) for i in range(200000)}\nwhile True:\n"
        "    s=0\n    for k in random.sample(range(200000),2000): s+=len(d[k])\n")
index, rounds = sys.argv[1], int(sys.argv[2])
os.sched_setaffinity(0, {0})
q = query_settings(load_settings(overrides={"index_dir": index}).embedding)
emb = load_embedder(replace(q, threads=1))
xml = next(Path(q.onnx_dir).rglob("model-int8s1-*.xml"))
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 300, seed=23)
ids = [padded(b) for _, b in length_batches(emb._tokenizer, texts, 1)]
m = ov.Core().compile_model(str(xml), "CPU", {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": 1, "ENABLE_CPU_PINNING": False})
r = m.create_infer_request()

def run():
    t0 = time.thread_time(); w0 = time.perf_counter()
    for i, mask in ids:
        r.infer({"input_ids": i, "attention_mask": mask})
    return (time.thread_time() - t0) * 1000 / len(ids), (time.perf_counter() - w0) * 1000 / len(ids)

run()
res = {"alone": [], "burner on the other vCPU": [], "burner on the same vCPU": []}
for rnd in range(rounds):
    for kind in (list(res) if rnd % 2 == 0 else list(res)[::-1]):
        burner = None
        if kind != "alone":
            burner = subprocess.Popen([sys.executable, "-c", BURN])
            os.sched_setaffinity(burner.pid, {1} if "other" in kind else {0})
            time.sleep(1.0)
        try:
            res[kind].append(run())
        finally:
            if burner:
                burner.kill(); burner.wait()
print(time.strftime("%H:%M UTC", time.gmtime()), "load", os.getloadavg()[0], len(ids), "texts one a call, model thread on vCPU 0")
for k, v in res.items():
    print(f"  {k}: CPU ms a call {[round(a, 2) for a, _ in v]}, wall ms a call {[round(b, 2) for _, b in v]}")
