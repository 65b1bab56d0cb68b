"""Fixtures for the server: a scripted OpenAI-compatible LLM on loopback, a small index,
settings with short timeouts, and an app factory. Nothing here needs a network or a model.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest

from addin_server.web.app import create_app
from addin_server.llm.client import OpenAIChatClient
from addin_server.llm.scripted import ScriptedLLMServer
from addin_server.service import PrecedentService, build_service
from index_builder.settings import LLMSettings, Settings, updated
from index_builder.index.build import build_index
from index_builder.settings import load_settings
from server_data import CLAUSES, relevance_responder


def core_settings(index_dir: Path) -> Settings:
    # No cross-encoder, even if one was trained into var/: these tests are about the server.
    return load_settings({}, {"index_dir": index_dir, "rerank.cross_encoder": ""})


@pytest.fixture
def llm_server() -> Any:
    with ScriptedLLMServer(relevance_responder) as server:
        yield server


@pytest.fixture
def llm_settings(llm_server: ScriptedLLMServer) -> LLMSettings:
    return LLMSettings(base_url=llm_server.url, api_key="test-key", rerank_model="rerank-model",
                       redraft_model="redraft-model", connect_timeout_s=0.5, request_timeout_s=0.5,
                       deadline_s=3.0, max_attempts=3, backoff_initial_s=0.01, backoff_max_s=0.05,
                       max_concurrency=4, cooldown_s=30.0)


@pytest.fixture
def llm_client(llm_settings: LLMSettings) -> Any:
    client = OpenAIChatClient(llm_settings)
    yield client
    client.close()


@pytest.fixture
def make_client(llm_settings: LLMSettings) -> Any:
    """make_client(**llm_overrides) -> a client closed after the test."""
    clients: list[OpenAIChatClient] = []

    def make(**overrides: Any) -> OpenAIChatClient:
        clients.append(OpenAIChatClient(replace(llm_settings, **overrides)))
        return clients[-1]

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def corpus_index(tmp_path: Path, embedder: Any) -> Path:
    """A small BEIR-style index of the CLAUSES above (the root conftest's hashing embedder)."""
    root = tmp_path / "server-corpus"
    corpus = root / "precedents"
    corpus.mkdir(parents=True)
    lines = [json.dumps({"_id": cid, "text": text, "title": "Model Agreement"})
             for cid, text in CLAUSES.items()]
    (corpus / "corpus.jsonl").write_text("\n".join(lines) + "\n")
    settings = core_settings(root / "index")
    build_index(settings, [corpus], embedder, progress=False)
    return root / "index"


@pytest.fixture
def app_settings(corpus_index: Path, llm_settings: LLMSettings) -> Settings:
    tuned = updated(core_settings(corpus_index), {"rerank.default": "on", "rerank.depth": 8,
                                                  "rerank.budget_s": 5.0,
                                                  "server.max_text_chars": 2_000})
    return replace(tuned, llm=llm_settings)


MakeApp = Callable[..., Any]


@pytest.fixture
def make_app(app_settings: Settings, embedder: Any) -> Any:
    """make_app(llm=True|False|LLMSettings, **overrides) -> app over the small index.

    Overrides are dotted settings with "__" for ".": ``rerank__default="off"``.
    """
    services: list[PrecedentService] = []

    def make(llm: bool | LLMSettings = True, **server: Any) -> Any:
        settings = updated(app_settings, {k.replace("__", "."): v for k, v in server.items()})
        if llm is not True:
            endpoint = llm if isinstance(llm, LLMSettings) else LLMSettings()
            settings = replace(settings, llm=endpoint)
        service = build_service(settings, embedder=embedder)
        services.append(service)
        app = create_app(settings, service)
        app.config["TESTING"] = True
        return app

    yield make
    for service in services:
        service.close()


@pytest.fixture
def client(make_app: MakeApp) -> Any:
    return make_app().test_client()
