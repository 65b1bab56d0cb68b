"""A scripted OpenAI-compatible chat server on loopback: the LLM layer's test double.

It speaks enough of the chat-completions protocol for the real openai SDK (content,
logprobs with top_logprobs, usage, error bodies, Retry-After) and answers from a script:
queued replies first, in order, then a responder function of the request body. It
records every request (body, headers, start and end times) so tests can check prompts and
measure how many calls were in flight at once. The latency benchmark uses it too.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass
class Reply:
    """One scripted answer. ``body`` (raw bytes) overrides everything but status and delay."""

    content: str = "2"
    logprobs: dict[str, float] | None = None  # first token's top alternatives: token -> logprob
    status: int = 200
    delay_s: float = 0.0
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Recorded:
    body: dict[str, Any]
    path: str
    headers: dict[str, str]
    started: float
    finished: float = 0.0

    @property
    def messages(self) -> list[dict[str, str]]:
        return list(self.body.get("messages", []))

    @property
    def prompt(self) -> str:
        return "\n".join(str(m.get("content", "")) for m in self.messages)


Responder = Callable[[dict[str, Any]], Reply]


def rating_logprobs(probabilities: dict[str, float]) -> dict[str, float]:
    """Top logprobs from token probabilities, e.g. {"3": 0.7, "4": 0.3}."""
    return {token: math.log(p) for token, p in probabilities.items() if p > 0}


class ScriptedLLMServer:
    """Run with ``with ScriptedLLMServer() as llm:``; point clients at ``llm.url``."""

    def __init__(self, responder: Responder | None = None) -> None:
        self.responder: Responder = responder or (lambda body: Reply())
        self.requests: list[Recorded] = []
        self.max_in_flight = 0
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._in_flight = 0
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False
        # A short poll keeps shutdown (once per test) fast.
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def script(self, *replies: Reply) -> None:
        """Queue replies for the next calls, in order (then the responder answers)."""
        with self._lock:
            self._queue.extend(replies)

    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path.split("?")[0].endswith("/chat/completions")]

    def start(self) -> "ScriptedLLMServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> "ScriptedLLMServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        return self.responder(body)

    def _enter(self, record: Recorded) -> None:
        with self._lock:
            self.requests.append(record)
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)

    def _leave(self, record: Recorded) -> None:
        with self._lock:
            self._in_flight -= 1
            record.finished = time.perf_counter()


def _handler_for(server: ScriptedLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in two writes; without this, Nagle's algorithm and the
        # client's delayed ACK add about 40 ms to every answer and distort latency figures.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            return

        def do_GET(self) -> None:
            if self.path.split("?")[0].endswith("/models"):
                self._send(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
            else:
                self._send(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {}
            headers = {name.lower(): value for name, value in self.headers.items()}
            record = Recorded(body, self.path, headers, time.perf_counter())
            server._enter(record)
            try:
                reply = server._next_reply(body)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                self._answer(reply, body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test): nothing to answer
            finally:
                server._leave(record)

        def _answer(self, reply: Reply, body: dict[str, Any]) -> None:
            if reply.body is not None:
                self._send_raw(reply.status, reply.body, reply.headers)
            elif reply.status != 200:
                error = {"error": {"message": f"scripted {reply.status}", "type": "scripted"}}
                self._send(reply.status, error, reply.headers)
            else:
                self._send(200, _completion(reply, body), reply.headers)

        def _send(self, status: int, payload: dict[str, Any],
                  headers: dict[str, str] | None = None) -> None:
            self._send_raw(status, json.dumps(payload).encode(), headers or {})

        def _send_raw(self, status: int, data: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _completion(reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
    logprobs = None
    if body.get("logprobs") and reply.logprobs is not None:
        top = sorted(reply.logprobs.items(), key=lambda kv: -kv[1])[: int(body.get("top_logprobs") or 1)]
        first = top[0] if top else (reply.content[:1], 0.0)
        logprobs = {"content": [{
            "token": first[0], "logprob": first[1], "bytes": None,
            "top_logprobs": [{"token": t, "logprob": lp, "bytes": None} for t, lp in top],
        }]}
    prompt_chars = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
    return {
        "id": "chatcmpl-scripted", "object": "chat.completion", "created": int(time.time()),
        "model": body.get("model", "scripted"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.content},
                     "finish_reason": "stop", "logprobs": logprobs}],
        "usage": {"prompt_tokens": prompt_chars // 4, "completion_tokens": len(reply.content) // 4 + 1,
                  "total_tokens": prompt_chars // 4 + len(reply.content) // 4 + 1},
    }
