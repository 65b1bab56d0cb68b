import os, sys, time, json
from dataclasses import replace
from pathlib import Path
import numpy as np
import openvino as ov
from index_builder.settings import load_settings
from index_builder.index import embedder as emb, load_embedder
from index_builder.index.embedder import length_batches, padded, mean_pool
from precedent_bench.unseen import library_texts, unseen
settings = load_settings(overrides={"index_dir": "/work/wt/i39-batch/var/acord-index"}).embedding
model = load_embedder(replace(emb.query_settings(settings), threads=2))
xml = [p for p in Path(settings.onnx_dir).glob("*openvino/model-int8s*.xml")]
print(xml)
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 40_000)
def cpu(): t = os.times(); return t.user + t.system
core = ov.Core()
ref = None
for name, cfg in [("THROUGHPUT t2", {"PERFORMANCE_HINT": "THROUGHPUT", "INFERENCE_NUM_THREADS": 2}),
                  ("THROUGHPUT t1", {"PERFORMANCE_HINT": "THROUGHPUT", "INFERENCE_NUM_THREADS": 1}),
                  ("LATENCY t1", {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": 1}),
                  ("LATENCY t1 nopin", {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": 1, "ENABLE_CPU_PINNING": False}),
                  ("THROUGHPUT t2 nopin", {"PERFORMANCE_HINT": "THROUGHPUT", "INFERENCE_NUM_THREADS": 2, "ENABLE_CPU_PINNING": False}),
                  ]:
    cm = core.compile_model(str(xml[0]), "CPU", cfg)
    req = cm.create_infer_request()
    outs = []
    for b in (1, 4):
        for i in range(50):
            (rows, ids), = length_batches(model._tokenizer, texts[i*b:(i+1)*b], 32)
            input_ids, mask = padded(ids); req.infer({"input_ids": input_ids, "attention_mask": mask})
        c = cpu(); w = time.perf_counter(); N = 300
        for i in range(N):
            (rows, ids), = length_batches(model._tokenizer, texts[1000+i*b:1000+(i+1)*b], 32)
            input_ids, mask = padded(ids)
            req.infer({"input_ids": input_ids, "attention_mask": mask})
            if b == 1: outs.append(mean_pool(req.get_output_tensor(0).data, mask)[0])
        print(name, "batch", b, f"cpu ms/text {(cpu()-c)*1000/N/b:.2f} wall ms/text {(time.perf_counter()-w)*1000/N/b:.2f}", "streams", cm.get_property("NUM_STREAMS"), "load", os.getloadavg()[0], flush=True)
    outs = np.stack(outs)
    if ref is None: ref = outs
    print("   identical to first config:", bool((outs == ref).all()))
    del req, cm
