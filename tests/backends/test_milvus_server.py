"""The add-in server on the Milvus backend: same API, rebuilds go live without a restart."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from addin_server.service import build_service
from addin_server.web.app import create_app
from index_builder.index.build import build_index
from index_builder.settings import load_settings, updated
from tests.backends.conftest import milvus_settings

CLAUSES = {
    "old": ("Governing law is New York.", {"document_type": "NDA"}),
    "cap": ("Supplier's aggregate liability is capped at the fees paid.", {"document_type": "MSA"}),
}


def _corpus(folder: Path, clauses: dict[str, tuple[str, dict[str, str]]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rows = [json.dumps({"_id": cid, "text": text, "metadata": meta})
            for cid, (text, meta) in clauses.items()]
    (folder / "corpus.jsonl").write_text("\n".join(rows) + "\n")
    return folder


@pytest.fixture
def served(tmp_path: Path, milvus_lite_uri: str, embedder: Any) -> Iterator[Any]:
    core = milvus_settings(load_settings({}, {"index_dir": tmp_path / "index"}), milvus_lite_uri)
    corpus = _corpus(tmp_path / "library", CLAUSES)
    build_index(core, [corpus], embedder, progress=False)  # PRECEDENT_BACKEND=milvus: open_store
    settings = updated(core, {"server.index_reload_s": 0.01})
    service = build_service(settings, embedder=embedder)
    yield core, corpus, service, create_app(settings, service).test_client()
    service.close()


def test_search_filters_clauses_and_facets_over_milvus(served: Any) -> None:
    _, _, _, client = served
    body = client.post("/api/v1/precedents", json={"text": "liability cap fees", "rerank": False})
    assert body.status_code == 200 and body.get_json()["results"][0]["clause_id"] == "cap"
    only_nda = client.post("/api/v1/precedents", json={"text": "liability cap fees", "rerank": False,
                                                       "filters": {"document_type": ["nda"]}}).get_json()
    assert [r["clause_id"] for r in only_nda["results"]] == ["old"]
    unknown = client.post("/api/v1/precedents", json={"text": "x", "filters": {"colour": "red"}})
    assert unknown.status_code == 400 and "Known fields" in unknown.get_json()["error"]["message"]
    clause = client.get("/api/v1/clauses/cap").get_json()
    assert clause["clause"]["text"].startswith("Supplier's aggregate")
    assert clause["context_available"] is False  # a BEIR corpus has no document order
    facets = client.get("/api/v1/facets").get_json()["fields"]["document_type"]
    assert sorted((f["value"], f["count"]) for f in facets) == [("MSA", 1), ("NDA", 1)]
    health = client.get("/api/v1/health").get_json()
    assert health["index"]["version"].startswith(served[0].milvus.collection + "_v")


def test_a_rebuild_goes_live_without_a_restart(served: Any, embedder: Any) -> None:
    core, corpus, service, client = served
    first = client.get("/api/v1/health").get_json()["index"]["version"]
    assert client.get("/api/v1/clauses/new").status_code == 404
    _corpus(corpus, {**CLAUSES, "new": ("Notices may be sent by email.", {"document_type": "NDA"})})
    build_index(core, [corpus], embedder, progress=False)
    deadline = time.monotonic() + 20
    while client.get("/api/v1/clauses/new").status_code != 200 and time.monotonic() < deadline:
        service.live.wait_for_reload(2.0)
        time.sleep(0.05)
    assert client.get("/api/v1/clauses/new").status_code == 200
    assert client.get("/api/v1/health").get_json()["index"]["version"] != first
