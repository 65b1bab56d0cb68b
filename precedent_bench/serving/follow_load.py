"""Follow the cursor under load (issue 31): 20 lawyers typing at a realistic pace against a real
server (cheroot, the app, the real embedder and index) on loopback.

Each simulated lawyer types real clauses of the library (one paragraph after another) and
behaves as the pane does (addin_server/static/taskpane/follow.js): a search when the lawyer
pauses at least ``--pause-ms`` (800) after a keystroke, only once the paragraph has 8 words,
never the same text twice in a row, marked ``"trigger": "cursor"``, without AI rating; a 429
waits for Retry-After. Each lawyer signs in with an API token of its own, so the per-user
limits (PRECEDENT_FOLLOW_RATE_LIMIT, 30/minute) apply per lawyer as in a firm.

The typing model (pauses drawn from stated distributions, seeded):

* between keystrokes: lognormal, median 0.20 s, sigma 0.4 (about 5 characters a second, a
  steady typist; 95% of gaps under 0.39 s);
* after a word: with probability 0.12 a thinking pause, lognormal median 1.5 s, sigma 0.8;
* after a sentence (". ", "; "): with probability 0.6 a pause, lognormal median 3 s, sigma 0.7;
* after a paragraph: lognormal median 8 s, sigma 0.5 (rereading, moving the cursor on).

Scenarios: ``on`` (following on), and ``off`` (the firm-wide switch: the same lawyers, the same
typing, who click Find precedent once per finished paragraph instead). Figures per scenario:
requests/s, client-side p50/p95/max latency, statuses, anything lost (a request with no HTTP
answer, or a 5xx), the server's CPU seconds per request, and the keystroke events the pane
did not turn into requests.

    precedent-bench follow-load --index var/contracts-index --duration 60    # each scenario
    precedent-bench follow-load --index var/contracts-index --duration 300   # the full run
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from precedent_bench.catalogue import subparser
from precedent_bench.common import data, indexes, servers
from precedent_bench.common.machine import cpu_seconds

OUT = data.RESULTS / "cursor"
LAWYERS = 20
MIN_WORDS = 8


# --- the lawyers ---------------------------------------------------------------------------

def keystrokes(paragraph: str, rng: random.Random) -> list[tuple[float, str]]:
    """(gap before the key, text so far) for typing ``paragraph``, then the paragraph pause."""
    out = []
    for i, ch in enumerate(paragraph):
        gap = rng.lognormvariate(math.log(0.20), 0.4)
        before = paragraph[i - 1] if i else ""
        if before == " " and paragraph[i - 2:i - 1] in (".", ";"):
            gap += rng.lognormvariate(math.log(3.0), 0.7) if rng.random() < 0.6 else 0.0
        elif before == " ":
            gap += rng.lognormvariate(math.log(1.5), 0.8) if rng.random() < 0.12 else 0.0
        out.append((gap, paragraph[: i + 1]))
    out.append((rng.lognormvariate(math.log(8.0), 0.5), paragraph))  # rereading, moving on
    return out


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    lost: int = 0
    events: int = 0  # keystrokes (each a selection-changed event in Word)
    skipped_short: int = 0
    paragraphs: int = 0
    superseded: int = 0  # answers that arrived after a newer search was sent (the pane drops them)


class Lawyer(threading.Thread):
    """Types on its own clock (open loop: a slow answer never slows the typing, as in Word);
    each search runs in its own thread, and a newer search supersedes one still in flight (the
    pane aborts it; the server has the work anyway, so it still counts as load)."""

    def __init__(self, n: int, port: int, token: str, paragraphs: list[str], mode: str,
                 pause_s: float, until: float, tally: Tally, lock: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.rng = random.Random(1000 + n)
        self.port, self.token, self.mode, self.pause_s, self.until = port, token, mode, pause_s, until
        self.paragraphs = paragraphs[:]
        self.rng.shuffle(self.paragraphs)
        self.tally, self.lock = tally, lock
        self.last_sent = ""
        self.resume_at = 0.0
        self.seq = 0
        self.requests: list[threading.Thread] = []

    def run(self) -> None:
        # Start at a random point, so 20 lawyers do not pause in step.
        clock = time.monotonic() + self.rng.uniform(0, 5)
        for paragraph in self.paragraphs:
            with self.lock:
                self.tally.paragraphs += 1
            strokes = keystrokes(paragraph, self.rng)
            for k, (gap, text) in enumerate(strokes):
                if k == len(strokes) - 1 and self.mode == "off":
                    self._fire(paragraph, "click")  # the lawyer clicks Find on the finished paragraph
                clock += gap
                if clock >= self.until:
                    return
                self._sleep_until(clock)
                if k == len(strokes) - 1:
                    break
                with self.lock:
                    self.tally.events += 1
                if self.mode == "on" and strokes[k + 1][0] >= self.pause_s:
                    self._sleep_until(clock + self.pause_s)  # the pane's pause, then it reads the paragraph
                    self._pause_search(text)

    def _pause_search(self, text: str) -> None:
        if len(text.split()) < MIN_WORDS:
            with self.lock:
                self.tally.skipped_short += 1
            return
        if text.strip() == self.last_sent or time.monotonic() < self.resume_at:
            return  # never twice in a row; waiting out a 429
        self._fire(text, "cursor")

    def _fire(self, text: str, trigger: str) -> None:
        self.last_sent = text.strip()
        body = {"text": text.strip(), "top_k": 5, "rerank": False}
        if trigger == "cursor":
            body["trigger"] = "cursor"
        self.seq += 1
        worker = threading.Thread(target=self._request, args=(body, self.seq), daemon=True)
        self.requests.append(worker)
        worker.start()

    def _request(self, body: dict[str, Any], seq: int) -> None:
        started = time.monotonic()
        try:
            status, retry_after = self._post(body)
        except (OSError, http.client.HTTPException):
            with self.lock:
                self.tally.lost += 1
            return
        took = time.monotonic() - started
        with self.lock:
            self.tally.latencies.append(took)
            self.tally.statuses[str(status)] = self.tally.statuses.get(str(status), 0) + 1
            self.tally.superseded += seq != self.seq
            if status >= 500:
                self.tally.lost += 1
        if status == 429:
            self.resume_at = time.monotonic() + retry_after
            self.last_sent = ""

    def _post(self, body: dict[str, Any]) -> tuple[int, float]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            conn.request("POST", "/api/v1/precedents", json.dumps(body),
                         {"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"})
            response = conn.getresponse()
            response.read()
            return response.status, float(response.headers.get("Retry-After") or 0)
        finally:
            conn.close()

    @staticmethod
    def _sleep_until(at: float) -> None:
        delay = at - time.monotonic()
        if delay > 0:
            time.sleep(delay)


def paragraphs_from(index: Path) -> list[str]:
    """Real clauses of the library, 15 to 120 words: what the lawyers type."""
    clauses = indexes.all_clauses(indexes.open_backend(index))
    return sorted({c.text for c in clauses if 15 <= len(c.text.split()) <= 120})


def scenario(mode: str, args: argparse.Namespace, texts: list[str]) -> dict[str, Any]:
    tokens = [f"lawyer-{n:02d}-{os.urandom(6).hex()}" for n in range(LAWYERS)]
    workdir = Path(tempfile.mkdtemp(prefix="follow-load-"))
    audit_file = workdir / "audit.jsonl"
    # Settings from these alone (the shell's PRECEDENT_* ignored); following stays on in both
    # scenarios: "off" is the same lawyers clicking Find precedent instead.
    overrides = {"index_dir": str(args.index), "server.api_tokens": tokens, "audit.file": str(audit_file),
                 "follow.mode": "on", "rerank.default": "off", "local_llm.mode": "off"}
    server, port = servers.spawn(servers.serve_index, overrides, servers.OFFLINE_ENV, False)
    try:
        tally, lock = Tally(), threading.Lock()
        cpu_before = cpu_seconds(server.pid)
        started = time.monotonic()
        until = started + args.duration
        lawyers = [Lawyer(n, port, tokens[n], texts, mode, args.pause_ms / 1000, until, tally, lock)
                   for n in range(LAWYERS)]
        for lawyer in lawyers:
            lawyer.start()
        for lawyer in lawyers:
            lawyer.join(args.duration + 30)
        elapsed = time.monotonic() - started  # the typing time; answers still coming are awaited
        for lawyer in lawyers:
            for worker in lawyer.requests:
                worker.join(150)
        cpu = cpu_seconds(server.pid) - cpu_before
    finally:
        servers.stop(server)
    sent = len(tally.latencies) + tally.lost
    audited = sum(1 for line in audit_file.read_text().splitlines()
                  if json.loads(line)["route"] == "/api/v1/precedents") if audit_file.exists() else 0
    lat = sorted(tally.latencies)
    pct = lambda p: round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None  # noqa: E731
    return {"scenario": mode, "lawyers": LAWYERS, "duration_s": round(elapsed, 1), "pause_ms": args.pause_ms,
            "keystroke_events": tally.events, "requests": sent, "requests_per_s": round(sent / elapsed, 2),
            "events_per_request": round(tally.events / sent, 1) if sent else None,
            "statuses": tally.statuses, "lost": tally.lost, "audited": audited,
            "p50_ms": pct(0.5), "p95_ms": pct(0.95), "max_ms": round(lat[-1] * 1000, 1) if lat else None,
            "server_cpu_s": round(cpu, 1), "server_cpu_ms_per_request": round(cpu / sent * 1000, 1) if sent else None,
            "paragraphs_started": tally.paragraphs, "pauses_skipped_short": tally.skipped_short,
            "superseded": tally.superseded,
            "load_average_1min": round(os.getloadavg()[0], 1)}


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--index", type=Path, default=indexes.CONTRACTS_INDEX)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds per scenario (300 = the full run)")
    parser.add_argument("--pause-ms", type=int, default=800)
    parser.add_argument("--scenarios", default="on,off")
    parser.add_argument("--out", type=Path, default=OUT / "follow_load.json")


def run(args: argparse.Namespace) -> None:
    texts = paragraphs_from(args.index)
    rows = []
    for mode in args.scenarios.split(","):
        row = scenario(mode, args, texts)
        rows.append(row)
        print(json.dumps(row))
    if len(rows) == 2:
        on, off = rows
        print(f"firm-wide off: {on['requests_per_s']} -> {off['requests_per_s']} requests/s, server CPU "
              f"{on['server_cpu_s']} -> {off['server_cpu_s']} s over {args.duration:.0f} s")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"command": f"precedent-bench follow-load --duration {args.duration:g}",
                                    "median_keystroke_gap_s": 0.2, "rows": rows}, indent=1))

