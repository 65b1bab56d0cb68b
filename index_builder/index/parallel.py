"""The slow steps of a build: reading documents and embedding clauses, over worker processes.

- ``map_ordered`` runs a function over items in this process or in ``workers`` processes
  (spawned, so no thread state of torch or ONNX Runtime is inherited), results in input order.
- ``EmbeddingCache`` appends each finished batch of vectors to INDEX/.embedding-cache/<model>/,
  so an interrupted build resumes without re-embedding; the builder deletes it once a version
  is written.
- ``embed_texts`` embeds texts sorted by length (batches pad less), through the cache, with a
  progress bar, in this process or in the workers (each loads its own copy of the embedder).

Beyond one machine the same split holds: see benchmarks/results/scale/scale.md, section 6
(embedding on a job engine, storage on a Milvus cluster).
"""

from __future__ import annotations

import logging
import multiprocessing
import re
import shutil
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np
from tqdm import tqdm

from index_builder.index.embedder import Embedder

log = logging.getLogger(__name__)

CACHE_DIR = ".embedding-cache"
CHUNK = 256  # texts per unit of work, of cache append and of progress

_worker_embedder: Embedder | None = None


def map_ordered(function: Callable[[Any], Any], items: Sequence[Any], workers: int,
                initializer: Callable[..., None] | None = None, initargs: tuple = (),
                chunksize: int = 1) -> Iterator[Any]:
    """``function`` over ``items``, in order; in ``workers`` processes when more than one."""
    if workers <= 1 or len(items) <= 1:
        if initializer:
            initializer(*initargs)
        yield from map(function, items)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=initializer,
                             initargs=initargs) as pool:
        yield from pool.map(function, items, chunksize=chunksize)


class EmbeddingCache:
    """Vectors by text key, appended batch by batch to two files that survive a crash."""

    def __init__(self, index_dir: Path, model_id: str, dimension: int) -> None:
        slug = re.sub(r"[^A-Za-z0-9._+-]+", "-", model_id)
        self.folder = Path(index_dir) / CACHE_DIR / f"{slug}-{dimension}"
        self.dimension = dimension
        self._keys = self.folder / "keys.txt"
        self._vectors = self.folder / "vectors.f32"
        # The files' sizes as this object's last append left them. Trimming reads and rewrites
        # every key so far: once per append it was quadratic (minutes for a 500k-clause
        # segment), so it runs only when the files are not as left (a crash, another writer).
        self._left: tuple[int, int] | None = None

    def load(self) -> dict[str, np.ndarray]:
        """What earlier runs finished; a half-written last batch is ignored."""
        keys, rows = self._complete()
        if not rows:
            return {}
        raw = np.fromfile(self._vectors, dtype=np.float32, count=rows * self.dimension)
        vectors = raw.reshape(rows, self.dimension)
        log.info("Resuming: %d clause vectors from an interrupted build (%s)", rows, self.folder)
        return dict(zip(keys[:rows], vectors))

    def append(self, keys: Sequence[str], vectors: np.ndarray) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._left is None or self._left != self._sizes():
            self._trim()
        self._left = None  # until this append is whole
        # Vectors first, then keys: a crash between the two leaves vectors no key points at.
        with open(self._vectors, "ab") as out:
            out.write(np.ascontiguousarray(vectors, dtype=np.float32).tobytes())
        with open(self._keys, "a", encoding="ascii") as out:
            out.write("".join(f"{k}\n" for k in keys))
        self._left = self._sizes()

    def _sizes(self) -> tuple[int, int]:
        try:
            return self._keys.stat().st_size, self._vectors.stat().st_size
        except FileNotFoundError:
            return -1, -1

    def _complete(self) -> tuple[list[str], int]:
        """The keys of whole lines, and how many of them have a whole vector.

        A build killed (or out of disk space) part way through an append leaves a key line
        without its newline, or vectors without keys: both are ignored, never paired with
        the wrong row.
        """
        if not self._keys.is_file() or not self._vectors.is_file():
            return [], 0
        text = self._keys.read_bytes()
        keys = text[:text.rfind(b"\n") + 1].decode("ascii", "replace").split()
        rows = min(len(keys), self._vectors.stat().st_size // (self.dimension * 4))
        return keys, rows

    def _trim(self) -> None:
        """Cut both files back to the rows that are whole in both (after a crash mid-append),
        so the next batch's keys and vectors start on the same row."""
        if not self._keys.is_file() or not self._vectors.is_file():
            for path in (self._keys, self._vectors):
                path.unlink(missing_ok=True)
            return
        keys, rows = self._complete()
        keep = "".join(f"{k}\n" for k in keys[:rows]).encode("ascii")
        if self._keys.stat().st_size != len(keep):
            with open(self._keys, "r+b") as data:
                data.truncate(len(keep))
        if self._vectors.stat().st_size != rows * self.dimension * 4:
            with open(self._vectors, "r+b") as data:
                data.truncate(rows * self.dimension * 4)

    def clear(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        parent = self.folder.parent
        if parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()


def embed_texts(items: Sequence[tuple[str, str]], embedder: Embedder, cache: EmbeddingCache | None,
                workers: int = 1, progress: bool = False) -> dict[str, np.ndarray]:
    """Vectors for (key, text) pairs: from the cache, else embedded (and cached) chunk by chunk."""
    done = cache.load() if cache else {}
    missing = [(k, t) for k, t in items if k not in done]
    vectors = {k: done[k] for k, _ in items if k in done}
    if not missing:
        return vectors
    missing.sort(key=lambda item: len(item[1]))  # similar lengths share a batch: less padding
    chunks = [missing[i:i + CHUNK] for i in range(0, len(missing), CHUNK)]
    log.info("Embedding %d clause texts with %s (%d resumed, %d worker%s)", len(missing),
             embedder.model_id, len(vectors), workers, "s" if workers > 1 else "")
    started = time.perf_counter()
    texts = [[t for _, t in chunk] for chunk in chunks]
    results = map_ordered(_embed_chunk, texts, workers, _init_worker, (embedder,))
    with tqdm(total=len(missing), desc="Embedding", unit="clause", disable=not progress,
              smoothing=0.1) as bar:
        for chunk, embedded in zip(chunks, results):
            keys = [k for k, _ in chunk]
            if cache:
                cache.append(keys, embedded)
            vectors.update(zip(keys, embedded))
            bar.update(len(chunk))
    log.info("Embedded %d clause texts in %.0f s", len(missing), time.perf_counter() - started)
    return vectors


def _init_worker(embedder: Embedder) -> None:
    global _worker_embedder
    _worker_embedder = embedder


def _embed_chunk(texts: list[str]) -> np.ndarray:
    assert _worker_embedder is not None, "worker used before its initializer ran"
    return np.asarray(_worker_embedder.embed(texts), dtype=np.float32)

