"""/health says how many texts each query-model call embedded, per process (issue 39: a short
search's model cost falls from ~6 to ~3 ms a text as batches grow, and the throughput
benchmark reports it from here)."""

from __future__ import annotations

import os

import numpy as np

from addin_server.service import _batching
from index_builder.index.batcher import BatchingEmbedder
from index_builder.index.embed_cache import CachingEmbedder


class _Model:
    model_id = "fake"
    dimension = 3

    def embed(self, texts, *, show_progress=False):
        return np.ones((len(texts), 3), dtype=np.float32)


def test_the_batchers_counts_are_found_behind_the_vector_cache() -> None:
    batcher = BatchingEmbedder(_Model(), batch_max=8, batch_wait_ms=0, queue_max=8, deadline_s=5)
    try:
        embedder = CachingEmbedder(batcher, 100)
        embedder.embed(["one", "two"])
        embedder.embed(["one", "two"])  # from the cache: no model call
        embedder.embed(["three"])
        counts = _batching(embedder)["query_batches"]
    finally:
        batcher.close()
    assert counts["process"] == os.getpid()
    assert (counts["batches"], counts["texts"], counts["requests"]) == (2, 3, 2)
    assert counts["mean_batch"] == 1.5


def test_no_batcher_says_nothing() -> None:
    assert _batching(_Model()) == {}
    assert _batching(CachingEmbedder(_Model(), 10)) == {}
