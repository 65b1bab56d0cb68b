"""A failing language model never stalls search: bulkhead, circuit breaker, rerank deadline.

The scripted LLM on loopback fails on cue (500, 429, hangs, garbage); a hang is an Event
the test releases, so nothing here depends on how fast the machine is.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
from dataclasses import replace
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from addin_server.llm.client import OpenAIChatClient
from addin_server.llm.guard import CLOSED, HALF_OPEN, OPEN, Bulkhead, CircuitBreaker
from addin_server.llm.scripted import Reply, ScriptedLLMServer
from addin_server.rerank import LLMReranker, load_rerank_prompt
from addin_server.web.wsgi import make_server
from index_builder.errors import LLMBusyError, LLMCircuitOpenError, LLMUnavailableError
from index_builder.settings import LLMSettings, default_prompts_dir
from server_data import CLAUSES, relevance_responder
from test_server_rerank import hits

MESSAGES = [{"role": "user", "content": "Rate this."}]
QUERY = "cap on liability fees"


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def ask(client: OpenAIChatClient, **kwargs: Any) -> Any:
    return client.complete(MESSAGES, model="m", max_tokens=1, **kwargs)


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    """Calls answered by ``held`` hang until the test sets this (always set at teardown)."""
    event = threading.Event()
    yield event
    event.set()


def held(gate: threading.Event) -> Any:
    def respond(body: dict[str, Any]) -> Reply:
        gate.wait(30)
        return relevance_responder(body)
    return respond


def wait_until(predicate: Any, what: str, event: threading.Event | None = None) -> None:
    """Poll a condition; fail with ``what`` if it never holds (a guard, not a timing check)."""
    for _ in range(1000):
        if predicate():
            return
        threading.Event().wait(0.01)
    pytest.fail(f"never happened: {what}")


# --- the breaker on its own -------------------------------------------------------------

def test_breaker_opens_on_a_failure_rate_not_only_on_consecutive_failures() -> None:
    breaker = CircuitBreaker(window=10, failure_rate=0.5, open_s=30, probes=2, clock=FakeClock())
    for failed in [True, False, True, False]:  # never two failures in a row
        breaker.before_attempt()
        breaker.record(failed, what="HTTP 500")
    assert breaker.state == CLOSED  # 4 calls: below the minimum of 5
    breaker.record(True, what="HTTP 500")
    assert breaker.state == OPEN
    with pytest.raises(LLMCircuitOpenError, match="3 of the last 5 calls failed"):
        breaker.before_attempt()


def test_breaker_stays_closed_below_the_rate() -> None:
    breaker = CircuitBreaker(window=10, failure_rate=0.5, clock=FakeClock())
    for failed in [True, False, False] * 10:
        breaker.record(failed)
    assert breaker.state == CLOSED and breaker.opened == 0


def test_breaker_needs_a_minimum_of_calls() -> None:
    breaker = CircuitBreaker(window=20, failure_rate=0.5, clock=FakeClock())  # min 10 calls
    for _ in range(9):
        breaker.record(True)
    assert breaker.state == CLOSED
    breaker.record(True)
    assert breaker.state == OPEN


def test_breaker_half_opens_and_closes_after_probes_succeed() -> None:
    clock = FakeClock()
    breaker = CircuitBreaker(window=4, failure_rate=0.5, open_s=30, probes=2, clock=clock)
    for _ in range(4):
        breaker.record(True)
    assert breaker.state == OPEN
    clock.now += 29
    with pytest.raises(LLMCircuitOpenError):
        breaker.before_attempt()
    clock.now += 2
    assert breaker.state == HALF_OPEN
    first, second = breaker.before_attempt(), breaker.before_attempt()
    assert first and second
    with pytest.raises(LLMCircuitOpenError, match="test calls are under way"):
        breaker.before_attempt()  # only two probes at once
    breaker.record(False, probe=True)
    assert breaker.state == HALF_OPEN
    breaker.record(False, probe=True)
    assert breaker.state == CLOSED and breaker.snapshot()["recent_calls"] == 0


def test_a_failed_probe_reopens() -> None:
    clock = FakeClock()
    breaker = CircuitBreaker(window=4, failure_rate=0.5, open_s=30, probes=2, clock=clock)
    for _ in range(4):
        breaker.record(True)
    clock.now += 31
    probe = breaker.before_attempt()
    breaker.record(True, probe=probe, what="timed out")
    assert breaker.state == OPEN and breaker.opened == 2
    clock.now += 29
    assert breaker.state == OPEN  # a fresh pause from the failed probe


def test_a_probe_that_keeps_failing_doubles_the_pause_up_to_a_ceiling() -> None:
    # A model that stays down cost a probe's timeout every 15 s; each failed probe now
    # doubles the pause (30, 60, 120 here, at most 8 x open_s), and success resets it.
    clock = FakeClock()
    breaker = CircuitBreaker(window=4, failure_rate=0.5, open_s=15, probes=1, clock=clock)
    for _ in range(4):
        breaker.record(True)
    pauses = []
    for _ in range(5):
        opened_at = clock.now
        while breaker.state == OPEN:
            clock.now += 1
        pauses.append(clock.now - opened_at)
        breaker.record(True, probe=breaker.before_attempt(), what="timed out")
    assert pauses == [15, 30, 60, 120, 120]
    while breaker.state == OPEN:
        clock.now += 1
    breaker.record(False, probe=breaker.before_attempt())
    assert breaker.state == CLOSED
    for _ in range(4):
        breaker.record(True)
    opened_at = clock.now
    while breaker.state == OPEN:
        clock.now += 1
    assert clock.now - opened_at == 15


def test_most_recent_calls_failing_is_told_before_the_breaker_opens() -> None:
    breaker = CircuitBreaker(window=20, failure_rate=0.5, clock=FakeClock())  # opens at 10
    assert breaker.snapshot()["failing"] is False
    for _ in range(8):
        breaker.record(True, what="timed out")
    assert breaker.state == CLOSED and breaker.snapshot()["failing"] is True
    for _ in range(9):
        breaker.record(False)
    assert breaker.snapshot()["failing"] is False  # 8 of 17: below the rate


def test_no_evidence_neither_opens_nor_closes() -> None:
    breaker = CircuitBreaker(window=4, failure_rate=0.5, clock=FakeClock())
    for _ in range(10):
        breaker.record(None)
    assert breaker.snapshot()["recent_calls"] == 0


# --- the bulkhead on its own ------------------------------------------------------------

def test_bulkhead_refuses_at_once_and_is_reentrant() -> None:
    bulkhead = Bulkhead(1)
    with bulkhead.admit():
        with bulkhead.admit():  # the same request going on to its next LLM step
            assert bulkhead.snapshot()["in_use"] == 1
        refused: list[BaseException] = []

        def other() -> None:
            try:
                with bulkhead.admit():
                    pass
            except LLMBusyError as exc:
                refused.append(exc)

        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        assert refused and refused[0].code == "llm_busy"
        assert str(refused[0]) == "The drafting assistant is busy, try again in a minute."
    assert bulkhead.snapshot() == {"limit": 1, "in_use": 0, "rejected": 1}
    with bulkhead.admit():  # freed again
        pass


# --- the client: what counts against the endpoint ---------------------------------------

@pytest.fixture
def strict(llm_settings: LLMSettings) -> LLMSettings:
    """One attempt per call, a window of 6 attempts (3 needed), half failing opens it."""
    return replace(llm_settings, max_attempts=1, breaker_window=6, breaker_failure_rate=0.5,
                   breaker_probes=1, cooldown_s=60.0)


@pytest.mark.parametrize("failure", [
    Reply(status=500),
    Reply(status=429, headers={"Retry-After": "30"}),
    Reply(delay_s=0.8),  # past the 0.5 s attempt timeout
    Reply(body=b"<html>proxy error</html>"),
    Reply(body=b'{"choices": []}'),
], ids=["500", "429", "timeout", "garbage", "no-choices"])
def test_failures_and_timeouts_open_the_breaker(llm_server: ScriptedLLMServer, strict: LLMSettings,
                                                failure: Reply) -> None:
    client = OpenAIChatClient(strict)
    try:
        llm_server.script(Reply(content="1"), failure, Reply(content="1"), failure, failure)
        outcomes = []
        for _ in range(5):
            try:
                ask(client)
                outcomes.append("ok")
            except LLMUnavailableError as exc:
                outcomes.append(exc.code)
        assert outcomes[0] == "ok" and outcomes[2] == "ok"
        assert client.breaker.state == OPEN  # 3 of 5 failed
        sent = len(llm_server.chat_requests())
        with pytest.raises(LLMCircuitOpenError):
            ask(client)
        assert len(llm_server.chat_requests()) == sent  # refused without a call
    finally:
        client.close()


def test_refusals_by_the_endpoint_do_not_count(llm_server: ScriptedLLMServer, strict: LLMSettings) -> None:
    client = OpenAIChatClient(strict)
    try:
        llm_server.script(*[Reply(status=400)] * 6)
        for _ in range(6):
            with pytest.raises(LLMUnavailableError):
                ask(client)
        assert client.breaker.state == CLOSED
    finally:
        client.close()


def test_open_breaker_half_opens_and_a_probe_closes_it(llm_server: ScriptedLLMServer,
                                                       strict: LLMSettings) -> None:
    client = OpenAIChatClient(strict)
    clock = FakeClock()
    client.breaker = CircuitBreaker(6, 0.5, 60.0, 1, clock=clock)
    try:
        llm_server.script(*[Reply(status=500)] * 3, Reply(content="3"))
        for _ in range(3):
            with pytest.raises(LLMUnavailableError):
                ask(client)
        assert client.breaker.state == OPEN
        clock.now += 61
        assert ask(client).text == "3"  # the probe reaches the endpoint
        assert client.breaker.state == CLOSED
        assert len(llm_server.chat_requests()) == 4
    finally:
        client.close()


def test_retries_stop_when_the_breaker_opens(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    settings = replace(llm_settings, max_attempts=10, breaker_window=4, breaker_failure_rate=0.5)
    client = OpenAIChatClient(settings)
    try:
        llm_server.script(*[Reply(status=500)] * 10)
        with pytest.raises(LLMCircuitOpenError):
            ask(client)
        assert len(llm_server.chat_requests()) == 2  # opened after 2 of 2 (min calls 2)
    finally:
        client.close()


def test_direct_callers_beyond_the_bulkhead_hear_busy_at_once(llm_server: ScriptedLLMServer,
                                                              llm_settings: LLMSettings,
                                                              gate: threading.Event) -> None:
    client = OpenAIChatClient(replace(llm_settings, max_requests=2, request_timeout_s=30,
                                      deadline_s=30))
    llm_server.responder = held(gate)
    threads = [threading.Thread(target=ask, args=(client,)) for _ in range(2)]
    try:
        for thread in threads:
            thread.start()
        wait_until(lambda: len(llm_server.chat_requests()) == 2, "two calls in flight")
        with pytest.raises(LLMBusyError, match="busy, try again in a minute"):
            ask(client)
        assert len(llm_server.chat_requests()) == 2
        gate.set()
        for thread in threads:
            thread.join()
        assert ask(client).text  # the slots come back
    finally:
        gate.set()
        client.close()


# --- the rerank stage -------------------------------------------------------------------

@pytest.fixture
def prompt() -> Any:
    return load_rerank_prompt(default_prompts_dir() / "rerank.prompt")


def test_stage_deadline_returns_search_order_even_when_some_were_rated(
        llm_server: ScriptedLLMServer, llm_client: OpenAIChatClient, llm_settings: LLMSettings,
        prompt: Any, gate: threading.Event) -> None:
    answered = {"n": 0}

    def respond(body: dict[str, Any]) -> Reply:
        answered["n"] += 1
        if answered["n"] > 2:
            gate.wait(30)
        return Reply(content="4", logprobs={"4": 0.0})

    llm_server.responder = respond
    settings = replace(llm_settings, request_timeout_s=30, deadline_s=30)
    reranker = LLMReranker(llm_client, prompt, settings, budget_s=0.5)
    try:
        order = ["gov-ny", "term", "cap-fees", "cap-fixed", "indemnity", "confidential"]
        outcome = reranker.rerank_detailed(QUERY, hits(*order))
    finally:
        gate.set()
        reranker.close()
    assert outcome.status == "unavailable" and "too slow" in outcome.reason
    assert [h.clause.clause_id for h, _ in outcome.ranked] == order
    assert all(r.score is None for _, r in outcome.ranked)


def test_open_breaker_skips_the_llm(llm_server: ScriptedLLMServer, llm_client: OpenAIChatClient,
                                    llm_settings: LLMSettings, prompt: Any) -> None:
    llm_client.breaker.force_open("HTTP 500 x10", 60)
    reranker = LLMReranker(llm_client, prompt, llm_settings, budget_s=5.0)
    try:
        outcome = reranker.rerank_detailed(QUERY, hits("gov-ny", "cap-fees"))
    finally:
        reranker.close()
    assert outcome.status == "unavailable" and "paused" in outcome.reason
    assert llm_server.chat_requests() == []


# --- through a real cheroot server -----------------------------------------------------

def _post(port: int, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    status, payload, _ = _exchange(port, path, body)
    return status, payload


def _exchange(port: int, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("POST", f"/api/v1/{path}", json.dumps(body),
                           {"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read()), dict(answer.getheaders())
    finally:
        connection.close()


@pytest.fixture
def served(make_app: Any, llm_settings: LLMSettings) -> Iterator[Any]:
    """serve(**settings) -> port of a cheroot server with 4 threads and 2 LLM request slots."""
    servers: list[Any] = []

    def serve(**overrides: Any) -> int:
        llm = replace(llm_settings, max_requests=2, request_timeout_s=30, deadline_s=30)
        app = make_app(llm=llm, **{"rerank__budget_s": 30.0, **overrides})
        server = make_server(app, "127.0.0.1", 0, threads=4)
        server.prepare()
        threading.Thread(target=server.serve, daemon=True).start()
        servers.append(server)
        return server.bind_addr[1]

    yield serve
    for server in servers:
        server.stop()


def test_searches_answer_while_llm_requests_hang(served: Any, llm_server: ScriptedLLMServer,
                                                 gate: threading.Event) -> None:
    """Six rerank searches against a hung LLM and four server threads: a plain search still
    gets a thread, because only two requests may wait on the LLM and the rest fall back."""
    llm_server.responder = held(gate)
    port = served()
    answers: list[tuple[int, dict[str, Any]]] = []

    def rerank_search() -> None:
        answers.append(_post(port, "precedents", {"text": QUERY, "rerank": True}))

    threads = [threading.Thread(target=rerank_search) for _ in range(6)]
    for thread in threads:
        thread.start()
    wait_until(lambda: len(answers) == 4, "four rerank searches answered in search order")
    assert all(status == 200 and body["rerank"]["status"] == "unavailable"
               and "busy" in body["rerank"]["reason"] for status, body in answers)
    status, body = _post(port, "precedents", {"text": QUERY, "rerank": False})
    assert status == 200 and body["results"] and not gate.is_set()  # the LLM still hangs
    gate.set()
    for thread in threads:
        thread.join()
    assert sorted(b["rerank"]["status"] for _, b in answers) == ["applied"] * 2 + ["unavailable"] * 4


def _health(port: int) -> dict[str, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/api/v1/health")
        return json.loads(connection.getresponse().read())
    finally:
        connection.close()


def test_a_slow_model_costs_a_search_its_budget_and_health_says_degraded(
        served: Any, llm_server: ScriptedLLMServer, gate: threading.Event) -> None:
    """A model that never answers in time (request timeout 30 s): the search returns at the
    rerank budget in search order, the timeout counts against the endpoint, and /health says
    rerank is degraded (it said available after 8 of 8 timeouts)."""
    llm_server.responder = held(gate)
    port = served(rerank__budget_s=2.2)
    assert _health(port)["capabilities"]["rerank"]["status"] == "ok"
    status, body = _post(port, "precedents", {"text": QUERY, "rerank": True})
    assert status == 200 and body["results"]
    assert body["rerank"]["status"] == "unavailable" and "too slow" in body["rerank"]["reason"]
    wait_until(lambda: _health(port)["llm"]["breaker"]["recent_failures"] >= 1,
               "the timed-out call counted against the endpoint")
    rerank = _health(port)["capabilities"]["rerank"]
    assert rerank["status"] == "degraded" and rerank["default"] is False and rerank["reason"]


def test_redraft_answers_503_llm_busy_at_once(served: Any, llm_server: ScriptedLLMServer,
                                              gate: threading.Event) -> None:
    llm_server.responder = held(gate)
    port = served()
    threads = [threading.Thread(target=_post, args=(port, "precedents", {"text": QUERY, "rerank": True}))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    wait_until(lambda: len(llm_server.chat_requests()) >= 2, "two rerank searches waiting on the LLM")
    status, body, headers = _exchange(port, "redraft", {"text": CLAUSES["cap-fixed"],
                                                       "clause_ids": ["cap-fees"]})
    assert status == 503 and body["error"] == {
        "code": "llm_busy", "message": "The drafting assistant is busy, try again in a minute.",
        "sentences": ["The drafting assistant is busy, try again in a minute."]}
    assert headers["Retry-After"] == "60"
    assert not gate.is_set()
    gate.set()
    for thread in threads:
        thread.join()


# --- hostile bodies over a real socket ---------------------------------------------------

def _raw_exchange(port: int, data: bytes, half_close: bool = False) -> bytes:
    """Send bytes as they are; read until the server closes (it must: the body was bad)."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(data)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def _head(path: str, length: int | str) -> bytes:
    return (f"POST /api/v1/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n").encode()


def _json_answer(answer: bytes) -> tuple[int, dict[str, Any], str]:
    head, _, rest = answer.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length")))
    return status, json.loads(rest[:length]), head.decode("latin-1").lower()


@pytest.mark.parametrize("declared, half_close, message", [
    (200, True, "shorter than its Content-Length"),   # the client stops and closes its side
    (200, False, "shorter than its Content-Length"),  # the client stops and waits
    (5, False, "not valid JSON"),                     # more body than announced
    ("-5", False, "not a valid length"),
])
def test_a_lying_content_length_is_a_400_and_closes(make_app: Any, declared: int | str,
                                                    half_close: bool, message: str) -> None:
    server = make_server(make_app(llm=False), "127.0.0.1", 0, threads=2, socket_timeout_s=1.0)
    server.prepare()
    threading.Thread(target=server.serve, daemon=True).start()
    try:
        body = json.dumps({"text": QUERY}).encode()
        answer = _raw_exchange(server.bind_addr[1], _head("precedents", declared) + body, half_close)
    finally:
        server.stop()
    status, payload, head = _json_answer(answer)
    assert status == 400 and message in payload["error"]["message"]
    assert "connection: close" in head
    assert answer.count(b"HTTP/1.1 ") == 1  # the surplus bytes were not read as a request


# --- fuzzing the request schema -----------------------------------------------------------

_scalars = (st.none() | st.booleans() | st.integers(min_value=-10**30, max_value=10**30)
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=40))
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=12), inner, max_size=4), max_leaves=16)
_ids = st.sampled_from(sorted(CLAUSES)) | st.text(max_size=12)
_bodies = st.fixed_dictionaries({}, optional={
    "text": st.text(max_size=300) | st.sampled_from([QUERY, CLAUSES["cap-fixed"]]) | _json,
    "top_k": st.integers(min_value=-3, max_value=80) | _json,
    "rerank": st.booleans() | _json,
    "filters": st.dictionaries(st.sampled_from(["clause_id", "document", "doc_id", "x"]),
                               _ids | st.lists(_ids, max_size=3), max_size=2) | _json,
    "examples": st.lists(st.fixed_dictionaries({"clause_id": _ids})
                         | st.fixed_dictionaries({"text": st.text(max_size=80)}) | _json,
                         max_size=3) | _json,
    "clause_ids": st.lists(_ids, max_size=3) | _json,
    "instructions": st.text(max_size=60) | _json,
    "min_score": st.floats(min_value=-1, max_value=2) | _json,
    "major_threshold": st.floats(min_value=-1, max_value=2) | _json,
})
ROUTES = ("precedents", "redraft", "variations")


@pytest.fixture
def fuzz_client(make_app: Any) -> Any:
    # No LLM: redraft answers 503, search stays local. Hundreds of calls from one user: no
    # per-user rate limit (tests/security covers the 429).
    return make_app(llm=False, server__rate_limit="off", server__redraft_rate_limit="off").test_client()


def _never_500(response: Any) -> None:
    assert response.status_code in (200, 400, 404, 413, 415, 503), response.get_json()
    if response.status_code != 200:
        error = response.get_json()["error"]
        assert set(error) == {"code", "message", "sentences"} and error["message"]


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=_bodies, route=st.sampled_from(ROUTES))
def test_fuzzed_bodies_never_500(fuzz_client: Any, body: dict[str, Any], route: str) -> None:
    _never_500(fuzz_client.post(f"/api/v1/{route}", json=body))


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.binary(max_size=300) | _json.map(lambda v: json.dumps(v).encode()),
       route=st.sampled_from(ROUTES))
def test_fuzzed_bytes_never_500(fuzz_client: Any, data: bytes, route: str) -> None:
    _never_500(fuzz_client.post(f"/api/v1/{route}", data=data, content_type="application/json"))
