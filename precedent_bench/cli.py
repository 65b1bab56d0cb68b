"""`precedent-bench`: measure prompt edits and run every benchmark, one subcommand each.

    precedent-bench redraft --prompt prompts/redraft.prompt --prompt my-edit.prompt
    precedent-bench rerank  --prompt prompts/rerank.prompt  --prompt my-edit.prompt --limit 6
    precedent-bench redraft-eval [--prompt P]   (model alone / operations alone / routed)
    precedent-bench catch-rate   (the redraft checks against planted breaks, scripted model)
    precedent-bench check-prompts [--prompt FILE ...]
    precedent-bench throughput --baseline TREE  (never-seen searches/s, two code trees A B B A)
    precedent-bench query-model --twin openvino-int8  (NDCG@5 with a cheaper query model, paired)
    precedent-bench query-floor  (query models alone, texts/s, interleaved in the same minutes)
    precedent-bench BENCHMARK --help            (retrieval, load, scale, drafting, ...: listed below)

An A/B writes report.md, report.html and its plots to --out, and prints the verdict. LLM
answers are cached by a hash of the prompt and the input (PRECEDENT_BENCH_CACHE_DIR), so a
re-run of an unchanged prompt costs no call. Each benchmark's results, with the command
that re-runs them, are in benchmarks/results/<folder>/ (`precedent-bench BENCHMARK --help`
names it); run them from the repository root.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from pathlib import Path
from typing import Any, Sequence

from index_builder.errors import PrecedentError
from index_builder.extras import require
from index_builder.settings import Settings, load_settings

from precedent_bench import catalogue

log = logging.getLogger("precedent_bench")

# Modules whose add_parser(sub) is called at every start (the prompt engineer's commands);
# the benchmarks in catalogue.BENCHMARKS are imported only when their subcommand is named.
SUBCOMMANDS = ("precedent_bench.redraft_ab", "precedent_bench.rerank_ab",
               "precedent_bench.redraft_eval", "precedent_bench.catch_rate",
               "precedent_bench.prompt_report", "precedent_bench.conform_pairs",
               "precedent_bench.throughput", "precedent_bench.query_model",
               "precedent_bench.query_floor",
               "precedent_bench.figures", "precedent_bench.walls")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    first = next((i for i, a in enumerate(argv) if not a.startswith("-")), len(argv))
    named = argv[first] if first < len(argv) and not {"-h", "--help"} & set(argv[:first]) else None
    parser = build_parser(named if named in catalogue.BY_COMMAND else None)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for talkative in ("httpx", "httpx2", "httpcore", "httpcore2", "openai", "matplotlib", "PIL"):
        logging.getLogger(talkative).setLevel(logging.WARNING)
    try:
        return int(dispatch(args) or 0)
    except PrecedentError as exc:
        log.error("%s", exc.message)
        return 2
    except KeyboardInterrupt:
        return 130


def build_parser(benchmark: str | None = "*") -> argparse.ArgumentParser:
    """The parser. ``benchmark``: "*" imports every module for its full parser; None lists
    the benchmarks by their catalogue line without importing them; a benchmark's command
    builds that one alone (nothing else imported: the code-tree A/Bs run a benchmark against
    an older tree's server code, which the other commands' imports may not match)."""
    parser = argparse.ArgumentParser(prog="precedent-bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    if benchmark in ("*", None):
        for name in SUBCOMMANDS:
            importlib.import_module(name).add_parser(sub)
    for bench in catalogue.BENCHMARKS:
        if benchmark in ("*", bench.command):
            importlib.import_module(f"precedent_bench.{bench.module}").add_parser(sub)
        elif benchmark is None:
            sub.add_parser(bench.command, help=bench.summary, add_help=False)
    for p in sub.choices.values():
        if p.get_default("ab"):
            _add_ab_options(p)
            p.set_defaults(extras=("bench",))  # every A/B report draws its plots (matplotlib)
    return parser


def _add_ab_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, help="report folder (default var/bench/<command>)")
    p.add_argument("--cache-dir", type=Path, help="answer cache (default PRECEDENT_BENCH_CACHE_DIR)")
    p.add_argument("--no-cache", action="store_true", help="ask the model again for every item")


def settings_for(args: argparse.Namespace) -> Settings:
    overrides: dict[str, Any] = {"index_dir": getattr(args, "index", None),
                                 "bench.cache_dir": getattr(args, "cache_dir", None)}
    if getattr(args, "command", "") == "rerank" and args.index is None:
        overrides["index_dir"] = Path("var/acord-index")
    return load_settings(overrides=overrides)


def dispatch(args: argparse.Namespace) -> int:
    # Before the handler is even imported: a run that needs an extra says so up front, not in
    # a traceback when its report is drawn.
    for extra in getattr(args, "extras", ()):
        require(extra, f"precedent-bench {args.command}")
    module, _, name = args.handler.partition(":")
    handler = getattr(importlib.import_module(module), name)
    if not args.ab:
        return int(handler(args) or 0)
    return run_ab_command(args, handler)


def run_ab_command(args: argparse.Namespace, handler: Any) -> int:
    """Open the model lazily behind the cache, run the A/B, write and print the report."""
    import tempfile

    from precedent_bench.cache import AnswerStore
    from precedent_bench.models import open_model
    from precedent_bench.report import write_report

    settings = settings_for(args)
    cache_dir = Path(tempfile.mkdtemp()) if args.no_cache else settings.bench.cache_dir
    store = AnswerStore(cache_dir / "llm-answers.sqlite")
    try:
        opener = open_model
        if getattr(args, "reference", False):  # rerank --reference: no language model
            from precedent_bench.reference import open_reference as opener
        ab = handler(args, settings, lambda: opener(settings, store))
    finally:
        store.close()
    deltas = ab.deltas(settings.bench.confidence, settings.bench.resamples)
    out = args.out or Path("var/bench") / args.command
    written = write_report(ab, deltas, out)
    sys.stdout.write(f"{ab.verdict(deltas)}\n{ab.calls.get('calls', 0)} model calls, "
                     f"{ab.calls.get('cached', 0)} answered from the cache; report: {written}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
