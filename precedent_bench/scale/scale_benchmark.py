"""Scale benchmark: build, serve and rebuild a generated library of 100k or 1M clauses.

Usage (from the repo root; make the library first with `precedent-bench scale-corpus`):
    nice -n 10 precedent-bench scale all --tier 100k [--dense flat,hnsw] [--workers 1]
    nice -n 10 precedent-bench scale vectors --count 1000000   # dense side alone
    nice -n 10 precedent-bench scale workers --library var/scale/8k  # --workers scaling

Each step runs in its own process so its memory is its own: ``build`` (the real index builder
over the library's Markdown files: reading, BM25, FAISS, version write), ``serve`` (the real
server app in process: POST /api/v1/precedents without any LLM, p50/p95, RSS, recall@10 of the
dense index against exact search) and ``rebuild`` (1% of documents reworded, incremental build).

Vectors: embedding 100k or 1M clauses with MiniLM on 2 shared cores takes hours (see
embedding_throughput.json), so these runs use ``ClusteredEmbedder``: deterministic vectors,
one cluster per opening of a clause (clauses recombined from the same source clause share
one), unit length, 384 dimensions. The build time of real embedding is reported beside it
as clauses / measured clauses-per-second. Results merge into benchmarks/results/scale/scale.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from precedent_bench.catalogue import require, subparser
from precedent_bench.common.data import ACORD, CONTRACTS, RESULTS, acord_queries
from precedent_bench.common.machine import memory as rss_mb

log = logging.getLogger("benchmark.scale")
DIMENSION = 384
CLUSTERS = 4096
SPREAD = 0.8  # noise norm against the unit centre: two members of a cluster ~0.6 cosine


class ClusteredEmbedder:
    """Stand-in for MiniLM at scale: unit vectors clustered by the opening words of a text."""

    model_id = "synthetic-clustered-384"
    dimension = DIMENSION

    def __init__(self, seed: int = 9) -> None:
        rng = np.random.default_rng(seed)
        centres = rng.standard_normal((CLUSTERS, DIMENSION)).astype(np.float32)
        self._centres = centres / np.linalg.norm(centres, axis=1, keepdims=True)

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        out = np.empty((len(texts), DIMENSION), dtype=np.float32)
        for row, text in enumerate(texts):
            digest = hashlib.sha256(text.encode("utf-8")).digest()
            noise = np.random.default_rng(int.from_bytes(digest[:8], "little")).standard_normal(DIMENSION)
            vector = self._centres[_cluster(text)] + SPREAD * noise / np.sqrt(DIMENSION)
            out[row] = vector / np.linalg.norm(vector)
        return out


def _cluster(text: str) -> int:
    opening = " ".join(re.sub(r"[^a-z ]", "", text.lower()).split()[:8])
    return int.from_bytes(hashlib.sha1(opening.encode()).digest()[:4], "little") % CLUSTERS


def disk_mb(path: Path) -> float:
    return round(sum(p.stat().st_size for p in Path(path).rglob("*") if p.is_file()) / 2**20, 1)


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


HNSW: dict[str, int] = {}  # embedding.hnsw_* overrides from --m / --ef-construction / --serve-ef


def _settings(index_dir: Path, dense: str, workers: int = 1, backend: str = "embedded"):  # type: ignore[no-untyped-def]
    from index_builder.settings import load_settings

    env = {"PRECEDENT_LOCAL_LLM": "off", "PRECEDENT_EMBEDDING_CACHE_SIZE": "0"}
    overrides = {"index_dir": index_dir, "backend": backend, "embedding.dense_index": dense,
                 "embedding.workers": workers, **{f"embedding.{k}": v for k, v in HNSW.items()}}
    return load_settings(env, overrides)


def step_build(library: Path, index_dir: Path, dense: str, workers: int, backend: str) -> dict[str, Any]:
    from index_builder.index.build import build_index

    settings = _settings(index_dir, dense, workers, backend)
    before = load()
    started = time.perf_counter()
    report = build_index(settings, [library], ClusteredEmbedder(), progress=PROGRESS)
    seconds = time.perf_counter() - started
    return {"build_s": round(seconds, 1), "clauses": report.clauses, "documents": report.documents,
            "parsed": len(report.parsed), "embedded": report.embedded, "disk_mb": disk_mb(index_dir),
            "load_before": before, "load_after": load(), **rss_mb()}


def step_rebuild(library: Path, index_dir: Path, dense: str, workers: int, backend: str,
                 revision: int, seed: int, rebuilds: int = 1) -> dict[str, Any]:
    """1% of the documents reworded, then an incremental build; ``rebuilds`` times in one
    process (the second and later find milvus-lite's collection loaded, as a cluster keeps it)."""
    from index_builder.index.build import build_index
    from precedent_bench import scale_corpus

    generator = scale_corpus.Generator(scale_corpus.load_sources(CONTRACTS, ACORD), seed)
    settings = _settings(index_dir, dense, workers, backend)
    runs = []
    for number in range(rebuilds):
        changed = scale_corpus.mutate(generator, library, 0.01, revision + number)
        before = load()
        started = time.perf_counter()
        report = build_index(settings, [library], ClusteredEmbedder(), progress=PROGRESS)
        seconds = time.perf_counter() - started
        runs.append({"rebuild_s": round(seconds, 1), "changed_documents": len(changed),
                     "parsed": len(report.parsed), "embedded": report.embedded,
                     "reused_vectors": report.embeddings_reused, "load_before": before,
                     "load_after": load(), "written": _written(index_dir, backend)})
        log.info("rebuild %d: %s", number + 1, json.dumps(runs[-1]))
    return {**runs[0], "runs": runs, **rss_mb()}


def _written(index_dir: Path, backend: str) -> str:
    """How the embedded store wrote the live version: appended to its predecessor or whole."""
    if backend != "embedded":
        return "generation"
    from index_builder.index.versions import resolve_version

    params = json.loads((resolve_version(index_dir) / "params.json").read_text())
    return f"appended {params['appended']}" if "appended" in params else "whole"


def step_serve(library: Path, index_dir: Path, dense: str, queries: int, backend: str) -> dict[str, Any]:
    from addin_server.service import build_service
    from addin_server.web.app import create_app

    settings = _settings(index_dir, dense, 1, backend)
    embedder = ClusteredEmbedder()
    started = time.perf_counter()
    app = create_app(settings, build_service(settings, embedder=embedder))
    load_s = time.perf_counter() - started
    after_load = rss_mb()
    client = app.test_client()
    texts = query_texts(library, queries)
    client.post("/api/v1/precedents", json={"text": texts[0]})  # warm-up (lazy structures)
    latencies, statuses = [], []
    before = load()
    for text in texts:
        began = time.perf_counter()
        response = client.post("/api/v1/precedents", json={"text": text, "top_k": 10})
        latencies.append((time.perf_counter() - began) * 1000)
        statuses.append(response.status_code)
    result = {"queries": len(texts), "ok": statuses.count(200), "load_s": round(load_s, 1),
              "p50_ms": round(statistics.median(latencies), 1),
              "p95_ms": round(sorted(latencies)[int(0.95 * (len(latencies) - 1))], 1),
              "rss_after_load_mb": after_load["rss_mb"], "after_load": after_load,
              "load_before": before, "load_after": load(),
              **rss_mb()}
    if backend == "embedded":
        result.update(dense_recall(app, embedder, texts))
    else:
        result.update(search_split(app, embedder, texts), engine_rss_mb=children_rss_mb())
    return result


def children_rss_mb() -> float:
    """Resident memory of this process's children (the milvus-lite engine), in MB."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == os.getpid():  # ppid
                total += int(fields[21]) * os.sysconf("SC_PAGE_SIZE")  # rss pages
        except (OSError, IndexError, ValueError):
            continue
    return round(total / 2**20)


def search_split(app: Any, embedder: ClusteredEmbedder, texts: Sequence[str]) -> dict[str, Any]:
    """p50 of the engine's dense and BM25 searches alone (top 100, as the pipeline asks)."""
    backend = _backend(app.extensions["precedent"])
    out = {}
    for name, search in (("dense", lambda t: backend.dense(embedder.embed([t])[0], 100)),
                         ("lexical", lambda t: backend.lexical([t], 100))):
        timings = []
        for text in texts:
            began = time.perf_counter()
            search(text)
            timings.append((time.perf_counter() - began) * 1000)
        out[f"{name}_search_p50_ms"] = round(statistics.median(timings), 2)
    return out


def dense_recall(app: Any, embedder: ClusteredEmbedder, texts: Sequence[str], k: int = 10) -> dict[str, Any]:
    """recall@k of the backend's dense search against brute force over the same vectors."""
    service = app.extensions["precedent"]
    backend = _backend(service)
    vectors = embedder.embed(texts)
    stored = backend.index.embeddings
    hits, strict, timings = 0, 0, []
    for vector in vectors:
        began = time.perf_counter()
        got = {cid for cid, _ in backend.dense(vector, k)}
        timings.append((time.perf_counter() - began) * 1000)
        scores = stored @ vector
        if backend.index.alive is not None:  # an appended version: dead positions are not results
            scores[~backend.index.alive] = -np.inf
        top = np.argpartition(-scores, k - 1)[:k]
        strict += len(got & set(backend.index.table.ids_at(top.tolist())))
        # Tie-aware: a returned clause scoring at least the exact 10th best is a hit (verbatim
        # boilerplate repeats, so several clauses share the same top score).
        positions = backend.positions(sorted(got))
        hits += int((scores[positions] >= scores[top].min() - 1e-5).sum())
    lexical = []
    for text in texts:
        began = time.perf_counter()
        backend.lexical([text], 100)
        lexical.append((time.perf_counter() - began) * 1000)
    return {"recall_at_10": round(hits / (k * len(vectors)), 4),
            "id_recall_at_10": round(strict / (k * len(vectors)), 4),
            "dense_search_p50_ms": round(statistics.median(timings), 2),
            "lexical_search_p50_ms": round(statistics.median(lexical), 2)}


def _backend(service: Any) -> Any:
    """The open EmbeddedBackend behind the service (service.live is a LivePipeline)."""
    return service.live.current().backend


def query_texts(library: Path, count: int, seed: int = 11) -> list[str]:
    """Half whole clauses of the library (as the add-in sends a paragraph), half ACORD phrasings."""
    rng = random.Random(seed)
    files = sorted(library.rglob("*.md"))
    clauses = []
    for path in rng.sample(files, min(len(files), count)):
        sections = [p for p in path.read_text("utf-8").split("\n\n") if re.match(r"\d+\. ", p)]
        text = rng.choice(sections)
        clauses.append(re.sub(r"^\d+\. \*\*[^*]+\*\* ", "", text))
    phrases = [row["text"] for row in acord_queries()]
    short = rng.sample(phrases, min(len(phrases), count - count // 2))
    return [t for pair in zip(clauses, short) for t in pair][:count]


def step_vectors(count: int, queries: int, m: int, ef_construction: int, ef_search: Sequence[int]) -> dict[str, Any]:
    """The dense side alone at ``count`` clustered vectors: flat vs HNSW latency, recall, memory."""
    import faiss

    from index_builder.index.dense_files import dense_index

    faiss.omp_set_num_threads(1)
    rng = np.random.default_rng(5)
    centres = rng.standard_normal((CLUSTERS, DIMENSION)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    vectors = np.empty((count, DIMENSION), dtype=np.float32)
    for start in range(0, count, 100_000):
        n = min(100_000, count - start)
        block = centres[rng.integers(0, CLUSTERS, n)] + SPREAD * rng.standard_normal((n, DIMENSION)).astype(np.float32) / np.sqrt(DIMENSION)
        vectors[start:start + n] = block / np.linalg.norm(block, axis=1, keepdims=True)
    query_ids = rng.integers(0, count, queries)
    qv = vectors[query_ids] + 0.3 * rng.standard_normal((queries, DIMENSION)).astype(np.float32) / np.sqrt(DIMENSION)
    qv /= np.linalg.norm(qv, axis=1, keepdims=True)
    out: dict[str, Any] = {"count": count, "queries": queries, "load_before": load()}
    flat = dense_index(vectors, {"kind": "flat"})
    truth, timings = [], []
    for q in qv:
        began = time.perf_counter()
        _, ids = flat.search(q[None, :], 10)
        timings.append((time.perf_counter() - began) * 1000)
        truth.append(set(ids[0].tolist()))
    out["flat"] = {"p50_ms": round(statistics.median(timings), 2), "memory_mb": round(vectors.nbytes / 2**20)}
    del flat
    began = time.perf_counter()
    hnsw = dense_index(vectors, {"kind": "hnsw", "m": m, "ef_construction": ef_construction})
    out["hnsw_build_s"] = round(time.perf_counter() - began, 1)
    out["hnsw"] = []
    for ef in ef_search:
        params = faiss.SearchParametersHNSW(efSearch=ef)
        hits, timings = 0, []
        for q, want in zip(qv, truth):
            began = time.perf_counter()
            _, ids = hnsw.search(q[None, :], 10, params=params)
            timings.append((time.perf_counter() - began) * 1000)
            hits += len(want & set(ids[0].tolist()))
        out["hnsw"].append({"m": m, "ef_construction": ef_construction, "ef_search": ef,
                            "recall_at_10": round(hits / (10 * queries), 4),
                            "p50_ms": round(statistics.median(timings), 2)})
    out.update(rss_mb())
    out["load_after"] = load()
    return out


def step_workers(library: Path, texts: int, counts: Sequence[int]) -> dict[str, Any]:
    """How reading (the real reader) and embedding (onnx-int8) scale with build workers."""
    from dataclasses import replace

    from index_builder.index.documents import read_beir_corpus
    from index_builder.index import load_embedder
    from index_builder.index.parallel import embed_texts

    out: dict[str, Any] = {"library": str(library), "texts": texts, "runs": []}
    settings = _settings(Path("/tmp/unused-index"), "flat")
    embedder = load_embedder(replace(settings.embedding, backend="onnx-int8", threads=1))
    clauses = read_beir_corpus(ACORD / "corpus.jsonl", "acord")[:texts]
    items = [(f"{i}", c.text) for i, c in enumerate(clauses)]
    for workers in counts:
        index_dir = Path("var/scale-index") / f"workers-{workers}"
        shutil.rmtree(index_dir, ignore_errors=True)
        before = load()
        began = time.perf_counter()
        from index_builder.index.build import build_index

        report = build_index(_settings(index_dir, "flat", workers), [library], ClusteredEmbedder(),
                             progress=False)
        read_s = time.perf_counter() - began
        began = time.perf_counter()
        embed_texts(items, embedder, None, workers)
        embed_s = time.perf_counter() - began
        out["runs"].append({"workers": workers, "build_s": round(read_s, 1), "documents": report.documents,
                            "embed_s": round(embed_s, 1), "embed_per_s": round(texts / embed_s, 2),
                            "load_before": before, "load_after": load()})
        shutil.rmtree(index_dir, ignore_errors=True)
    return out


def step_recall(library: Path, index_dir: Path, queries: int, ef_search: Sequence[int]) -> dict[str, Any]:
    """recall@10 and latency of an HNSW version's dense search at several ef_search values.

    Two recalls: ``recall_at_10`` counts a returned clause as a hit when its exact score is at
    least the 10th best exact score (ties: a library repeats boilerplate verbatim, e.g. 25,055
    identical "Cover Terms" clauses at 1M, and any 10 of equal-scored copies are a correct top
    10); ``id_recall_at_10`` is the plain overlap with one exact top 10, which ties depress.
    """
    from index_builder.index.embedded import EmbeddedStore

    embedder = ClusteredEmbedder()
    vectors = embedder.embed(query_texts(library, queries))
    out: dict[str, Any] = {"queries": queries, "load_before": load(), "sweep": []}
    stored = None
    truth = []
    for ef in ef_search:
        backend = EmbeddedStore(index_dir, ef_search=ef).open()
        stored = backend.index.embeddings
        if not truth:
            for vector in vectors:
                scores = stored @ vector
                if backend.index.alive is not None:  # dead positions of an appended version
                    scores[~backend.index.alive] = -np.inf
                top = np.argpartition(-scores, 9)[:10]
                truth.append((set(top.tolist()), float(scores[top].min())))
        hits, ids, timings = 0, 0, []
        for vector, (exact, tenth) in zip(vectors, truth):
            began = time.perf_counter()
            got = backend.positions([cid for cid, _ in backend.dense(vector, 10)])
            timings.append((time.perf_counter() - began) * 1000)
            hits += int((stored[got] @ vector >= tenth - 1e-5).sum())
            ids += len(exact & set(got))
        out["sweep"].append({"ef_search": ef, "recall_at_10": round(hits / (10 * len(vectors)), 4),
                             "id_recall_at_10": round(ids / (10 * len(vectors)), 4),
                             "p50_ms": round(statistics.median(timings), 2)})
        backend.close()
    out["load_after"] = load()
    return out


def merge_result(key: str, value: dict[str, Any], path: Path = RESULTS / "scale" / "scale.json") -> None:
    data = json.loads(path.read_text()) if path.is_file() else {}
    data[key] = {**value, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def run_all(args: argparse.Namespace) -> None:
    """Each step in a fresh process (own memory); results merged into scale.json."""
    for dense in args.dense.split(","):
        index_dir = Path(args.index_root) / f"{args.tier}-{args.backend}-{dense}"
        if not args.keep:
            shutil.rmtree(index_dir, ignore_errors=True)
        common = ["--tier", args.tier, "--dense", dense, "--backend", args.backend,
                  "--workers", str(args.workers), "--index-root", args.index_root,
                  "--build-m", str(args.build_m), "--build-ef-construction",
                  str(args.build_ef_construction), "--serve-ef", str(args.serve_ef),
                  *(["--progress"] if args.progress else []),
                  *(["--library", args.library] if args.library else [])]
        for step in ("build", "serve", "rebuild"):
            extra = ["--queries", str(args.queries)] if step == "serve" else []
            log.info("%s %s %s ...", step, args.tier, dense)
            subprocess.run([sys.executable, "-m", "precedent_bench", "scale", step, *common, *extra],
                           check=True)


PROGRESS = False


def run(args: argparse.Namespace) -> int:
    global PROGRESS
    if args.backend == "milvus":
        require("milvus", "scale --backend milvus")
    PROGRESS = args.progress
    if args.step in ("build", "rebuild", "serve", "all"):
        # Build-time HNSW shape only when asked (the settings' defaults are M 32, efC 100).
        HNSW.update({k: v for k, v in (("hnsw_m", args.build_m), ("hnsw_ef_construction",
                                        args.build_ef_construction),
                                       ("hnsw_ef_search", args.serve_ef)) if v})
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if args.step == "all":
        run_all(args)
        return 0
    if args.step == "workers":
        merge_result("workers", step_workers(Path(args.library), args.texts, args.counts))
        return 0
    if args.step == "recall":
        index_dir = Path(args.index_root) / f"{args.tier}-embedded-hnsw"
        merge_result(f"{args.tier}-embedded-hnsw-recall",
                     step_recall(Path(args.library or f"var/scale/{args.tier}"), index_dir,
                                 args.queries, args.ef_search))
        return 0
    if args.step == "vectors":
        merge_result(f"vectors-{args.count}", step_vectors(args.count, args.queries, args.m,
                                                           args.ef_construction, args.ef_search))
        return 0
    library = Path(args.library or f"var/scale/{args.tier}")
    index_dir = Path(args.index_root) / f"{args.tier}-{args.backend}-{args.dense}"
    key = f"{args.tier}-{args.backend}-{args.dense}-{args.step}"
    if args.step == "build":
        result = step_build(library, index_dir, args.dense, args.workers, args.backend)
    elif args.step == "serve":
        result = step_serve(library, index_dir, args.dense, args.queries, args.backend)
    else:
        result = step_rebuild(library, index_dir, args.dense, args.workers, args.backend,
                              args.revision, args.seed, args.rebuilds)
    result["workers"] = args.workers
    merge_result(key, result)
    log.info("%s: %s", key, json.dumps(result))
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("step", choices=("all", "build", "serve", "rebuild", "vectors", "workers",
                                                   "recall"))
    parser.add_argument("--tier", default="100k")
    parser.add_argument("--library", default="")
    parser.add_argument("--index-root", default="var/scale-index")
    parser.add_argument("--dense", default="flat")
    parser.add_argument("--backend", default="embedded", choices=("embedded", "milvus"))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--revision", type=int, default=int(time.time()) % 100000)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--rebuilds", type=int, default=1,
                        help="rebuild: successive 1%% changes, each built, in one process")
    parser.add_argument("--keep", action="store_true", help="all: keep existing indexes")
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--texts", type=int, default=512, help="workers: texts to embed")
    parser.add_argument("--counts", type=int, nargs="+", default=[1, 2], help="workers: counts to try")
    parser.add_argument("--m", type=int, default=32)
    parser.add_argument("--ef-construction", type=int, default=100)
    parser.add_argument("--ef-search", type=int, nargs="+", default=[64, 128, 256])
    parser.add_argument("--build-m", type=int, default=0, help="build: HNSW M (0 = setting)")
    parser.add_argument("--build-ef-construction", type=int, default=0,
                        help="build: HNSW efConstruction (0 = setting)")
    parser.add_argument("--serve-ef", type=int, default=0,
                        help="serve: HNSW ef_search (0 = the setting's default)")
    parser.add_argument("--progress", action="store_true", help="build/rebuild: progress bars (stderr)")
