"""The JSON API through Flask's test client, with the scripted LLM behind it."""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest

from addin_server.llm.scripted import Reply, ScriptedLLMServer
from index_builder.settings import LLMSettings

QUERY = "cap on liability fees"
RESULT_KEYS = {"clause_id", "rank", "score", "text", "rerank_score", "stars", "retrieval", "source"}
SOURCE_KEYS = {"doc_id", "document", "file", "section", "heading", "citation"}


def post(client: Any, path: str, body: Any, **kwargs: Any) -> Any:
    return client.post(f"/api/v1/{path}", json=body, **kwargs)


def error_of(response: Any) -> dict[str, str]:
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "sentences"}
    # Its sentences as the core reads them (the pane drops one meant for IT, and splits none itself).
    assert " ".join(body["error"]["sentences"]).split() == body["error"]["message"].split()
    return body["error"]


def test_precedents_reranked(client: Any, llm_server: ScriptedLLMServer) -> None:
    response = post(client, "precedents", {"text": QUERY, "top_k": 3})
    assert response.status_code == 200
    body = response.get_json()
    assert body["rerank"] == {"status": "applied"}
    assert {"retrieval", "rerank", "total"} <= set(body["timings_ms"])
    results = body["results"]
    assert len(results) == 3 and [r["rank"] for r in results] == [1, 2, 3]
    top = results[0]
    assert RESULT_KEYS <= set(top) and SOURCE_KEYS <= set(top["source"])
    assert top["clause_id"] == "cap-fees"
    assert 0 <= top["rerank_score"] <= 4 and top["stars"] == pytest.approx(top["rerank_score"] + 1)
    assert top["score"] == pytest.approx(top["rerank_score"], abs=1e-4)
    assert set(top["retrieval"]["ranks"]) <= {"dense", "bm25"} and top["retrieval"]["ranks"]
    assert top["source"]["document"] == "Model Agreement" and top["source"]["file"] == "corpus.jsonl"
    assert len(llm_server.chat_requests()) == 8  # rerank depth, all candidates rated


def test_each_result_and_the_lawyers_text_carry_the_cores_label(client: Any) -> None:
    """The pane adapts Insert from these alone (reading/labels.py): it reads no number or heading."""
    text = "7.2 Liability cap. The Supplier's liability is capped at the fees."
    body = post(client, "precedents", {"text": text, "rerank": False}).get_json()
    assert body["query_reading"] == {"number": "7.2", "heading": "Liability cap", "body": 19, "capitals": False}
    assert text[body["query_reading"]["body"]:].startswith("The Supplier's")
    for result in body["results"]:
        reading = result["reading"]
        assert {"number", "heading", "body", "capitals"} <= set(reading)
        assert 0 <= reading["body"] <= len(result["text"]) and isinstance(reading["capitals"], bool)


def test_precedents_without_rerank(client: Any, llm_server: ScriptedLLMServer) -> None:
    body = post(client, "precedents", {"text": QUERY, "rerank": False}).get_json()
    assert body["rerank"]["status"] == "skipped" and "off for this request" in body["rerank"]["reason"]
    assert all(r["rerank_score"] is None and r["stars"] is None for r in body["results"])
    assert body["results"][0]["score"] == body["results"][0]["retrieval"]["score"]
    assert llm_server.chat_requests() == []


def test_default_rerank_off_for_local_model(make_app: Any, llm_server: ScriptedLLMServer) -> None:
    body = post(make_app(rerank__default="off").test_client(), "precedents", {"text": QUERY}).get_json()
    reason = body["rerank"]["reason"]
    # Lawyers read this: no setting names (IT finds rerank_default in /health).
    assert body["rerank"]["status"] == "skipped" and "off on this server" in reason
    assert "PRECEDENT" not in reason


def test_precedents_when_llm_unreachable(make_app: Any, llm_settings: LLMSettings) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    from dataclasses import replace

    app = make_app(llm=replace(llm_settings, base_url=dead))
    body = post(app.test_client(), "precedents", {"text": QUERY}).get_json()
    assert body["rerank"]["status"] == "unavailable" and "could not be reached" in body["rerank"]["reason"]
    assert body["results"] and all(r["rerank_score"] is None for r in body["results"])
    assert [r["rank"] for r in body["results"]] == list(range(1, len(body["results"]) + 1))


def test_precedents_without_llm(make_app: Any) -> None:
    body = post(make_app(llm=False).test_client(), "precedents", {"text": QUERY, "rerank": True}).get_json()
    assert body["rerank"]["status"] == "unavailable" and body["results"]


def test_filters(client: Any) -> None:
    body = post(client, "precedents", {"text": QUERY, "filters": {"clause_id": ["gov-ny", "term"]},
                                       "rerank": False}).get_json()
    assert {r["clause_id"] for r in body["results"]} <= {"gov-ny", "term"}


@pytest.mark.parametrize("body, status, code", [
    ({}, 400, "invalid_request"),
    ({"text": ""}, 400, "invalid_request"),
    ({"text": "   \n\t "}, 400, "invalid_request"),
    ({"text": 42}, 400, "invalid_request"),
    ({"text": ["a"]}, 400, "invalid_request"),
    ({"text": "x" * 2_001}, 413, "text_too_long"),
    ({"text": "cap", "top_k": "5"}, 400, "invalid_request"),
    ({"text": "cap", "top_k": True}, 400, "invalid_request"),
    ({"text": "cap", "top_k": 0}, 400, "invalid_request"),
    ({"text": "cap", "top_k": 1000}, 400, "invalid_request"),
    ({"text": "cap", "top_k": 2.5}, 400, "invalid_request"),
    ({"text": "cap", "rerank": "yes"}, 400, "invalid_request"),
    ({"text": "cap", "filters": ["document"]}, 400, "invalid_request"),
    ({"text": "cap", "filters": {"document": {"a": 1}}}, 400, "invalid_request"),
    ({"text": "cap", "filters": {"no_such_field": "x"}}, 400, "invalid_request"),
    ([1, 2], 400, "invalid_request"),
    ("just a string", 400, "invalid_request"),
    (None, 415, "unsupported_media_type"),  # no body at all
])
def test_bad_precedents_requests(client: Any, body: Any, status: int, code: str) -> None:
    response = post(client, "precedents", body)
    assert response.status_code == status
    assert error_of(response)["code"] == code


def test_empty_text_message_speaks_to_the_lawyer(client: Any) -> None:
    assert "select a clause" in error_of(post(client, "precedents", {"text": " "}))["message"]


@pytest.mark.parametrize("data, message", [('{"text": "cap"', "not valid JSON"), ("", "body is empty"),
                                           ("null", "must be a JSON object")])
def test_malformed_json(client: Any, data: str, message: str) -> None:
    response = client.post("/api/v1/precedents", data=data, content_type="application/json")
    assert response.status_code == 400 and message in error_of(response)["message"]


def test_body_must_be_declared_json(client: Any) -> None:
    response = client.post("/api/v1/precedents", data='{"text": "cap"}', content_type="text/plain")
    assert response.status_code == 415 and error_of(response)["code"] == "unsupported_media_type"


def test_huge_paste_is_refused_with_413(client: Any) -> None:
    response = client.post("/api/v1/precedents", data=json.dumps({"text": "x" * 2_000_000}),
                           content_type="application/json")
    assert response.status_code == 413
    error = error_of(response)
    assert error["code"] == "request_too_large" and "single clause" in error["message"]
    # One limit, in the lawyer's terms (a new user was told "187 KB" beside 20,000 characters).
    limit = client.application.config["PRECEDENT_SETTINGS"].server.max_text_chars
    assert f"up to {limit:,} characters" in error["message"] and "KB" not in error["message"]
    assert "PRECEDENT_" not in error["message"]


def test_a_corpus_without_document_order_offers_no_context(client: Any) -> None:
    # The test library is a BEIR corpus, like ACORD: neighbouring lines come from other
    # contracts, so they are never shown as the clause's context (docx: test_server_end_to_end).
    body = client.get("/api/v1/clauses/cap-fixed").get_json()
    assert body["clause"]["clause_id"] == "cap-fixed" and SOURCE_KEYS <= set(body["clause"]["source"])
    assert body["context"] == {"before": [], "after": []} and body["context_available"] is False


def test_unknown_clause_is_404(client: Any) -> None:
    response = client.get("/api/v1/clauses/nope")
    assert response.status_code == 404 and error_of(response)["code"] == "not_found"


def test_health(client: Any) -> None:
    body = client.get("/api/v1/health").get_json()
    assert body["status"] == "ok"
    assert body["index"]["clauses"] == 8 and body["index"]["embedding_model"] == "test-hashing"
    llm = body["llm"]
    assert llm["reachable"] is True and llm["rerank_model"] == "rerank-model"
    assert llm["prompts"]["rerank"].startswith("rerank@1#") and llm["token_counting"]
    assert "test-key" not in json.dumps(body)


def test_unknown_routes_and_methods_are_json(client: Any) -> None:
    assert error_of(client.post("/api/v1/nothing", json={}))["code"] == "not_found"
    response = client.get("/api/v1/precedents")
    assert response.status_code == 405 and error_of(response)["code"] == "method_not_allowed"


def test_tokens_required_when_configured(make_app: Any) -> None:
    client = make_app(server__api_tokens=("s3cret", "other")).test_client()
    missing = client.get("/api/v1/health")
    assert missing.status_code == 401 and error_of(missing)["code"] == "unauthorized"
    assert missing.headers["WWW-Authenticate"] == "Bearer"
    wrong = client.get("/api/v1/health", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and "not accepted" in error_of(wrong)["message"]
    assert client.get("/api/v1/health", headers={"Authorization": "Bearer other"}).status_code == 200
    assert client.options("/api/v1/precedents").status_code == 200  # CORS preflight
    page = client.get("/taskpane/api.js")  # static files need no token
    assert page.status_code == 200
    page.close()


def test_cors_only_for_configured_origins(make_app: Any) -> None:
    client = make_app(server__cors_origins=("https://pane.example.com",)).test_client()
    allowed = client.options("/api/v1/precedents", headers={"Origin": "https://pane.example.com"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://pane.example.com"
    other = client.options("/api/v1/precedents", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_static_files_with_cache_headers(client: Any) -> None:
    with client.get("/taskpane/api.js") as script:
        assert script.status_code == 200 and "no-cache" in script.headers["Cache-Control"]
        etag = script.headers["ETag"]
    with client.get("/taskpane/api.js", headers={"If-None-Match": etag}) as cached:
        assert cached.status_code == 304
    with client.get("/taskpane/assets/icon-32.png") as icon:
        assert icon.status_code == 200 and "max-age=86400" in icon.headers["Cache-Control"]
    assert client.get("/").status_code == 302
    assert client.get("/../pyproject.toml").status_code == 404
    assert client.get("/taskpane/../../settings.py").status_code == 404


def test_llm_failure_never_500s_precedents(client: Any, llm_server: ScriptedLLMServer) -> None:
    llm_server.responder = lambda body: Reply(body=b"\x00garbage")
    response = post(client, "precedents", {"text": QUERY})
    assert response.status_code == 200 and response.get_json()["rerank"]["status"] == "unavailable"


@pytest.mark.parametrize("body", [{"text": "\ud800 cap on liability"},
                                  {"text": "cap", "instructions": "make it \udfff mutual"}])
def test_broken_characters_are_a_clear_400(client: Any, body: dict[str, Any]) -> None:
    for route in ("/api/v1/precedents", "/api/v1/redraft"):
        response = client.post(route, json=body)
        if route.endswith("precedents") and "instructions" in body:
            continue  # /precedents has no instructions field
        assert response.status_code == 400, (route, response.get_json())
        assert "broken character" in response.get_json()["error"]["message"]


DEEP = 5_000


@pytest.mark.parametrize("data, message", [
    ("[" * DEEP + "]" * DEEP, "nested too deeply"),
    ('{"text": ' + "[" * DEEP + "]" * DEEP + "}", "nested too deeply"),
    ('{"text": "cap", "filters": ' + '{"a": ' * 40 + "1" + "}" * 40 + "}", "nested too deeply"),
    ('{"text": "cap", "top_k": 1e999}', "1e999 in the request body is too large"),
    ('{"text": "cap", "top_k": -1e999}', "too large"),
    ('{"text": "cap", "top_k": ' + "9" * 5_000 + "}", "5,000 digits"),
    ('{"text": "cap", "top_k": 1.' + "5" * 200 + "}", "numbers must be shorter"),
    ('{"text": "cap", "top_k": NaN}', "NaN is not a JSON number"),
    ('{"text": "cap", "top_k": Infinity}', "Infinity is not a JSON number"),
    ('{"text": "cap", "text": "indemnity"}', 'repeats the key "text"'),
    ('{"text": "cap", "filters": {"document": "a", "document": "b"}}', 'repeats the key "document"'),
    ('{"text": "cap \\ud800"}', "broken character"),
    ('{"text": "cap", "filters": {"\\udc00": "a"}}', "broken character"),
])
def test_hostile_json_is_a_clear_400(client: Any, data: str, message: str) -> None:
    for route in ("precedents", "redraft"):
        response = client.post(f"/api/v1/{route}", data=data, content_type="application/json")
        assert response.status_code == 400, (route, response.get_json())
        error = error_of(response)
        assert error["code"] == "invalid_request" and message in error["message"], error


@pytest.mark.parametrize("data, message", [
    (b'{"text": "caf\xe9"}', "not valid UTF-8 (byte 0xe9 at position 13)"),
    (b'{"text": "\xff\xfe"}', "not valid UTF-8"),
    (b'\xff\xfe{\x00"\x00t\x00"\x00}\x00', "not valid UTF-8"),  # UTF-16 with a BOM
    (b'{"text": "\xed\xa0\x80"}', "not valid UTF-8"),  # an encoded surrogate
])
def test_invalid_utf8_is_a_clear_400(client: Any, data: bytes, message: str) -> None:
    response = client.post("/api/v1/precedents", data=data, content_type="application/json")
    assert response.status_code == 400 and message in error_of(response)["message"]


def test_a_utf8_bom_is_tolerated(client: Any) -> None:
    data = b"\xef\xbb\xbf" + json.dumps({"text": QUERY, "rerank": False}).encode()
    assert client.post("/api/v1/precedents", data=data, content_type="application/json").status_code == 200


def test_body_shorter_than_its_content_length_is_a_400(client: Any) -> None:
    data = json.dumps({"text": QUERY}).encode()
    response = client.post("/api/v1/precedents", data=data, content_type="application/json",
                           environ_overrides={"CONTENT_LENGTH": str(len(data) + 50)})
    assert response.status_code == 400
    assert "shorter than its Content-Length" in error_of(response)["message"]


def test_body_longer_than_its_content_length_is_a_400(client: Any) -> None:
    data = json.dumps({"text": QUERY}).encode()
    response = client.post("/api/v1/precedents", data=data, content_type="application/json",
                           environ_overrides={"CONTENT_LENGTH": str(len(data) - 5)})
    assert response.status_code == 400 and "not valid JSON" in error_of(response)["message"]


def test_moderate_nesting_and_big_in_range_numbers_still_reach_the_field_checks(client: Any) -> None:
    body = '{"text": "cap", "top_k": ' + "9" * 90 + "}"
    error = error_of(client.post("/api/v1/precedents", data=body, content_type="application/json"))
    assert "'top_k' must be from 1 to" in error["message"]
