"""Compressed dense search for segmented versions: IVF-PQ codes in memory, exact re-scoring
from the full vectors on disk.

At ten million clauses the float32 vectors are 15.4 GB: they stay on disk (each segment's
``vectors.npy``, memory-mapped) and what a query scans is a FAISS IVF-PQ index, 48 bytes of
product-quantised code per clause (+ 8 bytes of id), ~0.56 GB at 10M. A query:

1. probes the ``nprobe`` inverted lists nearest to it and ranks their codes by the
   quantised inner product, keeping the best ``refine`` (>= k) candidates;
2. re-scores those candidates exactly against their stored float32 vectors (one random
   read each) and returns the best k by exact score.

Filters (walls, facets, retired positions) go *into* step 1 as a FAISS ID selector over
positions. A filter that allows a share ``s`` of the clauses probes ``nprobe / s`` lists
(all of them when ``s`` is small), so the codes of allowed clauses it scans are as many as
an unfiltered search scans; a filter that allows no more clauses than ``refine`` is
therefore searched exhaustively and exactly. Nothing is filtered after the cut.

The quantiser (coarse centroids and PQ codebooks) is trained once, on the first segment a
build writes (``train``), and saved as a *codebook* that every later segment of the
library is encoded with, so segments' codes merge into one index when a version is
opened. A full rebuild trains a new one.
"""

from __future__ import annotations

import math
import mmap
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

import faiss
import numpy as np


TRAIN_PER_LIST = 40  # k-means points per inverted list (FAISS warns below 39)
MIN_LISTS, MAX_LISTS = 64, 16384


def lists_for(clauses: int) -> int:
    """Inverted lists for a library of ``clauses``: ~2.5 * sqrt(n), a power of two.

    (Fewer than the usual 4 * sqrt(n): k-means time at build grows with the lists. Recall
    with these, measured at 115k clauses: benchmarks/results/scale-compressed/README.md;
    not yet measured at 1M or beyond.)"""
    target = 2.5 * math.sqrt(max(clauses, 1))
    return int(min(MAX_LISTS, max(MIN_LISTS, 2 ** round(math.log2(target)))))


def pq_shape(dimension: int, points: int) -> tuple[int, int]:
    """(sub-quantisers, bits each): one per 8 dimensions (48 bytes for MiniLM's 384) where
    the dimension allows, and fewer than 8 bits only when too few vectors train 256 centroids
    (a library of a few hundred clauses; its codes are re-scored exactly anyway)."""
    subs = max(m for m in range(1, max(1, dimension // 8) + 1) if dimension % m == 0)
    bits = int(min(8, max(1, math.floor(math.log2(max(2, points // TRAIN_PER_LIST))))))
    return subs, bits


@contextmanager
def build_threads(count: int) -> Iterator[None]:
    """FAISS's OpenMP threads held at ``count`` for the block (0: leave FAISS's own, one per
    core), then put back as they were.

    Set around a build's training and encoding only (PRECEDENT_IVF_BUILD_THREADS): k-means
    threads on a machine whose cores are busy wait on each other at every step. Measured
    2026-11-28 (what `precedent-bench scale-compressed threads` runs: 34,562 stand-in vectors, 512
    lists, load ~10 on two cores, A B B A): training took 34.8 / 28.1 s of wall time with one
    thread and 73.2 / 79.1 s with two, using twice the CPU; encoding was the same (2.3-2.9 s).
    """
    if count <= 0:
        yield
        return
    before = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(count)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(before)


def train(sample: np.ndarray, lists: int, seed: int = 1234) -> faiss.Index:
    """An empty IVF-PQ index trained on ``sample`` (unit vectors; inner product).

    Lists shrink to what the sample can train (TRAIN_PER_LIST points each)."""
    sample = np.ascontiguousarray(sample, dtype=np.float32)
    n, dimension = sample.shape
    lists = max(1, min(lists, n // TRAIN_PER_LIST))
    subs, bits = pq_shape(dimension, n)
    quantizer = faiss.IndexFlatIP(dimension)
    index = faiss.IndexIVFPQ(quantizer, dimension, lists, subs, bits, faiss.METRIC_INNER_PRODUCT)
    index.own_fields = True
    quantizer.this.disown()
    index.do_polysemous_training = False  # not used at search; it costs minutes to train
    index.cp.seed = seed
    index.cp.niter = 12
    index.cp.max_points_per_centroid = 256
    index.pq.cp.seed = seed
    if n > lists * 256:  # k-means would subsample anyway; do it here, seeded
        sample = sample[np.random.default_rng(seed).choice(n, lists * 256, replace=False)]
    index.train(sample)
    return index


def encode(codebook: faiss.Index, vectors: np.ndarray, step: int = 50_000) -> faiss.Index:
    """A copy of the trained ``codebook`` holding the codes of ``vectors``, ids 0..n-1."""
    index = faiss.clone_index(codebook)
    for start in range(0, len(vectors), step):
        block = np.ascontiguousarray(vectors[start:start + step], dtype=np.float32)
        index.add_with_ids(block, np.arange(start, start + len(block), dtype=np.int64))
    return index


@dataclass(frozen=True)
class Part:
    """One segment as the dense search sees it: its codes, its vectors, where it starts."""

    codes: Path  # a FAISS file written by ``encode``
    vectors: Path  # float32 (n, d) .npy
    offset: int
    size: int


# At 11.5M clauses re-scoring 1024 candidates gave recall@10 0.850 unfiltered (0.877 walled), 4096
# gave 0.943 (0.957) and 8192 gave 0.973 (0.972); at 1.15M, 1024 gave 0.958 (0.961). One per 1,400
# clauses keeps 1024 up to ~1.4M and is ~8,200 at 11.5M (benchmarks/results/scale-compressed).
CLAUSES_PER_RESCORED = 1400


class CompressedDense:
    """The dense search of one segmented version (thread-safe: nothing changes after init)."""

    def __init__(self, codebook: Path, parts: Sequence[Part], nprobe: int, refine: int) -> None:
        self.index = faiss.read_index(str(codebook))
        for part in parts:
            codes = faiss.read_index(str(part.codes))
            if codes.ntotal != part.size or codes.nlist != self.index.nlist:
                raise ValueError(f"{part.codes} does not match its segment or codebook")
            self.index.merge_from(codes, part.offset)  # ids become version positions
            del codes
        self.ntotal = int(self.index.ntotal)
        self.d = int(self.index.d)
        self.nlist = int(self.index.nlist)
        self.nprobe = max(1, min(int(nprobe), self.nlist))
        # The setting is a floor: the product-quantised ranking loses more neighbours as the
        # library grows, so a large one re-scores one candidate per CLAUSES_PER_RESCORED clauses.
        self.refine = max(1, int(refine), self.ntotal // CLAUSES_PER_RESCORED)
        self.starts = np.array([p.offset for p in parts] + [self.ntotal], dtype=np.int64)
        self.vectors = [_mapped(p.vectors) for p in parts]
        if any(len(v) != p.size for v, p in zip(self.vectors, parts)):
            raise ValueError("a segment's vectors do not match its size")

    def search(self, queries: np.ndarray, k: int, mask: np.ndarray | None = None,
               allowed: int | None = None, bits: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """Exact scores and positions of the best ``k`` per query row among the positions
        ``mask`` allows (``allowed``: how many it allows, ``bits``: the mask packed
        little-endian, if known); -1 pads short rows."""
        queries = np.ascontiguousarray(np.atleast_2d(queries), dtype=np.float32)
        allowed = self.ntotal if mask is None else (
            int(np.count_nonzero(mask)) if allowed is None else allowed)
        if allowed == 0 or k <= 0:
            return (np.zeros((len(queries), 0), np.float32), np.zeros((len(queries), 0), np.int64))
        depth = min(max(self.refine, k), allowed)
        # As many allowed codes scanned as an unfiltered search scans: nprobe / share.
        probes = min(self.nlist, math.ceil(self.nprobe * self.ntotal / allowed))
        if bits is None and mask is not None:
            bits = np.packbits(mask, bitorder="little")
        selector = None if bits is None else faiss.IDSelectorBitmap(self.ntotal, faiss.swig_ptr(bits))
        params = faiss.SearchParametersIVF(sel=selector, nprobe=probes)
        _, candidates = self.index.search(queries, depth, params=params)
        del bits  # held until here: the selector only points at it
        return self._rescored(queries, candidates, k)

    def _rescored(self, queries: np.ndarray, candidates: np.ndarray, k: int
                  ) -> tuple[np.ndarray, np.ndarray]:
        """Each row's candidates ranked by their exact inner product with the query row."""
        unique = np.unique(candidates[candidates >= 0])
        exact = self.vectors_at(unique) @ queries.T if len(unique) else np.zeros((0, len(queries)))
        width = min(k, candidates.shape[1])
        scores = np.full((len(queries), width), -np.inf, dtype=np.float32)
        positions = np.full((len(queries), width), -1, dtype=np.int64)
        for row in range(len(queries)):
            found = candidates[row][candidates[row] >= 0]
            if not len(found):
                continue
            row_scores = exact[np.searchsorted(unique, found), row]
            order = np.lexsort((found, -row_scores))[:width]  # ties: the earlier position
            scores[row, :len(order)] = row_scores[order]
            positions[row, :len(order)] = found[order]
        return scores, positions

    def vectors_at(self, positions: np.ndarray) -> np.ndarray:
        """The stored float32 vectors at sorted ``positions`` (read from disk as needed)."""
        out = np.empty((len(positions), self.d), dtype=np.float32)
        segment = np.searchsorted(self.starts, positions, side="right") - 1
        for number in np.unique(segment):
            rows = np.flatnonzero(segment == number)
            out[rows] = self.vectors[number][positions[rows] - self.starts[number]]
        return out

    def memory(self) -> dict[str, Any]:
        """What the codes hold in memory (the vectors are file-backed)."""
        code_bytes = self.ntotal * (self.index.code_size + 8)
        return {"codes_mb": round(code_bytes / 2**20, 1), "lists": self.nlist,
                "centroids_mb": round(self.nlist * self.d * 4 / 2**20, 1)}


def _mapped(path: Path) -> np.ndarray:
    """The vectors file memory-mapped for random reads: re-scoring reads a few rows per query,
    and the default read-ahead would pull 128 kB around each into the page cache."""
    array = np.load(path, mmap_mode="r")
    raw = getattr(array, "_mmap", None)
    if isinstance(raw, mmap.mmap) and hasattr(mmap, "MADV_RANDOM"):
        raw.madvise(mmap.MADV_RANDOM)
    return array
