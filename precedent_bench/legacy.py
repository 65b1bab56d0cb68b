"""`precedent-bench retrieval | scale | load`: the existing benchmark scripts, one entry point.

Each subcommand runs its script's own ``main`` with the remaining arguments, unchanged, so
the figures in benchmarks/results/ keep their commands (``python benchmarks/X.py ...``
still works). They need a source checkout: the scripts and their results live beside the
code, not in the installed package.
"""

from __future__ import annotations

import argparse
import runpy
import sys
from pathlib import Path

from index_builder.errors import InvalidRequestError

# subcommand -> (script, what it measures, where it writes)
SCRIPTS = {
    "retrieval": ("retrieval_benchmark.py", "ACORD retrieval tables (BM25, dense, hybrid), build "
                  "time, latency", "benchmarks/results/retrieval/"),
    "scale": ("scale_benchmark.py", "build, serve and rebuild a generated 100k or 1M clause "
              "library", "benchmarks/results/scale/"),
    "load": ("load_fault.py", "50 simulated lawyers against a real server and a failing LLM",
             "benchmarks/results/load-fault/"),
}


def add_parser(sub: argparse._SubParsersAction) -> None:
    for name, (script, what, where) in SCRIPTS.items():
        p = sub.add_parser(name, help=f"{what} (benchmarks/{script}; results in {where})",
                           description=f"Runs benchmarks/{script} with the arguments that follow; "
                                       f"`precedent-bench {name} -- --help` shows them.",
                           add_help=True)
        p.set_defaults(handler="precedent_bench.legacy:run_script", ab=False, passthrough=True,
                       script=script)


def benchmarks_dir() -> Path:
    here = Path(__file__).resolve().parent.parent / "benchmarks"
    if not here.is_dir():
        raise InvalidRequestError("The retrieval, scale and load benchmarks run from a source "
                                  "checkout of Precedent (benchmarks/ beside the code).")
    return here


def run_script(args: argparse.Namespace) -> int:
    path = benchmarks_dir() / args.script
    rest = [a for a in args.rest if a != "--"] if args.rest[:1] == ["--"] else list(args.rest)
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [str(path), *rest]
    sys.path.insert(0, str(path.parent))  # the scripts import their neighbours by name
    try:
        runpy.run_path(str(path), run_name="__main__")
    except SystemExit as done:
        code = done.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    return 0
