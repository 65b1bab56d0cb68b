"""`precedent-bench throughput`: searches a second for text never searched before, A B B A.

    precedent-bench throughput --baseline /work/wt/baseline-d13a156 --index var/acord-index \\
        --out benchmarks/results/throughput

Two code trees (A = ``--baseline``, B = ``--candidate``, by default this checkout) each serve
a private copy of the same index with ``addin-server serve`` on loopback, in the order
A B B A so a shared machine's drift falls on both alike. Each server, as shipped (audit
trail and usage feedback on; rate limits and the LLM off, requests ``rerank: false``):

1. **short**: ``--clients`` closed-loop clients for ``--seconds``, each request a 6-12-word
   run of the library's text never sent to this server before (precedent_bench/unseen.py);
2. **clause**: the same with whole clauses (~120 words);
3. **repeated** (shown beside, labelled): 200 texts, each searched once first, then drawn
   at random: what the result and vector caches make of a selection searched again;
4. **burst**: ``--burst-clients`` clients at once, short never-seen texts: requests lost
   (no HTTP answer) are counted; a 503 with Retry-After is an answer;
5. **crash**: a fresh server on the same index copy under ``--clients`` clients is killed
   (SIGKILL, every process of it: the parent and its workers at once) ``--seconds`` / 2 in,
   then started again; every search it had answered must have its usage record (the
   ``list_id`` the answer named) and its audit line (by the query's hash);
6. **crash-worker** (not run unless named): the same, but only one worker process of a
   multi-process server (``PRECEDENT_WORKERS``) is killed; the clients go on, the parent
   starts another worker, and nothing any worker answered may be missing after.

After each server, the **embedding floor**: that tree's query model alone, fed never-seen
texts of the same shapes in batches of 32, one model call per core at once; the report
prints served/floor. The load average is recorded before and after every step.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import logging
import os
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from precedent_bench.loadgen import Texts, run_clients
from precedent_bench.unseen import cycle, library_texts, repeated, unseen, words

log = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parents[1]
SERVER_ENV = {
    "PRECEDENT_RATE_LIMIT": "off",  # every client is the same anonymous user here
    "PRECEDENT_REDRAFT_RATE_LIMIT": "off",
    "PRECEDENT_FOLLOW_RATE_LIMIT": "off",
    "PRECEDENT_LOCAL_LLM": "off",
    "PRECEDENT_RERANK_DEFAULT": "off",
    "PRECEDENT_INDEX_RELOAD_S": "0",
    "HF_HUB_OFFLINE": "1",
    "TOKENIZERS_PARALLELISM": "false",
}
PHASES = ("short", "clause", "repeated", "burst", "crash", "crash-worker")
DEFAULT_PHASES = PHASES[:5]
FLOOR_TEXTS = 400  # the last texts of each shape are the floor's
WARM_TEXTS = 2000  # the ones before them warm each server up

# The floor: a tree's query model as its server loads it, alone, batched; run in that tree.
FLOOR = r"""
import json, os, sys, time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from index_builder.settings import load_settings
from index_builder.index.embed_cache import set_torch_threads
from index_builder.index import embedder as emb
try:
    from index_builder.index import load_embedder  # where it lives since issue 41
except ImportError:
    load_embedder = emb.load_embedder
settings = load_settings(overrides={"index_dir": sys.argv[1]}).embedding
query = getattr(emb, "query_settings", lambda s: s)(settings)
workers = os.cpu_count() or 1  # the model's best on these cores: one call per core at once
if query.backend != "torch":
    query = replace(query, threads=max(query.threads, workers))  # one OpenVINO stream each
set_torch_threads(1)  # as the server sets it
model = load_embedder(query)
texts = json.loads(open(sys.argv[2]).read())
batch = int(sys.argv[3])
model.embed(texts[:batch])  # warm
batches = [texts[start:start + batch] for start in range(0, len(texts), batch)]
began = time.perf_counter()
with ThreadPoolExecutor(workers) as pool:
    list(pool.map(model.embed, batches))
seconds = time.perf_counter() - began
print(json.dumps({"model_id": model.model_id, "texts": len(texts), "per_s": len(texts) / seconds,
                  "workers": workers}))
"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("throughput", help="searches/s for never-seen texts, two code trees A B B A "
                                          "(results in benchmarks/results/throughput/)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--baseline", type=Path, required=True, help="code tree A (e.g. a checkout of main)")
    p.add_argument("--candidate", type=Path, default=REPO, help="code tree B (default: this one)")
    p.add_argument("--index", type=Path, default=Path("var/acord-index"))
    p.add_argument("--acord", type=Path, default=REPO.parent / "shared/data/acord")
    p.add_argument("--contracts", type=Path, default=REPO.parent / "shared/data/contracts")
    p.add_argument("--clients", type=int, default=20)
    p.add_argument("--seconds", type=float, default=30.0, help="per phase")
    p.add_argument("--burst-clients", type=int, default=60)
    p.add_argument("--burst-seconds", type=float, default=20.0)
    p.add_argument("--phases", default=",".join(DEFAULT_PHASES), help=f"among {','.join(PHASES)}")
    p.add_argument("--order", default="ABBA", help="servers in this order (e.g. ABBA, AB, B)")
    p.add_argument("--floor-texts", type=int, default=FLOOR_TEXTS,
                   help="short texts for the floor (clauses: a fifth)")
    p.add_argument("--warm-seconds", type=float, default=30.0,
                   help="never-seen searches before the measured ones (not measured)")
    p.add_argument("--env", nargs="*", default=[], metavar="NAME=VALUE",
                   help="extra server environment for B only (e.g. PRECEDENT_QUERY_BATCH=0)")
    p.add_argument("--out", type=Path, help="folder for README table rows and raw JSON")
    p.set_defaults(handler="precedent_bench.throughput:run_command", ab=False)


def run_command(args: argparse.Namespace) -> int:
    phases = [p for p in args.phases.split(",") if p]
    unknown = set(phases) - set(PHASES)
    if unknown:
        raise SystemExit(f"unknown phase(s) {', '.join(sorted(unknown))}: use {', '.join(PHASES)}")
    trees = {"A": args.baseline.resolve(), "B": args.candidate.resolve()}
    library = library_texts(args.acord, args.contracts)
    texts = {"short": unseen(library, "short", 40_000), "clause": unseen(library, "clause", 5_000)}
    log.info("Never-seen texts: short %d (%.1f words), clause %d (%.1f words)",
             len(texts["short"]), words(texts["short"]), len(texts["clause"]), words(texts["clause"]))
    extra_env = dict(item.split("=", 1) for item in args.env)
    runs: list[dict[str, Any]] = []
    floors: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="throughput-") as tmp:
        floor_file = Path(tmp) / "floor.json"
        for number, name in enumerate(args.order, 1):
            tree = trees[name]
            env = extra_env if name == "B" else {}
            run = _serve_and_measure(tree, args, phases, texts, Path(tmp) / f"{number}-{name}", env)
            runs.append({"run": number, "code": name, "tree": str(tree), **run})
            log.info("run %d (%s): %s", number, name,
                     {k: v.get("per_s") for k, v in run["phases"].items()})
            # Right after the server, so both see the same minute of a shared machine: the
            # tree's query model alone on never-seen texts of the same shapes, batched.
            for shape in [p for p in ("short", "clause") if p in phases]:
                count = min(args.floor_texts, FLOOR_TEXTS) // (1 if shape == "short" else 5)
                floor_file.write_text(json.dumps(texts[shape][-count:]))
                floors.append({"run": number, "code": name, "shape": shape,
                               **_floor(tree, args.index, floor_file, env)})
                log.info("floor %s %s: %s", name, shape, floors[-1])
    result = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cores": os.cpu_count(),
              "clients": args.clients, "seconds": args.seconds, "burst_clients": args.burst_clients,
              "texts": {k: {"count": len(v), "mean_words": round(words(v), 1)} for k, v in texts.items()},
              "trees": {k: str(v) for k, v in trees.items()}, "commits": {k: _commit(v) for k, v in trees.items()},
              "candidate_env": extra_env, "runs": runs, "floors": floors}
    table = report(result)
    sys.stdout.write(table + "\n")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M", time.gmtime())
        (args.out / f"throughput-{stamp}.json").write_text(json.dumps(result, indent=1))
        (args.out / f"throughput-{stamp}.md").write_text(table + "\n")
        sys.stdout.write(f"wrote {args.out}/throughput-{stamp}.json and .md\n")
    return 0


def _serve_and_measure(tree: Path, args: argparse.Namespace, phases: list[str],
                       texts: dict[str, list[str]], folder: Path, env: dict[str, str]) -> dict[str, Any]:
    folder.mkdir(parents=True)
    index = folder / "index"
    shutil.copytree(args.index, index, ignore=shutil.ignore_patterns(".build.lock", "audit", "usage"))
    port = _free_port()
    server = _start(tree, index, port, folder / "server.log", env)
    try:
        _wait_ready(port, server, folder / "server.log")
        # Not measured: a server that has been in use. Never-seen texts apart from the measured
        # ones (and from the floor's), so the library's own caches (its clauses' terms,
        # sentences and words) are as warm as a day's searching leaves them.
        for shape in ("short", "clause"):
            run_clients(port, Texts(iter(texts[shape][-(WARM_TEXTS + FLOOR_TEXTS):-FLOOR_TEXTS])),
                        args.clients, args.warm_seconds / 2)
        measured: dict[str, Any] = {}
        used = {"short": 0, "clause": 0}
        for phase in [p for p in phases if not p.startswith("crash")]:
            # Asked before the CPU is read (and after it, below): /health's own CPU stays out.
            batches = _batches(port, len(_children(server.pid)) or 1)
            load = os.getloadavg()[0]
            cpu = _cpu_seconds(server.pid)
            per_worker = {child: _cpu_seconds(child) for child in _children(server.pid)}
            clients_cpu = _own_cpu_seconds()
            if phase in ("short", "clause"):
                source = Texts(iter(texts[phase][used[phase]:]))
                tally = run_clients(port, source, args.clients, args.seconds)
                used[phase] += tally.sent
            elif phase == "repeated":
                mix = repeated(args.acord)
                run_clients(port, Texts(iter(mix)), 4, 600)  # each once first: "searched before"
                cpu = _cpu_seconds(server.pid)
                clients_cpu = _own_cpu_seconds()
                tally = run_clients(port, Texts(cycle(mix)), args.clients, args.seconds)
            else:  # burst: everyone at once, nobody staggered
                source = Texts(iter(texts["short"][used["short"]:]))
                tally = run_clients(port, source, args.burst_clients, args.burst_seconds, stagger_s=0)
                used["short"] += tally.sent
            summary = tally.summary()
            cpu_used = _cpu_seconds(server.pid) - cpu
            summary["server_cpu_ms_per_request"] = round(cpu_used * 1000 / max(tally.sent, 1), 1)
            if per_worker:  # how evenly a multi-process server's workers shared the phase
                summary["worker_cpu_share"] = [round((_cpu_seconds(child) - before) / max(cpu_used, 1e-9), 2)
                                               for child, before in per_worker.items()]
            # The load generator's clients share the server's cores: their CPU, said beside it.
            summary["client_cpu_ms_per_request"] = round(
                (_own_cpu_seconds() - clients_cpu) * 1000 / max(tally.sent, 1), 2)
            # How many texts each model call embedded (the model's cost a text falls from ~6 to
            # ~3 ms as batches grow from 1 to 4): texts / calls over the phase, all workers.
            after = _batches(port, len(per_worker) or 1)
            calls = sum(after[n]["batches"] - batches[n]["batches"] for n in after if n in batches)
            embedded = sum(after[n]["texts"] - batches[n]["texts"] for n in after if n in batches)
            summary["mean_batch"] = round(embedded / calls, 2) if calls else None
            summary["load_before"] = round(load, 2)
            summary["load_after"] = round(os.getloadavg()[0], 2)
            measured[phase] = summary
        health = _health(port)
    finally:
        _stop(server)
    if "crash" in phases:
        measured["crash"] = _crash(tree, args, index, folder, texts["short"][used["short"]:], env)
        used["short"] += measured["crash"].pop("sent")
    if "crash-worker" in phases:
        measured["crash-worker"] = _crash(tree, args, index, folder, texts["short"][used["short"]:],
                                          env, one_worker=True)
        measured["crash-worker"].pop("sent")
    return {"phases": measured, "health": health}


def _crash(tree: Path, args: argparse.Namespace, index: Path, folder: Path, texts: list[str],
           env: dict[str, str], one_worker: bool = False) -> dict[str, Any]:
    """Kill -9 a server under load (every process of it), start it again, and look for every
    answered search's usage record and audit line. ``one_worker``: kill one worker process
    only, let the clients go on while the parent starts another, then stop the server."""
    name = "crash-worker" if one_worker else "crash"
    port = _free_port()
    server = _start(tree, index, port, folder / f"{name}-server.log", env)
    load = os.getloadavg()[0]
    killed: list[int] = []
    restarted = None
    try:
        _wait_ready(port, server, folder / f"{name}-server.log")
        workers = _children(server.pid)
        if one_worker and not workers:
            return {"answered": 0, "in_flight_when_killed": 0, "usage_missing": None,
                    "audit_missing": None, "replayed_at_restart": None, "sent": 0,
                    "processes_killed": 0, "note": "one process: no worker to kill",
                    "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2)}
        stop = threading.Event()
        done: dict[str, Any] = {}
        clients = threading.Thread(target=lambda: done.setdefault("tally", run_clients(
            port, Texts(iter(texts)), args.clients, args.seconds * 4, keep=True, stop=stop)))
        clients.start()
        time.sleep(args.seconds / 2)
        if one_worker:
            killed = [min(workers)]
            os.kill(killed[0], signal.SIGKILL)
            restarted = _wait_restarted(port, server.pid, killed[0], len(workers), 120)
            time.sleep(args.seconds / 2)  # the clients go on against the restarted server
            stop.set()
            clients.join(120)
        else:
            stop.set()  # no client starts another request: those sent now are in flight
            killed = [server.pid, *workers]
            for pid in killed:  # the whole server at once, as a power cut or the OOM killer would
                os.kill(pid, signal.SIGKILL)
            server.wait(30)
            clients.join(120)
    finally:
        _stop(server)
    tally = done["tally"]
    health: dict[str, Any] = {}
    if not one_worker:
        port = _free_port()
        again = _start(tree, index, port, folder / "crash-restart.log", env)
        try:
            _wait_ready(port, again, folder / "crash-restart.log")  # replays what the killed one left
            health = _health(port)
        finally:
            _stop(again)
    stored = _stored_lists(folder / "usage" / "usage.sqlite")
    audited = _audited_queries(folder / "audit")
    answered = tally.answers
    return {"answered": len(answered), "in_flight_when_killed": tally.lost, "sent": tally.sent,
            "usage_missing": sum(1 for _, list_id in answered if list_id not in stored),
            "audit_missing": sum(1 for text, _ in answered
                                 if not _audited_as(text, audited, folder)),
            "replayed_at_restart": ((health.get("feedback") or {}).get("deferred") or {}).get("recovered"),
            "processes_killed": len(killed), **({"worker_restarted_s": restarted} if one_worker else {}),
            "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2)}


def _children(pid: int) -> list[int]:
    """The worker processes of a server (its children), from /proc; [] where there is none."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return sorted(found)


def _wait_restarted(port: int, parent: int, killed: int, count: int, timeout: float) -> float | None:
    """Seconds until the parent has ``count`` workers again, none of them ``killed``, all
    serving (/health)."""
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        now = _children(parent)
        if killed not in now and len(now) == count and \
                (_health_server(port).get("serving") or 0) >= count:
            return round(time.monotonic() - began, 1)
        time.sleep(0.2)
    return None


def _health_server(port: int) -> dict[str, Any]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=10) as r:
            return json.loads(r.read()).get("server") or {}
    except (OSError, ValueError):
        return {}


def _stored_lists(database: Path) -> set[str]:
    with sqlite3.connect(database) as db:
        return {row[0] for row in db.execute("SELECT list_id FROM shown_lists")}


def _audited_queries(folder: Path) -> set[str]:
    found = set()
    for path in folder.glob("audit.jsonl*"):
        for line in path.read_text("utf-8").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("route") == "/api/v1/precedents" and entry.get("status") == 200:
                found.add(entry.get("query_hmac") or entry.get("query_sha256"))
    return found


def _audited_as(text: str, audited: set[str], folder: Path) -> bool:
    """Whether the trail holds ``text``: by its keyed hash (the key the server made in
    keys/ beside the index), or by plain SHA-256 in a tree from before the key."""
    if hashlib.sha256(text.encode()).hexdigest() in audited:
        return True
    key_file = folder / "keys" / "audit-query.key"
    return key_file.is_file() and \
        hmac.new(bytes.fromhex(key_file.read_text()), text.encode(), hashlib.sha256).hexdigest() in audited


def _start(tree: Path, index: Path, port: int, log_file: Path, env: dict[str, str]) -> subprocess.Popen:
    full_env = {**os.environ, **SERVER_ENV, **env, "PYTHONPATH": str(tree)}
    command = [sys.executable, "-m", "addin_server.cli", "serve", "--index", str(index),
               "--host", "127.0.0.1", "--port", str(port)]
    # From the tree's folder, so nothing of this checkout shadows the tree's code.
    return subprocess.Popen(command, env=full_env, cwd=tree, stdout=open(log_file, "wb"),
                            stderr=subprocess.STDOUT)


def _wait_ready(port: int, server: subprocess.Popen, log_file: Path, timeout: float = 600) -> None:
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if server.poll() is not None:
            raise SystemExit(f"the server exited:\n{log_file.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=5) as r:
                serving = (json.loads(r.read()).get("server") or {}) if r.status == 200 else None
                # A multi-process server: every worker serving, or the first takes every client.
                if serving is not None and serving.get("serving", 1) >= serving.get("processes", 1):
                    return
        except (OSError, ValueError):
            pass
        time.sleep(0.5)
    raise SystemExit(f"the server did not answer in {timeout:.0f} s:\n{log_file.read_text()[-3000:]}")


def _batches(port: int, processes: int, tries: int = 20) -> dict[int, dict[str, int]]:
    """Each server process's query-batcher counts (/health's index.query_batches, by process),
    asked on fresh connections until every process has answered (or ``tries`` run out); {}
    from a tree whose /health does not say them."""
    found: dict[int, dict[str, int]] = {}
    for _ in range(tries):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=10) as r:
                counts = (json.loads(r.read()).get("index") or {}).get("query_batches")
        except (OSError, ValueError):
            counts = None
        if not counts:
            return found
        found[counts["process"]] = counts
        if len(found) >= processes:
            break
    return found


def _health(port: int) -> dict[str, Any]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=10) as r:
            body = json.loads(r.read())
    except (OSError, ValueError):
        return {}
    index = body.get("index", {})
    return {"embedding_model": index.get("embedding_model"), "query_model": index.get("query_model"),
            "feedback": body.get("feedback")}


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(10)


def _floor(tree: Path, index: Path, texts: Path, env: dict[str, str]) -> dict[str, Any]:
    full_env = {**os.environ, **SERVER_ENV, **env, "PYTHONPATH": str(tree), "OMP_NUM_THREADS": "1"}
    load = os.getloadavg()[0]
    done = subprocess.run([sys.executable, "-c", FLOOR, str(index.resolve()), str(texts), "32"],
                          env=full_env, cwd=tree, capture_output=True, text=True, timeout=1800)
    if done.returncode:
        raise SystemExit(f"the floor failed in {tree}:\n{done.stderr[-3000:]}")
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "load_before": round(load, 2),
            "load_after": round(os.getloadavg()[0], 2)}


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of a server, from /proc: its process, its worker processes (a
    multi-process server's children) and the workers it has reaped (0 where there is none)."""
    total = 0.0
    for number, own in ((pid, True), *((child, False) for child in _children(pid))):
        try:
            fields = Path(f"/proc/{number}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12]) + ((int(fields[13]) + int(fields[14])) if own else 0)
    return total / os.sysconf("SC_CLK_TCK")


def _own_cpu_seconds() -> float:
    """User + system CPU of this process (its client threads, while a phase runs)."""
    times = os.times()
    return times.user + times.system


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _commit(tree: Path) -> str:
    done = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return (done.stdout.strip() or "?") + ("+uncommitted" if dirty else "")


# --- the report --------------------------------------------------------------------------

def report(result: dict[str, Any]) -> str:
    """Per-run rows, then medians per tree, the ratio B/A and served/floor."""
    lines = [f"Never-seen texts, {result['when']}, {result['cores']} cores; {result['clients']} "
             f"closed-loop clients, {result['seconds']:.0f} s a phase; A = {result['commits']['A']}, "
             f"B = {result['commits']['B']}" + (f" with {result['candidate_env']}" if result['candidate_env'] else "")
             + f"; texts: short {result['texts']['short']['mean_words']} words, clause "
             f"{result['texts']['clause']['mean_words']} words.", "",
             "| run | code | phase | searches/s | p50 ms | p95 ms | server search p50 ms | server CPU ms/request | "
             "clients' CPU ms/request | texts a model call | sent | 503 + Retry-After | lost | load before / after |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for run in result["runs"]:
        for phase, s in run["phases"].items():
            if phase.startswith("crash"):
                continue
            lines.append(f"| {run['run']} | {run['code']} | {phase} | {s['per_s']} | {s['p50_ms']} | "
                         f"{s['p95_ms']} | {s['server_p50_ms']} | {s['server_cpu_ms_per_request']} | "
                         f"{s.get('client_cpu_ms_per_request', '')} | {_num(s.get('mean_batch'))} | {s['sent']} | {s['busy_with_retry_after']} | {s['lost']} | "
                         f"{s['load_before']} / {s['load_after']} |")
    floors: dict[tuple[str, str], list[float]] = {}
    for f in result["floors"]:
        floors.setdefault((f["code"], f["shape"]), []).append(f["per_s"])
    lines += ["", "| phase | A searches/s (median) | B searches/s (median) | B / A | A p95 ms | B p95 ms | "
              "floor A texts/s | floor B texts/s | served / floor, A | served / floor, B | lost A / B |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    phases = list(dict.fromkeys(p for run in result["runs"] for p in run["phases"] if not p.startswith("crash")))
    for phase in phases:
        cells = {}
        for code in ("A", "B"):
            mine = [run["phases"][phase] for run in result["runs"] if run["code"] == code and phase in run["phases"]]
            cells[code] = (statistics.median(s["per_s"] for s in mine) if mine else None,
                           statistics.median(s["p95_ms"] or 0 for s in mine) if mine else None,
                           sum(s["lost"] for s in mine) if mine else None)
        ratio = (f"{cells['B'][0] / cells['A'][0]:.2f}x" if cells["A"][0] and cells["B"][0] else "")
        shape = phase if phase in ("short", "clause") else ("short" if phase == "burst" else "")
        floor = {c: statistics.median(floors[(c, shape)]) if (c, shape) in floors else None
                 for c in ("A", "B")}
        served = {c: (f"{cells[c][0] / floor[c]:.2f}" if cells[c][0] and floor[c] else "") for c in ("A", "B")}
        label = "repeated texts (200, searched before)" if phase == "repeated" else phase
        lines.append(f"| {label} | {_num(cells['A'][0])} | {_num(cells['B'][0])} | {ratio} | "
                     f"{_num(cells['A'][1])} | {_num(cells['B'][1])} | {_num(floor['A'])} | "
                     f"{_num(floor['B'])} | {served['A']} | {served['B']} | "
                     f"{cells['A'][2]} / {cells['B'][2]} |")
    crashes = [(run["run"], run["code"], phase, run["phases"][phase]) for run in result["runs"]
               for phase in ("crash", "crash-worker") if phase in run["phases"]]
    if crashes:
        lines += ["", "| run | code | killed -9 under load | processes killed | searches answered | lost (in flight) | "
                  "usage records missing | audit lines missing | records replayed at restart | worker back after s | load |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        lines += [f"| {n} | {code} | {'one worker' if phase == 'crash-worker' else 'the server'} | "
                  f"{c.get('processes_killed', 1)} | {c['answered']} | {c['in_flight_when_killed']} | {c['usage_missing']} | "
                  f"{c['audit_missing']} | {c['replayed_at_restart']} | {c.get('worker_restarted_s', '')} | "
                  f"{c['load_before']} / {c['load_after']} |"
                  for n, code, phase, c in crashes]
    lines += ["", "Floors (the query model alone, batches of 32, a call per core, right after each server): " + "; ".join(
        f"run {f['run']} {f['code']} {f['shape']} {f['model_id']} {f['per_s']:.1f} texts/s "
        f"(load {f['load_before']} / {f['load_after']})" for f in result["floors"])]
    return "\n".join(lines)


def _num(value: Any) -> str:
    return "" if value is None else f"{value:.1f}"
