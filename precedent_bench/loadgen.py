"""Closed-loop HTTP clients for the throughput benchmark: every answer counted, nothing lost unseen.

Each client keeps one keep-alive connection, as a pane does, and sends the next text the
moment it has its answer (no pauses: throughput). A request is *answered* when an HTTP
status comes back (a 503 with Retry-After is an answer: the pane says "busy, retrying");
*lost* when the connection fails without one (a reset, a timeout). Latencies are of the
searches answered 200.
"""

from __future__ import annotations

import http.client
import json
import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

TIMEOUT_S = 60.0  # a pane gives up after this; an answer later than that counts as lost


@dataclass
class Tally:
    """What a run's clients saw."""

    seconds: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)  # 200s only
    server_ms: list[float] = field(default_factory=list)  # the search's own time (timings_ms)
    statuses: dict[int, int] = field(default_factory=dict)
    busy_with_retry_after: int = 0  # 503s carrying Retry-After
    lost: int = 0
    lost_reasons: dict[str, int] = field(default_factory=dict)
    sent: int = 0
    exhausted: bool = False  # the texts ran out before the time did
    window_s: float = 0.0  # the measured window (the run's length, or until the texts ran out)
    ok_in_window: int = 0  # 200s that came back inside it
    answers: list[tuple[str, str]] = field(default_factory=list)  # (text, list_id) of 200s, when kept

    def summary(self) -> dict[str, Any]:
        ok = self.statuses.get(200, 0)
        return {"seconds": round(self.seconds, 1), "sent": self.sent,
                "answered": self.sent - self.lost, "lost": self.lost,
                "lost_reasons": self.lost_reasons, "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
                "busy_with_retry_after": self.busy_with_retry_after,
                "ok": ok, "per_s": round(self.ok_in_window / self.window_s, 2) if self.window_s else 0.0,
                "p50_ms": _pct(self.latencies_ms, 50), "p95_ms": _pct(self.latencies_ms, 95),
                "p99_ms": _pct(self.latencies_ms, 99),
                "server_p50_ms": _pct(self.server_ms, 50), "exhausted": self.exhausted}


class Texts:
    """A thread-safe source of request texts; ``None`` once a finite list is used up."""

    def __init__(self, texts: Iterator[str]) -> None:
        self._texts = texts
        self._lock = threading.Lock()

    def next(self) -> str | None:
        with self._lock:
            return next(self._texts, None)


def run_clients(port: int, texts: Texts, clients: int, seconds: float, *, stagger_s: float = 0.2,
                body: dict[str, Any] | None = None, keep: bool = False,
                stop: threading.Event | None = None) -> Tally:
    """``clients`` closed-loop clients for ``seconds`` against 127.0.0.1:port; ``keep``: note
    each answered text and its ``list_id``; ``stop``: end early when it is set."""
    tally = Tally()
    lock = threading.Lock()
    began = time.monotonic()
    until = began + seconds
    extra = {"rerank": False, **(body or {})}

    def client(number: int) -> None:
        nonlocal until
        if stagger_s:
            time.sleep(stagger_s * number / max(clients, 1))  # not all in lockstep
        connection: http.client.HTTPConnection | None = None
        while time.monotonic() < until and not (stop and stop.is_set()):
            text = texts.next()
            if text is None:
                with lock:
                    if not tally.exhausted:
                        tally.exhausted = True
                        until = min(until, time.monotonic())
                break
            payload = json.dumps({"text": text, **extra}).encode()
            started = time.monotonic()
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)
                connection.request("POST", "/api/v1/precedents", payload,
                                   {"Content-Type": "application/json"})
                response = connection.getresponse()
                data = response.read()
                elapsed = (time.monotonic() - started) * 1000
                retry_after = response.getheader("Retry-After")
                if response.getheader("Connection", "").lower() == "close":
                    connection.close()
                    connection = None
            except (OSError, http.client.HTTPException) as exc:
                with lock:
                    tally.sent += 1
                    tally.lost += 1
                    name = type(exc).__name__
                    tally.lost_reasons[name] = tally.lost_reasons.get(name, 0) + 1
                if connection is not None:
                    connection.close()
                connection = None
                continue
            with lock:
                tally.sent += 1
                tally.statuses[response.status] = tally.statuses.get(response.status, 0) + 1
                if response.status == 200:
                    tally.latencies_ms.append(elapsed)
                    if time.monotonic() <= until:
                        tally.ok_in_window += 1
                    try:
                        answer = json.loads(data)
                        tally.server_ms.append(float(answer["timings_ms"]["total"]))
                        if keep:
                            tally.answers.append((text, answer.get("list_id", "")))
                    except (ValueError, KeyError, TypeError):
                        pass
                elif response.status == 503 and retry_after:
                    tally.busy_with_retry_after += 1
            if response.status == 503 and retry_after:
                # The pane waits as told (capped, so a burst still ends on time).
                time.sleep(min(float(retry_after), 1.0))
        if connection is not None:
            connection.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + TIMEOUT_S + 30)
    tally.seconds = time.monotonic() - began
    tally.window_s = min(until, began + seconds) - began
    return tally


def _pct(values: list[float], q: int) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return round(values[0], 1)
    return round(statistics.quantiles(values, n=100, method="inclusive")[q - 1], 1)
