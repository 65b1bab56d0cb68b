"""Per-thread CPU of a --workers 2 server under short never-seen load (profiling harness).
usage: prof.py TREE SECONDS [NAME=VALUE ...] [pyspy]"""
import re, json, os, shutil, sys, tempfile, time, subprocess
from collections import defaultdict
from pathlib import Path
from precedent_bench import throughput as tp
from precedent_bench.loadgen import Texts, run_clients
from precedent_bench.unseen import library_texts, unseen

tree = Path(sys.argv[1]).resolve()
seconds = float(sys.argv[2])
extra = dict(a.split("=", 1) for a in sys.argv[3:] if "=" in a)
pyspy = "pyspy" in sys.argv
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 40_000)

def threads(pid):
    out = {}
    for t in Path(f"/proc/{pid}/task").iterdir():
        try:
            comm = (t / "comm").read_text().strip()
            f = (t / "stat").read_text().rsplit(")", 1)[1].split()
            out[int(t.name)] = (comm, (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK"))
        except OSError:
            pass
    return out

with tempfile.TemporaryDirectory(prefix="prof-") as tmp:
    index = Path(tmp) / "index"
    shutil.copytree("/work/wt/i39-batch/var/acord-index", index,
                    ignore=shutil.ignore_patterns(".build.lock", "audit", "usage"))
    port = tp._free_port()
    server = tp._start(tree, index, port, Path(tmp) / "server.log", extra)
    try:
        tp._wait_ready(port, server, Path(tmp) / "server.log")
        run_clients(port, Texts(iter(texts[-2400:-400])), 20, 8)
        kids = tp._children(server.pid)
        before = {p: threads(p) for p in [server.pid] + kids}
        spy = None
        if pyspy:
            spy = subprocess.Popen(["py-spy", "record", "-o", f"/work/wt/i39-cpu2/var/spy-{int(time.time())}.txt",
                                    "-f", "raw", "-p", str(kids[0]), "-d", str(int(seconds)), "-r", "200",
                                    "--nonblocking"] + (["--native"] if "native" in sys.argv else []) + (["--idle"] if "idle" in sys.argv else []),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        load = os.getloadavg()[0]
        tally = run_clients(port, Texts(iter(texts)), 20, seconds)
        after = {p: threads(p) for p in [server.pid] + kids}
        if spy: spy.wait(60)
        n = tally.sent
        s = tally.summary()
        print(json.dumps({k: s.get(k) for k in ("per_s", "p50_ms", "p95_ms", "sent")}), "load", load, os.getloadavg()[0])
        total = 0.0
        by = defaultdict(float)
        for p in after:
            for tid, (comm, cpu) in after[p].items():
                d = cpu - before[p].get(tid, (comm, 0.0))[1]
                total += d
                by[(("parent" if p == server.pid else "worker"), comm)] += d
        print(f"server CPU ms/search {total*1000/n:.2f}")
        for k, v in sorted(by.items(), key=lambda kv: -kv[1]):
            if v > 0:
                print(f"  {k}: {v*1000/n:.2f} ms/search")
        print("threads per worker:", {p: len(after[p]) for p in kids})
        w = kids[0]
        dump = subprocess.run(["py-spy", "dump", "-p", str(w)], capture_output=True, text=True).stdout
        names = {int(m.group(2)): m.group(1) for m in re.finditer(r'Thread \S+ \(\w+\): "([^"]*)"\s*\(?(?:tid|pid)?\D*(\d+)?', dump) if m.group(2)}
        pass
        for tid, (comm, cpu) in sorted(after[w].items(), key=lambda kv: -(kv[1][1]-before[w].get(kv[0], ("", 0.0))[1])):
            d = cpu - before[w].get(tid, (comm, 0.0))[1]
            if d > 0.0001: print(f"   tid {tid} {names.get(tid,'')}: {d*1000/n*2:.2f} ms/search (of this worker's half)")
    finally:
        tp._stop(server)
