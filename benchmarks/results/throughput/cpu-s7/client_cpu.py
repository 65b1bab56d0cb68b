"""The load client's own CPU a request, old against light, and the connections it opens
(issue 39, session 7).

Starts one server of this tree on a private copy of the index (as `precedent-bench
throughput` does), warms it, then runs the load client (20 closed-loop threads, never-seen
short texts) ROUNDS times, alternating the old client (precedent_bench/loadgen.py of the
frozen tree OLD: http.client, json.loads of every answer) and this tree's light one: the
client process's CPU a request (os.times, as the benchmark reports it), the server's (from
/proc), and the TCP connections each opened.
    python benchmarks/results/throughput/cpu-s7/client_cpu.py INDEX OLD_TREE SECONDS ROUNDS
"""
import http.client, importlib.util, json, os, sys, tempfile, time, shutil
from pathlib import Path
from precedent_bench import loadgen
from precedent_bench.throughput import _start, _wait_ready, _stop, _free_port, _cpu_seconds
from precedent_bench.unseen import library_texts, unseen

index, old_tree, seconds, rounds = Path(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
spec = importlib.util.spec_from_file_location("old_loadgen", old_tree / "precedent_bench/loadgen.py")
old = importlib.util.module_from_spec(spec); sys.modules["old_loadgen"] = old; spec.loader.exec_module(old)
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 30000)
connects = [0]
real_connect, real_init = http.client.HTTPConnection.connect, loadgen.Connection.__init__
def counting_connect(self):
    connects[0] += 1
    return real_connect(self)
def counting_init(self, *a, **k):
    connects[0] += 1
    return real_init(self, *a, **k)
http.client.HTTPConnection.connect = counting_connect
loadgen.Connection.__init__ = counting_init
tmp = Path(tempfile.mkdtemp(prefix="client-cpu-"))
shutil.copytree(index, tmp / "index", ignore=shutil.ignore_patterns(".build.lock", "audit", "usage"))
port = _free_port()
repo = Path(__file__).resolve().parents[4]
server = _start(repo, tmp / "index", port, tmp / "server.log", {})
try:
    _wait_ready(port, server, tmp / "server.log")
    loadgen.run_clients(port, loadgen.Texts(iter(texts[:1500])), 20, 8)
    used = 2000
    for round_ in range(rounds):
        name, module = ("old", old) if round_ % 2 == 0 else ("light", loadgen)
        connects[0] = 0
        t0 = os.times(); s0 = _cpu_seconds(server.pid); load = os.getloadavg()[0]
        tally = module.run_clients(port, module.Texts(iter(texts[used:])), 20, seconds)
        t1 = os.times(); s1 = _cpu_seconds(server.pid)
        used += tally.sent
        print(time.strftime("%H:%M:%S UTC", time.gmtime()), name, "load", round(load, 2), "/", round(os.getloadavg()[0], 2),
              "sent", tally.sent, "lost", tally.lost, "per_s", tally.summary()["per_s"], "connections opened", connects[0],
              "client CPU ms/request", round(((t1.user + t1.system) - (t0.user + t0.system)) * 1000 / tally.sent, 3),
              "server CPU ms/request", round((s1 - s0) * 1000 / tally.sent, 2), flush=True)
finally:
    _stop(server)
    shutil.rmtree(tmp, ignore_errors=True)
