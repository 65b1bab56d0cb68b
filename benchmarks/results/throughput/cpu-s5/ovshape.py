import os, sys, time
from dataclasses import replace
from pathlib import Path
import numpy as np
import openvino as ov
from index_builder.settings import load_settings
from index_builder.index import embedder as emb, load_embedder
from index_builder.index.embedder import length_batches, padded
from precedent_bench.unseen import library_texts, unseen
settings = load_settings(overrides={"index_dir": "/work/wt/i39-batch/var/acord-index"}).embedding
model = load_embedder(replace(emb.query_settings(settings), threads=1))
xml = list(Path(settings.onnx_dir).glob("*openvino/model-int8s*.xml"))[0]
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 40_000)
def cpu(): t = os.times(); return t.user + t.system
cm = ov.Core().compile_model(str(xml), "CPU", {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": 1})
req = cm.create_infer_request()
feeds = []
for t in texts[:300]:
    (rows, ids), = length_batches(model._tokenizer, [t], 32); a, m = padded(ids); feeds.append((a, m))
print("lengths", sorted(set(a.shape[1] for a, m in feeds)))
def run(label, fs):
    for a, m in fs[:30]: req.infer({"input_ids": a, "attention_mask": m})
    c = cpu()
    for a, m in fs: req.infer({"input_ids": a, "attention_mask": m})
    print(label, f"cpu ms/call {(cpu()-c)*1000/len(fs):.2f}", flush=True)
run("varying lengths", feeds)
run("same input", [feeds[0]] * 300)
L = 20
same_len = [f for f in feeds if f[0].shape[1] == L]
run(f"all length {L} ({len(same_len)})", same_len * (300 // len(same_len)))
def pad(a, m, w):
    A = np.zeros((1, w), np.int64); M = np.zeros((1, w), np.int64); A[:, :a.shape[1]] = a; M[:, :a.shape[1]] = m; return A, M
run("padded to 32", [pad(a, m, 32) for a, m in feeds if a.shape[1] <= 32])
pool = {}
def keyed(label, fs):
    for a, m in fs[:30] + fs:
        pass
    for rep in range(2):
        c = cpu()
        for a, m in fs:
            r = pool.get(a.shape)
            if r is None:
                r = pool[a.shape] = cm.create_infer_request()
            r.infer({"input_ids": a, "attention_mask": m})
        print(label, rep, f"cpu ms/call {(cpu()-c)*1000/len(fs):.2f}", flush=True)
keyed("request per shape, varying lengths", feeds)
run("varying lengths again", feeds)
