"""The lawyers of a load run: client threads that search, rerank and redraft against a real
server as a task pane does, and a monitor of its /health (which version is live when).

load_fault.py runs them in its scenarios; DEADLINE_S is also how long soak.py's panes wait.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from dataclasses import dataclass
from typing import Any

from precedent_bench.common.data import Workload

KINDS = ("search", "rerank", "redraft")
DEADLINE_S = {"search": 30.0, "rerank": 45.0, "redraft": 150.0}  # a pane gives up after these


@dataclass
class Record:
    kind: str
    started: float
    seconds: float
    status: int  # 0: no HTTP answer
    outcome: str  # "ok", an error code, "lost: ...", "hung"
    rerank: str = ""
    server_ms: float | None = None  # the search's own time (timings_ms.total), without HTTP or queueing


def _body(kind: str, rng: random.Random, work: Workload) -> dict[str, Any]:
    text = rng.choice(work.queries)
    if kind == "search":
        return {"text": text, "rerank": False}
    if kind == "rerank":
        return {"text": text, "rerank": True}
    return {"text": text, "clause_ids": rng.sample(work.clause_ids, 3)}


class Client(threading.Thread):
    def __init__(self, port: int, kind: str, seed: int, work: Workload, until: float,
                 think: float, records: list[Record]) -> None:
        super().__init__(daemon=True, name=f"client-{kind}-{seed}")
        self.port, self.kind, self.work, self.until = port, kind, work, until
        self.rng = random.Random(seed)
        self.think = (think * 0.5, think * 1.5)
        self.records = records
        self.connection: http.client.HTTPConnection | None = None

    def run(self) -> None:
        time.sleep(self.rng.uniform(0, max(self.think[1], 0.2)))  # do not start in lockstep
        while time.monotonic() < self.until:
            record = self.request()
            self.records.append(record)
            pause = self.rng.uniform(*self.think)
            if record.status == 503:
                pause = max(pause, 2.0)  # the pane says "try again in a minute"; a lawyer waits a bit
            time.sleep(pause)
        if self.connection:
            self.connection.close()

    def request(self) -> Record:
        body = json.dumps(_body(self.kind, self.rng, self.work))
        started = time.monotonic()
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port,
                                                             timeout=DEADLINE_S[self.kind])
            self.connection.request("POST", f"/api/v1/{'redraft' if self.kind == 'redraft' else 'precedents'}",
                                    body, {"Content-Type": "application/json"})
            answer = self.connection.getresponse()
            payload = json.loads(answer.read() or b"{}")
            if answer.getheader("Connection", "").lower() == "close":
                self.connection.close()
                self.connection = None
        except TimeoutError:
            self._reset()
            return Record(self.kind, started, time.monotonic() - started, 0, "hung")
        except (OSError, http.client.HTTPException, ValueError) as exc:
            self._reset()
            return Record(self.kind, started, time.monotonic() - started, 0, f"lost: {type(exc).__name__}")
        seconds = time.monotonic() - started
        if answer.status == 200:
            rerank = (payload.get("rerank") or {}).get("status", "")
            return Record(self.kind, started, seconds, 200, "ok", rerank,
                          (payload.get("timings_ms") or {}).get("total"))
        code = (payload.get("error") or {}).get("code", "?")
        return Record(self.kind, started, seconds, answer.status, code)

    def _reset(self) -> None:
        if self.connection:
            self.connection.close()
        self.connection = None


class Monitor(threading.Thread):
    """Polls /health: which index version is live when, and the LLM breaker's state."""

    def __init__(self, port: int, until: float, t0: float) -> None:
        super().__init__(daemon=True, name="monitor")
        self.port, self.until, self.t0 = port, until, t0
        self.versions: list[tuple[float, str]] = []
        self.errors = 0

    def run(self) -> None:
        while time.monotonic() < self.until:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                connection.request("GET", "/api/v1/health")
                health = json.loads(connection.getresponse().read())
                connection.close()
                version = health["index"]["version"]
                if not self.versions or self.versions[-1][1] != version:
                    self.versions.append((time.monotonic() - self.t0, version))
            except (OSError, http.client.HTTPException, ValueError, KeyError):
                self.errors += 1
            time.sleep(1.0)
