"""End to end: an index built from real .docx agreements, both endpoints, a scripted LLM."""

from __future__ import annotations

import shutil
from urllib.parse import quote as quote_url
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from addin_server.web.app import create_app
from addin_server.llm.scripted import Reply, ScriptedLLMServer
from addin_server.service import build_service
from index_builder.settings import Settings as AppSettings
from index_builder.index.build import build_index

AGREEMENTS = ("common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx",
              "common-paper-cc-by-4.0/common-paper-mutual-nda.docx",
              "bonterms-cc0-1.0/bonterms-professional-services-agreement.docx")
SELECTED = ("The Supplier's liability under this Agreement is unlimited, and the Supplier is liable "
            "for all lost profits and indirect damages.")


def quote_id(clause_id: str) -> str:
    return quote_url(clause_id, safe="")


@pytest.fixture
def docx_app(contracts_dir: Path, tmp_path: Path, app_settings: AppSettings, embedder: Any) -> Any:
    folder = tmp_path / "forms"
    for name in AGREEMENTS:
        source = contracts_dir / name
        if not source.is_file():
            pytest.skip(f"{source} is not in the shared data")
        (folder / Path(name).parent).mkdir(parents=True, exist_ok=True)
        shutil.copy(source, folder / name)
    core = replace(app_settings, index_dir=tmp_path / "index")
    report = build_index(core, [folder], embedder, progress=False)
    assert report.documents == 3 and report.clauses > 50 and not report.skipped
    settings = core
    service = build_service(settings, embedder=embedder)
    yield create_app(settings, service).test_client()
    service.close()


def test_precedents_and_redraft_over_real_agreements(docx_app: Any, llm_server: ScriptedLLMServer) -> None:
    found = docx_app.post("/api/v1/precedents", json={"text": SELECTED, "top_k": 5})
    assert found.status_code == 200
    body = found.get_json()
    assert body["rerank"]["status"] == "applied" and len(body["results"]) == 5
    assert any(r["clause_id"].endswith(("cloud-service-agreement#8.1", "cloud-service-agreement#8.2"))
               for r in body["results"])
    cap = next(r for r in body["results"] if r["source"]["section"].startswith("8."))
    assert cap["source"]["document"] == "Cloud Service Agreement"
    assert cap["source"]["file"] == "common-paper-cloud-service-agreement.docx"
    assert cap["source"]["heading"] in ("Liability Caps", "Damages Waiver", "Applicability", "Exceptions")
    assert cap["rerank_score"] is not None

    # Ids hold "/" and "#": the pane sends them through encodeURIComponent.
    context = docx_app.get(f"/api/v1/clauses/{quote_id(cap['clause_id'])}").get_json()
    assert context["clause"]["text"] == cap["text"]
    assert context["context"]["before"] or context["context"]["after"]
    assert context["context_available"] is True
    neighbours = context["context"]["before"] + context["context"]["after"]
    assert {c["source"]["doc_id"] for c in neighbours} == {cap["source"]["doc_id"]}

    chosen = [r["clause_id"] for r in body["results"][:2]]
    quote = " ".join(body["results"][0]["text"].split()[3:10])
    llm_server.script(Reply(content=f'Each party\'s liability is limited as follows: "{quote}" [1]. '
                                    f"Neither party is liable for lost profits [2]. See also [3]."))
    drafted = docx_app.post("/api/v1/redraft", json={"text": SELECTED, "clause_ids": chosen,
                                                     "instructions": "make it mutual"})
    assert drafted.status_code == 200
    result = drafted.get_json()
    assert [c["clause_id"] for c in result["citations"]] == chosen
    assert result["removed_markers"] == ["[3]"] and "[3]" not in result["redraft"]
    assert len(result["comments"]) == 2
    for comment in result["comments"]:
        assert result["redraft"][comment["start"]:comment["end"]] == comment["sentence"]
        assert comment["text"].startswith(f"Precedent {comment['marker']}: ")
    assert quote in result["comments"][0]["text"]
    redraft_prompt = llm_server.chat_requests()[-1].messages[-1]["content"]
    assert "<selected_text>\n" + SELECTED in redraft_prompt
