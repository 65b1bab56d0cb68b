"""Dynamic batching of query embeddings across concurrent requests (issue 39).

Twenty requests that each embed one short text on their own thread run the model twenty
times, one text at a time, competing for the same cores: on two cores that served 20
never-seen short searches a second where the model alone, fed batches, embeds ~190 texts a
second. ``BatchingEmbedder`` does what text-embeddings-inference's router and Triton's
dynamic batcher do: callers put their texts on one bounded queue; a worker thread takes
whatever is waiting (waiting up to ``batch_wait_ms`` for more once the first arrives, up to
``batch_max`` texts), embeds it in one call and hands each caller its rows. While it
embeds, the next batch gathers, so under load batches form by themselves and a lone request
waits for nothing but its own encode.

It is an ``Embedder`` like any other, so the pipeline, the CLI and eval are unchanged, and
the cache of vectors by text (embed_cache.py) stays in front: only texts never embedded
reach the queue. The vectors are the inner embedder's, computed with other texts in the
same call; for the torch and OpenVINO models that changes a vector by float rounding only
(padding is masked), which tests/index_builder/test_batcher_rankings.py checks on rankings.

A process that exits while a worker is inside a model call (an OpenVINO compile, the first
fixed-shape call of a command, takes seconds to minutes on a busy machine) would tear the
model down under it: the C++ runtime aborts ("terminate called without an active
exception"). So every batcher still open at exit is closed by an ``atexit`` hook, which
waits for the call in hand to end before the interpreter goes.

Refusals are ``SearchBusyError`` (503 with Retry-After on the wire): the queue holds
``queue_max`` requests and refuses the next, and a request that has waited ``deadline_s``
gives up (its texts are dropped if the worker has not taken them). An error inside the
model fails the requests of that batch; each of them is then tried alone once, so one text
the model cannot take fails only its own request.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

import numpy as np

from index_builder.errors import SearchBusyError
from index_builder.index.embedder import Embedder
from index_builder.settings import EmbeddingSettings

log = logging.getLogger(__name__)

# Batchers not yet closed, closed at exit (see the module's docstring); weak, so a batcher
# closed and dropped is not kept alive by this set.
_OPEN: "weakref.WeakSet[BatchingEmbedder]" = weakref.WeakSet()


@dataclass
class _Job:
    texts: list[str]
    deadline: float
    done: threading.Event = field(default_factory=threading.Event)
    vectors: np.ndarray | None = None
    error: BaseException | None = None
    taken: bool = False  # the worker has it: too late to drop it from the queue
    abandoned: bool = False  # its caller gave up (deadline): its result is not wanted

    def finish(self, vectors: np.ndarray | None = None, error: BaseException | None = None) -> None:
        self.vectors, self.error = vectors, error
        self.done.set()


@dataclass
class BatchStats:
    """What /health and the benchmarks read: batches, texts, refusals (monotonic counts)."""

    batches: int = 0
    texts: int = 0
    requests: int = 0
    refused_full: int = 0
    expired: int = 0
    largest: int = 0

    def as_dict(self) -> dict[str, Any]:
        mean = self.texts / self.batches if self.batches else 0.0
        return {"batches": self.batches, "texts": self.texts, "requests": self.requests,
                "mean_batch": round(mean, 2), "largest_batch": self.largest,
                "refused_queue_full": self.refused_full, "expired": self.expired}


class BatchingEmbedder:
    """An Embedder whose concurrent callers share model calls (thread-safe)."""

    def __init__(self, inner: Embedder, *, batch_max: int, batch_wait_ms: float,
                 queue_max: int, deadline_s: float, workers: int = 1, retry_after_s: int = 1,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if batch_max < 1 or queue_max < 1 or deadline_s <= 0 or batch_wait_ms < 0 or workers < 1:
            raise ValueError("batch_max, queue_max and workers must be >= 1, deadline_s > 0, "
                             "wait >= 0")
        self.inner = inner
        self.model_id = inner.model_id
        self.dimension = inner.dimension
        self.batch_max = batch_max
        self.batch_wait_s = batch_wait_ms / 1000
        self.queue_max = queue_max
        self.deadline_s = deadline_s
        self.retry_after_s = retry_after_s
        self.stats = BatchStats()
        self._clock = clock
        self._queue: deque[_Job] = deque()
        self._lock = threading.Condition()
        self._closed = False
        self._gathering = False  # a worker is waiting for its batch to fill
        # One worker per core the model may use: a worker's model call runs on one thread, so
        # with one worker a stream of whole clauses would leave the other core to Python alone.
        self._workers = [threading.Thread(target=self._run, name=f"embedding-batcher-{n}",
                                          daemon=True) for n in range(workers)]
        for worker in self._workers:
            worker.start()
        _OPEN.add(self)

    # -- callers --------------------------------------------------------------------------
    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        job = _Job(list(texts), self._clock() + self.deadline_s)
        with self._lock:
            if self._closed:
                raise SearchBusyError("The server is shutting down; search again in a moment.",
                                      retry_after=self.retry_after_s)
            if len(self._queue) >= self.queue_max:
                self.stats.refused_full += 1
                raise SearchBusyError("The server is busy with other searches; search again in "
                                      "a moment.", retry_after=self.retry_after_s)
            self._queue.append(job)
            self.stats.requests += 1
            self._lock.notify_all()
        if not job.done.wait(self.deadline_s):
            with self._lock:
                if not job.done.is_set():
                    job.abandoned = True
                    if not job.taken:
                        self._queue.remove(job)
                    self.stats.expired += 1
            if job.abandoned:
                raise self._late()
        if job.error is not None:
            raise job.error
        assert job.vectors is not None
        return job.vectors

    def _late(self) -> SearchBusyError:
        return SearchBusyError(f"The search waited more than {self.deadline_s:g} s for the "
                               f"embedding model; search again in a moment.",
                               retry_after=self.retry_after_s)

    def close(self) -> None:
        """Refuse new work, fail what waits (503: retry), wait for the batch in hand.

        The wait has no bound: a process that went on to exit during the model call would
        abort in the model's runtime, which helps nobody (a model call ends in seconds; a
        first fixed-shape compile on a busy machine in minutes)."""
        _OPEN.discard(self)
        with self._lock:
            self._closed = True
            waiting = list(self._queue)
            self._queue.clear()
            self._lock.notify_all()
        for job in waiting:
            job.finish(error=SearchBusyError("The server is shutting down; search again in a "
                                             "moment.", retry_after=self.retry_after_s))
        for worker in self._workers:
            if worker is threading.current_thread():
                continue
            worker.join(timeout=1)
            if worker.is_alive():
                log.info("Waiting for the embedding model's call in hand to end before closing")
                worker.join()

    # -- the worker -----------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            batch = self._next_batch()
            if batch is None:
                return
            self._embed(batch)

    def _next_batch(self) -> list[_Job] | None:
        """Wait for a job, then up to ``batch_wait_s`` for more, up to ``batch_max`` texts."""
        with self._lock:
            # One worker gathers at a time: another taking jobs during the wait would split
            # the batch the wait is for.
            while (not self._queue or self._gathering) and not self._closed:
                self._lock.wait()
            if self._closed:
                return None
            self._gathering = True
            until = self._clock() + self.batch_wait_s
            while (self.batch_wait_s and sum(len(j.texts) for j in self._queue) < self.batch_max
                   and not self._closed):
                left = until - self._clock()
                if left <= 0:
                    break
                self._lock.wait(left)
            self._gathering = False
            self._lock.notify_all()  # the next worker may gather what is left
            batch: list[_Job] = []
            size = 0
            now = self._clock()
            while self._queue:
                job = self._queue[0]
                # A job bigger than a batch goes alone (the model batches it internally).
                if batch and size + len(job.texts) > self.batch_max:
                    break
                self._queue.popleft()
                if job.deadline <= now:  # its caller is giving up: spend nothing on it
                    self.stats.expired += 1
                    job.finish(error=self._late())
                    continue
                job.taken = True
                batch.append(job)
                size += len(job.texts)
            return batch

    def _embed(self, batch: list[_Job]) -> None:
        if not batch:
            return
        texts = list(dict.fromkeys(t for job in batch for t in job.texts))
        try:
            vectors = np.asarray(self.inner.embed(texts), dtype=np.float32)
        except Exception as exc:  # noqa: BLE001 -- handed to the callers, who re-raise it
            if len(batch) == 1:
                batch[0].finish(error=exc)
                return
            log.warning("Embedding a batch of %d requests failed (%s); trying each alone",
                        len(batch), type(exc).__name__)
            for job in batch:
                self._embed([job])
            return
        row = {text: i for i, text in enumerate(texts)}
        with self._lock:
            self.stats.batches += 1
            self.stats.texts += len(texts)
            self.stats.largest = max(self.stats.largest, len(texts))
        for job in batch:
            if not job.abandoned:
                job.finish(np.ascontiguousarray(vectors[[row[t] for t in job.texts]]))


@atexit.register
def _close_open_batchers() -> None:
    """At exit: close every batcher still open, so no worker is inside a model call (above)."""
    for batcher in list(_OPEN):
        batcher.close()


def query_embedder(settings: EmbeddingSettings,
                   load: Callable[[EmbeddingSettings], Embedder] | None = None,
                   compile_now: bool = False, command: bool = False) -> Embedder:
    """Queries' embedder as every entry point uses it (server, `index-builder search` and
    eval): the index's model or its twin (PRECEDENT_QUERY_EMBEDDING), behind the batcher,
    behind the cache of vectors by text. A twin that cannot be made or loaded (OpenVINO not
    installed, no calibration folder) falls back to its recorded fallback twin, then to the
    index's own model, with a warning: searches stay right, only slower.
    ``load`` makes a model from its settings (default ``index_builder.index.load_embedder``);
    ``compile_now``: the fixed-shape compiles (PRECEDENT_QUERY_SHAPES) made now, not on first
    use (the server: before it answers /health); ``command``: a one-shot command's search,
    which waits up to ``command_query_deadline_s`` for its embedding (PRECEDENT_QUERY_DEADLINE_S
    refuses a queue a server cannot serve; a command has no queue, and on a busy machine its
    first fixed-shape compile runs past a server's 10 s)."""
    from index_builder.errors import ModelLoadError
    from index_builder.index.embed_cache import CachingEmbedder
    from index_builder.index.embedder import query_candidates
    from index_builder.settings.search import parse_query_shapes

    if load is None:
        from index_builder.index import load_embedder as load

    candidates = query_candidates(settings)
    for number, wanted in enumerate(candidates):
        if settings.query_batch and wanted.backend != "torch":
            # One OpenVINO stream / ONNX Runtime thread per worker: two workers' calls at once.
            wanted = replace(wanted, threads=max(wanted.threads, settings.query_workers))
        try:
            model = load(wanted)
            break
        except ModelLoadError as exc:
            if number == len(candidates) - 1:  # the index's own model: nothing to fall back to
                raise
            following = candidates[number + 1].backend
            log.warning("Queries cannot be embedded with %s (%s); using %s", wanted.backend,
                        exc.message, following if number + 2 < len(candidates)
                        else f"the index's own model {following}")
    shapes = parse_query_shapes(settings.query_shapes)
    if shapes and hasattr(model, "use_fixed_shapes"):  # OpenVINO models only
        # One set of fixed-shape compiles per model call the batcher runs at once.
        model.use_fixed_shapes(shapes, settings.query_workers, compile_now)
    if settings.query_batch:
        model = BatchingEmbedder(model, batch_max=settings.query_batch,
                                 batch_wait_ms=settings.query_batch_wait_ms,
                                 queue_max=settings.query_queue,
                                 deadline_s=_deadline(settings, command),
                                 workers=settings.query_workers)
    if settings.cache_size:
        model = CachingEmbedder(model, settings.cache_size)
    return model


def _deadline(settings: EmbeddingSettings, command: bool) -> float:
    """How long a caller waits for its embedding: the server's deadline, or a command's."""
    if command:
        return max(settings.query_deadline_s, settings.command_query_deadline_s)
    return settings.query_deadline_s
