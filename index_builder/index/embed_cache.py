"""Embeddings made once: an LRU cache in front of any Embedder, and the torch thread count.

A server embeds the same texts again and again: the sentences of the clauses it shows
(matching spans embed every sentence of each long result, on every search) and the
queries lawyers repeat. Profiling 40 ACORD searches put 82% of the time in span sentence
embeddings and 17% in query embeddings; both are functions of the text alone, so a cache
keyed by the text returns the same vectors (up to float rounding between batches).

torch's intra-op pool spins while it waits for a core: on a shared 2-core machine one
query took 1.8 s with 2 threads and 0.1 s with 1. A server answers several requests at
once, which already uses the cores, so it runs each embedding on one thread.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Sequence

import numpy as np

from index_builder.index.embedder import Embedder

log = logging.getLogger(__name__)


class CachingEmbedder:
    """An Embedder that remembers up to ``size`` vectors by their exact text (thread-safe)."""

    def __init__(self, inner: Embedder, size: int) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dimension = inner.dimension
        self.size = size
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        rows: list[np.ndarray | None] = [None] * len(texts)
        missing: dict[str, list[int]] = {}
        with self._lock:
            for i, text in enumerate(texts):
                vector = self._vectors.get(text)
                if vector is None:
                    missing.setdefault(text, []).append(i)
                else:
                    self._vectors.move_to_end(text)
                    rows[i] = vector
            self.hits += len(texts) - sum(len(v) for v in missing.values())
            self.misses += len(missing)
        if missing:
            made = np.asarray(self.inner.embed(list(missing), show_progress=show_progress),
                              dtype=np.float32)
            with self._lock:
                for (text, positions), vector in zip(missing.items(), made):
                    vector = vector.copy()  # one row, not a view that pins the whole batch
                    vector.setflags(write=False)
                    self._vectors[text] = vector
                    for i in positions:
                        rows[i] = vector
                while len(self._vectors) > self.size:
                    self._vectors.popitem(last=False)
        if not rows:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack(rows)  # type: ignore[arg-type]

    def close(self) -> None:
        """Stop what the wrapped embedder runs (the batcher's worker), if anything."""
        stop = getattr(self.inner, "close", None)
        if stop:
            stop()


def set_torch_threads(threads: int) -> None:
    """torch intra-op threads for this process (0: leave torch's default); no-op without torch."""
    if threads <= 0:
        return
    try:
        import torch
    except ImportError:
        return
    if torch.get_num_threads() != threads:
        log.info("torch: %d intra-op thread(s) per embedding (was %d); requests run in parallel",
                 threads, torch.get_num_threads())
        torch.set_num_threads(threads)
