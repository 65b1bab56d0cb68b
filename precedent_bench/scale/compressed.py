"""`precedent-bench scale-compressed`: a library of millions of clauses on one machine.

    precedent-bench scale-compressed all --clauses 10000000        # build, then search
    precedent-bench scale-compressed build --clauses 1000000
    precedent-bench scale-compressed search --clauses 1000000 --queries 150
    precedent-bench scale-compressed calibrate                     # stand-in vs real vectors
    precedent-bench scale-compressed table                         # the README's table
    precedent-bench scale-compressed stages --clauses 30000        # CPU ms a clause per stage
    precedent-bench scale-compressed threads --clauses 30000       # FAISS build threads, 1 vs 2
    precedent-bench scale-compressed build --clauses 10000000 --index index-10m --workers 2
                                          # segments built by 2 worker processes, a checkpoint
                                          # version per segment: run again to resume
    precedent-bench scale-compressed compare --clauses 30000 --index index-serial --other index-w2

The library is generated (precedent_bench/scale/library.py: real contract sentences
recombined, served to the real builder as a DMS serves documents, with walls) and its
vectors are stand-ins built from real MiniLM sentence vectors (vectors.py; how close
they are to real clause vectors is what ``calibrate`` measures). With the default
PRECEDENT_DENSE_INDEX=auto a library this size gets the segmented, compressed index
(index_builder/index/segments.py).

``build`` records build time, peak RSS, disk. ``search`` records, on the served version:
recall@10 of the dense search against exact search (every stored vector streamed from disk)
under five filter cases from none to one document, walls included; p50/p95 of the engine's
two searches (dense + BM25, top 100 each, the user's walls applied, as the pipeline asks)
and of whole POST /api/v1/precedents requests over HTTP (no LLM), at 1 and 20 clients; the
server's memory. ``all`` runs each step in its own process. Every figure goes into
benchmarks/results/scale-compressed/compressed.json with the load average, date and commit.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import RESULTS as RESULTS_ROOT
from precedent_bench.common.data import SHARED_DATA
from precedent_bench.scale import library as lib
from precedent_bench.scale import measure as m

log = logging.getLogger(__name__)

RESULTS = RESULTS_ROOT / "scale-compressed" / "compressed.json"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = subparser(sub, __name__)
    p.add_argument("step", choices=("all", "build", "search", "rebuild", "calibrate", "table",
                                     "stages", "threads", "compare"))
    p.add_argument("--clauses", type=int, default=1_000_000, help="library size (default 1M)")
    p.add_argument("--work", type=Path, default=Path("var/scale-compressed"),
                   help="sentence vectors, indexes (default var/scale-compressed)")
    p.add_argument("--data", type=Path, default=SHARED_DATA, help="shared data (contracts/, acord/)")
    p.add_argument("--queries", type=int, default=150, help="search: queries for recall and latency")
    p.add_argument("--per-client", type=int, default=10, help="search: requests per client")
    p.add_argument("--clients", type=int, nargs="+", default=[1, 20])
    p.add_argument("--dense", default="auto", help="PRECEDENT_DENSE_INDEX for the build")
    p.add_argument("--nprobe", type=int, default=0, help="search: PRECEDENT_IVF_NPROBE (0: setting)")
    p.add_argument("--refine", type=int, default=0, help="search: PRECEDENT_IVF_REFINE (0: setting)")
    p.add_argument("--min-free-gb", type=float, default=0.0,
                   help="build: refuse to start with less memory available (0: 1.3 GB per 1M clauses)")
    p.add_argument("--stop-below-gb", type=float, default=1.0,
                   help="stop if the machine's available memory falls below this")
    p.add_argument("--stop-below-disk-gb", type=float, default=4.0,
                   help="build: stop (as a crash would: resumable) if the index's disk has less free")
    p.add_argument("--workers", type=int, default=1,
                   help="build: worker processes building segments (PRECEDENT_BUILD_WORKERS)")
    p.add_argument("--segment-clauses", type=int, default=0,
                   help="build: PRECEDENT_SEGMENT_CLAUSES (0: the setting's default)")
    p.add_argument("--other", default="",
                   help="compare: the index folder (under --work) to compare --index with")
    p.add_argument("--index", default="",
                   help="index folder under --work (default index-<tier of --clauses>): a library "
                        "grown in increments keeps one folder")
    p.add_argument("--no-http", action="store_true", help="search: engine latency only")
    p.add_argument("--no-recall", action="store_true",
                   help="search: latency only (recall streams every stored vector: minutes at 10M)")
    p.add_argument("--no-terms", action="store_true",
                   help="build: skip figure extraction (index_builder/terms, ~2-5 ms a clause: "
                        "hours at 10M); its cost per clause is measured on a sample instead")
    p.add_argument("--changed", type=float, default=0.01,
                   help="rebuild: share of the documents given a new revision (default 1%%)")
    p.add_argument("--revision", type=int, default=1, help="rebuild: the revision they get")
    p.add_argument("--label", default="",
                   help="stages: record the figures in the results under stages-<label>")
    p.add_argument("--results", type=Path, default=RESULTS)
    p.add_argument("--progress", action="store_true")


def run(args: argparse.Namespace) -> int:
    if args.step == "all":
        for step in ("build", "search"):
            command = [sys.executable, "-m", "precedent_bench.cli", "scale-compressed", step,
                       *_passed(args)]
            log.info("%s", " ".join(command))
            subprocess.run(command, check=True)
        return 0
    if args.step == "table":
        sys.stdout.write(table(json.loads(args.results.read_text())))
        return 0
    if args.step == "calibrate":
        from precedent_bench.scale.calibrate import calibrate

        merge(args.results, "calibration", calibrate(args.work, args.data))
        return 0
    if args.step == "stages":
        from precedent_bench.scale.stages import stages, summary

        library, embedder = _library(args)
        result = {**stages(library, embedder, _settings(args), args.clauses), "load_end": m.load(),
                  **_provenance()}
        sys.stdout.write(summary(result))
        if args.label:
            merge(args.results, f"stages-{args.label}", result)
        return 0
    if args.step == "threads":  # on the vectors of the index --clauses names (built first)
        from precedent_bench.scale.stages import threads

        folder = _settings(args).index_dir / "segments"
        first = sorted(folder.glob("s-*/vectors.npy"))
        if not first:
            raise SystemExit(f"No segment under {folder}: build it first "
                             f"(scale-compressed build --clauses {args.clauses} --dense ivfpq).")
        result = {**threads(first[0], args.clauses, _settings(args)), **_provenance()}
        merge(args.results, f"threads-{_tier(args.clauses)}", result)
        return 0
    if args.step == "compare":  # two builds of the same library, e.g. serial and in workers
        from index_builder.index import open_store
        from precedent_bench.scale.compare import compare

        first = open_store(_settings(args)).open()
        args.index = args.other
        second = open_store(_settings(args)).open()
        library, _ = _library(args)
        result = compare(first, second, [q.text for q in lib.queries(library, args.data / "acord", 60)])
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        merge(args.results, f"compare-{_tier(args.clauses)}", {**result, **_provenance()})
        return 0 if result["same"] else 1
    key = f"{_tier(args.clauses)}-{args.step}" + ("-latency" if args.no_recall else "") \
        + (f"-workers{args.workers}" if args.step != "search" and args.workers > 1 else "")
    result = search(args) if args.step == "search" else build(args)
    merge(args.results, key, result)
    log.info("%s: %s", key, json.dumps(result))
    return 0


def _passed(args: argparse.Namespace) -> list[str]:
    out = ["--clauses", str(args.clauses), "--work", str(args.work), "--data", str(args.data),
           "--queries", str(args.queries), "--per-client", str(args.per_client),
           "--dense", args.dense, "--nprobe", str(args.nprobe), "--refine", str(args.refine),
           "--min-free-gb", str(args.min_free_gb), "--stop-below-gb", str(args.stop_below_gb),
           "--stop-below-disk-gb", str(args.stop_below_disk_gb), "--index", args.index,
           "--workers", str(args.workers), "--segment-clauses", str(args.segment_clauses),
           "--results", str(args.results), "--clients", *map(str, args.clients)]
    return out + (["--no-http"] if args.no_http else []) + (["--no-recall"] if args.no_recall else []) + (["--progress"] if args.progress else []) \
        + (["--no-terms"] if args.no_terms else [])


def _tier(clauses: int) -> str:
    return f"{clauses // 1_000_000}m" if clauses % 1_000_000 == 0 else f"{clauses // 1000}k"


def _settings(args: argparse.Namespace) -> Any:
    from index_builder.settings import load_settings

    env = {"PRECEDENT_LOCAL_LLM": "off", "PRECEDENT_EMBEDDING_CACHE_SIZE": "0",
           "PRECEDENT_RESULT_CACHE": "0", "PRECEDENT_RATE_LIMIT": "off",
           "PRECEDENT_ACORD_DIR": str(args.data / "acord")}
    overrides: dict[str, Any] = {"index_dir": args.work / (args.index or f"index-{_tier(args.clauses)}"),
                                 "embedding.dense_index": args.dense}
    if args.nprobe:
        overrides["embedding.ivf_nprobe"] = args.nprobe
    if args.refine:
        overrides["embedding.ivf_refine"] = args.refine
    if args.workers > 1:
        overrides["embedding.workers"] = args.workers
    if args.segment_clauses:
        overrides["embedding.segment_clauses"] = args.segment_clauses
    return load_settings(env, overrides)


def _library(args: argparse.Namespace) -> tuple[lib.GeneratedLibrary, Any]:
    from precedent_bench import scale_corpus as sc

    sources = lib.load_sources(args.data / "contracts", args.data / "acord",
                               args.work / "sources.pickle")
    library = lib.GeneratedLibrary(sc.Generator(sources, 9), args.clauses)
    return library, lib.embedder(args.work, sources, args.data / "acord")


def build(args: argparse.Namespace) -> dict[str, Any]:
    """Build the library's index (or update it: the build is incremental) and measure it."""
    import psutil

    from index_builder.index.build import build_index

    need = args.min_free_gb or 1.3 * args.clauses / 1e6
    available = psutil.virtual_memory().available / 2**30
    if available < need:
        raise SystemExit(f"Only {available:.1f} GB of memory available; this build wants "
                         f"{need:.1f} GB free (--min-free-gb). Try again when the machine is quieter.")
    settings = _settings(args)
    library, embedder = _library(args)
    changed = []
    if args.step == "rebuild":  # a night's changes: some documents reworded, built again
        import random

        rng = random.Random(f"rebuild/{args.revision}")
        changed = rng.sample(range(len(library.sizes)), max(1, round(args.changed * len(library.sizes))))
        library.revision.update({number: args.revision for number in changed})
    terms = _terms_cost(library)
    if args.no_terms:  # the figures are not what this measures; their cost is reported
        import index_builder.index.build as builder

        builder.stamp_terms = no_terms
    before = m.load()
    started, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    with m.Watchdog(args.stop_below_gb, disk=settings.index_dir,
                    min_disk_gb=args.stop_below_disk_gb) as watchdog:
        report = build_index(settings, library, embedder, progress=args.progress)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    # Worker processes' CPU (reaped when the build's pool closes) and their largest peak RSS.
    workers_cpu = _children_cpu() - children
    cpu += workers_cpu
    params = json.loads((settings.index_dir / report.version / "params.json").read_text())
    return {"clauses": report.clauses, "documents": report.documents, "build_s": round(seconds, 1),
            # CPU seconds of the build (this process, every thread): on a shared machine the
            # wall time depends on the others; this is what the build itself spent.
            "build_cpu_s": round(cpu, 1), "cpu_ms_per_clause": round(1000 * cpu / max(1, report.clauses), 3),
            "workers": args.workers, "workers_cpu_s": round(workers_cpu, 1),
            "workers_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024),
            "changed_documents": len(changed), "parsed": len(report.parsed),
            "embedded": report.embedded, "version": report.version,
            "segments": [s["size"] for s in params.get("segments", [])],
            "dense": params.get("dense"), "disk_mb": m.disk(settings.index_dir),
            "stand_in_vectors": embedder.counts(), "load_before": before, "load_after": m.load(),
            "terms": {"extracted": not args.no_terms, **terms},
            "available_gb_at_start": round(available, 1), **m.memory(), **watchdog.report(),
            **_provenance()}


def no_terms(clauses: list[Any]) -> tuple[list[Any], int]:
    """--no-terms: figure extraction left out (a module-level function: worker processes of a
    sharded build are sent it by name)."""
    return list(clauses), 0


def _children_cpu() -> float:
    times = os.times()
    return times.children_user + times.children_system


def _terms_cost(library: lib.GeneratedLibrary, documents: int = 40) -> dict[str, Any]:
    """Figure extraction's time per clause, on the first documents' clauses (as read)."""
    import tempfile

    from index_builder.ingest import read_clauses
    from index_builder.terms import stamp

    with tempfile.TemporaryDirectory() as folder:
        local = Path(folder) / "doc.md"
        clauses = []
        for number in range(min(documents, len(library.sizes))):
            local.write_text(library.markdown(number), "utf-8")
            clauses += read_clauses(local, library.doc_id(number), str(local))
    started = time.perf_counter()
    stamp(clauses)
    seconds = time.perf_counter() - started
    return {"sample_clauses": len(clauses), "ms_per_clause": round(1000 * seconds / len(clauses), 2),
            "sample_load": m.load()}


def search(args: argparse.Namespace) -> dict[str, Any]:
    """Recall and latency on the live version (see the module docstring)."""
    from index_builder.index import open_store

    settings = _settings(args)
    library, embedder = _library(args)
    started = time.perf_counter()
    backend = open_store(settings).open()
    out: dict[str, Any] = {"open_s": round(time.perf_counter() - started, 1),
                           "after_open": m.memory(), "version": backend.version,
                           "clauses": backend.stats()["clauses"]}
    if not hasattr(backend, "dense_index"):
        raise SystemExit(f"{settings.index_dir} holds a whole (not segmented) version: this "
                         f"benchmark measures the segmented index (--dense ivfpq or auto).")
    out["dense"] = {**backend.dense_index.memory(), "nprobe": backend.dense_index.nprobe,
                    "refine": backend.dense_index.refine}
    queries = lib.queries(library, args.data / "acord", args.queries)
    texts = [q.text for q in queries]
    vectors = embedder.embed(texts)
    cases = lib.filter_cases(library)
    with m.Watchdog(args.stop_below_gb):
        if not args.no_recall:
            out["recall"] = m.recall(backend, vectors, [q.kind for q in queries], cases)
        walls = cases["walls"]

        def engine(i: int) -> None:
            backend.dense(vectors[i], 100, walls)
            backend.lexical([texts[i]], 100, walls)

        parts = {}
        for name, call in (("dense", lambda i: backend.dense(vectors[i], 100, walls)),
                           ("lexical", lambda i: backend.lexical([texts[i]], 100, walls))):
            parts[name] = m.clients(call, len(texts), 1, min(len(texts), 60))
        out["engine"] = {"walls": "a user in two walled matters and a conflict group",
                         "parts_1_client": parts,
                         "by_clients": [m.clients(engine, len(texts), n, args.per_client)
                                        for n in args.clients]}
        out["after_engine"] = m.memory()
        if not args.no_http:
            out["http"] = _http(settings, backend, embedder, texts, args)
    out.update(load_end=m.load(), **_provenance())
    return out


def _http(settings: Any, backend: Any, embedder: Any, texts: list[str], args: argparse.Namespace
          ) -> dict[str, Any]:
    """Whole requests through the served app (cheroot, as `addin-server serve` runs it)."""
    from addin_server.service import build_service
    from addin_server.web.app import create_app
    from addin_server.web.wsgi import make_server
    from index_builder.retrieve.query_expansion import QueryExpander

    # The pipeline embeds a short query with its glossary definitions: their real vectors.
    expander = QueryExpander(max_words=settings.retrieval.expansion_max_words)
    short = [t for t in texts if t in embedder.known]
    expanded = [expander.expand(t) for t in short]
    missing = [t for t in expanded if t not in embedder.known]
    if missing:
        from precedent_bench.scale.vectors import real_embedder

        embedder.known.update(zip(missing, real_embedder().embed(missing)))
    app = create_app(settings, build_service(settings, embedder=embedder))
    server = make_server(app, "127.0.0.1", 0, threads=max(args.clients) + 2)
    server.prepare()
    port = server.bind_addr[1]
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        call = m.http_call(port, texts)
        call(0)  # first request: lazy structures
        return {"walls": "anonymous user: open documents only (walls applied)",
                "by_clients": [m.clients(call, len(texts), n, args.per_client) for n in args.clients],
                "server": m.memory()}
    finally:
        server.stop()


def _provenance() -> dict[str, Any]:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    return {"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": commit}


def merge(path: Path, key: str, value: dict[str, Any]) -> None:
    data = json.loads(path.read_text()) if path.is_file() else {}
    data[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def table(data: dict[str, Any]) -> str:
    """The README's table: one column per library size measured."""
    tiers = sorted({k.rsplit("-", 1)[0] for k in data if k.endswith(("-build", "-search"))},
                   key=lambda t: float(t[:-1]) * (1e6 if t.endswith("m") else 1e3))
    rows: list[tuple[str, list[str]]] = []

    def row(name: str, get: Any) -> None:
        values = []
        for tier in tiers:
            try:
                values.append(get(data.get(f"{tier}-build", {}), data.get(f"{tier}-search", {})))
            except (KeyError, TypeError, IndexError):
                values.append("")
        rows.append((name, values))

    row("clauses", lambda b, s: f"{b['clauses']:,}")
    row("build time", lambda b, s: _build_time(b))
    row("build peak RSS", lambda b, s: f"{b['peak_rss_mb'] / 1024:.1f} GB")
    row("disk", lambda b, s: f"{b['disk_mb']['total_mb'] / 1024:.1f} GB")
    row("server RSS after open / after searches", lambda b, s: f"{s['after_open']['rss_mb'] / 1024:.2f} / {s['after_engine']['rss_mb'] / 1024:.2f} GB")
    for case in ("none", "walls", "walls+role", "walls+matter", "walls+document"):
        row(f"recall@10, {case}", lambda b, s, c=case: f"{s['recall']['cases'][c]['recall_at_10']:.3f} ({s['recall']['cases'][c]['allowed']:,} allowed)")
    for n in (1, 20):
        row(f"engine p50 / p95, {n} client{'s' if n > 1 else ''}", lambda b, s, n=n: _lat(s["engine"]["by_clients"], n))
        row(f"HTTP p50 / p95, {n} client{'s' if n > 1 else ''}", lambda b, s, n=n: _lat(s["http"]["by_clients"], n))
    header = "| | " + " | ".join(tiers) + " |\n|---|" + "---|" * len(tiers) + "\n"
    return header + "".join(f"| {name} | " + " | ".join(values) + " |\n" for name, values in rows)


def _build_time(b: dict[str, Any]) -> str:
    """Wall minutes; a library built in increments shows each (``increments``: earlier ones)."""
    spans = [*b.get("increments", []), b]
    if len(spans) == 1:
        return f"{b['build_s'] / 60:.0f} min (load {b['load_before'][0]:.1f} → {b['load_after'][0]:.1f})"
    parts = " + ".join(f"{x['build_s'] / 60:.0f}" for x in spans)
    return (f"{sum(x['build_s'] for x in spans) / 60:.0f} min in {len(spans)} increments "
            f"({parts} min; load {spans[0]['load_before'][0]:.1f}–{max(x['load_before'][0] for x in spans):.1f})")


def _lat(runs: list[dict[str, Any]], clients: int) -> str:
    run = next(r for r in runs if r["clients"] == clients)
    return f"{run['p50_ms']:.0f} / {run['p95_ms']:.0f} ms (load {run['load_before'][0]:.1f})"

