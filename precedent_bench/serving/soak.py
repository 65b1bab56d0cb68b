"""Soak: a long mixed load on a real server, with the index rebuilt and swapped in every few minutes.

    precedent-bench soak --index var/acord-index --minutes 30 --swap-every 120 \
        --out benchmarks/results/soak/soak

One scripted OpenAI-compatible LLM (healthy; addin_server/llm/scripted.py) and one server
(cheroot + the app, audit trail and usage feedback on, as shipped) over a private copy of the
index. For ``--minutes`` minutes, client threads act as lawyers: searches (some with the LLM
rerank), redrafts, usage feedback on the lists they were shown, and /health polls. Every
``--swap-every`` seconds firm IT rebuilds the index (a contract added, then removed again,
alternately), and the server swaps the new version in without a restart.

Once a minute the server process is sampled from /proc: resident memory (RSS), open file
descriptors, threads; beside them the requests finished in that minute (p50/p95 per kind,
errors, lost) and the machine's load average, so a latency blip can be told from a busy
neighbour. Writes ``<out>.json`` (the samples), ``<out>.md`` (a table) and ``<out>.png``
(the curves, matplotlib).
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import random
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable

from precedent_bench.catalogue import subparser
from precedent_bench.common import data, indexes, servers
from precedent_bench.common.data import Workload
from precedent_bench.common.machine import load_average, percentile, process_sample
from precedent_bench.serving.load_clients import DEADLINE_S
from precedent_bench.serving.load_stack import _llm_process, _rebuild, server_overrides

log = logging.getLogger("soak")

# As load_fault's servers, but with what a firm runs for a day: the audit trail and the usage
# feedback database on (their defaults), so their files and connections are in the counts.
# Every client is the same anonymous user here, so the per-user feedback limit (300/hour) would
# answer most usage events 429 (run 1 did: 20% of its calls): off, as the other limits are.
SOAK_ENV = {**{k: v for k, v in servers.LOAD_ENV.items() if k != "PRECEDENT_AUDIT"},
            "PRECEDENT_FEEDBACK_RATE_LIMIT": "off"}


class Lawyer(threading.Thread):
    """One pane: searches, sometimes reports usage on the list it got, sometimes redrafts."""

    def __init__(self, port: int, seed: int, work: Workload, until: float, args: argparse.Namespace,
                 records: list[tuple[float, str, float, int, str]]) -> None:
        super().__init__(daemon=True, name=f"lawyer-{seed}")
        self.port, self.work, self.until, self.args, self.records = port, work, until, args, records
        self.rng = random.Random(seed)
        self.connection: http.client.HTTPConnection | None = None

    def run(self) -> None:
        time.sleep(self.rng.uniform(0, self.args.think))
        while time.monotonic() < self.until:
            roll = self.rng.random()
            if roll < self.args.redraft_share:
                self.call("redraft", "POST", "/api/v1/redraft",
                          {"text": self.rng.choice(self.work.queries),
                           "clause_ids": self.rng.sample(self.work.clause_ids, 3)})
            else:
                rerank = roll < self.args.redraft_share + self.args.rerank_share
                answer = self.call("rerank" if rerank else "search", "POST", "/api/v1/precedents",
                                   {"text": self.rng.choice(self.work.queries), "rerank": rerank})
                results = (answer or {}).get("results") or []
                if answer and answer.get("list_id") and results and self.rng.random() < self.args.feedback_share:
                    pick = self.rng.choice(results[:5])
                    self.call("feedback", "POST", "/api/v1/feedback",
                              {"list_id": answer["list_id"],
                               "events": [{"kind": self.rng.choice(["insert", "copy", "show_full"]),
                                           "clause_id": pick["clause_id"], "rank": pick["rank"]}]})
            time.sleep(self.rng.uniform(0.5 * self.args.think, 1.5 * self.args.think))
        if self.connection:
            self.connection.close()

    def call(self, kind: str, method: str, path: str, body: dict[str, Any] | None) -> dict[str, Any] | None:
        started = time.monotonic()
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection(
                    "127.0.0.1", self.port, timeout=DEADLINE_S.get(kind, 30.0))
            self.connection.request(method, path, json.dumps(body) if body is not None else None,
                                    {"Content-Type": "application/json"})
            answer = self.connection.getresponse()
            payload = json.loads(answer.read() or b"{}")
            if answer.getheader("Connection", "").lower() == "close":
                self._reset()
        except TimeoutError:
            self._reset()
            self.records.append((started, kind, time.monotonic() - started, 0, "hung"))
            return None
        except (OSError, http.client.HTTPException, ValueError) as exc:
            self._reset()
            self.records.append((started, kind, time.monotonic() - started, 0, f"lost: {type(exc).__name__}"))
            return None
        self.records.append((started, kind, time.monotonic() - started, answer.status,
                             "ok" if answer.status == 200 else (payload.get("error") or {}).get("code", "?")))
        return payload if answer.status == 200 else None

    def _reset(self) -> None:
        if self.connection:
            self.connection.close()
        self.connection = None


class HealthPoller(Lawyer):
    """The monitoring probe firm IT points at /health every few seconds."""

    def run(self) -> None:
        while time.monotonic() < self.until:
            answer = self.call("health", "GET", "/api/v1/health", None)
            if answer:
                version = (answer.get("index") or {}).get("version", "")
                if not self.versions or self.versions[-1][1] != version:
                    self.versions.append((time.monotonic(), version))
            time.sleep(self.args.health_every)

    versions: list[tuple[float, str]]


def _minute(records: list[tuple[float, str, float, int, str]], start: float, end: float) -> dict[str, Any]:
    done = [r for r in records if start <= r[0] + r[2] < end]
    by_kind: dict[str, list[float]] = defaultdict(list)
    for r in done:
        if r[3]:
            by_kind[r[1]].append(r[2])
    return {"requests": len(done),
            "codes": dict(Counter(str(r[3]) if r[3] else r[4] for r in done)),
            "lost": sum(1 for r in done if not r[3]),
            "p95_ms": {k: round(percentile(v, 95) * 1000, 1) for k, v in by_kind.items()},
            "p50_ms": {k: round(percentile(v, 50) * 1000, 1) for k, v in by_kind.items()}}


def soak(args: argparse.Namespace, work: Workload, index_dir: Path,
         serve: Callable[..., None] = servers.serve_index) -> dict[str, Any]:
    """The soak against ``serve`` (a process target as servers.serve_index; the probe passes
    one that samples the server's memory from inside)."""
    llm, llm_url = servers.spawn(_llm_process, "healthy", args.seed, timeout_s=60)
    processes = [llm]
    samples: list[dict[str, Any]] = []
    swaps: list[dict[str, Any]] = []
    try:
        server, port = servers.spawn(serve, server_overrides(index_dir, llm_url, args.threads),
                                     SOAK_ENV, True)
        processes.append(server)
        t0 = time.monotonic()
        until = t0 + args.minutes * 60
        records: list[tuple[float, str, float, int, str]] = []
        lawyers = [Lawyer(port, args.seed * 1000 + i, work, until, args, records) for i in range(args.clients)]
        health = HealthPoller(port, args.seed * 1000 - 1, work, until, args, records)
        health.versions = []
        for thread in [*lawyers, health]:
            thread.start()
        samples.append({"minute": 0, **process_sample(server.pid), "load": load_average(), **_minute(records, t0, t0)})
        next_swap, next_sample, minute, adding = t0 + args.swap_every, t0 + 60, 0, True
        while time.monotonic() < until:
            now = time.monotonic()
            if now >= next_sample:
                minute += 1
                samples.append({"minute": minute, **process_sample(server.pid), "load": load_average(),
                                **_minute(records, next_sample - 60, next_sample)})
                log.info("minute %d: %s", minute, json.dumps(samples[-1]))
                next_sample += 60
            elif now >= next_swap:
                args.add_contract = args.contract if adding else args.empty_source
                rc, seconds = _rebuild(index_dir, args)
                swaps.append({"at_s": round(now - t0, 1), "seconds": round(seconds, 1), "rc": rc,
                              "added": adding})
                log.info("rebuild %d (%s): exit %d in %.1f s", len(swaps),
                         "add" if adding else "remove", rc, seconds)
                adding = not adding
                next_swap += args.swap_every
            else:
                time.sleep(min(1.0, max(0.0, min(next_sample, next_swap) - now)))
        for thread in [*lawyers, health]:
            thread.join(timeout=max(DEADLINE_S.values()))
        return {"samples": samples, "swaps": swaps,
                "versions": [(round(t - t0, 1), v) for t, v in health.versions],
                "total": _minute(records, t0, float("inf")),
                "kinds": dict(Counter(r[1] for r in records))}
    finally:
        for process in reversed(processes):
            servers.stop(process)


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    samples = result["samples"]
    minutes = [s["minute"] for s in samples]
    fig, axes = plt.subplots(5, 1, figsize=(9, 12), sharex=True)
    for ax, key, label in ((axes[0], "rss_mb", "server RSS (MB)"), (axes[1], "open_files", "open files"),
                           (axes[2], "threads", "threads")):
        ax.plot(minutes, [s[key] for s in samples], marker="o")
        ax.set_ylabel(label)
        ax.set_ylim(0, max(s[key] for s in samples) * 1.25)
    for kind in ("search", "rerank", "redraft", "feedback"):
        ys = [s["p95_ms"].get(kind) for s in samples[1:]]
        if any(y is not None for y in ys):
            axes[3].plot(minutes[1:], ys, marker=".", label=kind)
    axes[3].set_ylabel("p95 per minute (ms)")
    axes[3].set_yscale("log")
    axes[3].legend(fontsize=8)
    axes[4].plot(minutes, [float(s["load"].split()[0]) for s in samples], marker=".", color="grey")
    axes[4].set_ylabel("load average (1 min)")
    axes[4].set_xlabel("minute")
    for swap in result["swaps"]:
        for ax in axes:
            ax.axvline(swap["at_s"] / 60, color="orange", alpha=0.35, linewidth=1)
    axes[0].set_title("Soak: mixed load, index rebuilt and swapped every "
                      f"{result['swap_every']} s (orange lines)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def report(result: dict[str, Any]) -> str:
    lines = [f"Soak {result['started']}: {result['minutes']} min, {result['clients']} lawyers, "
             f"rebuild every {result['swap_every']} s; requests by kind: "
             + ", ".join(f"{k} {v}" for k, v in sorted(result["kinds"].items())) + ".", "",
             "| minute | RSS MB | open files | threads | requests | lost | p95 search | p95 rerank | "
             "p95 redraft | p95 feedback | p95 health | load (1/5/15 min) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in result["samples"]:
        p95 = s["p95_ms"]
        lines.append(f"| {s['minute']} | {s['rss_mb']} | {s['open_files']} | {s['threads']} | {s['requests']} | "
                     f"{s['lost']} | " + " | ".join(str(p95.get(k, "-")) for k in
                                                    ("search", "rerank", "redraft", "feedback", "health"))
                     + f" | {s['load']} |")
    total = result["total"]
    lines += ["", f"All requests: {total['requests']}, lost {total['lost']}, codes {total['codes']}; "
              f"p95 {total['p95_ms']}; p50 {total['p50_ms']}.",
              "Rebuilds: " + ", ".join(f"{w['at_s'] / 60:.1f} min ({'add' if w['added'] else 'remove'}, "
                                       f"{w['seconds']} s, exit {w['rc']})" for w in result["swaps"]) + ".",
              f"Live versions seen by /health: {len(result['versions'])}."]
    return "\n".join(lines)


def add_parser(sub: argparse._SubParsersAction) -> None:
    add_arguments(subparser(sub, __name__))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--index", type=Path, default=indexes.ACORD_INDEX)
    parser.add_argument("--acord", type=Path, default=data.ACORD)
    parser.add_argument("--contract", type=Path, default=data.ADDED_CONTRACT,
                        help="the agreement every other rebuild adds (and the next removes)")
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--swap-every", type=float, default=120.0, help="seconds between rebuilds")
    parser.add_argument("--clients", type=int, default=6, help="lawyers")
    parser.add_argument("--think", type=float, default=2.0, help="mean pause between a lawyer's calls (s)")
    parser.add_argument("--rerank-share", type=float, default=0.15)
    parser.add_argument("--redraft-share", type=float, default=0.08)
    parser.add_argument("--feedback-share", type=float, default=0.3, help="searches followed by a usage event")
    parser.add_argument("--health-every", type=float, default=5.0)
    parser.add_argument("--threads", type=int, default=10, help="server threads")
    parser.add_argument("--texts", type=int, default=200)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--out", type=Path, default=data.RESULTS / "soak" / "soak")


def run(args: argparse.Namespace, serve: Callable[..., None] = servers.serve_index) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    args.server_env = servers.LOAD_ENV  # what load_fault's rebuilds run with
    work = data.workload(args.acord, args.texts // 2, args.seed)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        index_dir = indexes.private_copy(args.index, Path(tmp) / "index", keep_usage=False)
        # A rebuild without the contract: an empty folder as the second source keeps the
        # command the same shape while the library goes back to ACORD alone.
        args.empty_source = Path(tmp) / "no-contracts"
        args.empty_source.mkdir()
        result = soak(args, work, index_dir, serve)
    result.update(started=started, minutes=args.minutes, clients=args.clients, swap_every=args.swap_every)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(result, indent=1))
    args.out.with_suffix(".md").write_text(report(result) + "\n")
    plot(result, args.out.with_suffix(".png"))
    print(report(result))
