"""CPU time of one search request, two code trees side by side (robust on a shared machine).

    precedent-bench search-cpu-ab --before /tmp/precedent-before --index var/acord-index

Throughput on a busy machine measures the neighbours as much as the code; the process's own
CPU time per request does not (much). Each run is a fresh process with one tree's code on
PYTHONPATH (servers.code_tree: the tree's server, this checkout's benchmark): the app as served
(learned ranker, usage feedback on, audit and rate limits off as in `precedent-bench load`),
POST /api/v1/precedents through Flask's test client (no sockets) for ``--texts`` texts (half
ACORD queries, half ACORD clauses, the load benchmark's workload), timed with
``time.process_time``: the first half once to warm up, then the second half (texts this server
has never searched: "new"), then the first half again ``--passes`` times (texts searched
before: "repeat", where the query vector cache also answers). Runs alternate before/after
``--rounds`` times; prints CPU ms per request (median of rounds) and the equivalent
requests/s on two free cores if the server kept both busy.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from precedent_bench.catalogue import subparser
from precedent_bench.common import data, indexes, servers

# Runs with the tree's server code and this checkout's precedent_bench on PYTHONPATH.
CHILD = r"""
import json, os, sys, tempfile, shutil, time, logging, statistics
logging.disable(logging.WARNING)
from precedent_bench.common.servers import LOAD_ENV, app_for
os.environ.update(LOAD_ENV)
from pathlib import Path
from precedent_bench.common.data import workload
from precedent_bench.common.indexes import private_copy
from index_builder.settings import load_settings
import addin_server
tmp = tempfile.mkdtemp(prefix="search-cpu-")
index = private_copy(Path(sys.argv[1]), Path(tmp) / "index", keep_usage=False)
settings = load_settings(overrides={"index_dir": index})
client = app_for(settings)[0].test_client()
work = workload(Path(sys.argv[2]), int(sys.argv[3]) // 2, 14)
def run(texts):
    began = time.process_time()
    for text in texts:
        r = client.post("/api/v1/precedents", json={"text": text, "rerank": False})
        assert r.status_code == 200, r.status_code
    return (time.process_time() - began) * 1000 / len(texts)
half = len(work.queries) // 2
seen, unseen = work.queries[:half], work.queries[half:]
run(seen)  # warm-up: the model, the ranker, the caches of the library's clauses
new = run(unseen)  # texts never searched before on this server
repeat = statistics.median(run(seen) for _ in range(int(sys.argv[4])))  # texts searched before
print(json.dumps({"cpu_ms_new": new, "cpu_ms_repeat": repeat, "requests": len(work.queries),
                  "code": os.path.realpath(os.path.dirname(addin_server.__file__))}))
shutil.rmtree(tmp, ignore_errors=True)
"""


def one(tree: Path, args: argparse.Namespace) -> dict:
    return servers.run_in_tree(tree, CHILD, [str(args.index.resolve()), str(args.acord.resolve()),
                                             str(args.texts), str(args.passes)],
                               {"OMP_NUM_THREADS": "1"}, timeout_s=1800)


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, default=data.CHECKOUT)
    parser.add_argument("--index", type=Path, default=indexes.ACORD_INDEX)
    parser.add_argument("--acord", type=Path, default=data.ACORD)
    parser.add_argument("--texts", type=int, default=200)
    parser.add_argument("--passes", type=int, default=2, help="repeats of the seen half (median)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--out", type=Path)


def run(args: argparse.Namespace) -> None:
    rows = []
    for round_ in range(args.rounds):
        order = [("before", args.before), ("after", args.after)]
        for name, tree in order if round_ % 2 == 0 else order[::-1]:
            load = os.getloadavg()[0]
            result = one(tree, args)
            if Path(result["code"]).parent != tree.resolve():
                raise SystemExit(f"{name} ran the code in {result['code']}, not {tree}")
            rows.append({"round": round_ + 1, "name": name, "load": round(load, 2), **result})
            print(json.dumps(rows[-1]), flush=True)
    lines = [f"CPU per search request, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; index "
             f"{args.index}; {args.texts} texts (half ACORD queries, half clauses): half to warm "
             f"up, the other half new, the first half repeated; Flask test client, feedback on, "
             f"ranker on, one torch thread.", "",
             "| round | code | CPU ms / new query | CPU ms / repeated query | load (1 min) at start |",
             "|---|---|---|---|---|"]
    lines += [f"| {r['round']} | {r['name']} | {r['cpu_ms_new']:.1f} | {r['cpu_ms_repeat']:.1f} | "
              f"{r['load']} |" for r in rows]
    for name in ("before", "after"):
        new = statistics.median(r["cpu_ms_new"] for r in rows if r["name"] == name)
        repeat = statistics.median(r["cpu_ms_repeat"] for r in rows if r["name"] == name)
        lines.append(f"| median | **{name}** | **{new:.1f}** (~{2000 / new:.0f}/s on 2 free cores) | "
                     f"**{repeat:.1f}** (~{2000 / repeat:.0f}/s) | |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
