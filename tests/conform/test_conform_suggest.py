"""The optional AI suggestion: shown, never applied; only the document's own terms; no model, no harm."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from addin_server.llm.scripted import Reply, ScriptedLLMServer
from addin_server.service import build_service
from addin_server.web.app import create_app
from index_builder.settings import Settings, updated

SUMMARY = {"definitions": [{"term": "Client Data", "text": "“Client Data” means data and materials the Client submits to the Service.", "section": "1.2"},
                           {"term": "Charges", "text": "“Charges” means the sums the Client pays.", "section": "1.3"}],
           "parties": ["Supplier", "Client"], "sections": []}


def app_with(conform_index: Path, embedder: Any, tmp_path: Path, answer: str) -> tuple[Any, Any, ScriptedLLMServer]:
    server = ScriptedLLMServer(lambda body: Reply(content=answer))
    server.__enter__()
    settings = updated(Settings(index_dir=conform_index), {
        "rerank.default": "off", "rerank.cross_encoder": "", "server.rate_limit": "off",
        "audit.file": tmp_path / "audit.jsonl", "llm.base_url": server.url, "llm.api_key": "k",
        "llm.redraft_model": "redraft-model", "llm.rerank_model": "rerank-model", "llm.request_timeout_s": 2.0,
        "llm.deadline_s": 4.0})
    service = build_service(settings, embedder=embedder)
    app = create_app(settings, service)
    app.config["TESTING"] = True
    return app, service, server


@pytest.fixture
def clause_id(conform_app: Any) -> str:
    from test_conform_api import _clause

    return _clause(conform_app, "Provider may copy, display, modify, and use Customer Content").clause_id


@pytest.mark.parametrize("answer,expected", [("Client Data", "Client Data"), ("Customer Stuff", None), ("none", None)])
def test_a_suggestion_is_only_ever_shown(conform_index: Path, embedder: Any, tmp_path: Path, clause_id: str,
                                         answer: str, expected: str | None) -> None:
    app, service, server = app_with(conform_index, embedder, tmp_path, answer)
    try:
        body = app.test_client().post("/api/v1/conform", json={"clause_ids": [clause_id], "document": SUMMARY, "suggest": True}).get_json()
    finally:
        service.close()
        server.__exit__(None, None, None)
    content = next(m for m in body["mappings"] if m["source"] == "Customer Content")
    if expected:
        assert (content["target"], content["method"], content["apply"]) == (expected, "llm", False)
    else:
        assert content["method"] == "none"  # an answer outside the document's terms is dropped
    assert "Customer Content" in body["text"]  # never applied by the server
    assert server.chat_requests() and all(r.body["model"] == "redraft-model" for r in server.chat_requests())


def test_without_a_model_suggest_says_so(conform_app: Any, clause_id: str) -> None:
    body = conform_app.test_client().post("/api/v1/conform", json={"clause_ids": [clause_id], "document": SUMMARY, "suggest": True}).get_json()
    assert any("No drafting assistant" in n for n in body["notes"])
