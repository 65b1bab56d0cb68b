"""Closed-loop HTTP clients for the throughput benchmark: every answer counted, nothing lost unseen.

Each client keeps one keep-alive connection, as a pane does, and sends the next text the
moment it has its answer (no pauses: throughput). A request is *answered* when an HTTP
status comes back (a 503 with Retry-After is an answer: the pane says "busy, retrying");
*lost* when the connection fails without one (a reset, a timeout). Latencies are of the
searches answered 200.

The clients run on the server's own cores, so they are kept light (issue 39, session 7):
one socket each speaking just the HTTP/1.1 a JSON API needs (``Connection``), and only the
answer's ``timings_ms.total`` read out of the body, where a pane parses all of it on the
lawyer's machine. With ``http.client`` and ``json.loads`` of every ~19 kB answer they cost
~0.74 ms of CPU a search, ~4% of the server's own (benchmarks/results/throughput/README.md).
The request's bytes are what ``http.client`` sent, so the server's work is unchanged.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

TIMEOUT_S = 60.0  # a pane gives up after this; an answer later than that counts as lost
PATH = "/api/v1/precedents"
# The search's own time in an answer: ``timings_ms`` holds numbers only (json.loads when not found).
_TOTAL = re.compile(rb'"timings_ms":\s*\{[^{}]*?"total":\s*(-?[0-9][0-9.eE+-]*)')


class Connection:
    """One keep-alive HTTP/1.1 connection to 127.0.0.1, as light as a load generator can be.

    Sends the very bytes ``http.client`` sends for a JSON POST (request line, Host,
    Accept-Encoding: identity, Content-Length, Content-Type; one ``sendall`` with the body,
    TCP_NODELAY) and reads the answer by its Content-Length (chunked and read-to-close too).
    Errors are ``http.client``'s: a closed connection without an answer is
    ``RemoteDisconnected``, a timeout ``TimeoutError``, so "lost" means what it meant.
    """

    def __init__(self, port: int, timeout: float = TIMEOUT_S) -> None:
        self.port = port
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._buffer = b""

    def post(self, path: str, body: bytes) -> tuple[int, dict[str, str], bytes]:
        """(status, headers with lower-case names, body) of one POST of JSON ``body``."""
        self.sock.sendall(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept-Encoding: identity\r\n"
                          b"Content-Length: %d\r\nContent-Type: application/json\r\n\r\n%s"
                          % (path.encode(), self.port, len(body), body))
        buffer = self._buffer
        while True:
            end = buffer.find(b"\r\n\r\n")
            if end >= 0:
                break
            buffer += self._more(not buffer)
        lines = buffer[:end].decode("latin-1").split("\r\n")
        rest = buffer[end + 4:]
        parts = lines[0].split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
            raise http.client.BadStatusLine(lines[0])
        status = int(parts[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if "chunked" in headers.get("transfer-encoding", "").lower():
            data, rest = self._chunked(rest)
        elif "content-length" in headers:
            length = int(headers["content-length"])
            while len(rest) < length:
                rest += self._more(False)
            data, rest = rest[:length], rest[length:]
        else:  # no length: the body runs to the connection's close
            while True:
                try:
                    more = self.sock.recv(65536)
                except OSError:
                    more = b""
                if not more:
                    break
                rest += more
            data, rest = rest, b""
            headers["connection"] = "close"
        self._buffer = rest
        return status, headers, data

    def _more(self, fresh: bool) -> bytes:
        more = self.sock.recv(65536)
        if not more:
            raise (http.client.RemoteDisconnected("Remote end closed connection without response")
                   if fresh else http.client.IncompleteRead(b""))
        return more

    def _chunked(self, rest: bytes) -> tuple[bytes, bytes]:
        data = b""
        while True:
            while b"\r\n" not in rest:
                rest += self._more(False)
            size_line, rest = rest.split(b"\r\n", 1)
            size = int(size_line.split(b";", 1)[0], 16)
            while len(rest) < size + 2:
                rest += self._more(False)
            data, rest = data + rest[:size], rest[size + 2:]
            if size == 0:
                return data, rest

    def close(self) -> None:
        self.sock.close()


def search_total(data: bytes) -> float:
    """``timings_ms.total`` of a search answer, read without parsing the whole answer."""
    found = _TOTAL.search(data)
    return float(found.group(1)) if found else float(json.loads(data)["timings_ms"]["total"])


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
        connection: Connection | None = None
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
                    connection = Connection(port, TIMEOUT_S)
                status, headers, data = connection.post(PATH, payload)
                elapsed = (time.monotonic() - started) * 1000
                retry_after = headers.get("retry-after")
                if headers.get("connection", "").lower() == "close":
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
                tally.statuses[status] = tally.statuses.get(status, 0) + 1
                if status == 200:
                    tally.latencies_ms.append(elapsed)
                    if time.monotonic() <= until:
                        tally.ok_in_window += 1
                    try:
                        tally.server_ms.append(search_total(data))
                        if keep:  # the crash phases look each answer's list up afterwards
                            tally.answers.append((text, json.loads(data).get("list_id", "")))
                    except (ValueError, KeyError, TypeError):
                        pass
                elif status == 503 and retry_after:
                    tally.busy_with_retry_after += 1
            if status == 503 and retry_after:
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
