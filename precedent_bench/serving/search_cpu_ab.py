"""CPU time of one search request, two code trees side by side (robust on a shared machine).

    python benchmarks/search_cpu_ab.py --before /tmp/precedent-before --index var/acord-index

Throughput on a busy machine measures the neighbours as much as the code; the process's own
CPU time per request does not (much). Each run is a fresh process with one tree's code on
PYTHONPATH: the app as served (learned ranker, usage feedback on, audit and rate limits off
as in load_fault.py), POST /api/v1/precedents through Flask's test client (no sockets) for
``--texts`` texts (half ACORD queries, half ACORD clauses, load_fault.py's workload), timed with
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
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, os, sys, tempfile, shutil, time, logging, statistics
sys.path.insert(0, os.path.join(sys.argv[1], "benchmarks"))
logging.disable(logging.WARNING)
from load_fault import SERVER_ENV, _workload
from pathlib import Path
os.environ.update(SERVER_ENV)
from addin_server.service import build_service
from addin_server.web.app import create_app
from index_builder.settings import load_settings
import addin_server
tmp = tempfile.mkdtemp(prefix="search-cpu-")
index = Path(tmp) / "index"
shutil.copytree(sys.argv[2], index, ignore=shutil.ignore_patterns(".build.lock", "audit", "usage"))
settings = load_settings(overrides={"index_dir": index})
client = create_app(settings, build_service(settings)).test_client()
work = _workload(Path(sys.argv[3]), int(sys.argv[4]) // 2, 14)
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
repeat = statistics.median(run(seen) for _ in range(int(sys.argv[5])))  # texts searched before
print(json.dumps({"cpu_ms_new": new, "cpu_ms_repeat": repeat, "requests": len(work.queries),
                  "code": os.path.dirname(addin_server.__file__)}))
shutil.rmtree(tmp, ignore_errors=True)
"""


def one(tree: Path, args: argparse.Namespace) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree.resolve()), "HF_HUB_OFFLINE": "1",
           "TOKENIZERS_PARALLELISM": "false", "OMP_NUM_THREADS": "1"}
    # Run from / so the working directory (first on sys.path for -c) cannot shadow the tree.
    done = subprocess.run([sys.executable, "-c", CHILD, str(REPO), str(args.index.resolve()),
                           str(args.acord.resolve()), str(args.texts), str(args.passes)], env=env,
                          capture_output=True, text=True, timeout=1800, cwd="/")
    if done.returncode:
        raise SystemExit(f"run failed for {tree}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, default=REPO)
    parser.add_argument("--index", type=Path, default=Path("var/acord-index"))
    parser.add_argument("--acord", type=Path, default=REPO.parent / "shared/data/acord")
    parser.add_argument("--texts", type=int, default=200)
    parser.add_argument("--passes", type=int, default=2, help="repeats of the seen half (median)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = []
    for round_ in range(args.rounds):
        order = [("before", args.before), ("after", args.after)]
        for name, tree in order if round_ % 2 == 0 else order[::-1]:
            load = os.getloadavg()[0]
            result = one(tree, args)
            if Path(result["code"]).parent.resolve() != tree.resolve():
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


if __name__ == "__main__":
    main()
