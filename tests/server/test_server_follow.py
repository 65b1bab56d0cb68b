"""Strict mode and cursor-triggered searches on POST /api/v1/precedents (issue 31).

The library holds one confidentiality clause four ways: word for word, with its own clause
number (the same words), with one word changed, and reworded; plus an unrelated clause.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from addin_server.service import build_service
from addin_server.web.app import create_app
from index_builder.index.build import build_index
from index_builder.settings import Settings, updated

CLAUSE = ("Each party shall keep the Confidential Information of the other party strictly "
          "confidential and shall not disclose it to any third party without prior written consent.")
LIBRARY = {
    "ny-form": CLAUSE,
    "tx-form": "7.2 " + CLAUSE.upper(),  # own number and capitals: the same words
    "ca-form": CLAUSE.replace("strictly", "fully"),  # one word in 28 changed
    "reworded": "Neither party may disclose the other's confidential information to third "
                "parties unless the other party agrees in writing.",
    "law": "This Agreement is governed by the laws of the State of New York.",
}


@pytest.fixture
def make(tmp_path: Path, app_settings: Settings, embedder: Any) -> Any:
    corpus = tmp_path / "library"
    corpus.mkdir()
    (corpus / "corpus.jsonl").write_text(
        "\n".join(json.dumps({"_id": k, "text": v}) for k, v in LIBRARY.items()) + "\n")
    core = replace(app_settings, index_dir=tmp_path / "index")
    build_index(core, [corpus], embedder, progress=False)
    services = []

    def client(**overrides: Any) -> Any:
        settings = updated(core, {k.replace("__", "."): v for k, v in overrides.items()})
        services.append(build_service(settings, embedder=embedder))
        app = create_app(settings, services[-1])
        app.config["TESTING"] = True
        return app.test_client()

    yield client
    for service in services:
        service.close()


def _strict(client: Any, text: str = CLAUSE, **body: Any) -> Any:
    return client.post("/api/v1/precedents", json={"text": text, "mode": "strict", **body})


def test_strict_finds_the_same_and_nearly_the_same_words_most_similar_first(make: Any) -> None:
    answer = _strict(make(), min_similarity=0.9).get_json()
    assert answer["mode"] == "strict" and answer["rerank"]["status"] == "skipped"
    results = answer["results"]
    # The copies with identical words fold into one result, listed as its variants.
    first = results[0]
    assert first["match"] == {"similarity": 1.0, "identical": True}
    assert {first["clause_id"], *[v["clause_id"] for v in first["variants"]]} == {"ny-form", "tx-form"}
    assert [r["clause_id"] for r in results[1:]] == ["ca-form"]
    assert 0.9 <= results[1]["match"]["similarity"] < 1.0 and not results[1]["match"]["identical"]


def test_strict_threshold_is_the_lawyers(make: Any) -> None:
    client = make()
    assert [r["match"]["identical"] for r in _strict(client, min_similarity=1.0).get_json()["results"]] == [True]
    loose = {r["clause_id"] for r in _strict(client, min_similarity=0.2).get_json()["results"]}
    assert "law" not in loose and "ca-form" in loose
    # The server's default applies when the lawyer sets none.
    default = _strict(make(follow__strict_min_similarity=0.99)).get_json()["results"]
    assert [r["clause_id"] for r in default] in (["ny-form"], ["tx-form"])


def test_strict_with_no_near_copy_answers_an_empty_list(make: Any) -> None:
    answer = _strict(make(), text="The Supplier shall deliver the Goods to the Delivery Location "
                                  "on the Delivery Date and bear all risk until then.")
    assert answer.status_code == 200 and answer.get_json()["results"] == []


@pytest.mark.parametrize("body, message", [
    ({"mode": "exact"}, "'mode' must be one of ranked, strict"),
    ({"mode": "strict", "min_similarity": 0}, "above 0 and at most 1"),
    ({"mode": "strict", "min_similarity": True}, "above 0 and at most 1"),
    ({"min_similarity": 0.9}, "applies to strict mode"),
    ({"trigger": "keyboard"}, "'trigger' must be one of click, cursor"),
    ({"mode": "strict", "examples": [{"text": CLAUSE}]}, "without examples"),
])
def test_bad_strict_or_trigger_fields_are_a_400_saying_what_to_send(make: Any, body: dict,
                                                                     message: str) -> None:
    response = make().post("/api/v1/precedents", json={"text": CLAUSE, **body})
    assert response.status_code == 400 and message in response.get_json()["error"]["message"]


def test_a_firm_that_turns_following_off_refuses_cursor_searches_but_not_clicks(make: Any) -> None:
    client = make(follow__mode="off")
    follow = client.get("/api/v1/health").get_json()["capabilities"]["follow"]
    assert follow["available"] is False and "turned off" in follow["reason"]
    refused = client.post("/api/v1/precedents", json={"text": CLAUSE, "trigger": "cursor"})
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "follow_off"
    assert "Find precedent" in refused.get_json()["error"]["message"]
    clicked = client.post("/api/v1/precedents", json={"text": CLAUSE, "trigger": "click"})
    assert clicked.status_code == 200 and clicked.get_json()["results"]


def test_health_tells_the_pane_how_to_follow(make: Any) -> None:
    follow = make(follow__pause_ms=1200, follow__mode="offered").get("/api/v1/health").get_json()
    follow = follow["capabilities"]["follow"]
    assert follow == {"available": True, "default": False, "reason": "", "pause_ms": 1200,
                      "min_words": 8, "strict_min_similarity": 0.9}


def test_cursor_searches_have_their_own_limit_with_retry_after(make: Any) -> None:
    client = make(follow__rate_limit="2/minute")
    body = {"text": CLAUSE, "trigger": "cursor"}
    assert [client.post("/api/v1/precedents", json=body).status_code for _ in range(2)] == [200, 200]
    refused = client.post("/api/v1/precedents", json=body)
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # A click is not a cursor search: the lawyer can still ask.
    assert client.post("/api/v1/precedents", json={"text": CLAUSE}).status_code == 200


def test_strict_and_cursor_searches_are_audited_like_every_search(make: Any, tmp_path: Path) -> None:
    audit = tmp_path / "audit.jsonl"
    client = make(audit__file=audit)
    _strict(client, trigger="cursor")
    client.post("/api/v1/precedents", json={"text": CLAUSE, "trigger": "cursor"})
    lines = [json.loads(line) for line in audit.read_text().splitlines()]
    assert [(l["route"], l["status"]) for l in lines] == [("/api/v1/precedents", 200)] * 2
    assert {"ny-form", "ca-form"} <= set(lines[0]["clause_ids"])
    assert CLAUSE not in audit.read_text()  # a hash of the query, never its text


def test_a_2_mb_paragraph_is_refused_with_a_clear_413(make: Any) -> None:
    huge = "The Supplier shall perform the Services with reasonable care. " * 33_000  # ~2 MB
    response = make().post("/api/v1/precedents", json={"text": huge, "trigger": "cursor", "mode": "strict"})
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] in ("request_too_large", "text_too_long")
