"""Does the query model cost more CPU a call when calls come apart (as in the server) than back
to back? (issue 39, session 7) The served query model (static int8, OpenVINO, compiled as the
server's batcher compiles it: 2 threads), never-seen short texts one a call, with a pause of
GAP ms between calls (time.sleep, which costs no CPU), rounds interleaved; the process's CPU
(os.times, OpenVINO's threads included) a call.
    python benchmarks/results/throughput/cpu-s7/model_gaps.py INDEX GAPS_MS ROUNDS
"""
import os, sys, time
from dataclasses import replace
from pathlib import Path
from index_builder.settings import load_settings
from index_builder.index.embedder import query_settings
from index_builder.index import load_embedder
from precedent_bench.unseen import library_texts, unseen

index, gaps, rounds = sys.argv[1], [float(g) for g in sys.argv[2].split(",")], int(sys.argv[3])
s = load_settings(overrides={"index_dir": index})
q = query_settings(s.embedding)
model = load_embedder(replace(q, threads=max(q.threads, q.query_workers)))  # as index/batcher.py does
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 300, seed=13)
for t in texts[:30]:
    model.embed([t])
cpu = {g: [] for g in gaps}
for r in range(rounds):
    for g in (gaps if r % 2 == 0 else gaps[::-1]):
        t0 = os.times(); c0 = t0.user + t0.system
        for t in texts[30:]:
            model.embed([t])
            if g:
                time.sleep(g / 1000)
        t1 = os.times()
        cpu[g].append(round((t1.user + t1.system - c0) * 1000 / len(texts[30:]), 2))
print(time.strftime("%H:%M UTC", time.gmtime()), "load", os.getloadavg()[0], "CPU ms a call (one text) by gap ms:", cpu)
