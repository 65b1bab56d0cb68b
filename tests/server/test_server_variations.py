"""Near copies of a clause come back as one result with its minor variations nested."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from addin_server.web.app import create_app
from addin_server.service import build_service
from index_builder.settings import Settings as AppSettings, updated
from index_builder.index.build import build_index

CAP = ("In no event shall either party's aggregate liability exceed the fees paid by Customer "
       "in the twelve months before the claim.")
LIBRARY = {
    "ny-form": CAP,
    "ca-form": CAP.replace("twelve months", "twelve (12) months"),
    "tx-form": "9.2 " + CAP,
    "insurance": "Each party's liability is limited to the amount recoverable under its insurance.",
    "law": "This Agreement is governed by the laws of the State of New York.",
}


@pytest.fixture
def make(tmp_path: Path, app_settings: AppSettings, embedder: Any) -> Any:
    corpus = tmp_path / "library"
    corpus.mkdir()
    (corpus / "corpus.jsonl").write_text(
        "\n".join(json.dumps({"_id": k, "text": v}) for k, v in LIBRARY.items()) + "\n")
    core = replace(app_settings, index_dir=tmp_path / "index")
    build_index(core, [corpus], embedder, progress=False)
    services = []

    def client(threshold: float) -> Any:
        settings = updated(core, {"retrieval.variation_threshold": threshold})
        services.append(build_service(settings, embedder=embedder))
        return create_app(settings, services[-1]).test_client()

    yield client
    for service in services:
        service.close()


def _search(client: Any, top_k: int = 3) -> list[dict[str, Any]]:
    body = {"text": "liability cap fees paid twelve months", "top_k": top_k, "rerank": False}
    return client.post("/api/v1/precedents", json=body).get_json()["results"]


def test_copies_fold_into_one_result_with_variants(make: Any) -> None:
    results = _search(make(0.9))
    ids = [r["clause_id"] for r in results]
    assert len(ids) == 3 and len({i for i in ids if i.endswith("-form")}) == 1
    cap = next(r for r in results if r["clause_id"].endswith("-form"))
    assert sorted([v["clause_id"] for v in cap["variants"]] + [cap["clause_id"]]) == \
        ["ca-form", "ny-form", "tx-form"]
    assert all(0.9 <= v["similarity"] <= 1.0 and v["source"]["doc_id"] for v in cap["variants"])
    assert [r["rank"] for r in results] == [1, 2, 3]


def test_threshold_zero_shows_every_copy(make: Any) -> None:
    results = _search(make(0), top_k=5)
    assert sum(r["clause_id"].endswith("-form") for r in results) == 3
    assert all(r["variants"] == [] for r in results)


def test_threshold_is_validated(app_settings: AppSettings) -> None:
    from index_builder.errors import ConfigError

    with pytest.raises(ConfigError, match="PRECEDENT_VARIATION_THRESHOLD"):
        updated(app_settings, {"retrieval.variation_threshold": 1.5})
