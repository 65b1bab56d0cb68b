"""Where a worker's Python time goes under short never-seen load on this branch (issue 39,
session 8): py-spy on one worker of a --workers 2 server, only samples of a thread holding the
GIL (--gil: Python running, not waiting), 100 Hz, SECONDS; functions by inclusive share of
samples. Lever 3's question: anything >= 0.5 ms a search (~3.5% of ~14 ms) that need not be on
the request path.
    python benchmarks/results/throughput/cpu-s8/pyspy_gil.py INDEX SECONDS
"""
import collections, os, shutil, subprocess, sys, tempfile, threading, time
from pathlib import Path
from precedent_bench import throughput as tp
from precedent_bench.loadgen import Texts, run_clients
from precedent_bench.unseen import library_texts, unseen

index, seconds = Path(sys.argv[1]), float(sys.argv[2])
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 40000)
repo = Path(__file__).resolve().parents[4]
tmp = Path(tempfile.mkdtemp(prefix="pyspy-"))
shutil.copytree(index, tmp / "index", ignore=shutil.ignore_patterns(".build.lock", "audit", "usage"))
port = tp._free_port()
server = tp._start(repo, tmp / "index", port, tmp / "server.log", {"PRECEDENT_EMBEDDING_ONNX_DIR": "/work/main/var/models/onnx"})
try:
    tp._wait_ready(port, server, tmp / "server.log")
    run_clients(port, Texts(iter(texts[:1500])), 20, 8)
    worker = tp._children(server.pid)[0]
    raw = tmp / "raw.txt"
    spy = subprocess.Popen(["py-spy", "record", "--gil", "--format", "raw", "-r", "100", "-d", str(int(seconds)),
                            "-o", str(raw), "-p", str(worker), "--nonblocking"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tally = run_clients(port, Texts(iter(texts[1500:])), 20, seconds + 2)
    spy.wait()
finally:
    tp._stop(server)
inclusive, own, total = collections.Counter(), collections.Counter(), 0
for line in raw.read_text().splitlines():
    stack, _, count = line.rpartition(" ")
    n = int(count); total += n
    frames = [f.split(" (")[0] + " (" + f.split(" (")[1].split(":")[0].rsplit("/", 1)[-1] + ")" if " (" in f else f for f in stack.split(";")]
    for f in set(frames):
        inclusive[f] += n
    own[frames[-1]] += n
print(time.strftime("%H:%M UTC", time.gmtime()), "load", round(os.getloadavg()[0], 2), "GIL-holding samples", total, "searches/s (both workers)", tally.summary()["per_s"])
print("inclusive share of GIL-holding samples (top 45):")
for f, n in inclusive.most_common(45):
    print(f"  {100 * n / total:5.1f}%  {f}")
print("own (top 20):")
for f, n in own.most_common(20):
    print(f"  {100 * n / total:5.1f}%  {f}")
shutil.rmtree(tmp, ignore_errors=True)
