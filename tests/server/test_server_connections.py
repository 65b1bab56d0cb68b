"""Nothing lost on the wire: every request sent gets its HTTP answer, never a reset.

A server that answers before reading a body (a 2 MB paste refused with 413, a route that
does not exist) and then closes the connection must first read what the client is still
sending: closing with unread bytes makes the kernel reset the connection, and the reset
destroys the answer on its way (benchmarks/results/connection-faults/README.md).
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
from typing import Any, Iterator

import pytest

from addin_server.web.wsgi import connection_options, make_server
from index_builder.settings import load_settings


@pytest.fixture
def serve(make_app: Any) -> Iterator[Any]:
    servers: list[Any] = []

    def start(**options: Any) -> int:
        server = make_server(make_app(llm=False), "127.0.0.1", 0, threads=2, **options)
        server.prepare()
        threading.Thread(target=server.serve, daemon=True).start()
        servers.append(server)
        return int(server.bind_addr[1])

    yield start
    for server in servers:
        server.stop()


def _post(port: int, path: str, body: bytes) -> tuple[int, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("POST", path, body, {"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def test_a_2_mb_paste_always_gets_its_413_message_not_a_reset(serve: Any) -> None:
    port = serve()
    body = json.dumps({"text": "The Supplier shall indemnify the Customer. " * 50_000}).encode()
    # Before the lingering close, about one in five of these ended in BrokenPipe/reset.
    for _ in range(12):
        status, payload = _post(port, "/api/v1/precedents", body)
        assert status == 413 and "too long" in payload["error"]["message"]


def test_an_early_answer_on_a_connection_closed_for_lack_of_room_still_arrives(serve: Any) -> None:
    port = serve(keep_alive_limit=1)
    idle = socket.create_connection(("127.0.0.1", port))  # fills the one keep-alive place
    try:
        warm = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        warm.request("GET", "/api/v1/health")
        warm.getresponse().read()  # now idle and kept: the room is full
        body = json.dumps({"text": "x" * 1_000_000}).encode()
        for _ in range(8):  # answered 404 without reading the body, then closed
            status, payload = _post(port, "/api/v1/no-such-route", body)
            assert status == 404 and payload["error"]["code"]
        warm.close()
    finally:
        idle.close()


def test_connection_settings_reach_the_server() -> None:
    settings = load_settings({"PRECEDENT_SERVER_BACKLOG": "64", "PRECEDENT_SERVER_KEEP_ALIVE_LIMIT": "40",
                              "PRECEDENT_SERVER_IDLE_TIMEOUT_S": "12"})
    options = connection_options(settings.server)
    assert options == {"backlog": 64, "keep_alive_limit": 40, "socket_timeout_s": 12.0}
    server = make_server(lambda environ, start: [], "127.0.0.1", 0, **options)
    assert (server.request_queue_size, server.keep_alive_conn_limit, server.timeout) == (64, 40, 12.0)
    defaults = load_settings({}).server  # cheroot's own 5 and 10 lost requests at 20 panes
    assert defaults.backlog >= 128 and defaults.keep_alive_limit >= 100
