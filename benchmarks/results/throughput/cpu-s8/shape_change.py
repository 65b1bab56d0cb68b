"""What a change of input shape costs the dynamic-shape query model, and whether padding to
bucket lengths (so shapes repeat) or a static compile removes it. (issue 39, session 8)
The served static int8 model, compiled as served (THROUGHPUT hint, 2 threads, start_async +
wait, one kept request), never-seen short texts after the glossary expansion, <= 32 tokens,
one text a call, in random order (as the server sees them) or sorted by length; process CPU
a call; rounds interleaved. Also: how many vectors keep their bits when padded.
    python benchmarks/results/throughput/cpu-s8/shape_change.py INDEX ROUNDS
"""
import os, random, sys, time
from dataclasses import replace
from pathlib import Path
import numpy as np
import openvino as ov
from index_builder.settings import load_settings
from index_builder.index.embedder import query_settings, mean_pool
from index_builder.index import load_embedder
from index_builder.retrieve.pipeline import query_expander
from precedent_bench.unseen import library_texts, unseen

index, rounds = sys.argv[1], int(sys.argv[2])
settings = load_settings(overrides={"index_dir": index})
q = query_settings(settings.embedding)
emb = load_embedder(replace(q, threads=max(q.threads, q.query_workers)))
ex = query_expander(settings)
raw = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 500, seed=37)
ids = [e.ids for e in emb._tokenizer.encode_batch([ex.expand(t) for t in raw])]
ids = [i for i in ids if len(i) <= 32]
random.Random(5).shuffle(ids)
xml = next(Path(q.onnx_dir).rglob("model-int8s1-*.xml"))
core = ov.Core()
dyn = emb._compiled
m = core.read_model(str(xml)); m.reshape({"input_ids": [1, 32], "attention_mask": [1, 32]})
static32 = core.compile_model(m, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT", "INFERENCE_NUM_THREADS": 2})
reqs = {"dyn": dyn.create_infer_request(), "static": static32.create_infer_request()}

def arrays(tokens, length):
    i = np.zeros((1, length), dtype=np.int64); a = np.zeros_like(i)
    i[0, :len(tokens)] = tokens; a[0, :len(tokens)] = 1
    return i, a

def call(kind, tokens, length):
    i, a = arrays(tokens, length)
    r = reqs[kind]; r.start_async({"input_ids": i, "attention_mask": a}); r.wait()
    return mean_pool(r.get_output_tensor(0).data, a)

up = lambda n, b: -(-n // b) * b
cases = {"random order, exact length": lambda t: ("dyn", len(t)),
         "random order, padded to a multiple of 8": lambda t: ("dyn", up(len(t), 8)),
         "random order, padded to a multiple of 16": lambda t: ("dyn", up(len(t), 16)),
         "random order, padded to 32 (dynamic compile)": lambda t: ("dyn", 32),
         "random order, static [1, 32] compile": lambda t: ("static", 32)}
base = [call("dyn", t, len(t)) for t in ids]
for name, how in cases.items():
    same = sum(np.array_equal(call(*how(t)[:1], t, how(t)[1]).view(np.uint32), b.view(np.uint32)) for t, b in zip(ids, base))
    print(f"{name}: vectors the same bits as exact {same} of {len(ids)}", flush=True)
sorted_ids = sorted(ids, key=len)
cases["sorted by length, exact length"] = None
cpu = {k: [] for k in cases}
for r in range(rounds):
    for name in (list(cases) if r % 2 == 0 else list(cases)[::-1]):
        seq = sorted_ids if cases[name] is None else ids
        how = cases[name] or (lambda t: ("dyn", len(t)))
        t0 = os.times()
        for t in seq:
            call(how(t)[0], t, how(t)[1])
        t1 = os.times()
        cpu[name].append(round((t1.user + t1.system - t0.user - t0.system) * 1000 / len(seq), 2))
print(time.strftime("%H:%M UTC", time.gmtime()), "load", os.getloadavg()[0], len(ids), "texts, mean tokens", round(float(np.mean([len(i) for i in ids])), 1), "; process CPU ms a call:")
for k, v in cpu.items():
    print(f"  {k}: {v}")
