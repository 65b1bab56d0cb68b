"""What the HTTP server itself loses, with the app's work held constant: resets and dropped
connections, cheroot's defaults against ours.

    nice -n 10 precedent-bench connection-faults --clients 60 --seconds 30 --pastes 60

Two probes, each counting every request sent and every answer received:

1. Early answers: a 2 MB paste is refused with 413 before the app reads the body, and the
   connection is closed. Without a lingering close the kernel resets the connection over the
   unread bytes and the 413 never arrives. Run with and without the server's drain.
2. Many panes: ``--clients`` keep-alive clients, each sending a small JSON request, reading
   the answer and pausing 0.5-1.5 s; the app spends 10 ms of CPU on each (holding the
   interpreter, as a search does). Run with cheroot's defaults (listen backlog 5, 10 idle
   keep-alive connections) and with ours (PRECEDENT_SERVER_BACKLOG, _KEEP_ALIVE_LIMIT).
   Reported: answers, connections the server closed after one answer (the client reconnects),
   the kernel's listen-queue overflows (dropped connection attempts, retried after 1 s, 3 s ...)
   and the slowest answers.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

from precedent_bench.catalogue import subparser
from precedent_bench.common.machine import load_average, percentile, tcp_counters
from precedent_bench.common.servers import serve_in_thread


def _refusing_app(environ: dict[str, Any], start: Callable[..., Any]) -> list[bytes]:
    out = b'{"error":{"code":"text_too_long","message":"The request is too large."}}'
    start("413 Payload Too Large", [("Content-Type", "application/json"),
                                     ("Content-Length", str(len(out))), ("Connection", "close")])
    return [out]


def _busy_app(environ: dict[str, Any], start: Callable[..., Any]) -> list[bytes]:
    environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    until = time.perf_counter() + 0.010
    while time.perf_counter() < until:  # pure Python: holds the interpreter like a search
        pass
    out = b'{"ok":true}'
    start("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(out)))])
    return [out]


def early_answers(count: int, drain: bool) -> dict[str, Any]:
    from addin_server.web import wsgi

    original = wsgi._drain_unread_body
    if not drain:
        wsgi._drain_unread_body = lambda request: None
    served = serve_in_thread(_refusing_app)
    port = served.port
    outcomes: Counter[str] = Counter()
    body = json.dumps({"text": "The Supplier shall indemnify the Customer. " * 50_000})
    try:
        for _ in range(count):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                connection.request("POST", "/api/v1/precedents", body, {"Content-Type": "application/json"})
                answer = connection.getresponse()
                answer.read()
                outcomes[f"answered {answer.status}"] += 1
            except (OSError, http.client.HTTPException) as exc:
                outcomes[f"lost: {type(exc).__name__}"] += 1
            finally:
                connection.close()
    finally:
        served.stop()
        wsgi._drain_unread_body = original
    return {"sent": count, "outcomes": dict(outcomes)}


def many_panes(clients: int, seconds: float, backlog: int, keep_alive_limit: int) -> dict[str, Any]:
    served = serve_in_thread(_busy_app, backlog=backlog, keep_alive_limit=keep_alive_limit)
    port = served.port
    outcomes: Counter[str] = Counter()
    latencies: list[float] = []
    lock = threading.Lock()
    until = time.monotonic() + seconds

    def client(seed: int) -> None:
        rng = random.Random(seed)
        connection: http.client.HTTPConnection | None = None
        time.sleep(rng.uniform(0, 1))
        while time.monotonic() < until:
            started = time.monotonic()
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                connection.request("POST", "/api/v1/precedents", json.dumps({"text": "x" * 300}),
                                   {"Content-Type": "application/json"})
                answer = connection.getresponse()
                answer.read()
                key = "answered"
                if (answer.getheader("Connection") or "").lower() == "close":
                    connection.close()
                    connection = None
                    key = "answered, then closed by the server"
            except (OSError, http.client.HTTPException) as exc:
                key = f"lost: {type(exc).__name__}"
                if connection is not None:
                    connection.close()
                connection = None
            with lock:
                outcomes[key] += 1
                latencies.append(time.monotonic() - started)
            time.sleep(rng.uniform(0.5, 1.5))
        if connection is not None:
            connection.close()

    tcp_before = tcp_counters()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    served.stop()
    tcp = {k: v - tcp_before.get(k, 0) for k, v in tcp_counters().items()}
    return {"backlog": backlog, "keep_alive_limit": keep_alive_limit, "sent": len(latencies),
            "outcomes": dict(outcomes), "p50_ms": round(percentile(latencies, 50) * 1000),
            "p99_ms": round(percentile(latencies, 99) * 1000), "max_ms": round(max(latencies) * 1000),
            "over_1s": sum(1 for x in latencies if x > 1.0), "tcp": tcp}


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--clients", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pastes", type=int, default=60)
    parser.add_argument("--json", type=Path)


def run(args: argparse.Namespace) -> None:
    load_before = load_average()
    results = {
        "early_answers": {"without drain (cheroot)": early_answers(args.pastes, drain=False),
                          "with drain (ours)": early_answers(args.pastes, drain=True)},
        "many_panes": {"cheroot defaults": many_panes(args.clients, args.seconds, 5, 10),
                       "ours": many_panes(args.clients, args.seconds, 256, 500)},
    }
    lines = [f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average "
             f"{load_before} before, {load_average()} after (2 cores shared with other engineers).", "",
             f"1. {args.pastes} refused 2 MB pastes (413 before the body is read, connection closed):", "",
             "| server | sent | answered | lost |", "|---|---|---|---|"]
    for name, r in results["early_answers"].items():
        answered = sum(v for k, v in r["outcomes"].items() if k.startswith("answered"))
        lost = {k: v for k, v in r["outcomes"].items() if k.startswith("lost")}
        lines.append(f"| {name} | {r['sent']} | {answered} | {sum(lost.values())} {lost or ''} |")
    lines += ["", f"2. {args.clients} keep-alive clients for {args.seconds:.0f} s (10 ms of CPU per request):", "",
              "| server | sent | answered | closed after one answer | lost | p50 ms | p99 ms | max ms | answers over 1 s | kernel (machine-wide) |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in results["many_panes"].items():
        o = r["outcomes"]
        answered = sum(v for k, v in o.items() if k.startswith("answered"))
        lost = sum(v for k, v in o.items() if k.startswith("lost"))
        tcp = ", ".join(f"{k} {v}" for k, v in r["tcp"].items() if v) or "none"
        lines.append(f"| {name} (backlog {r['backlog']}, keep-alive {r['keep_alive_limit']}) | {r['sent']} | "
                     f"{answered} | {o.get('answered, then closed by the server', 0)} | {lost} | {r['p50_ms']} | "
                     f"{r['p99_ms']} | {r['max_ms']} | {r['over_1s']} | {tcp} |")
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
