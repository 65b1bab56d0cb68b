"""Where a never-seen search's request-thread CPU goes, stage by stage, two code trees side by side.

    nice -n 15 precedent-bench search-stages --before /work/main --index var/acord-index

Issue 39: once the query model is batched on its own thread, what bounds never-seen searches
on two cores is the Python each request thread runs around it. Each run is a fresh process
with one tree's server code (servers.code_tree), the app as the throughput benchmark serves it
(learned ranker, usage feedback and the audit trail on, rate limits and the LLM off), POST
/api/v1/precedents through Flask's test client (no sockets), one search at a time:
``--warm`` never-seen short texts first (the model, the ranker, the clause caches), then
``--texts`` others with every stage timed, then ``--texts`` more without the timers (the
"no timers" row). A stage is timed with ``time.thread_time`` (the request thread's own CPU:
the batcher's thread, where the query model runs, is not in it) by wrapping functions both
trees have, so stages are inclusive (a stage's time holds those nested in it) and the timers
add a little CPU of their own. Runs go in ``--order`` (A B B A: drift falls on both alike);
prints ms per search by stage and the load average around each run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path

from precedent_bench.catalogue import subparser
from precedent_bench.common import data, indexes, servers

# (stage, where the function lives, attribute): the names are the same in both trees.
STAGES = (
    ("search pipeline", "index_builder.retrieve.pipeline:SearchPipeline", "search"),
    ("query embedding (request thread)", "index_builder.retrieve.pipeline:SearchPipeline", "embed"),
    ("candidate pool", "index_builder.retrieve.pipeline:SearchPipeline", "_pool"),
    ("dense + BM25 runs", "index_builder.retrieve.pipeline", "example_runs"),
    ("fusion", "index_builder.retrieve.pipeline:SearchPipeline", "_fuse"),
    ("learned ranker", "index_builder.retrieve.ltr:LearnedFusion", "rescore_with_rows"),
    ("ranker features", "index_builder.retrieve.ltr:FeatureExtractor", "__call__"),
    ("folding near copies", "index_builder.retrieve.pipeline:SearchPipeline", "_fold"),
    ("spans", "index_builder.retrieve.pipeline:SearchPipeline", "_spans"),
    ("glossary expansion", "index_builder.retrieve.query_expansion:QueryExpander", "expand"),
    ("usage record and cards", "addin_server.web.recording", "served_json"),
    ("response JSON", "addin_server.web.api", "jsonify"),
)

CHILD = r"""
import importlib, json, os, sys, tempfile, shutil, time, logging
logging.disable(logging.WARNING)
from precedent_bench.common.servers import LOAD_ENV, app_for
os.environ.update(LOAD_ENV)
os.environ["PRECEDENT_AUDIT"] = "on"  # as shipped (the throughput benchmark's servers)
from pathlib import Path
from precedent_bench.common.indexes import private_copy
from precedent_bench.serving.search_stages import STAGES
from precedent_bench.unseen import library_texts, unseen
from index_builder.settings import load_settings
import addin_server
index_dir, acord, contracts, warm, count = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
tmp = tempfile.mkdtemp(prefix="search-stages-")
index = private_copy(index_dir, Path(tmp) / "index", keep_usage=False)
settings = load_settings(overrides={"index_dir": index})
client = app_for(settings)[0].test_client()
texts = unseen(library_texts(acord, contracts), "short", warm + 2 * count)
spent = {name: 0.0 for name, _, _ in STAGES}
clock = time.thread_time
def timed(name, fn):
    def wrapper(*a, **k):
        began = clock()
        try:
            return fn(*a, **k)
        finally:
            spent[name] += clock() - began
    return wrapper
def wrap_embedder(search):
    def wrapper(self, *a, **k):
        if not getattr(self.embedder, "_stage_timed", False):
            inner = self.embedder
            class Timed:
                _stage_timed = True
                def __getattr__(s, attr):
                    return getattr(inner, attr)
                embed = staticmethod(timed("query embedding (request thread)", inner.embed))
            self.embedder = Timed()
        return search(self, *a, **k)
    return wrapper
saved = []
def install():
    for name, where, attr in STAGES:
        if attr == "embed":
            continue
        module, _, cls = where.partition(":")
        owner = importlib.import_module(module)
        owner = getattr(owner, cls) if cls else owner
        fn = getattr(owner, attr)
        saved.append((owner, attr, fn))
        if attr == "search":
            fn = wrap_embedder(fn)
        setattr(owner, attr, timed(name, fn))
def run(batch):
    began = clock()
    for text in batch:
        r = client.post("/api/v1/precedents", json={"text": text, "rerank": False})
        assert r.status_code == 200, r.status_code
    return (clock() - began) * 1000 / len(batch)
run(texts[:warm])
install()
timed_texts = texts[warm:warm + count]
request = run(timed_texts)
for owner, attr, fn in saved:
    setattr(owner, attr, fn)
plain = run(texts[warm + count:])
stages = {k: v * 1000 / len(timed_texts) for k, v in spent.items()}
print(json.dumps({"plain_ms": plain, "request_ms": request, "stages": stages, "texts": len(timed_texts),
                  "server_code": os.path.realpath(os.path.dirname(addin_server.__file__))}))
shutil.rmtree(tmp, ignore_errors=True)
"""


def one(tree: Path, args: argparse.Namespace) -> dict:
    return servers.run_in_tree(tree, CHILD, [str(args.index.resolve()), str(args.acord.resolve()),
                                             str(args.contracts.resolve()), str(args.warm), str(args.texts)],
                               {"PYTHONHASHSEED": "0"}, timeout_s=3600)


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--before", type=Path, required=True, help="code tree A (e.g. /work/main)")
    parser.add_argument("--after", type=Path, default=data.CHECKOUT, help="code tree B (this one)")
    parser.add_argument("--index", type=Path, default=indexes.ACORD_INDEX)
    parser.add_argument("--acord", type=Path, default=data.ACORD)
    parser.add_argument("--contracts", type=Path, default=data.CONTRACTS)
    parser.add_argument("--warm", type=int, default=500, help="never-seen searches before timing")
    parser.add_argument("--texts", type=int, default=400, help="never-seen searches timed")
    parser.add_argument("--order", default="ABBA")
    parser.add_argument("--out", type=Path, help="write the table (.md) and the raw runs (.json)")


def run(args: argparse.Namespace) -> None:
    trees = {"A": args.before, "B": args.after}
    rows = []
    for name in args.order:
        load = os.getloadavg()[0]
        result = one(trees[name], args)
        if Path(result["server_code"]).parent != trees[name].resolve():
            raise SystemExit(f"{name} ran the code in {result['server_code']}, not {trees[name]}")
        rows.append({"code": name, "tree": str(trees[name]), "commit": servers_commit(trees[name]),
                     "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2),
                     **result})
        print(json.dumps(rows[-1]), flush=True)
    text = table(rows, args)
    print(text)
    if args.out:
        args.out.with_suffix(".md").write_text(text + "\n")
        args.out.with_suffix(".json").write_text(json.dumps(rows, indent=1) + "\n")


def servers_commit(tree: Path) -> str:
    done = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    return done.stdout.strip()


def table(rows: list[dict], args: argparse.Namespace) -> str:
    names = [r["code"] for r in rows]
    head = " | ".join(f"{r['code']} ({r['commit']})" for r in rows)
    lines = [f"Request-thread CPU per never-seen short search, ms, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; index {args.index}; "
             f"{args.warm} searches to warm up, then {rows[0]['texts']} timed; Flask test client, "
             f"one search at a time; stages inclusive.", "",
             f"| stage | {head} | median A | median B |", "|---|" + "---|" * (len(rows) + 2)]

    def line(label: str, values: list[float]) -> str:
        a = statistics.median(v for v, n in zip(values, names) if n == "A") if "A" in names else float("nan")
        b = statistics.median(v for v, n in zip(values, names) if n == "B") if "B" in names else float("nan")
        return f"| {label} | " + " | ".join(f"{v:.2f}" for v in values) + f" | {a:.2f} | {b:.2f} |"

    lines.append(line("whole request, no timers", [r["plain_ms"] for r in rows]))
    lines.append(line("whole request, timed", [r["request_ms"] for r in rows]))
    for name, _, _ in STAGES:
        lines.append(line(name, [r["stages"].get(name, 0.0) for r in rows]))
    lines.append("| load before / after | " + " | ".join(
        f"{r['load_before']} / {r['load_after']}" for r in rows) + " | | |")
    return "\n".join(lines)
