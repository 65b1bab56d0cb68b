"""Search throughput of two code trees, interleaved in one run (same machine, same minutes).

    git archive main | tar -x -C /tmp/precedent-before     # the code before the change
    precedent-bench throughput-ab --before /tmp/precedent-before --index var/acord-index \
        --out benchmarks/results/throughput-ab/throughput_ab.md

Each round runs `precedent-bench load`'s ``search`` scenario (a real cheroot server over a private copy
of the index, the learned ranker on, usage feedback on as shipped, ``--clients`` closed-loop
clients without pauses) once with the ``--before`` tree's code and once with ``--after``'s
(default: this checkout), in the order A B B A, ... so drift in a shared machine's load
falls on both alike. Only the server's code differs (servers.code_tree: the tree's server,
this checkout's benchmark): the clients, the index and the query mix are the same (the load
benchmark's workload: ``--texts`` distinct texts, half ACORD queries and
half ACORD clauses sent as a lawyer's selection, drawn at random, so each text recurs many
times in a run).

Prints requests per second, client p50/p95, the search's own p50 time (the pipeline's
``timings_ms.total``: no HTTP, no queueing) and server CPU per request, per round and as the
median over rounds, with the load average before and after each round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from precedent_bench.catalogue import subparser
from precedent_bench.common import data, indexes, servers


def one(tree: Path, args: argparse.Namespace, out: Path) -> dict:
    command = [sys.executable, "-m", "precedent_bench", "load", "--scenarios", "search",
               "--index", str(args.index.resolve()), "--acord", str(args.acord.resolve()),
               "--seconds", str(args.seconds), "--search-clients", str(args.clients),
               "--texts", str(args.texts), "--warm", str(args.warm), "--threads", str(args.threads),
               "--seed", str(args.seed), "--json", str(out)]
    code = servers.code_tree(tree, out.with_suffix(".code"))
    env = {**os.environ, "PYTHONPATH": str(code)}
    # Run from the scratch folder: `-m` puts the working directory first on sys.path, and the
    # repository root there would shadow the tree's server code with this checkout's.
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=args.seconds + 900,
                          cwd=out.parent)
    if done.returncode:
        raise SystemExit(f"precedent-bench load failed for {tree}:\n{done.stderr[-3000:]}")
    summary = json.loads(out.read_text())[0]
    search = summary["kinds"]["search"]
    return {"per_s": summary["per_s"], "p50_ms": search["p50_ms"], "p95_ms": search["p95_ms"],
            "server_p50_ms": search.get("server_p50_ms"), "cpu_ms": summary["cpu_ms_per_request"],
            "requests": summary["requests"], "lost": summary["sent"] - summary["answered"],
            "load_before": summary["load_before"], "load_after": summary["load_after"]}


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--before", type=Path, required=True, help="code tree before the change")
    parser.add_argument("--after", type=Path, default=data.CHECKOUT, help="code tree after (default: this one)")
    parser.add_argument("--index", type=Path, default=indexes.ACORD_INDEX)
    parser.add_argument("--acord", type=Path, default=data.ACORD)
    parser.add_argument("--rounds", type=int, default=2, help="pairs of runs (A B, then B A, ...)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--threads", type=int, default=10, help="server threads")
    parser.add_argument("--texts", type=int, default=200)
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--out", type=Path, help="write the markdown table here too")


def run(args: argparse.Namespace) -> None:
    rows = []
    with tempfile.TemporaryDirectory(prefix="throughput-ab-") as tmp:
        for round_ in range(args.rounds):
            order = [("before", args.before), ("after", args.after)]
            for name, tree in (order if round_ % 2 == 0 else order[::-1]):
                result = one(tree, args, Path(tmp) / f"{name}-{round_}.json")
                rows.append({"round": round_ + 1, "code": name, **result})
                print(json.dumps(rows[-1]), flush=True)
    lines = [f"Search-only throughput, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
             f"{os.cpu_count()} cores; {args.clients} closed-loop clients, {args.seconds:.0f} s a run, "
             f"{args.texts} distinct texts (half ACORD queries, half ACORD clauses), server "
             f"{args.threads} threads; before = {args.before}, after = {args.after}.", "",
             "| round | code | requests/s | p50 ms | p95 ms | search p50 ms (server) | server CPU ms/request | lost | load before / after |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['round']} | {r['code']} | {r['per_s']} | {r['p50_ms']} | {r['p95_ms']} | "
                     f"{r['server_p50_ms']} | {r['cpu_ms']} | {r['lost']} | {r['load_before']} / {r['load_after']} |")
    for name in ("before", "after"):
        mine = [r for r in rows if r["code"] == name]
        lines.append(f"| median | **{name}** | **{statistics.median(r['per_s'] for r in mine):.1f}** | "
                     f"{statistics.median(r['p50_ms'] for r in mine):.1f} | "
                     f"{statistics.median(r['p95_ms'] for r in mine):.1f} | "
                     f"{statistics.median(r['server_p50_ms'] or 0 for r in mine):.1f} | "
                     f"{statistics.median(r['cpu_ms'] for r in mine):.1f} | "
                     f"{sum(r['lost'] for r in mine)} | |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
