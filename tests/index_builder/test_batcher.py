"""The query-embedding batcher (issue 39): concurrent callers share model calls, each gets its
own rows; a full queue, a deadline and shutdown are refusals with a retry time; a model
error reaches exactly the callers it concerns. A fake model that the test opens and closes
makes every interleaving deterministic."""

from __future__ import annotations

import threading
from typing import Sequence

import numpy as np
import pytest

from index_builder.errors import SearchBusyError
from index_builder.index.batcher import BatchingEmbedder


class GatedEmbedder:
    """Embeds a text as [len(text), first letter code]; each call waits for the test's gate."""

    model_id = "gated"
    dimension = 2

    def __init__(self, fail_on: str = "") -> None:
        self.calls: list[list[str]] = []
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.fail_on = fail_on

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        self.calls.append(list(texts))
        self.entered.set()
        assert self.gate.wait(10), "the test never opened the gate"
        if self.fail_on and self.fail_on in texts:
            raise RuntimeError(f"cannot embed {self.fail_on!r}")
        return np.array([[len(t), ord(t[0])] for t in texts], dtype=np.float32)


def batcher(model: GatedEmbedder, **options: float) -> BatchingEmbedder:
    settings = {"batch_max": 8, "batch_wait_ms": 0, "queue_max": 16, "deadline_s": 5.0, **options}
    return BatchingEmbedder(model, **settings)  # type: ignore[arg-type]


def in_threads(embedder: BatchingEmbedder, jobs: list[list[str]]) -> tuple[dict, list[threading.Thread]]:
    out: dict[int, object] = {}

    def call(i: int, texts: list[str]) -> None:
        try:
            out[i] = embedder.embed(texts)
        except Exception as exc:  # noqa: BLE001 -- the test inspects it
            out[i] = exc

    threads = [threading.Thread(target=call, args=(i, texts)) for i, texts in enumerate(jobs)]
    for thread in threads:
        thread.start()
    return out, threads


def wait_queued(embedder: BatchingEmbedder, n: int) -> None:
    for _ in range(1000):
        if embedder.stats.requests >= n:
            return
        threading.Event().wait(0.005)
    raise AssertionError(f"{n} requests never queued")


def test_waiting_callers_share_one_model_call_and_get_their_own_rows() -> None:
    model = GatedEmbedder()
    embedder = batcher(model)
    first, threads = in_threads(embedder, [["alpha"]])
    assert model.entered.wait(5)  # the worker is inside the model with the first request
    rest, more = in_threads(embedder, [["bb", "c"], ["dddd"], ["bb"]])
    wait_queued(embedder, 4)
    model.gate.set()
    for thread in threads + more:
        thread.join(5)
    assert model.calls == [["alpha"], ["bb", "c", "dddd"]]  # three requests, one call, no repeat
    assert first[0].tolist() == [[5, ord("a")]]
    assert rest[0].tolist() == [[2, ord("b")], [1, ord("c")]]
    assert rest[1].tolist() == [[4, ord("d")]]
    assert rest[2].tolist() == [[2, ord("b")]]
    assert embedder.stats.batches == 2 and embedder.stats.largest == 3
    embedder.close()


def test_a_batch_holds_at_most_batch_max_texts() -> None:
    model = GatedEmbedder()
    embedder = batcher(model, batch_max=3)
    _, first = in_threads(embedder, [["zero"]])
    assert model.entered.wait(5)
    _, rest = in_threads(embedder, [["a1", "a2"], ["b1", "b2"], ["c1"]])
    wait_queued(embedder, 4)
    model.gate.set()
    for thread in first + rest:
        thread.join(5)
    assert [len(call) for call in model.calls] == [1, 2, 3]  # 2 + 2 > 3: the second waits
    embedder.close()


def test_a_full_queue_refuses_with_a_retry_time_and_the_rest_are_answered() -> None:
    model = GatedEmbedder()
    embedder = batcher(model, queue_max=2)
    out, threads = in_threads(embedder, [["held"]])
    assert model.entered.wait(5)
    queued, more = in_threads(embedder, [["q1"], ["q2"]])
    wait_queued(embedder, 3)
    with pytest.raises(SearchBusyError) as refused:
        embedder.embed(["one too many"])
    assert refused.value.code == "search_busy" and refused.value.retry_after >= 1
    model.gate.set()
    for thread in threads + more:
        thread.join(5)
    assert all(isinstance(v, np.ndarray) for v in [*out.values(), *queued.values()])
    assert embedder.stats.refused_full == 1
    embedder.close()


def test_a_request_past_its_deadline_gives_up_and_its_texts_are_never_embedded() -> None:
    model = GatedEmbedder()
    embedder = batcher(model, deadline_s=0.2)
    _, threads = in_threads(embedder, [["held"]])
    assert model.entered.wait(5)
    with pytest.raises(SearchBusyError, match="waited more than 0.2 s"):
        embedder.embed(["late"])
    model.gate.set()
    for thread in threads:
        thread.join(5)
    assert ["late"] not in model.calls and embedder.stats.expired >= 1
    assert embedder.embed(["after"]).tolist() == [[5, ord("a")]]  # the worker carries on
    embedder.close()


def test_a_model_error_fails_only_the_request_whose_text_caused_it() -> None:
    model = GatedEmbedder(fail_on="poison")
    embedder = batcher(model)
    _, first = in_threads(embedder, [["warm"]])
    assert model.entered.wait(5)
    out, rest = in_threads(embedder, [["fine"], ["poison"], ["also fine"]])
    wait_queued(embedder, 4)
    model.gate.set()
    for thread in first + rest:
        thread.join(5)
    assert isinstance(out[1], RuntimeError) and "poison" in str(out[1])
    assert out[0].tolist() == [[4, ord("f")]] and out[2].tolist() == [[9, ord("a")]]
    embedder.close()


def test_close_refuses_waiting_and_new_requests_and_stops_the_worker() -> None:
    model = GatedEmbedder()
    embedder = batcher(model)
    held, threads = in_threads(embedder, [["held"]])
    assert model.entered.wait(5)
    waiting, more = in_threads(embedder, [["queued"]])
    wait_queued(embedder, 2)
    closer = threading.Thread(target=embedder.close)
    closer.start()
    for thread in more:
        thread.join(5)
    assert isinstance(waiting[0], SearchBusyError)  # refused at once, not left hanging
    model.gate.set()  # the batch in hand finishes and is delivered
    closer.join(5)
    for thread in threads:
        thread.join(5)
    assert isinstance(held[0], np.ndarray)
    assert not any(worker.is_alive() for worker in embedder._workers)
    with pytest.raises(SearchBusyError, match="shutting down"):
        embedder.embed(["after close"])


def test_two_workers_run_two_model_calls_at_once_and_close_both() -> None:
    model = GatedEmbedder()
    embedder = batcher(model, workers=2)
    out, threads = in_threads(embedder, [["first"]])
    assert model.entered.wait(5)
    more, others = in_threads(embedder, [["second"]])
    for _ in range(1000):  # the second worker takes it while the first is still in the model
        if len(model.calls) == 2:
            break
        threading.Event().wait(0.005)
    assert model.calls == [["first"], ["second"]]
    model.gate.set()
    for thread in threads + others:
        thread.join(5)
    assert out[0].tolist() == [[5, ord("f")]] and more[0].tolist() == [[6, ord("s")]]
    embedder.close()
    assert not any(worker.is_alive() for worker in embedder._workers)


def test_vectors_are_the_inner_embedders_for_any_interleaving(embedder_factory) -> None:
    inner = embedder_factory()
    batched = BatchingEmbedder(inner, batch_max=16, batch_wait_ms=2, queue_max=64, deadline_s=5)
    texts = [f"clause {i} on liability and indemnity number {i % 7}" for i in range(60)]
    out, threads = in_threads(batched, [[t] for t in texts] + [texts[:5]])
    for thread in threads:
        thread.join(10)
    expected = inner.embed(texts)
    for i in range(60):
        np.testing.assert_allclose(out[i], expected[i:i + 1], rtol=0, atol=1e-7)
    np.testing.assert_allclose(out[60], expected[:5], rtol=0, atol=1e-7)
    assert batched.stats.batches < 61  # some calls were shared
    batched.close()
