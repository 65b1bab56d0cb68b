"""Redraft is told the document's terms: the one hook (conform/prompting.py) and the prompt it reaches."""

from __future__ import annotations

from typing import Any

from addin_server.conform.model import document_from_summary
from addin_server.conform.prompting import with_document_terms

SUMMARY = {"definitions": [{"term": "Supplier"}, {"term": "Client Data"}], "parties": ["Supplier", "Client"],
           "sections": [{"number": "12.3", "heading": "Exceptions"}], "reference_word": "Clause"}


def test_the_instruction_names_parties_terms_and_the_reference_word() -> None:
    out = with_document_terms("Make it mutual.", document_from_summary(SUMMARY, 100, 100), 1000)
    assert out.startswith("Make it mutual.\nWrite it in the lawyer's document's own terms")
    assert "“Supplier” and “Client”" in out and "“Client Data”" in out and "“Clause”" in out


def test_no_summary_or_no_room_leaves_the_instruction_alone() -> None:
    assert with_document_terms("Keep it short.", None, 1000) == "Keep it short."
    many = {"definitions": [{"term": f"Term {i}"} for i in range(2000)], "parties": ["A", "B"]}
    assert len(with_document_terms("x", document_from_summary(many, 5000, 100), 300)) <= 300


def test_the_redraft_prompt_carries_the_documents_terms(conform_app: Any, monkeypatch: Any) -> None:
    seen = {}
    service = conform_app.extensions["precedent"]

    def fake_redraft(text, clause_ids, instructions, access=(), **kwargs):
        seen.update(kwargs, instructions=instructions)
        raise RuntimeError("stop here")

    monkeypatch.setattr(service, "redraft", fake_redraft)
    conform_app.config["PROPAGATE_EXCEPTIONS"] = False
    conform_app.test_client().post("/api/v1/redraft", json={"text": "Provider shall indemnify Customer.", "document": SUMMARY})
    # The note guides the model; the lawyer's own instruction (none here) is what operations
    # and checks read (issue 32), so it is passed apart.
    assert "“Supplier” and “Client”" in seen["model_note"] and seen["instructions"] == ""
