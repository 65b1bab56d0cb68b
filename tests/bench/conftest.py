"""Fixtures for precedent-bench: a scripted model that follows the prompt it is given."""

from __future__ import annotations

import re
from typing import Any

import pytest

from addin_server.llm.scripted import Reply, ScriptedLLMServer
from index_builder.settings import LLMSettings

from precedent_bench.cache import AnswerStore, CachedChatClient
from precedent_bench.models import BenchModel
from addin_server.llm.client import OpenAIChatClient

# The grade of each test clause is written in it ("grade 3"); the scripted model reads it
# and answers it on the prompt's scale, so a reversed-scale prompt reverses the ratings.
_GRADE = re.compile(r"grade (\d)")


def rating_responder(body: dict[str, Any]) -> Reply:
    messages = body.get("messages", [])
    system = messages[0]["content"] if messages else ""
    found = _GRADE.search(messages[-1]["content"]) if messages else None
    grade = int(found.group(1)) if found else 0
    return Reply(content=str(4 - grade if "0 = highly relevant" in system else grade))


@pytest.fixture
def scripted() -> Any:
    with ScriptedLLMServer(rating_responder) as server:
        yield server


@pytest.fixture
def bench_model(scripted: ScriptedLLMServer, tmp_path: Any) -> Any:
    llm = LLMSettings(base_url=scripted.url, api_key="k", rerank_model="m", redraft_model="m",
                      request_timeout_s=5.0, deadline_s=10.0, max_attempts=1, rerank_logprobs=False)
    store = AnswerStore(tmp_path / "cache.sqlite")
    client = CachedChatClient(lambda: OpenAIChatClient(llm), store, namespace=scripted.url)
    yield BenchModel(client, llm, "scripted")
    store.close()
    if client.started:
        client.inner.close()
