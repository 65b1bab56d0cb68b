"""The server's embedding cache: same vectors, fewer model calls, bounded."""

from __future__ import annotations

import threading

import numpy as np

from index_builder.index.embed_cache import CachingEmbedder, set_torch_threads
from tests.conftest import HashingEmbedder

TEXTS = ["cap on liability", "governing law of New York", "term of three years"]


def test_vectors_equal_the_inner_embedders_and_repeats_are_not_recomputed() -> None:
    inner = HashingEmbedder()
    cached = CachingEmbedder(inner, size=10)
    first = cached.embed(TEXTS)
    again = cached.embed(list(reversed(TEXTS)))
    assert np.array_equal(first, HashingEmbedder().embed(TEXTS))
    assert np.array_equal(again, first[::-1])
    assert inner.calls == [3]  # the second call found all three
    assert (cached.hits, cached.misses) == (3, 3)
    assert cached.model_id == inner.model_id and cached.dimension == inner.dimension


def test_only_the_missing_texts_are_embedded_once_each() -> None:
    inner = HashingEmbedder()
    cached = CachingEmbedder(inner, size=10)
    cached.embed(TEXTS[:1])
    out = cached.embed([TEXTS[0], TEXTS[1], TEXTS[1], TEXTS[2]])
    assert inner.calls == [1, 2]  # TEXTS[1] twice in one batch is embedded once
    assert np.array_equal(out[1], out[2]) and out.shape == (4, inner.dimension)


def test_least_recently_used_vectors_are_dropped() -> None:
    inner = HashingEmbedder()
    cached = CachingEmbedder(inner, size=2)
    cached.embed([TEXTS[0]])
    cached.embed([TEXTS[1]])
    cached.embed([TEXTS[0]])  # touch: TEXTS[1] is now the oldest
    cached.embed([TEXTS[2]])
    cached.embed([TEXTS[0]])
    assert inner.calls == [1, 1, 1]
    cached.embed([TEXTS[1]])
    assert inner.calls == [1, 1, 1, 1]


def test_cached_rows_cannot_be_changed_through_a_result() -> None:
    cached = CachingEmbedder(HashingEmbedder(), size=10)
    out = cached.embed(TEXTS)
    out[0] = 0.0  # the caller's copy
    assert np.array_equal(cached.embed(TEXTS), HashingEmbedder().embed(TEXTS))


def test_empty_batch_and_concurrent_callers() -> None:
    cached = CachingEmbedder(HashingEmbedder(), size=100)
    assert cached.embed([]).shape == (0, cached.dimension)
    texts = [f"clause {i}" for i in range(50)]
    results: list[np.ndarray] = []
    threads = [threading.Thread(target=lambda: results.append(cached.embed(texts))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(np.array_equal(r, results[0]) for r in results)
    assert len(cached._vectors) == 50


def test_torch_threads_are_set_for_the_process() -> None:
    import torch

    before = torch.get_num_threads()
    try:
        set_torch_threads(1)
        assert torch.get_num_threads() == 1
        set_torch_threads(0)  # 0 leaves it alone
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
