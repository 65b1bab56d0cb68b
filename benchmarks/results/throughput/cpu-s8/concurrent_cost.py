"""The query model's CPU a text when inferences overlap as they do in a --workers 2 server:
PROCS processes x THREADS threads, each thread calling the served compile (THROUGHPUT hint,
2 threads, start_async + wait) on its own never-seen expanded short texts, in random pairs,
with nothing else running. CPU from os.times of each process (its OpenVINO threads included).
(issue 39, session 8)
    python benchmarks/results/throughput/cpu-s8/concurrent_cost.py INDEX PROCSxTHREADS [...]
"""
import os, random, sys, threading, time
from dataclasses import replace
from multiprocessing import get_context
from pathlib import Path


def child(index, threads, seed, conn):
    from index_builder.settings import load_settings
    from index_builder.index.embedder import query_settings, padded, mean_pool
    from index_builder.index import load_embedder
    from index_builder.retrieve.pipeline import query_expander
    from precedent_bench.unseen import library_texts, unseen
    settings = load_settings(overrides={"index_dir": index})
    q = query_settings(settings.embedding)
    emb = load_embedder(replace(q, threads=max(q.threads, q.query_workers)))
    ex = query_expander(settings)
    raw = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 1200, seed=seed)
    texts = [ex.expand(t) for t in raw]
    rng = random.Random(seed)
    rng.shuffle(texts)
    pairs = [texts[i:i + 2] for i in range(0, len(texts) - 1, 2)]
    for p in pairs[:20]:
        emb.embed(p)
    conn.send("ready"); conn.recv()
    chunks = [pairs[20 + n::threads] for n in range(threads)]
    t0 = os.times(); w0 = time.perf_counter()
    ts = [threading.Thread(target=lambda c=c: [emb.embed(p) for p in c]) for c in chunks]
    for t in ts: t.start()
    for t in ts: t.join()
    t1 = os.times()
    n = sum(len(p) for c in chunks for p in c)
    conn.send(((t1.user + t1.system - t0.user - t0.system) * 1000 / n, (time.perf_counter() - w0), n))


def run(index, procs, threads, seed):
    ctx = get_context("spawn")
    pipes, kids = [], []
    for p in range(procs):
        a, b = ctx.Pipe()
        k = ctx.Process(target=child, args=(index, threads, seed + p, b)); k.start()
        pipes.append(a); kids.append(k)
    for a in pipes: a.recv()
    for a in pipes: a.send("go")
    out = [a.recv() for a in pipes]
    for k in kids: k.join()
    return out


if __name__ == "__main__":
    index, shapes = sys.argv[1], sys.argv[2:]
    for rnd, order in enumerate((shapes, shapes[::-1])):
        for shape in order:
            procs, threads = map(int, shape.split("x"))
            out = run(index, procs, threads, 100 + rnd * 10)
            print(time.strftime("%H:%M:%S UTC", time.gmtime()), f"{procs} process(es) x {threads} thread(s): CPU ms a text",
                  [round(c, 2) for c, _, _ in out], "texts/s", round(sum(n for _, _, n in out) / max(w for _, w, _ in out), 1),
                  "load", round(os.getloadavg()[0], 2), flush=True)
