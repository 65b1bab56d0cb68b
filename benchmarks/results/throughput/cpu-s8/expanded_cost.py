"""The query model's CPU a text on what the server really embeds: never-seen short texts after
the glossary expansion (pipeline._texts), one a call and in random pairs (a pair pads to its
longer text, as a batch of 2 in the batcher does), against the raw texts that sessions 5-7's
isolated figures used. Compiled as the server compiles it (THROUGHPUT hint, 2 threads, calls
start_async + wait, one at a time). (issue 39, session 8)
    python benchmarks/results/throughput/cpu-s8/expanded_cost.py INDEX ROUNDS
"""
import os, random, sys, time
from dataclasses import replace
from pathlib import Path
import numpy as np
from index_builder.settings import load_settings
from index_builder.index.embedder import query_settings
from index_builder.index import load_embedder
from index_builder.retrieve.pipeline import query_expander
from precedent_bench.unseen import library_texts, unseen

index, rounds = sys.argv[1], int(sys.argv[2])
settings = load_settings(overrides={"index_dir": index})
q = query_settings(settings.embedding)
emb = load_embedder(replace(q, threads=max(q.threads, q.query_workers)))
expander = query_expander(settings)
raw = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 400, seed=29)
expanded = [expander.expand(t) if expander else t for t in raw]
tok = emb._tokenizer
lengths = {name: [len(e.ids) for e in tok.encode_batch(ts)] for name, ts in (("raw", raw), ("expanded", expanded))}
for name, ls in lengths.items():
    print(name, "tokens mean", round(float(np.mean(ls)), 1), "median", int(np.median(ls)), "p90", int(np.percentile(ls, 90)), "max", max(ls),
          "share > 32:", round(sum(l > 32 for l in ls) / len(ls), 3), flush=True)
rng = random.Random(3)
def pairs(ts):
    order = ts[:]; rng.shuffle(order)
    return [order[i:i + 2] for i in range(0, len(order) - 1, 2)]
cases = {"raw, 1 a call": [[t] for t in raw], "expanded, 1 a call": [[t] for t in expanded],
         "raw, pairs": pairs(raw), "expanded, pairs": pairs(expanded)}
for calls in cases.values():
    for c in calls[:20]:
        emb.embed(c)
cpu = {k: [] for k in cases}
for r in range(rounds):
    for k in (list(cases) if r % 2 == 0 else list(cases)[::-1]):
        t0 = os.times()
        for c in cases[k]:
            emb.embed(c)
        t1 = os.times()
        cpu[k].append(round((t1.user + t1.system - t0.user - t0.system) * 1000 / sum(map(len, cases[k])), 2))
print(time.strftime("%H:%M UTC", time.gmtime()), "load", os.getloadavg()[0], "process CPU ms a text:")
for k, v in cpu.items():
    print(f"  {k}: {v}")
