"""A --workers 2 server's CPU a search under short never-seen load, split by thread kind, with
user / system time, context switches and the query model's native CPU a text, for server
configurations run in turn, rounds interleaved (A B B A ...). (issue 39, session 8)

Each GROUP is "[TREE:]NAME=VALUE;NAME=VALUE" (or "-" / "TREE:-" for none): the server of TREE
(default: this checkout) with those environment variables, on a private copy of the index,
warmed with 8 s of never-seen short texts, then 20 closed-loop light clients for SECONDS.
Threads are named by `py-spy dump` (request threads, batcher, deferred writes, main); every
other thread is native (OpenVINO's executors, ...). From /proc before and after.
    python benchmarks/results/throughput/cpu-s8/server_threads.py INDEX SECONDS ROUNDS GROUP [GROUP ...]
"""
import json, os, shutil, subprocess, sys, tempfile, time
from collections import defaultdict
from pathlib import Path
from precedent_bench import throughput as tp
from precedent_bench.loadgen import Texts, run_clients
from precedent_bench.unseen import library_texts, unseen

index, seconds, rounds, groups = Path(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 40000)
tick = os.sysconf("SC_CLK_TCK")
repo = Path(__file__).resolve().parents[4]


def threads(pid):
    out = {}
    for t in Path(f"/proc/{pid}/task").iterdir():
        try:
            f = (t / "stat").read_text().rsplit(")", 1)[1].split()
            st = (t / "status").read_text().splitlines()
            vol = next(int(l.split()[1]) for l in st if l.startswith("voluntary_ctxt"))
            inv = next(int(l.split()[1]) for l in st if l.startswith("nonvoluntary_ctxt"))
            out[int(t.name)] = (int(f[11]) / tick, int(f[12]) / tick, vol, inv)
        except (OSError, StopIteration):
            pass
    return out


def kinds(pid):
    dump = json.loads(subprocess.run(["py-spy", "dump", "--json", "-p", str(pid)], capture_output=True, text=True).stdout or "[]")
    out = {}
    for t in dump:
        frames = t.get("frames") or []
        kind = "python: " + (t.get("thread_name") or "?")
        if any("HTTPConnection" in f["name"] or "WorkerThread" in f["name"] or "_process_connections" in f["name"] for f in frames) \
                or (t.get("thread_name") or "").startswith("CP Server"):
            kind = "python: request threads"
        if kind.startswith("python: embedding-batcher"):
            kind = "python: embedding-batcher"
        out[t["os_thread_id"]] = kind
    return out


def one(group, used):
    tree, _, setting = group.rpartition(":") if ":" in group.split("=", 1)[0] else ("", "", group)
    tree = Path(tree).resolve() if tree else repo
    env = dict(item.split("=", 1) for item in setting.split(";")) if setting not in ("-", "") else {}
    env.setdefault("PRECEDENT_EMBEDDING_ONNX_DIR", "/work/main/var/models/onnx")
    tmp = Path(tempfile.mkdtemp(prefix="server-threads-"))
    shutil.copytree(index, tmp / "index", ignore=shutil.ignore_patterns(".build.lock", "audit", "usage"))
    port = tp._free_port()
    server = tp._start(tree, tmp / "index", port, tmp / "server.log", env)
    try:
        tp._wait_ready(port, server, tmp / "server.log")
        tally = run_clients(port, Texts(iter(texts[used:used + 1500])), 20, 8)
        used += tally.sent
        kids = tp._children(server.pid)
        named = {}
        for k in kids:
            named.update(kinds(k))
        before = {p: threads(p) for p in [server.pid] + kids}
        batches, load = tp._batches(port, len(kids) or 1), os.getloadavg()[0]
        tally = run_clients(port, Texts(iter(texts[used:])), 20, seconds)
        after = {p: threads(p) for p in [server.pid] + kids}
        batches_after = tp._batches(port, len(kids) or 1)
        used += tally.sent
        n = tally.sent
        calls = sum(batches_after[k]["batches"] - batches[k]["batches"] for k in batches_after if k in batches)
        embedded = sum(batches_after[k]["texts"] - batches[k]["texts"] for k in batches_after if k in batches)
        by = defaultdict(lambda: [0.0, 0.0, 0, 0, 0])
        for p in after:
            for tid, (u, s, v, i) in after[p].items():
                b = before[p].get(tid, (0.0, 0.0, 0, 0))
                kind = "parent" if p == server.pid else named.get(tid, "native")
                row = by[kind]
                row[0] += u - b[0]; row[1] += s - b[1]; row[2] += v - b[2]; row[3] += i - b[3]
                if u + s - b[0] - b[1] > 0.001:
                    row[4] += 1
        total = sum(r[0] + r[1] for r in by.values())
        summ = tally.summary()
        rss = {k: int(Path(f"/proc/{k}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 2**20 for k in kids}
        line = {"rss_mib_by_worker": list(rss.values()), "time": time.strftime("%H:%M:%S", time.gmtime()), "group": group, "load": [round(load, 2), round(os.getloadavg()[0], 2)],
                "per_s": summ["per_s"], "p95": summ.get("p95_ms"), "sent": n, "lost": tally.lost,
                "server_ms": round(total * 1000 / n, 2), "sys_ms": round(sum(r[1] for r in by.values()) * 1000 / n, 2),
                "texts_per_search": round(embedded / n, 3) if n else None, "texts_per_call": round(embedded / calls, 2) if calls else None,
                "native_ms_per_text": round((by["native"][0] + by["native"][1]) * 1000 / embedded, 2) if embedded else None,
                "kinds": {k: {"ms": round((r[0] + r[1]) * 1000 / n, 2), "busy": r[4], "vol": round(r[2] / n, 1), "invol": round(r[3] / n, 1)}
                          for k, r in sorted(by.items(), key=lambda kv: -(kv[1][0] + kv[1][1])) if r[0] + r[1] > 0}}
        print(json.dumps(line), flush=True)
        return used
    finally:
        tp._stop(server)
        calls = [l for l in (tmp / "server.log").read_text().splitlines() if "EXP query chunks" in l]
        if calls:
            print("   ", calls[-1][-600:], flush=True)
        shutil.rmtree(tmp, ignore_errors=True)


used = 0
for r in range(rounds):
    for group in (groups if r % 2 == 0 else groups[::-1]):
        used = one(group, used)
