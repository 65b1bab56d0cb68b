"""Load and fault benchmark: a real cheroot server on loopback under many concurrent panes.

    precedent-bench load --index var/acord-index --out benchmarks/results/load-fault/load_fault.md

Each scenario starts two fresh processes: the scripted OpenAI-compatible LLM
(addin_server/llm/scripted.py) and the server (cheroot + the app over a private copy of the
index). Client threads in this process then act as lawyers for ``--seconds``: each sends
one kind of request (search, search with LLM rerank, redraft), reads the answer, pauses
like a reader (``--think``), and sends the next. Scenarios:

- ``healthy``: every LLM call answers (rerank 0.2 s, redraft 2 s).
- ``failing``: about half the LLM calls fail: HTTP 500, 429 with Retry-After, 8-second
  hangs (past the 5 s attempt timeout), 200s with a garbage body; the rest answer as
  healthy.
- ``swap``: the failing LLM, and ``--swap-at`` seconds in ``index-builder build`` adds a
  contract to the index copy; the server swaps the new version in without a restart (a
  monitor polls /api/v1/health for the live version). The run lasts until the new version
  has served for 10 s.
- ``search``: searches only (no LLM), closed loop without pauses: throughput.

Searches and reranks pause ``--think`` seconds on average between requests, redrafts
``--redraft-think`` (a lawyer reads a redraft before asking for another).

Per scenario it prints requests, status codes, p50/p95 per kind, requests lost (no HTTP
answer) or hung (no answer within the kind's deadline), the breaker's and the index's
state. The load average is recorded beside the figures: the machine is shared.

The clients and the /health monitor are in load_clients.py; the scripted LLM, the server's
settings and the mid-run rebuild in load_stack.py (soak.py runs those too).
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import os
import platform
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from precedent_bench.catalogue import subparser
from precedent_bench.common import data, indexes, servers
from precedent_bench.common.data import Workload
from precedent_bench.common.machine import cpu_seconds, load_average, percentile, tcp_counters
from precedent_bench.serving.load_clients import DEADLINE_S, KINDS, Client, Monitor, Record
from precedent_bench.serving.load_stack import _llm_process, _rebuild, server_overrides

log = logging.getLogger("load_fault")


# --- one scenario ------------------------------------------------------------------------

@dataclass
class Result:
    name: str
    seconds: float
    records: list[Record]
    load_before: str
    load_after: str
    t0: float = 0.0
    versions: list[tuple[float, str]] = field(default_factory=list)
    swap_at: float | None = None
    swap_seconds: float | None = None
    swap_rc: int | None = None
    health_errors: int = 0
    server_cpu_s: float = 0.0
    drain_s: float = 0.0
    tcp: dict[str, int] = field(default_factory=dict)  # kernel counters during the run
    clients: int = 0


def run_scenario(name: str, args: argparse.Namespace, work: Workload, index_dir: Path) -> Result:
    processes = []
    llm_url = ""
    try:
        if name != "search":
            mode = "healthy" if name == "healthy" else "failing"
            llm, llm_url = servers.spawn(_llm_process, mode, args.seed, timeout_s=60)
            processes.append(llm)
        server, port = servers.spawn(servers.serve_index, server_overrides(index_dir, llm_url, args.threads),
                                     args.server_env, True)
        processes.append(server)
        _warm_up(port, work, args.warm)
        load_before = load_average()
        cpu_before = cpu_seconds(server.pid)
        tcp_before = tcp_counters()
        records: list[Record] = []
        t0 = time.monotonic()
        until = t0 + args.seconds
        if name == "search":
            kinds = ["search"] * args.search_clients
        else:
            kinds = (["search"] * args.search_clients + ["rerank"] * args.rerank_clients
                     + ["redraft"] * args.redraft_clients)
        swapping = name == args.swap_in
        if swapping:  # until the swap has been seen (or two minutes more at most)
            until += 120.0
        clients = [Client(port, kind, args.seed * 1000 + i, work, until,
                          0.0 if name == "search" else
                          args.redraft_think if kind == "redraft" else args.think, records)
                   for i, kind in enumerate(kinds)]
        monitor = Monitor(port, until + max(DEADLINE_S.values()), t0)
        monitor.start()
        for client in clients:
            client.start()
        result = Result(name, args.seconds, records, load_before, "", t0)
        if swapping:
            time.sleep(args.swap_at)
            result.swap_at = time.monotonic() - t0
            result.swap_rc, result.swap_seconds = _rebuild(index_dir, args)
            # On a busy machine the rebuild may outlast --seconds: the load stays on until the
            # new version has served for 10 s, so the swap always happens under load.
            while len(monitor.versions) < 2 and time.monotonic() < until:
                time.sleep(0.5)
            end = t0 + max(args.seconds, monitor.versions[-1][0] + 10.0)
            for client in clients:
                client.until = min(client.until, end)
        for client in clients:
            client.join(timeout=max(DEADLINE_S.values()) + args.seconds)
        result.seconds = max(client.until for client in clients) - t0  # the load window
        result.drain_s = time.monotonic() - t0 - result.seconds  # answers still arriving after it
        result.load_after = load_average()
        result.server_cpu_s = cpu_seconds(server.pid) - cpu_before
        result.tcp = {k: v - tcp_before.get(k, 0) for k, v in tcp_counters().items()}
        result.clients = len(clients)
        monitor.until = 0
        monitor.join(timeout=15)
        result.versions, result.health_errors = monitor.versions, monitor.errors
        return result
    finally:
        for process in processes:
            servers.stop(process)


def _warm_up(port: int, work: Workload, count: int) -> None:
    """Search ``count`` workload texts first (4 at a time), like a server that has been in use."""
    texts = work.queries[:max(count, 3)]

    def warm(chunk: list[str]) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        for text in chunk:
            connection.request("POST", "/api/v1/precedents", json.dumps({"text": text, "rerank": False}),
                               {"Content-Type": "application/json"})
            connection.getresponse().read()
        connection.close()

    threads = [threading.Thread(target=warm, args=(texts[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


# --- the report -------------------------------------------------------------------------

def summarise(result: Result) -> dict[str, Any]:
    by_kind: dict[str, list[Record]] = defaultdict(list)
    for record in result.records:
        by_kind[record.kind].append(record)
    kinds = {}
    for kind, records in by_kind.items():
        answered = [r for r in records if r.status]
        half = result.seconds / 2  # the second half: caches warm, the rebuild (if any) under way
        late = [r for r in records if r.started + r.seconds - result.t0 >= half]
        kinds[kind] = {
            "requests": len(records),
            "per_s": round(len(records) / result.seconds, 2),
            "per_s_second_half": round(len(late) / half, 2),
            "codes": dict(sorted(Counter(str(r.status) if r.status else r.outcome for r in records).items())),
            "outcomes": dict(Counter(r.outcome if r.status != 200 else f"ok/{r.rerank or '-'}"
                                     for r in records)),
            "p50_ms": round(percentile([r.seconds for r in answered], 50) * 1000, 1),
            "p95_ms": round(percentile([r.seconds for r in answered], 95) * 1000, 1),
            "max_ms": round(max((r.seconds for r in answered), default=0.0) * 1000, 1),
            "server_p50_ms": round(percentile([r.server_ms for r in answered if r.server_ms is not None], 50), 1),
        }
    lost = sum(1 for r in result.records if r.outcome.startswith("lost"))
    hung = sum(1 for r in result.records if r.outcome == "hung")
    swapped_at = result.versions[1][0] if len(result.versions) > 1 else None
    after = [r for r in result.records if swapped_at is not None and r.started - result.t0 >= swapped_at]
    sent = len(result.records)
    answered = sum(1 for r in result.records if r.status)
    return {"name": result.name, "seconds": round(result.seconds, 1), "kinds": kinds,
            "clients": result.clients, "sent": sent, "answered": answered,
            "answered_200": sum(1 for r in result.records if r.status == 200),
            "answered_503": sum(1 for r in result.records if r.status == 503),
            "lost_by": dict(Counter(r.outcome for r in result.records if not r.status)),
            "p50_ms": round(percentile([r.seconds for r in result.records if r.status], 50) * 1000, 1),
            "p95_ms": round(percentile([r.seconds for r in result.records if r.status], 95) * 1000, 1),
            "tcp": result.tcp,
            "requests": len(result.records), "per_s": round(len(result.records) / result.seconds, 2),
            "http_500": sum(1 for r in result.records if r.status >= 500 and r.status != 503),
            "lost": lost, "hung": hung, "load_before": result.load_before,
            "server_cpu_s": round(result.server_cpu_s, 1), "drain_s": round(result.drain_s, 1),
            "cpu_ms_per_request": round(1000 * result.server_cpu_s / max(len(result.records), 1), 1),
            "load_after": result.load_after, "versions": result.versions,
            "swap_at": result.swap_at, "swap_seconds": result.swap_seconds,
            "swap_rc": result.swap_rc, "health_errors": result.health_errors,
            "after_swap": {"requests": len(after),
                           "codes": dict(Counter(str(r.status) if r.status else r.outcome for r in after))}}


def report(summaries: list[dict[str, Any]], args: argparse.Namespace) -> str:
    lines = [f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {platform.machine()}, "
             f"{os.cpu_count()} cores shared with other agents, Python {platform.python_version()}; "
             f"server: cheroot, {args.threads} threads, index copy of {args.index}.",
             f"Clients: {args.search_clients} search, {args.rerank_clients} rerank, {args.redraft_clients} "
             f"redraft (pauses {args.think} s / {args.redraft_think} s on average; the search scenario "
             f"{args.search_clients} clients without pauses); {args.texts} distinct texts (half ACORD "
             f"queries, half clauses), {args.warm} searched before timing. Server settings: "
             + ", ".join(f"{k}={v}" for k, v in args.server_env.items() if k.startswith("PRECEDENT_")) + ".", "",
             "Every request the clients sent, and what became of it (lost = no HTTP answer: a reset, "
             "a refused or dropped connection, or none within the pane's deadline):", "",
             "| scenario | clients | sent | answered | 200 | 503 | lost | how lost | p50 ms | p95 ms | TCP counters (machine-wide) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in summaries:
        lines.append(f"| {s['name']} | {s['clients']} | {s['sent']} | {s['answered']} | {s['answered_200']} | "
                     f"{s['answered_503']} | **{s['sent'] - s['answered']}** | {_fmt(s['lost_by']) or '-'} | "
                     f"{s['p50_ms']} | {s['p95_ms']} | {_fmt({k: v for k, v in s['tcp'].items() if v}) or 'none'} |")
    lines.append("")
    for s in summaries:
        lines += [f"### {s['name']}: {s['requests']} requests in {s['seconds']} s (+{s['drain_s']} s for the last answers) "
                  f"({s['per_s']}/s); load average {s['load_before']} before, {s['load_after']} after",
                  "", "| kind | requests | per s (2nd half) | p50 ms | p95 ms | max ms | HTTP codes | outcomes |",
                  "|---|---|---|---|---|---|---|---|"]
        for kind in KINDS:
            k = s["kinds"].get(kind)
            if k:
                lines.append(f"| {kind} | {k['requests']} | {k['per_s']} ({k['per_s_second_half']}) | "
                             f"{k['p50_ms']} | {k['p95_ms']} | "
                             f"{k['max_ms']} | {_fmt(k['codes'])} | {_fmt(k['outcomes'])} |")
        lines += ["", f"Server CPU: {s['server_cpu_s']} s, {s['cpu_ms_per_request']} ms per request "
                  f"(on 2 free cores: about {2000 / max(s['cpu_ms_per_request'], 0.1):.0f} requests/s of this mix).",
                  f"HTTP 500: {s['http_500']}; lost (no answer): {s['lost']}; hung (no answer "
                  f"within the deadline {_fmt(DEADLINE_S)} s): {s['hung']}; /health errors: "
                  f"{s['health_errors']}."]
        if s["swap_at"] is not None:
            versions = ", ".join(f"{v} from {t:.1f} s" for t, v in s["versions"])
            lines.append(f"Index rebuild started at {s['swap_at']:.1f} s, took {s['swap_seconds']:.1f} s "
                         f"(exit {s['swap_rc']}); live versions seen by /health: {versions}; "
                         f"requests started after the swap: {s['after_swap']['requests']} "
                         f"({_fmt(s['after_swap']['codes'])}).")
        lines.append("")
    return "\n".join(lines)


def _fmt(mapping: dict[str, Any]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in mapping.items())


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--index", type=Path, default=indexes.ACORD_INDEX)
    parser.add_argument("--acord", type=Path, default=data.ACORD)
    parser.add_argument("--add-contract", type=Path, default=data.ADDED_CONTRACT,
                        help="the agreement the mid-run rebuild adds")
    parser.add_argument("--scenarios", nargs="+", default=["healthy", "failing", "swap"],
                        choices=["healthy", "failing", "swap", "search"])
    parser.add_argument("--swap-in", default="swap", help="scenario with the mid-run rebuild")
    parser.add_argument("--swap-at", type=float, default=10.0, help="seconds into the run the rebuild starts")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--search-clients", type=int, default=35)
    parser.add_argument("--rerank-clients", type=int, default=10)
    parser.add_argument("--redraft-clients", type=int, default=5)
    parser.add_argument("--think", type=float, default=1.0, help="mean pause between searches (s)")
    parser.add_argument("--redraft-think", type=float, default=5.0, help="mean pause between redrafts (s)")
    parser.add_argument("--threads", type=int, default=10, help="server threads")
    parser.add_argument("--texts", type=int, default=200, help="distinct query texts (half short queries)")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--warm", type=int, default=3, help="workload texts searched before timing")
    parser.add_argument("--env", nargs="*", default=[], metavar="PRECEDENT_X=VALUE",
                        help="extra server settings, e.g. PRECEDENT_SPAN_SCORER=dense")
    parser.add_argument("--json", type=Path, help="write the summaries here too")
    parser.add_argument("--out", type=Path, help="append the markdown report here")


def run(args: argparse.Namespace) -> None:
    args.server_env = {**servers.LOAD_ENV, **dict(item.split("=", 1) for item in args.env)}
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    work = data.workload(args.acord, args.texts // 2, args.seed)
    summaries = []
    with tempfile.TemporaryDirectory(prefix="load-fault-") as tmp:
        for name in args.scenarios:
            index_dir = indexes.private_copy(args.index, Path(tmp) / name / "index")
            log.info("scenario %s: %d s", name, args.seconds)
            summary = summarise(run_scenario(name, args, work, index_dir))
            summaries.append(summary)
            log.info("scenario %s done: %s", name, json.dumps(summary["kinds"]))
    text = report(summaries, args)
    print(text)
    if args.json:
        args.json.write_text(json.dumps(summaries, indent=1))
    if args.out:
        with args.out.open("a") as out:
            out.write(text + "\n")
