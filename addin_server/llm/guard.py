"""What keeps a failing language model from hurting search: a bulkhead and a circuit breaker.

``Bulkhead`` bounds the requests (rerank searches, redrafts) that may wait on the LLM at
once, so they can never hold every server thread; a request that finds it full is answered
at once (rerank falls back to search order, redraft gets 503 "llm_busy").

``CircuitBreaker`` judges the last N attempts: when enough of them failed or timed out it
opens, and calls fail in microseconds instead of costing a timeout each; after a pause it
half-opens and lets a few probe calls through, closing when they succeed.

Why not pybreaker: it counts consecutive failures (an endpoint failing half the time rarely
fails five in a row, so it would stay closed) and holds one lock around the whole call,
which would serialise every LLM call through the breaker. Tenacity (retries) is no breaker.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from index_builder.errors import LLMBusyError, LLMCircuitOpenError

log = logging.getLogger(__name__)

BUSY_MESSAGE = "The drafting assistant is busy, try again in a minute."

CLOSED, OPEN, HALF_OPEN = "closed", "open", "half-open"


class Bulkhead:
    """A bounded number of LLM-bound requests; a thread already inside re-enters for free."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._slots = threading.BoundedSemaphore(limit)
        self._local = threading.local()
        self._lock = threading.Lock()
        self.in_use = 0
        self.rejected = 0

    @contextmanager
    def admit(self, wait_s: float = 0.0) -> Iterator[None]:
        """Hold a slot for the block; raise LLMBusyError if none frees within ``wait_s``."""
        depth = getattr(self._local, "depth", 0)
        if depth:  # e.g. a redraft that searches (and reranks) before it drafts
            self._local.depth = depth + 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        acquired = self._slots.acquire(timeout=wait_s) if wait_s > 0 else self._slots.acquire(False)
        if not acquired:
            with self._lock:
                self.rejected += 1
            raise LLMBusyError(BUSY_MESSAGE)
        with self._lock:
            self.in_use += 1
        self._local.depth = 1
        try:
            yield
        finally:
            self._local.depth = 0
            with self._lock:
                self.in_use -= 1
            self._slots.release()

    @contextmanager
    def on_behalf(self) -> Iterator[None]:
        """Mark a worker thread as serving a request that already holds a slot."""
        self._local.depth = getattr(self._local, "depth", 0) + 1
        try:
            yield
        finally:
            self._local.depth -= 1

    @property
    def inside(self) -> bool:
        """Whether the current thread holds a slot."""
        return getattr(self._local, "depth", 0) > 0

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return {"limit": self.limit, "in_use": self.in_use, "rejected": self.rejected}


class CircuitBreaker:
    """Opens on a high failure-or-timeout rate over the last ``window`` attempts.

    ``min_calls`` attempts must have been judged before a rate can open it, so one failure
    after a quiet night does not. Open for ``open_s``; then half-open: up to ``probes``
    calls at once go through, ``probes`` successes close it, any failure reopens it for twice
    as long as the last time (up to ``max_open_s``): an endpoint that stays down is tried
    less and less often instead of costing a probe's timeout every ``open_s``.
    """

    def __init__(self, window: int = 20, failure_rate: float = 0.5, open_s: float = 15.0,
                 probes: int = 2, min_calls: int | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 max_open_s: float | None = None) -> None:
        self.window = window
        self.failure_rate = failure_rate
        self.open_s = open_s
        self.max_open_s = max_open_s if max_open_s is not None else 8 * open_s
        self.probes = probes
        self.min_calls = min_calls if min_calls is not None else max(1, window // 2)
        self._clock = clock
        self._lock = threading.Lock()
        self._outcomes: deque[bool] = deque(maxlen=window)  # True = failed
        self._state = CLOSED
        self._opened_at = 0.0
        self._open_for = open_s
        self._reason = ""
        self._probing = 0
        self._probe_successes = 0
        self.opened = 0  # times it opened, for health and benchmarks

    @property
    def state(self) -> str:
        with self._lock:
            return self._current()

    def check(self) -> None:
        """Raise LLMCircuitOpenError while open (half-open lets the caller try for a probe)."""
        with self._lock:
            if self._current() == OPEN:
                raise self._refusal()

    def before_attempt(self) -> bool:
        """Raise LLMCircuitOpenError when open; return True when this attempt is a probe."""
        with self._lock:
            state = self._current()
            if state == CLOSED:
                return False
            if state == HALF_OPEN and self._probing < self.probes:
                self._probing += 1
                return True
            raise self._refusal()

    def record(self, failed: bool | None, probe: bool = False, what: str = "") -> None:
        """One attempt's outcome (None: no evidence); ``what`` names a failure, never user text."""
        with self._lock:
            if probe:
                self._probing = max(0, self._probing - 1)
            if failed is None:
                return
            state = self._current()
            if state == HALF_OPEN:
                if failed:
                    self._open(f"a test call failed: {what}",
                               min(max(self._open_for, self.open_s) * 2, self.max_open_s))
                elif probe:
                    self._probe_successes += 1
                    if self._probe_successes >= self.probes:
                        self._state = CLOSED
                        self._outcomes.clear()
                        self._open_for = self.open_s
                        log.info("LLM circuit breaker closed: %d test calls succeeded.",
                                 self._probe_successes)
                return
            if state == OPEN:
                return  # a straggler that started before it opened
            self._outcomes.append(failed)
            failures = sum(self._outcomes)
            if (failed and len(self._outcomes) >= self.min_calls
                    and failures >= self.failure_rate * len(self._outcomes)):
                self._open(f"{failures} of the last {len(self._outcomes)} calls failed or timed "
                           f"out, latest: {what}", self.open_s)

    def force_open(self, reason: str, seconds: float) -> None:
        """Open now (an unreachable endpoint needs no statistics)."""
        with self._lock:
            self._open(reason, seconds)

    def reset(self) -> None:
        """Close and forget (the endpoint answered a health probe after being unreachable)."""
        with self._lock:
            if self._state != CLOSED:
                log.info("LLM circuit breaker closed: the endpoint answers again.")
            self._state = CLOSED
            self._outcomes.clear()
            self._probing = 0
            self._open_for = self.open_s

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            state = self._current()
            failures = sum(self._outcomes)
            return {"state": state, "recent_calls": len(self._outcomes),
                    "recent_failures": failures, "opened": self.opened,
                    # A failing endpoint before the breaker has judged enough calls to open.
                    "failing": state != CLOSED or (failures > 0 and
                                                   failures >= self.failure_rate * len(self._outcomes)),
                    "reason": self._reason if state != CLOSED else ""}

    def _refusal(self) -> LLMCircuitOpenError:
        if self._state == HALF_OPEN:
            return LLMCircuitOpenError(f"The language model has been failing ({self._reason}); "
                                       f"test calls are under way, try again shortly.")
        wait = max(1.0, self._opened_at + self._open_for - self._clock())
        return LLMCircuitOpenError(f"The language model has been failing ({self._reason}); calls "
                                   f"pause for {wait:.0f} s and then resume with a few test calls.")

    def _current(self) -> str:
        if self._state == OPEN and self._clock() >= self._opened_at + self._open_for:
            self._state = HALF_OPEN
            self._probing = 0
            self._probe_successes = 0
            log.info("LLM circuit breaker half-open: letting %d test calls through.", self.probes)
        return self._state

    def _open(self, reason: str, seconds: float) -> None:
        if self._state != OPEN:
            self.opened += 1
            log.warning("LLM circuit breaker open for %.0f s (%s).", seconds, reason)
        self._state = OPEN
        self._opened_at = self._clock()
        self._open_for = seconds
        self._reason = reason
        self._probing = 0
        self._probe_successes = 0
