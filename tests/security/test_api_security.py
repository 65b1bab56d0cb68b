"""Sign-in, rate limits, CORS and the audit trail through the HTTP API (Flask test client)."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any, Callable
from urllib.parse import quote

import pytest

from addin_server.service import build_service
from addin_server.web.audit import returned_ids
from addin_server.web.app import create_app
from index_builder.errors import ConfigError
from index_builder.index.build import build_index
from index_builder.settings import load_settings

from security_helpers import claims, entra_settings

QUERY = "indemnify against losses arising from breach"


@pytest.fixture
def make_app(tmp_path: Path, contracts: Path, jwks: Any, embedder: Any) -> Callable[..., Any]:
    """make_app(**dotted overrides) -> a Flask app over the contracts, Entra sign-in on."""
    services = []
    index = tmp_path / "index"
    build_index(load_settings({}, {"index_dir": index}), [contracts], embedder, progress=False)

    def make(**overrides: Any) -> Any:
        values = {"index_dir": index, "rerank.default": "off", "rerank.cross_encoder": "",
                  "audit.file": tmp_path / "audit" / "audit.jsonl", **overrides}
        settings = entra_settings(jwks.url, **values)
        service = build_service(settings, embedder=embedder)
        services.append(service)
        app = create_app(settings, service)
        app.config["TESTING"] = True
        return app

    yield make
    for service in services:
        service.close()


def auth_header(sign: Any, **changes: Any) -> dict[str, str]:
    return {"Authorization": f"Bearer {sign(claims(**changes))}"}


def audit_lines(tmp_path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (tmp_path / "audit" / "audit.jsonl").read_text().splitlines()]


def test_pane_reads_the_sign_in_config_without_a_token(make_app: Any) -> None:
    body = make_app().test_client().get("/api/v1/auth/config").get_json()
    assert body["mode"] == "entra" and body["entra"]["scopes"][0].endswith("/access_as_user")


def test_api_needs_a_valid_sign_in(make_app: Any, sign: Any) -> None:
    client = make_app().test_client()
    missing = client.get("/api/v1/health")
    assert missing.status_code == 401 and missing.get_json()["error"]["code"] == "unauthorized"
    assert missing.headers["WWW-Authenticate"] == "Bearer"
    expired = client.get("/api/v1/health", headers=auth_header(sign, exp=1_000_000_000))
    assert expired.status_code == 401 and "expired" in expired.get_json()["error"]["message"]
    assert client.get("/api/v1/health", headers=auth_header(sign)).status_code == 200
    with client.get("/taskpane/api.js") as page:  # the pane's files need no sign-in
        assert page.status_code == 200


def test_rate_limit_answers_429_with_retry_after(make_app: Any, sign: Any) -> None:
    client = make_app(**{"server.rate_limit": "3/minute"}).test_client()
    alice = auth_header(sign)
    for _ in range(3):
        assert client.get("/api/v1/health", headers=alice).status_code == 200
    refused = client.get("/api/v1/health", headers=alice)
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "Try again in" in refused.get_json()["error"]["message"]
    bob = auth_header(sign, oid="0b0b0b0b-0000-4000-8000-0000000000b0", preferred_username="bob@firm.example")
    assert client.get("/api/v1/health", headers=bob).status_code == 200
    assert client.get("/api/v1/auth/config").status_code == 200  # never limited


def test_redraft_has_a_tighter_limit(make_app: Any, sign: Any) -> None:
    client = make_app(**{"server.redraft_rate_limit": "1/minute"}).test_client()
    body = {"text": QUERY}
    # No language model here: each is refused by the view, and a refused redraft takes no slot.
    for _ in range(2):
        assert client.post("/api/v1/redraft", json=body, headers=auth_header(sign)).status_code == 503
    cure = {"text": "Either party may terminate this Agreement if the other party breaches it and "
                    "fails to cure the breach within thirty (30) days after written notice.",
            "instructions": "change the cure period to 15 days"}
    first = client.post("/api/v1/redraft", json=cure, headers=auth_header(sign))
    assert first.status_code == 200  # a drafting operation: served without a model, so it counts
    second = client.post("/api/v1/redraft", json=cure, headers=auth_header(sign))
    assert second.status_code == 429 and "too many redrafts" in second.get_json()["error"]["message"]
    assert client.post("/api/v1/precedents", json=body, headers=auth_header(sign)).status_code == 200


def test_cors_only_for_listed_origins(make_app: Any) -> None:
    client = make_app(**{"server.cors_origins": ("https://pane.firm.example",)}).test_client()
    listed = client.options("/api/v1/precedents", headers={"Origin": "https://pane.firm.example"})
    assert listed.headers["Access-Control-Allow-Origin"] == "https://pane.firm.example"
    assert "Retry-After" in listed.headers["Access-Control-Expose-Headers"]
    other = client.options("/api/v1/precedents", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    with pytest.raises(ConfigError, match="may not be"):
        make_app(**{"server.cors_origins": ("*",)})


def test_every_call_is_audited_without_text(make_app: Any, sign: Any, tmp_path: Path) -> None:
    client = make_app().test_client()
    found = client.post("/api/v1/precedents", json={"text": QUERY, "top_k": 3},
                        headers=auth_header(sign)).get_json()
    ids = [r["clause_id"] for r in found["results"]]
    first = ids[0]
    assert client.get(f"/api/v1/clauses/{quote(first, safe='/')}", headers=auth_header(sign)).status_code == 200
    assert client.get("/api/v1/health").status_code == 401
    lines = audit_lines(tmp_path)
    search, fetch, refused = lines
    assert (search["user"], search["auth"], search["route"], search["status"]) == \
        ("alice@firm.example", "entra", "/api/v1/precedents", 200)
    assert set(ids) <= set(search["clause_ids"]) and search["index_version"]
    # The view hands the trail its ids (issue 39): exactly what walking the answer finds.
    assert search["clause_ids"] == list(dict.fromkeys(returned_ids(found)))
    # Keyed (HMAC-SHA256) with the deployment's key, made once beside the index folder.
    key = bytes.fromhex((tmp_path / "keys" / "audit-query.key").read_text())
    assert search["query_hmac"] == hmac.new(key, QUERY.encode(), hashlib.sha256).hexdigest()
    assert search["query_hmac"] != hashlib.sha256(QUERY.encode()).hexdigest()
    assert fetch["requested_ids"] == [first] and first in fetch["clause_ids"]
    assert (refused["user"], refused["status"], refused["clause_ids"]) == ("unauthenticated", 401, [])
    trail = (tmp_path / "audit" / "audit.jsonl").read_text()
    assert QUERY not in trail and "indemnify" not in trail.lower()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_an_unwritable_audit_trail_refuses_the_call(make_app: Any, sign: Any, tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "audit.jsonl").symlink_to("/dev/full")
    client = make_app(**{"audit.file": tmp_path / "full" / "audit.jsonl"}).test_client()
    response = client.post("/api/v1/precedents", json={"text": QUERY}, headers=auth_header(sign))
    assert response.status_code == 503 and response.get_json()["error"]["code"] == "audit_unavailable"
    assert "clause_id" not in response.get_data(as_text=True)


def test_malformed_bodies_are_audited_not_500(make_app: Any, sign: Any, tmp_path: Path) -> None:
    client = make_app().test_client()
    for body in ({"text": 3, "clause_ids": True, "examples": 5}, {"examples": [True, {"text": 1}]},
                 ["not", "an", "object"]):
        for route in ("precedents", "redraft", "variations"):
            response = client.post(f"/api/v1/{route}", json=body, headers=auth_header(sign))
            assert response.status_code == 400, (route, body)
    assert [line["status"] for line in audit_lines(tmp_path)] == [400] * 9
