"""The throughput benchmark's load client: light, but every answer counted as before."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest

from precedent_bench.loadgen import Connection, Texts, run_clients, search_total


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as cheroot serves
    seen: list[tuple[str, dict[str, str], bytes]] = []
    opened = 0  # connections accepted

    def setup(self) -> None:
        super().setup()
        type(self).opened += 1

    def do_POST(self) -> None:  # noqa: N802 (the http.server name)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
        text = json.loads(body)["text"]
        if text == "busy":
            self._answer(503, b'{"error": "busy"}', {"Retry-After": "0"})
        elif text == "chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for piece in (b'{"timings_ms": {"total": 7.5}', b', "list_id": "c"}'):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
        elif text == "close":
            self._answer(200, b'{"list_id": "x", "timings_ms": {"retrieval": 1, "total": 2.25}}',
                         {"Connection": "close"})
            self.close_connection = True
        elif text == "reset":
            self.close_connection = True  # no answer at all: a lost request
        else:
            results = [{"id": i, "timings_ms": "not this one"} for i in range(3)]
            self._answer(200, json.dumps({"list_id": "l-" + text, "results": results,
                                          "timings_ms": {"retrieval": 3.0, "total": 12.5}},
                                         sort_keys=True).encode())

    def _answer(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for name, value in {"Content-Type": "application/json", "Content-Length": str(len(body)),
                            **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def server() -> Iterator[int]:
    _Handler.seen, _Handler.opened = [], 0
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def test_the_client_sends_what_http_client_sent_and_reads_every_kind_of_answer(server: int) -> None:
    connection = Connection(server)
    status, headers, data = connection.post("/api/v1/precedents", b'{"text": "a"}')
    assert status == 200 and json.loads(data)["list_id"] == "l-a" and search_total(data) == 12.5
    assert headers["content-type"] == "application/json"
    path, sent, body = _Handler.seen[0]
    assert path == "/api/v1/precedents" and body == b'{"text": "a"}'
    assert sent["host"] == f"127.0.0.1:{server}" and sent["accept-encoding"] == "identity"
    assert sent["content-type"] == "application/json" and sent["content-length"] == "13"
    status, headers, data = connection.post("/api/v1/precedents", b'{"text": "chunked"}')
    assert status == 200 and json.loads(data) == {"timings_ms": {"total": 7.5}, "list_id": "c"}
    status, headers, _ = connection.post("/api/v1/precedents", b'{"text": "busy"}')
    assert status == 503 and headers["retry-after"] == "0"
    assert _Handler.opened == 1  # one keep-alive connection for all three
    connection.close()


def test_the_search_time_is_read_without_parsing_the_answer_and_falls_back_to_json() -> None:
    answer = {"results": [{"text": "x"}], "timings_ms": {"retrieval": 4.0, "spans": 0.5, "total": 9.75}}
    assert search_total(json.dumps(answer, sort_keys=True).encode()) == 9.75
    assert search_total(json.dumps(answer, separators=(",", ":")).encode()) == 9.75
    with pytest.raises(KeyError):
        search_total(b'{"results": []}')


def test_closed_busy_and_unanswered_requests_are_counted_as_before(server: int) -> None:
    texts = ["a", "close", "b", "busy", "c", "reset", "d"]
    tally = run_clients(server, Texts(iter(texts)), 1, 10, stagger_s=0, keep=True)
    assert tally.sent == 7 and tally.lost == 1 and tally.lost_reasons == {"RemoteDisconnected": 1}
    assert tally.statuses == {200: 5, 503: 1} and tally.busy_with_retry_after == 1
    assert sorted(tally.server_ms) == [2.25, 12.5, 12.5, 12.5, 12.5]
    assert tally.answers == [("a", "l-a"), ("close", "x"), ("b", "l-b"), ("c", "l-c"), ("d", "l-d")]
    # a new connection after the server's "Connection: close" and after the lost request only
    assert _Handler.opened == 3
