"""Every benchmark `precedent-bench` runs: its subcommand, its module, one line, its extras.

This table is what `precedent-bench --help` lists. A benchmark's module is imported only when
its subcommand runs (or asks for ``--help``), so listing forty benchmarks costs nothing and a
benchmark that needs torch or LightGBM does not slow the others down. Each module has
``add_parser(sub)`` (arguments beside the code that reads them, made with :func:`subparser`)
and ``run(args)``; the data, indexes and servers they share come from precedent_bench/common/.

Results go to ``benchmarks/results/<results>/``, whose README.md holds the table, the exact
command that re-runs it and the plot.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from index_builder import extras


@dataclass(frozen=True)
class Benchmark:
    command: str
    module: str  # under precedent_bench
    summary: str  # the line `precedent-bench --help` shows
    results: str  # folder under benchmarks/results/
    extras: tuple[str, ...] = ()  # extras it always needs (index_builder/extras.py)


BENCHMARKS: tuple[Benchmark, ...] = (
    # retrieval quality on ACORD
    Benchmark("retrieval", "retrieval.retrieval_benchmark",
              "ACORD retrieval tables (BM25, dense, hybrid), build time, latency", "retrieval"),
    Benchmark("quality", "retrieval.quality_benchmark",
              "the served pipeline against its parts on ACORD, through SearchPipeline", "quality"),
    Benchmark("ltr", "retrieval.ltr_benchmark",
              "learned fusion on ACORD: cross-validate, train, test, rows, heads", "ltr"),
    Benchmark("glossary-heldout", "retrieval.glossary_heldout",
              "glossary provenance: no entry because of a test query; scores with and without",
              "quality"),
    Benchmark("glossary-coverage", "retrieval.glossary_coverage",
              "queries the glossary does not know: leave-one-query-out scores", "glossary-coverage"),
    Benchmark("owndraft", "retrieval.owndraft_benchmark",
              "a lawyer's own draft as the query: served vs BM25 vs dense", "owndraft"),
    Benchmark("owndraft-set", "retrieval.owndraft_drafts",
              "make or check the own-draft query set (benchmarks/owndraft/)", "owndraft"),
    Benchmark("cross-encoder-cost", "retrieval.cross_encoder_cost",
              "CPU time of a cross-encoder on a search's head", "owndraft"),
    Benchmark("llm-rerank", "retrieval.llm_rerank_benchmark",
              "LLM rerank that never hurts: rate the head, fit the rating's weight", "llm-rerank"),
    Benchmark("query-rewrite", "retrieval.query_rewrite",
              "rewrite train/valid queries with the embedded LLM; compare two ltr cv reports",
              "quality"),
    Benchmark("learning", "retrieval.learning_simulation",
              "simulated lawyers teach the ranker: learning curve and the guard", "learning",
              ("bench",)),
    Benchmark("strict", "retrieval.strict_benchmark",
              "strict mode: does a copied clause find its source (labels, tune, test)", "cursor"),
    # the explorer on the real agreements
    Benchmark("few-shot", "explore.few_shot",
              "query by 1, 2 or 3 example clauses on ACORD", "explore"),
    Benchmark("facets", "explore.facets",
              "metadata facets found on the real agreements", "explore"),
    Benchmark("variations", "explore.variations_grouping",
              "variation explorer on the real agreements: wordings, documents, time", "explore"),
    Benchmark("spans", "explore.spans_compare",
              "matching spans: the lexical scorer against the dense one, and their cost", "explore"),
    # embedding
    Benchmark("embedding-throughput", "embedding.embedding_throughput",
              "embedding backends side by side: clauses/s and ACORD NDCG@5", "embedding-throughput"),
    Benchmark("embedding-distill", "embedding.embedding_distill",
              "distil the embedding model into a three-layer student", "embedding-throughput"),
    Benchmark("embedding-int8", "embedding.embedding_static_int8",
              "int8 activations (static quantisation): does it speed up the embedder?",
              "embedding-throughput", ("openvino",)),
    # the server under load and faults
    Benchmark("load", "serving.load_fault",
              "simulated lawyers against a real server, a failing LLM and a mid-run swap",
              "load-fault"),
    Benchmark("connection-faults", "serving.connection_faults",
              "what the HTTP server loses: resets and dropped connections", "connection-faults"),
    Benchmark("crash-faults", "serving.crash_faults",
              "kill -9 the builder, kill the server during a swap, fill the disk", "crash-faults"),
    Benchmark("soak", "serving.soak",
              "a long mixed load, the index rebuilt and swapped every few minutes", "soak",
              ("bench",)),
    Benchmark("soak-probe", "serving.soak_probe",
              "the soak with a memory sampler inside the server", "soak-probe", ("bench",)),
    Benchmark("server-latency", "serving.server_latency",
              "POST /precedents latency over loopback HTTP, with and without LLM rerank",
              "server-latency"),
    Benchmark("follow-load", "serving.follow_load",
              "follow the cursor: 20 lawyers typing against a real server", "cursor"),
    Benchmark("throughput-ab", "serving.throughput_ab",
              "search throughput of two code trees, runs interleaved", "throughput-ab"),
    Benchmark("search-cpu-ab", "serving.search_cpu_ab",
              "CPU time per search request of two code trees", "search-cpu-ab"),
    Benchmark("search-stages", "serving.search_stages",
              "request-thread CPU of a never-seen search by stage, two code trees", "throughput"),
    # scale
    Benchmark("scale", "scale.scale_benchmark",
              "build, serve and rebuild a generated 100k or 1M clause library", "scale"),
    Benchmark("scale-compressed", "scale.compressed",
              "10M clauses on one machine: compressed segmented index, build, search, recall",
              "scale-compressed"),
    Benchmark("scale-corpus", "scale_corpus",
              "make a realistic contract library of any size for the scale benchmark", "scale"),
    Benchmark("sources-scale", "scale.sources_scale",
              "how the DMS sources list a large library: pages, requests, time, memory", "sources"),
    Benchmark("template-text", "template_text",
              "notes to the drafter and rows of blanks ingest leaves out, real agreements and ACORD",
              "ingest-notes"),
    # drafting: citations, injection, bad input
    Benchmark("citations", "drafting.citation_support",
              "the support check on a labelled set from the real agreements", "citations"),
    Benchmark("injection-defence", "drafting.injection_defence",
              "injected instructions reaching the redraft prompt, before and after the defence",
              "injection-defence"),
    Benchmark("injection-model", "drafting.injection_model",
              "injected instructions through a real redraft by a real model", "injection-model"),
    Benchmark("drafting", "drafting.drafting_set",
              "the drafting set through POST /redraft (scripted model): checks and operations "
              "scored outside the code", "drafting"),
    Benchmark("redraft-bad-input", "drafting.redraft_bad_input",
              "what a lawyer sees for bad drafting input, with and without a model", "redraft"),
    # conforming a precedent to the open document, and Check document (the older labelled sets)
    Benchmark("conform", "conform.conform_benchmark",
              "conform on the labelled pairs (issue 23 sets): mappings, undefined terms, "
              "references, read by the server's reader", "conform"),
    Benchmark("doc-check", "conform.doc_check_benchmark",
              "Check document on agreements with planted errors (tuning, held-out, fresh)", "conform"),
    # compare to market
    Benchmark("market-extraction", "market.market_extraction",
              "term extraction against the hand-labelled set", "market"),
    Benchmark("market-examples", "market.market_examples",
              "compare to market on the real agreements: worked examples and latency", "market"),
    Benchmark("market-mutuality", "market.mutuality_dump",
              "Compare terms' 'Who is bound' over ACORD and the agreements: what a change moves", "market"),
)

BY_COMMAND = {b.command: b for b in BENCHMARKS}
BY_MODULE = {f"precedent_bench.{b.module}": b for b in BENCHMARKS}


def subparser(sub: argparse._SubParsersAction, module: str) -> argparse.ArgumentParser:
    """The subcommand's parser for a benchmark module (``module`` is its ``__name__``)."""
    bench = BY_MODULE[module]
    doc = sys.modules[module].__doc__ or ""
    where = f"Results: benchmarks/results/{bench.results}/ (its README.md has the commands)."
    needs = "".join(f" Needs the [{e}] extra: pip install -e '.[{e}]'." for e in bench.extras)
    p = sub.add_parser(bench.command, help=bench.summary, description=f"{doc}\n{where}{needs}",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(handler=f"{module}:run", ab=False, extras=bench.extras)
    return p


# What the dispatcher adds to every benchmark's arguments (not options a user gave).
DISPATCH_KEYS = frozenset({"handler", "ab", "extras", "command", "verbose"})


def options(args: argparse.Namespace) -> dict[str, object]:
    """The benchmark's own options from parsed ``args``, for a report's command line."""
    return {k: v for k, v in vars(args).items() if k not in DISPATCH_KEYS}


def require(extra: str, command: str, why: str = "") -> None:
    """For a benchmark whose options call for an extra: stop before any work, with the
    install line (index_builder/extras.py)."""
    extras.require(extra, f"precedent-bench {command}", why)
