"""scripts/wait_ready.py: the quickstart's banner waits until every worker answers /health."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "wait_ready.py"
spec = importlib.util.spec_from_file_location("wait_ready", SCRIPT)
wait_ready = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
spec.loader.exec_module(wait_ready)  # type: ignore[union-attr]


class Health(BaseHTTPRequestHandler):
    """/api/v1/health as a starting two-worker server answers it: one worker, then both."""

    answers: list[tuple[int, dict[str, Any]]] = []

    def do_GET(self) -> None:  # noqa: N802
        status, body = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def health() -> Iterator[tuple[str, type[Health]]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", Health
    finally:
        server.shutdown()
        server.server_close()


def test_it_waits_until_every_worker_serves(health: tuple[str, type[Health]]) -> None:
    url, handler = health
    handler.answers = [(200, {"status": "ok", "server": {"processes": 2, "serving": 1}})] * 3 + \
        [(200, {"status": "ok", "server": {"processes": 2, "serving": 2}})]
    assert wait_ready.wait(url, None, timeout_s=20, poll_s=0.01) == 0
    assert len(handler.answers) == 1  # it asked until both served, and no longer


def test_sign_in_on_counts_as_answering_and_a_silent_port_times_out(health: tuple[str, type[Health]]) -> None:
    url, handler = health
    handler.answers = [(401, {"error": {"code": "unauthenticated"}})]
    assert wait_ready.ready(url)
    assert wait_ready.wait("http://127.0.0.1:9", None, timeout_s=0.3, poll_s=0.05) == 2


def test_a_server_that_stopped_ends_the_wait_at_once() -> None:
    stopped = subprocess.Popen([sys.executable, "-c", "pass"])
    stopped.wait()
    out = subprocess.run([sys.executable, str(SCRIPT), "http://127.0.0.1:9", "--pid", str(stopped.pid),
                          "--timeout", "60"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 1
