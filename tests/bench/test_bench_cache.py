"""LLM answers are cached by prompt + input hash: a re-run of an unchanged prompt is free."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from addin_server.llm.client import Completion
from addin_server.llm.scripted import ScriptedLLMServer
from index_builder.errors import LLMUnavailableError

from precedent_bench.cache import AnswerStore, CachedChatClient

MESSAGES = [{"role": "system", "content": "rate"}, {"role": "user", "content": "grade 3"}]


class CountingClient:
    def __init__(self, fail: bool = False) -> None:
        self.calls = 0
        self.fail = fail

    def complete(self, messages: Any, **kwargs: Any) -> Completion:
        self.calls += 1
        if self.fail:
            raise LLMUnavailableError("down")
        return Completion(text=f"answer {self.calls}", top_logprobs={"3": -0.1}, model="m")

    def ping(self) -> dict[str, Any]:
        return {"reachable": True, "detail": "ok"}


def test_a_repeated_call_is_answered_from_disk_even_in_a_new_process(tmp_path: Path) -> None:
    inner = CountingClient()
    store = AnswerStore(tmp_path / "c.sqlite")
    first = CachedChatClient(lambda: inner, store).complete(MESSAGES, model="m", max_tokens=1)
    store.close()
    started = []
    again = CachedChatClient(lambda: started.append(1) or inner, AnswerStore(tmp_path / "c.sqlite"))
    second = again.complete(MESSAGES, model="m", max_tokens=1)
    assert second == first and inner.calls == 1
    assert not started and not again.started  # a fully cached run never starts the model
    assert again.counts() == {"calls": 0, "cached": 1}


@pytest.mark.parametrize("change", [
    {"messages": [{"role": "system", "content": "rate!"}, MESSAGES[1]]},  # the prompt edited
    {"messages": [MESSAGES[0], {"role": "user", "content": "grade 2"}]},  # another input
    {"model": "other"}, {"max_tokens": 2}, {"top_logprobs": 5}, {"temperature": 0.5},
])
def test_any_change_to_prompt_input_or_parameters_is_a_new_call(tmp_path: Path, change: dict) -> None:
    inner = CountingClient()
    client = CachedChatClient(lambda: inner, AnswerStore(tmp_path / "c.sqlite"))
    call = {"messages": MESSAGES, "model": "m", "max_tokens": 1}
    client.complete(call["messages"], model=call["model"], max_tokens=call["max_tokens"])
    call |= change
    client.complete(call.pop("messages"), **call)
    assert inner.calls == 2


def test_the_same_call_to_another_endpoint_is_not_shared(tmp_path: Path) -> None:
    inner = CountingClient()
    store = AnswerStore(tmp_path / "c.sqlite")
    CachedChatClient(lambda: inner, store, "http://a/v1").complete(MESSAGES, model="m", max_tokens=1)
    CachedChatClient(lambda: inner, store, "http://b/v1").complete(MESSAGES, model="m", max_tokens=1)
    assert inner.calls == 2


def test_failures_are_not_cached(tmp_path: Path) -> None:
    store = AnswerStore(tmp_path / "c.sqlite")
    with pytest.raises(LLMUnavailableError):
        CachedChatClient(lambda: CountingClient(fail=True), store).complete(MESSAGES, model="m",
                                                                            max_tokens=1)
    assert len(store) == 0


def test_through_the_real_sdk_the_second_run_sends_no_request(bench_model: Any,
                                                             scripted: ScriptedLLMServer) -> None:
    for _ in range(2):
        answer = bench_model.client.complete(MESSAGES, model="m", max_tokens=1)
    assert answer.text == "3" and len(scripted.chat_requests()) == 1
