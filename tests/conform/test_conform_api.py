"""POST /api/v1/conform over an index of real agreements: the precedent's own document supplies
its definitions; bad input is a 400 that says what to send; unknown ids are 404; audited."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from index_builder.reading.labels import clause_label

SUMMARY = {  # what document-profile.js summaryForServer sends for a services agreement
    "definitions": [{"term": "Supplier", "text": "“Supplier” means Acme Ltd, the party providing the Services.", "section": "1.1"},
                    {"term": "Client Content", "text": "“Client Content” means data, information or materials submitted by or on behalf of the Client or its Users to the Service.", "section": "1.2"}],
    "parties": ["Supplier", "Client"],
    "sections": [{"number": "14.2", "heading": "Confidentiality"}, {"number": "9.1", "heading": "Feedback"}],
    "reference_word": "Clause",
}


def _clause(app: Any, needle: str) -> Any:
    backend = app.extensions["precedent"].pipeline.backend
    ids = [cid for cid, _ in backend.dense(np.ones((1, backend.dimension), dtype=np.float32), backend.stats()["clauses"])]
    return next(c for c in backend.get(ids) if c is not None and needle in c.text)


def test_conform_a_real_precedent(conform_app: Any) -> None:
    clause = _clause(conform_app, "Provider may copy, display, modify, and use Customer Content")
    response = conform_app.test_client().post("/api/v1/conform", json={"clause_ids": [clause.clause_id], "document": SUMMARY})
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    by = {m["source"]: m for m in body["mappings"]}
    assert by["Provider"]["target"] == "Supplier" and by["Provider"]["apply"] is True
    assert "Supplier may copy" in body["text"]
    assert body["clause_id"] == clause.clause_id
    assert body["document_sent"] == {"definitions": 2, "parties": 2, "sections": 2}
    # The conformed text's label as the core reads it (the pane drops its number on Insert).
    assert body["reading"] == clause_label(body["text"], clause.heading).to_dict()


def test_terms_the_document_lacks_come_with_the_precedents_own_definition(conform_app: Any) -> None:
    clause = _clause(conform_app, "Provider may use all Feedback")  # Feedback is defined in section 8 of its document
    body = conform_app.test_client().post("/api/v1/conform", json={"clause_ids": [clause.clause_id], "document": SUMMARY}).get_json()
    missing = {m["term"]: m for m in body["missing_terms"]}
    assert missing["Feedback"]["definition"].startswith("“Feedback” means")


def test_bad_input(conform_app: Any) -> None:
    client = conform_app.test_client()
    assert client.post("/api/v1/conform", json={"document": SUMMARY}).status_code == 400
    wrong = client.post("/api/v1/conform", json={"clause_ids": ["x"], "document": {"sections": "1.1"}})
    assert wrong.status_code == 400 and "must be a list" in wrong.get_json()["error"]["message"]
    assert client.post("/api/v1/conform", json={"clause_ids": ["no-such-id"], "document": SUMMARY}).status_code == 404
    bad = client.post("/api/v1/conform", json={"clause_ids": ["x"], "overrides": ["Provider"]})
    assert bad.status_code == 400 and "overrides" in bad.get_json()["error"]["message"]


def test_no_definitions_in_the_document_says_so(conform_app: Any) -> None:
    clause = _clause(conform_app, "Provider may copy, display, modify, and use Customer Content")
    body = conform_app.test_client().post("/api/v1/conform", json={"clause_ids": [clause.clause_id], "document": {}}).get_json()
    assert body["text"] == clause.text  # nothing applied
    assert any("no definitions" in n for n in body["notes"])


def test_audited_with_ids_and_no_document_text(conform_app: Any, tmp_path: Path) -> None:
    clause = _clause(conform_app, "Provider may copy, display, modify, and use Customer Content")
    conform_app.test_client().post("/api/v1/conform", json={"clause_ids": [clause.clause_id], "document": SUMMARY})
    lines = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    entry = next(e for e in lines if e["route"].endswith("/conform"))
    assert clause.clause_id in entry["clause_ids"] and clause.clause_id in entry["requested_ids"]
    assert "Acme Ltd" not in json.dumps(lines)


def test_two_thousand_definitions_are_accepted(conform_app: Any) -> None:
    clause = _clause(conform_app, "Provider may copy, display, modify, and use Customer Content")
    many = {**SUMMARY, "definitions": SUMMARY["definitions"] + [{"term": f"Schedule Term {i}", "text": "", "section": ""} for i in range(1998)]}
    response = conform_app.test_client().post("/api/v1/conform", json={"clause_ids": [clause.clause_id], "document": many})
    assert response.status_code == 200
    assert response.get_json()["document_sent"]["definitions"] == 2000
    too_many = {**many, "definitions": many["definitions"] + [{"term": "One More"}]}
    refused = conform_app.test_client().post("/api/v1/conform", json={"clause_ids": [clause.clause_id], "document": too_many})
    assert refused.status_code == 400 and "at most 2000" in refused.get_json()["error"]["message"]


def test_a_redraft_is_conformed_with_its_precedents_own_document(conform_app: Any) -> None:
    """What the pane sends after Redraft: the draft's text, markers and all, and the precedents it cites."""
    clause = _clause(conform_app, "Provider may copy, display, modify, and use Customer Content")
    draft = "Provider may use Customer Content only to provide the Product [1]. Provider’s staff keep it safe."
    client = conform_app.test_client()
    body = client.post("/api/v1/conform", json={"clause_ids": [clause.clause_id], "document": SUMMARY, "text": draft}).get_json()
    # Markers, possessives and the rest kept; the document's "Client Content" is the precedent's
    # "Customer Content" with the party renamed, so it is mapped too.
    assert body["text"] == draft.replace("Provider", "Supplier").replace("Customer Content", "Client Content")
    assert [(s["original"], s["replacement"]) for s in body["substitutions"]] == [
        ("Provider", "Supplier"), ("Customer Content", "Client Content"), ("Provider’s", "Supplier’s")]
    assert all(draft[s["start"]:s["end"]] == s["original"] for s in body["substitutions"])
    kept = client.post("/api/v1/conform", json={"clause_ids": [clause.clause_id], "document": SUMMARY, "text": draft,
                                                "overrides": {"Provider": ""}}).get_json()
    assert kept["text"] == draft.replace("Customer Content", "Client Content")  # the override keeps only what it names
    for bad in (12, "", "x" * 100_001):
        response = client.post("/api/v1/conform", json={"clause_ids": [clause.clause_id], "document": SUMMARY, "text": bad})
        assert response.status_code in (400, 413), (bad if isinstance(bad, int) else len(bad), response.status_code)
