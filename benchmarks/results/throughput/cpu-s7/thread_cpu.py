"""A --workers 2 server's CPU a search by thread kind, under short never-seen load (issue 39,
session 7): Python threads named by `py-spy dump --json` (request threads, batcher, journal,
main), every other thread native (OpenVINO's executors, FAISS, ...), summed over both workers.
    python benchmarks/results/throughput/cpu-s7/thread_cpu.py TREE SECONDS [NAME=VALUE ...]
"""
import json, os, shutil, subprocess, sys, tempfile, time
from collections import defaultdict
from pathlib import Path
from precedent_bench import throughput as tp
from precedent_bench.loadgen import Texts, run_clients
from precedent_bench.unseen import library_texts, unseen

tree, seconds = Path(sys.argv[1]).resolve(), float(sys.argv[2])
env = dict(a.split("=", 1) for a in sys.argv[3:])
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 40_000)
tick = os.sysconf("SC_CLK_TCK")

def threads(pid):
    out = {}
    for t in Path(f"/proc/{pid}/task").iterdir():
        try:
            f = (t / "stat").read_text().rsplit(")", 1)[1].split()
            out[int(t.name)] = (int(f[11]) + int(f[12])) / tick
        except OSError:
            pass
    return out

def kinds(pid):
    dump = json.loads(subprocess.run(["py-spy", "dump", "--json", "-p", str(pid)], capture_output=True, text=True).stdout)
    out = {}
    for t in dump:
        frames = t.get("frames") or []
        where = " < ".join(f["name"] for f in frames[:1] + frames[-3:-1]) if frames else ""
        kind = "python: " + (t.get("thread_name") or "?")
        if "WorkerThread" in where or "_process_connections" in where or any("HTTPConnection" in f["name"] or "WorkerThread" in f["name"] for f in frames):
            kind = "python: request threads"
        out[t["os_thread_id"]] = kind
    return out

with tempfile.TemporaryDirectory(prefix="thread-cpu-") as tmp:
    index = Path(tmp) / "index"
    shutil.copytree("/work/wt/i39-batch/var/acord-index", index, ignore=shutil.ignore_patterns(".build.lock", "audit", "usage"))
    port = tp._free_port()
    server = tp._start(tree, index, port, Path(tmp) / "server.log", env)
    try:
        tp._wait_ready(port, server, Path(tmp) / "server.log")
        run_clients(port, Texts(iter(texts[-2400:-400])), 20, 8)
        kids = tp._children(server.pid)
        named = {}
        for k in kids:
            named.update(kinds(k))
        before = {p: threads(p) for p in [server.pid] + kids}
        load = os.getloadavg()[0]
        tally = run_clients(port, Texts(iter(texts)), 20, seconds)
        after = {p: threads(p) for p in [server.pid] + kids}
        n = tally.sent
        by = defaultdict(float); count = defaultdict(int)
        for p in after:
            for tid, cpu in after[p].items():
                d = cpu - before[p].get(tid, 0.0)
                kind = "parent" if p == server.pid else named.get(tid, "native (not Python)")
                by[kind] += d
                if d > 0.001: count[kind] += 1
        print(time.strftime("%H:%M:%S UTC", time.gmtime()), tree.name, env or "-", "load", round(load, 2), "/", round(os.getloadavg()[0], 2),
              "per_s", tally.summary()["per_s"], "server CPU ms/search", round(sum(by.values()) * 1000 / n, 2))
        for k, v in sorted(by.items(), key=lambda kv: -kv[1]):
            if v > 0:
                print(f"   {k}: {v * 1000 / n:.2f} ms/search ({count[k]} threads busy, both workers)")
    finally:
        tp._stop(server)
