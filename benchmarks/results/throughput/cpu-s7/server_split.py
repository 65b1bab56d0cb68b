"""A server's CPU a search split into user and system time, with its context switches,
for server settings given in turn (issue 39, session 7).

For each NAME=VALUE[;NAME=VALUE] setting group (or "-" for none), in the order given: one
server of this tree on a private copy of the index, warmed with never-seen short texts,
then 20 closed-loop clients (precedent_bench/loadgen.py) for SECONDS; from /proc, the
server's (parent + workers) user and system CPU a search and its threads' voluntary and
involuntary context switches a search; the batcher's texts a model call from /health.
    python benchmarks/results/throughput/cpu-s7/server_split.py INDEX SECONDS GROUP [GROUP ...]
"""
import json, os, sys, tempfile, time, shutil, urllib.request
from pathlib import Path
from precedent_bench.loadgen import Texts, run_clients
from precedent_bench.throughput import _start, _wait_ready, _stop, _free_port, _children, _batches
from precedent_bench.unseen import library_texts, unseen

index, seconds, groups = Path(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 40000)
tick = os.sysconf("SC_CLK_TCK")
repo = Path(__file__).resolve().parents[4]


def snapshot(pid):
    user = system = vol = invol = 0
    for number in (pid, *_children(pid)):
        fields = Path(f"/proc/{number}/stat").read_text().rsplit(")", 1)[1].split()
        user += int(fields[11]); system += int(fields[12])
        for task in Path(f"/proc/{number}/task").iterdir():
            try:
                status = (task / "status").read_text()
            except OSError:
                continue
            for line in status.splitlines():
                if line.startswith("voluntary_ctxt_switches"):
                    vol += int(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches"):
                    invol += int(line.split()[1])
    return user / tick, system / tick, vol, invol


used = 0
for group in groups:
    env = dict(item.split("=", 1) for item in group.split(";")) if group != "-" else {}
    tmp = Path(tempfile.mkdtemp(prefix="server-split-"))
    shutil.copytree(index, tmp / "index", ignore=shutil.ignore_patterns(".build.lock", "audit", "usage"))
    port = _free_port()
    server = _start(repo, tmp / "index", port, tmp / "server.log", env)
    try:
        _wait_ready(port, server, tmp / "server.log")
        tally = run_clients(port, Texts(iter(texts[used:used + 1500])), 20, 8)
        used += tally.sent
        workers = len(_children(server.pid)) or 1
        before, batches, load = snapshot(server.pid), _batches(port, workers), os.getloadavg()[0]
        tally = run_clients(port, Texts(iter(texts[used:])), 20, seconds)
        after, batches_after = snapshot(server.pid), _batches(port, workers)
        used += tally.sent
        calls = sum(batches_after[n]["batches"] - batches[n]["batches"] for n in batches_after if n in batches)
        embedded = sum(batches_after[n]["texts"] - batches[n]["texts"] for n in batches_after if n in batches)
        n = tally.sent
        print(time.strftime("%H:%M:%S UTC", time.gmtime()), group, "load", round(load, 2), "/", round(os.getloadavg()[0], 2),
              "per_s", tally.summary()["per_s"], "p95", tally.summary()["p95_ms"], "sent", n, "lost", tally.lost,
              "server CPU ms/search user", round((after[0] - before[0]) * 1000 / n, 2),
              "system", round((after[1] - before[1]) * 1000 / n, 2),
              "total", round((after[0] + after[1] - before[0] - before[1]) * 1000 / n, 2),
              "ctx switches/search vol", round((after[2] - before[2]) / n, 1), "invol", round((after[3] - before[3]) / n, 1),
              "texts a model call", round(embedded / calls, 2) if calls else None, flush=True)
    finally:
        _stop(server)
        compiled = [line.split(":", 3)[-1].strip() for line in (tmp / "server.log").read_text().splitlines()
                    if "Compiled the query model" in line]
        if compiled:
            print("   ", len(compiled), "fixed-shape compiles:", "; ".join(sorted(set(compiled))))
        shutil.rmtree(tmp, ignore_errors=True)
