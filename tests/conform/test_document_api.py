"""POST /api/v1/document (the open document read on the server, kept by caller and id),
/document/check, and /conform and /redraft naming the document by its id."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from addin_server.conform.documents import DocumentCache, ReadDocument, profile_json, read
from index_builder.reading.document import Document
from index_builder.reading.paragraphs import from_pane

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "fixtures" / "documents" / "contractor-agreement.json"
PARAGRAPHS: list[dict[str, Any]] = json.loads(FIXTURE.read_text())


def _clause(app: Any, needle: str) -> Any:
    backend = app.extensions["precedent"].pipeline.backend
    ids = [cid for cid, _ in backend.dense(np.ones((1, backend.dimension), dtype=np.float32), backend.stats()["clauses"])]
    return next(c for c in backend.get(ids) if c is not None and needle in c.text)


def test_the_document_is_read_once_then_named_by_its_id(conform_app: Any) -> None:
    client = conform_app.test_client()
    sent = client.post("/api/v1/document", json={"paragraphs": PARAGRAPHS})
    assert sent.status_code == 200, sent.get_data(as_text=True)
    profile = sent.get_json()
    assert [p["name"] for p in profile["parties"]][:2] == ["Company", "Contractor"]
    assert {"term": "Work Product", "section": "10.11"}.items() <= next(d for d in profile["definitions"] if d["term"] == "Work Product").items()
    assert profile["paragraphs"] == len(PARAGRAPHS) and profile["id"].startswith("doc-")
    assert "text" not in json.dumps(profile["definitions"])  # what was read, not the document back
    assert {"Company", "Contractor", "Work Product", "SOW"} <= set(profile["terms"])  # as written: Insert keeps their capitals
    clause = _clause(conform_app, "Provider may copy, display, modify, and use Customer Content")
    body = client.post("/api/v1/conform", json={"clause_ids": [clause.clause_id], "document": {"id": profile["id"]}}).get_json()
    by = {m["source"]: m for m in body["mappings"]}
    assert (by["Provider"]["target"], by["Provider"]["apply"]) == ("Contractor", True)
    assert (by["Customer"]["target"], by["Customer"]["apply"]) == ("Company", True)
    assert body["document_sent"]["parties"] >= 2
    # The same paragraphs are the same document: the same id.
    assert client.post("/api/v1/document", json={"paragraphs": PARAGRAPHS}).get_json()["id"] == profile["id"]


def test_an_unknown_or_expired_id_says_so_and_a_redraft_goes_on_without_it(conform_app: Any) -> None:
    client = conform_app.test_client()
    clause = _clause(conform_app, "Provider may copy, display, modify, and use Customer Content")
    gone = client.post("/api/v1/conform", json={"clause_ids": [clause.clause_id], "document": {"id": "doc-0000"}})
    assert gone.status_code == 404 and gone.get_json()["error"]["code"] == "document_not_read"
    assert "POST /api/v1/document" in gone.get_json()["error"]["message"]


def test_the_cache_is_each_callers_own_and_forgets() -> None:
    cache = DocumentCache(capacity=2, ttl_s=3600)
    one = read(from_pane(PARAGRAPHS[:40]))
    cache.put("entra:alice", one)
    assert cache.get("entra:alice", one.id) is one
    assert cache.get("entra:bob", one.id) is None  # knowing the id is not enough
    for n in range(2):
        cache.put("entra:alice", ReadDocument(f"doc-{n}", Document(), ()))
    assert cache.get("entra:alice", one.id) is None  # least recently used, dropped
    short = DocumentCache(capacity=2, ttl_s=0)
    short.put("x", one)
    assert short.get("x", one.id) is None


def test_bad_documents_are_clear_errors(conform_app: Any, caplog: Any) -> None:
    client = conform_app.test_client()
    assert client.post("/api/v1/document", json={"paragraphs": []}).status_code == 400
    wrong = client.post("/api/v1/document", json={"paragraphs": [{"index": "1", "text": "x"}]})
    assert wrong.status_code == 400 and "whole number" in wrong.get_json()["error"]["message"]
    limit = conform_app.config["PRECEDENT_SETTINGS"].conform.document_max_chars
    huge = [{"index": i, "text": "x" * 50_000} for i in range(limit // 50_000 + 1)]
    too_long = client.post("/api/v1/document", json={"paragraphs": huge})
    assert too_long.status_code == 413
    message = too_long.get_json()["error"]["message"]
    # The lawyer reads the limit and what to do; the setting is named to IT, in the log only.
    assert f"up to {limit:,} characters (" in message and "ask IT to raise the limit" in message
    assert "PRECEDENT_" not in message and "PRECEDENT_CONFORM_DOCUMENT_MAX_CHARS" in caplog.text
    # A document above the usual request limit for a clause, below the document limit, is read.
    big = [{"index": i, "text": p["text"]} for i, p in enumerate(PARAGRAPHS * 10)]
    assert len(json.dumps({"paragraphs": big})) > conform_app.config["MAX_CONTENT_LENGTH"]
    assert client.post("/api/v1/document", json={"paragraphs": big}).status_code == 200


def test_check_document_on_the_server(conform_app: Any) -> None:
    client = conform_app.test_client()
    planted = [dict(p, text=p["text"].replace("Contractor may not assign", "Except under Section 14.2, Contractor may not assign"))
               if p["listString"] == "9.3" else p for p in PARAGRAPHS]
    doc_id = client.post("/api/v1/document", json={"paragraphs": planted}).get_json()["id"]
    found = client.post("/api/v1/document/check", json={"document": {"id": doc_id}}).get_json()["findings"]
    assert [(f["kind"], f["term"]) for f in found if f["kind"] == "missing-section"] == [("missing-section", "14.2")]
    assert client.post("/api/v1/document/check", json={}).status_code == 400


def test_a_redraft_names_the_document_and_the_server_supplies_its_terms(conform_app: Any, monkeypatch: Any) -> None:
    seen: dict[str, Any] = {}
    service = conform_app.extensions["precedent"]

    def fake_redraft(text, clause_ids, instructions, access=(), **kwargs):  # type: ignore[no-untyped-def]
        seen.update(kwargs)
        raise RuntimeError("stop here")

    monkeypatch.setattr(service, "redraft", fake_redraft)
    conform_app.config["PROPAGATE_EXCEPTIONS"] = False
    client = conform_app.test_client()
    doc_id = client.post("/api/v1/document", json={"paragraphs": PARAGRAPHS}).get_json()["id"]
    client.post("/api/v1/redraft", json={"text": "Provider shall indemnify Customer.", "document": {"id": doc_id}})
    assert "\u201cCompany\u201d and \u201cContractor\u201d" in seen["model_note"]
    assert "Work Product" in seen["document_terms"]
    seen.clear()
    client.post("/api/v1/redraft", json={"text": "Provider shall indemnify Customer.", "document": {"id": "doc-gone"}})
    assert seen["model_note"] == "" and seen["document_terms"] is None  # forgotten: the redraft goes on without it


def test_the_pane_tests_canned_reading_is_the_readers_own() -> None:
    """tests/js/fixtures/document-reading.json (the fake server's POST /document answer in the
    pane tests) is what the server's reader answers for those paragraphs: it cannot drift."""
    canned = json.loads((FIXTURE.parent.parent / "document-reading.json").read_text())
    assert profile_json(read(from_pane(canned["paragraphs"]))) == canned["answer"]
    assert set(canned["answer"]["terms"]) == {"Supplier", "Customer", "Agreement"}
    # The heading in capitals (its paragraph's index): following the cursor skips it before any request.
    assert canned["answer"]["headings"] == [0]
    # Each term's forms, as the core reads its uses: what the pane restores on Insert.
    assert canned["answer"]["forms"]["Supplier"] == ["Supplier's", "Supplier\u2019s", "Suppliers'", "Suppliers\u2019",
                                                     "Suppliers", "Supplier"]
