"""Does a fresh OpenVINO infer request per call (as OpenVinoEmbedder.embed makes them) cost
more than one kept from call to call? (issue 39, session 8) The served static int8 query model,
compiled as the server compiles it (THROUGHPUT hint, 2 threads), never-seen short texts after
the glossary expansion, one a call and in random pairs, start_async + wait; process CPU
(os.times: OpenVINO's threads included) a text, rounds interleaved; vectors compared bit for bit.
    python benchmarks/results/throughput/cpu-s8/kept_requests.py INDEX ROUNDS
"""
import os, random, sys, time
from dataclasses import replace
from pathlib import Path
import numpy as np
from index_builder.settings import load_settings
from index_builder.index.embedder import query_settings, padded, mean_pool
from index_builder.index import load_embedder
from index_builder.retrieve.pipeline import query_expander
from precedent_bench.unseen import library_texts, unseen

index, rounds = sys.argv[1], int(sys.argv[2])
settings = load_settings(overrides={"index_dir": index})
q = query_settings(settings.embedding)
emb = load_embedder(replace(q, threads=max(q.threads, q.query_workers)))
expander = query_expander(settings)
raw = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 400, seed=31)
texts = [expander.expand(t) for t in raw]
ids = [e.ids for e in emb._tokenizer.encode_batch(texts)]
rng = random.Random(4)
order = ids[:]; rng.shuffle(order)
cases = {"1 a call": [[i] for i in ids], "pairs": [order[i:i + 2] for i in range(0, len(order) - 1, 2)]}
compiled = emb._compiled
kept = compiled.create_infer_request()

def call(group, request):
    i, m = padded(group)
    request.start_async({"input_ids": i, "attention_mask": m}); request.wait()
    return mean_pool(request.get_output_tensor(0).data, m)

same = total = 0
for g in cases["pairs"] + cases["1 a call"]:
    a, b = call(g, compiled.create_infer_request()), call(g, kept)
    same += int(np.array_equal(a.view(np.uint32), b.view(np.uint32))); total += 1
print("calls whose vectors are the same bits, fresh vs kept request:", same, "of", total, flush=True)
cpu = {(c, k): [] for c in cases for k in ("fresh", "kept")}
for r in range(rounds):
    keys = list(cpu) if r % 2 == 0 else list(cpu)[::-1]
    for c, k in keys:
        t0 = os.times()
        for g in cases[c]:
            call(g, compiled.create_infer_request() if k == "fresh" else kept)
        t1 = os.times()
        cpu[c, k].append(round((t1.user + t1.system - t0.user - t0.system) * 1000 / sum(map(len, cases[c])), 2))
print(time.strftime("%H:%M UTC", time.gmtime()), "load", os.getloadavg()[0], "process CPU ms a text:")
for k, v in cpu.items():
    print(f"  {k[0]}, {k[1]} request: {v}")
