"""The chat client through the real openai SDK against the scripted loopback server."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import pytest

from index_builder.errors import LLMCircuitOpenError, LLMRequestError, LLMUnavailableError
from addin_server.llm.client import OpenAIChatClient
from index_builder.errors import LLMBadResponseError
from addin_server.llm.scripted import Reply, ScriptedLLMServer, rating_logprobs

MESSAGES = [{"role": "user", "content": "Rate this."}]


def ask(client: OpenAIChatClient, **kwargs: object):
    return client.complete(MESSAGES, model="m", max_tokens=1, **kwargs)  # type: ignore[arg-type]


def test_answer_with_top_logprobs(llm_server: ScriptedLLMServer, llm_client: OpenAIChatClient) -> None:
    llm_server.script(Reply(content="3", logprobs=rating_logprobs({"3": 0.7, "4": 0.2, "2": 0.1})))
    answer = ask(llm_client, top_logprobs=5)
    assert answer.text == "3"
    assert answer.top_logprobs is not None and set(answer.top_logprobs) == {"2", "3", "4"}
    body = llm_server.chat_requests()[0].body
    assert body["logprobs"] is True and body["top_logprobs"] == 5 and body["max_tokens"] == 1
    assert llm_server.chat_requests()[0].headers["authorization"] == "Bearer test-key"


@pytest.mark.parametrize("failure", [
    Reply(status=429, headers={"Retry-After": "0.05"}),
    Reply(status=500),
    Reply(status=503),
    Reply(delay_s=0.8),  # longer than the 0.5 s request timeout
])
def test_transient_failures_are_retried(llm_server: ScriptedLLMServer,
                                        llm_client: OpenAIChatClient, failure: Reply) -> None:
    llm_server.script(failure, Reply(content="4"))
    assert ask(llm_client).text == "4"
    assert len(llm_server.chat_requests()) == 2


def test_retry_after_is_honoured(llm_server: ScriptedLLMServer, make_client: Any) -> None:
    client = make_client(backoff_max_s=0.5)
    llm_server.script(Reply(status=429, headers={"Retry-After": "0.3"}), Reply(content="1"))
    started = time.perf_counter()
    ask(client)
    assert time.perf_counter() - started >= 0.3


def test_gives_up_after_max_attempts(llm_server: ScriptedLLMServer, llm_client: OpenAIChatClient) -> None:
    llm_server.script(*[Reply(status=500)] * 5)
    with pytest.raises(LLMUnavailableError, match="HTTP 500"):
        ask(llm_client)
    assert len(llm_server.chat_requests()) == 3


def test_deadline_bounds_all_retries(llm_server: ScriptedLLMServer, make_client: Any) -> None:
    client = make_client(deadline_s=0.8, max_attempts=10)
    llm_server.script(*[Reply(delay_s=0.7)] * 10)
    with pytest.raises(LLMUnavailableError, match="timed out"):
        ask(client)
    assert len(llm_server.chat_requests()) <= 2  # 10 attempts allowed, the deadline stopped them


def test_no_retry_without_time_for_a_useful_attempt(llm_server: ScriptedLLMServer,
                                                    make_client: Any) -> None:
    # A redraft's attempt timed out at 110 s of its call's 120 s: the 10 s left cannot finish
    # what 110 s did not, so the caller hears the timeout at once (scaled: 1.0 s of 1.2 s).
    client = make_client(deadline_s=1.2)
    llm_server.script(Reply(delay_s=1.5), Reply(content="A redraft."))
    with pytest.raises(LLMUnavailableError, match="timed out"):
        client.complete(MESSAGES, model="m", max_tokens=50, timeout_s=1.0)
    assert len(llm_server.chat_requests()) == 1


def test_a_quick_failure_is_still_retried_inside_a_long_call(llm_server: ScriptedLLMServer,
                                                             make_client: Any) -> None:
    client = make_client(deadline_s=1.2)
    llm_server.script(Reply(status=503), Reply(content="A redraft."))
    assert client.complete(MESSAGES, model="m", max_tokens=50, timeout_s=1.0).text == "A redraft."
    assert len(llm_server.chat_requests()) == 2


@pytest.mark.parametrize("status, message", [(400, "rejected"), (401, "API key"),
                                             (404, "no model 'm'")])
def test_client_errors_are_not_retried(llm_server: ScriptedLLMServer, llm_client: OpenAIChatClient,
                                       status: int, message: str) -> None:
    llm_server.script(Reply(status=status))
    with pytest.raises(LLMRequestError, match=message):
        ask(llm_client)
    assert len(llm_server.chat_requests()) == 1


@pytest.mark.parametrize("body", [b"garbage{", b'{"choices": []}', b'{"unexpected": 1}'])
def test_garbage_answers_raise_a_typed_error(llm_server: ScriptedLLMServer,
                                             llm_client: OpenAIChatClient, body: bytes) -> None:
    llm_server.script(Reply(body=body))
    with pytest.raises(LLMBadResponseError):
        ask(llm_client)


def test_endpoint_without_logprobs_support(llm_server: ScriptedLLMServer,
                                           llm_client: OpenAIChatClient) -> None:
    llm_server.script(Reply(status=400, body=b'{"error": {"message": "logprobs is not supported"}}'),
                      Reply(content="2"))
    assert ask(llm_client, top_logprobs=5).text == "2"
    assert "logprobs" not in llm_server.chat_requests()[1].body
    assert llm_client.logprobs_supported is False


def test_unreachable_endpoint_fails_fast_during_cooldown(make_client: Any) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = make_client(base_url=f"http://127.0.0.1:{port}/v1")
    with pytest.raises(LLMUnavailableError, match="connection failed"):
        ask(client)
    with pytest.raises(LLMCircuitOpenError, match="unreachable"):
        ask(client)  # refused by the open breaker, before any connection attempt
    assert client.breaker.state == "open" and client.unreachable
    assert client.ping()["reachable"] is False


def test_calls_in_flight_are_bounded(llm_server: ScriptedLLMServer, make_client: Any) -> None:
    llm_server.responder = lambda body: Reply(content="1", delay_s=0.1)
    client = make_client(max_concurrency=2, max_requests=6)  # the call bound, not the bulkhead
    threads = [threading.Thread(target=ask, args=(client,)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(llm_server.chat_requests()) == 6
    assert llm_server.max_in_flight == 2


def test_azure_by_configuration(llm_server: ScriptedLLMServer, make_client: Any) -> None:
    base = llm_server.url.removesuffix("/v1")
    client = make_client(provider="azure", base_url=base, api_version="2024-10-21")
    llm_server.script(Reply(content="4"))
    assert client.complete(MESSAGES, model="my-deployment", max_tokens=1).text == "4"
    request = llm_server.chat_requests()[0]
    assert request.path.startswith("/openai/deployments/my-deployment/chat/completions")
    assert "api-version=2024-10-21" in request.path
    assert request.headers["api-key"] == "test-key"


def test_ping(llm_client: OpenAIChatClient) -> None:
    assert llm_client.ping() == {"reachable": True, "detail": "ok"}


def test_a_long_generation_gets_its_own_timeout(llm_server: ScriptedLLMServer,
                                                llm_client: OpenAIChatClient) -> None:
    llm_server.script(Reply(content="A redraft.", delay_s=0.7))  # beyond the 0.5 s default
    assert llm_client.complete(MESSAGES, model="m", max_tokens=50, timeout_s=2.0).text == "A redraft."
    assert len(llm_server.chat_requests()) == 1
