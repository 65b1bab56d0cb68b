"""What the compressed-scale benchmark measures: exact top 10 by streaming every stored vector
from disk, recall of the served search against it, latency with 1 and N clients (the engine's
two searches, and whole requests over HTTP), memory, disk and load."""

from __future__ import annotations

import http.client
import json
import logging
import os
import random
import statistics
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from index_builder.index.backend import Filters

log = logging.getLogger(__name__)


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def disk(folder: Path) -> dict[str, float]:
    """MB on disk under ``folder``, in total and by part of a segment."""
    parts: dict[str, float] = {}
    total = 0
    for path in Path(folder).rglob("*"):
        if not path.is_file():
            continue
        size = path.stat().st_size
        total += size
        rel = path.relative_to(folder).parts
        key = rel[2] if rel[0] == "segments" and len(rel) > 2 else rel[0]
        key = {"vectors.npy": "vectors", "dense.ivf": "ivfpq codes", "clauses.sqlite": "clause rows",
               "lexical": "bm25 postings", "columns": "filter columns",
               "text_keys.npy": "text keys"}.get(key, "version files" if key.startswith("v-") else key)
        parts[key] = parts.get(key, 0) + size
    return {"total_mb": round(total / 2**20), **{k: round(v / 2**20) for k, v in sorted(parts.items())}}


class Watchdog:
    """Samples this process's RSS and the machine's available memory every few seconds; stops
    the process (as a crash would: the live index is untouched) if memory runs short, so a
    benchmark never pushes the shared machine into swap or the OOM killer; likewise when the
    disk holding ``disk`` has less than ``min_disk_gb`` free (other sessions share it)."""

    def __init__(self, min_available_gb: float, every_s: float = 5.0, disk: Path | None = None,
                 min_disk_gb: float = 0.0) -> None:
        import psutil

        self.psutil = psutil
        self.min_available = min_available_gb * 2**30
        self.every_s = every_s
        self.peak_rss = 0
        self.least_available = float("inf")
        self.disk, self.min_disk = disk, min_disk_gb * 2**30
        self.least_disk = float("inf")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "Watchdog":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        me = self.psutil.Process()
        while not self._stop.wait(self.every_s):
            self.peak_rss = max(self.peak_rss, me.memory_info().rss)
            available = self.psutil.virtual_memory().available
            self.least_available = min(self.least_available, available)
            if available < self.min_available:
                log.error("Only %.1f GB of memory left on the machine: stopping the benchmark "
                          "(the live index is untouched)", available / 2**30)
                os._exit(3)
            if self.disk is not None and self.disk.exists():
                import shutil

                free = shutil.disk_usage(self.disk).free
                self.least_disk = min(self.least_disk, free)
                if free < self.min_disk:
                    log.error("Only %.1f GB of disk left under %s: stopping the benchmark (the "
                              "live index is untouched; building again resumes)", free / 2**30,
                              self.disk)
                    os._exit(4)

    def report(self) -> dict[str, float]:
        out = {"sampled_peak_rss_mb": round(self.peak_rss / 2**20),
               "least_available_gb": round(self.least_available / 2**30, 1)}
        if self.least_disk != float("inf"):
            out["least_free_disk_gb"] = round(self.least_disk / 2**30, 1)
        return out


# -- recall -----------------------------------------------------------------------------------
def exact_top(backend: Any, vectors: np.ndarray, masks: dict[str, np.ndarray | None], k: int = 10,
              rows: int = 65_536) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per filter case, each query's exact top ``k`` (scores, positions) among the allowed
    positions, by reading every stored float32 vector from disk once (segment by segment,
    ``rows`` at a time) for all queries and cases together."""
    queries = np.ascontiguousarray(vectors, dtype=np.float32)
    best = {name: (np.full((len(queries), k), -np.inf, np.float32),
                   np.full((len(queries), k), -1, np.int64)) for name in masks}
    dense = backend.dense_index
    for number, stored in enumerate(dense.vectors):
        offset = int(dense.starts[number])
        for start in range(0, len(stored), rows):
            block = np.asarray(stored[start:start + rows], dtype=np.float32)
            scores = queries @ block.T  # (queries, rows)
            positions = np.arange(offset + start, offset + start + len(block))
            for name, mask in masks.items():
                part = scores if mask is None else np.where(mask[positions], scores, -np.inf)
                top_scores, top_positions = best[name]
                merged = np.concatenate([top_scores, part], axis=1)
                where = np.concatenate([top_positions, np.broadcast_to(positions, part.shape)], axis=1)
                keep = np.argpartition(-merged, k - 1, axis=1)[:, :k]
                best[name] = (np.take_along_axis(merged, keep, 1), np.take_along_axis(where, keep, 1))
    return best


def recall(backend: Any, vectors: np.ndarray, kinds: Sequence[str],
           cases: dict[str, Filters], k: int = 10) -> dict[str, Any]:
    """recall@k of ``backend.dense`` against exact search, per filter case and query kind.

    Tie-aware, as precedent_bench/scale/scale_benchmark.py: a returned clause counts when its
    exact score reaches the exact k-th best (boilerplate repeats verbatim, and any k of equal
    copies are a right answer); ``id_recall`` is the plain overlap with one exact top k."""
    masks = {name: backend.allowed(filters)[0] for name, filters in cases.items()}
    started = time.perf_counter()
    truth = exact_top(backend, vectors, masks, k)
    exact_s = time.perf_counter() - started
    out: dict[str, Any] = {"exact_scan_s": round(exact_s, 1), "cases": {}}
    for name, filters in cases.items():
        allowed = backend.allowed(filters)[1]
        scores, positions = truth[name]
        hits: dict[str, list[float]] = {}
        ids: dict[str, list[float]] = {}
        timings = []
        for row, vector in enumerate(vectors):
            began = time.perf_counter()
            got = backend.dense(vector, k, filters)
            timings.append((time.perf_counter() - began) * 1000)
            valid = positions[row] >= 0
            expected = int(valid.sum())
            if not expected:
                continue
            found = np.array(sorted(backend.positions([cid for cid, _ in got])), dtype=np.int64)
            exact_scores = backend.dense_index.vectors_at(found) @ vector if len(found) else np.zeros(0)
            tenth = float(scores[row][valid].min())
            kind = kinds[row]
            hits.setdefault(kind, []).append(float((exact_scores >= tenth - 1e-5).sum()) / expected)
            ids.setdefault(kind, []).append(len(set(found) & set(positions[row][valid])) / expected)
        every = [x for v in hits.values() for x in v]
        out["cases"][name] = {
            "allowed": allowed, "queries": len(every),
            "recall_at_10": round(float(np.mean(every)), 4) if every else None,
            "id_recall_at_10": round(float(np.mean([x for v in ids.values() for x in v])), 4) if every else None,
            "by_kind": {kind: round(float(np.mean(v)), 4) for kind, v in hits.items()},
            "dense_p50_ms": round(statistics.median(timings), 2)}
    return out


# -- latency ----------------------------------------------------------------------------------
def percentiles(latencies: Sequence[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    at = lambda q: ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]  # noqa: E731
    return {"n": len(ordered), "p50_ms": round(at(0.5), 1), "p95_ms": round(at(0.95), 1),
            "max_ms": round(ordered[-1], 1)}


def clients(call: Callable[[int], Any], items: int, count: int, per_client: int,
            seed: int = 7) -> dict[str, Any]:
    """``count`` threads, each making ``per_client`` calls (item numbers drawn at random);
    latencies of every call, and calls per second over the whole run."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(count)

    def worker(number: int) -> None:
        rng = random.Random(seed * 1000 + number)
        start.wait()
        for _ in range(per_client):
            began = time.perf_counter()
            try:
                call(rng.randrange(items))
            except Exception as exc:  # noqa: BLE001 - counted and reported, never hidden
                with lock:
                    errors.append(type(exc).__name__)
                continue
            with lock:
                latencies.append((time.perf_counter() - began) * 1000)

    before = load()
    began = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - began
    return {"clients": count, **percentiles(latencies), "per_s": round(len(latencies) / seconds, 2),
            "errors": len(errors), "load_before": before, "load_after": load()}


def http_call(port: int, texts: Sequence[str]) -> Callable[[int], Any]:
    """POST /api/v1/precedents of text ``i`` (one connection per thread, kept alive)."""
    local = threading.local()

    def call(i: int) -> None:
        connection = getattr(local, "connection", None)
        if connection is None:
            connection = local.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        body = json.dumps({"text": texts[i], "top_k": 10, "rerank": False})
        connection.request("POST", "/api/v1/precedents", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        payload = response.read()
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}: {payload[:200]!r}")

    return call
