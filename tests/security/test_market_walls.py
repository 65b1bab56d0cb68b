"""Compare to market behind the walls: a walled precedent never counts in a distribution a
walled user sees, never appears as a bucket's precedent, on either engine, per clause and for a
whole document; the audit trail records the ids returned and no text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from addin_server.service import build_service
from addin_server.web.app import create_app
from index_builder.index.build import build_index

from security_helpers import POLICY, claims, entra_settings

SPA = """# Share Purchase Agreement (Acme)

1. Termination. Either party may terminate this Agreement on ninety (90) days' written notice to the other party, as agreed for the Zanzibar pipeline.
"""
NDA = """# Mutual Non-Disclosure Agreement

1. Termination. Either party may terminate this Agreement on thirty (30) days' written notice to the other party.
"""
MSA = """# Master Services Agreement

1. Termination. The Customer or the Provider may end these Services by giving the other thirty (30) days' written notice at any time.
"""
YOURS = "Either party may terminate this Agreement on sixty (60) days' written notice to the other party."


@pytest.fixture
def app(tmp_path: Path, contracts: Path, jwks: Any, embedder: Any, engine: dict) -> Iterator[Any]:
    (contracts / "Matters" / "Acme" / "spa.txt").write_text(SPA)
    (contracts / "Forms" / "nda.txt").write_text(NDA)
    (contracts / "Forms" / "msa.txt").write_text(MSA)
    policy = tmp_path / "walls.json"
    policy.write_text(json.dumps(POLICY))
    values = {"index_dir": tmp_path / "index", "walls.policy_file": policy,
              "rerank.default": "off", "rerank.cross_encoder": "", "server.rate_limit": "off",
              "audit.file": tmp_path / "audit.jsonl", **engine}
    build_index(entra_settings(jwks.url, **values), [contracts], embedder, progress=False)
    settings = entra_settings(jwks.url, **values)
    service = build_service(settings, embedder=embedder)
    flask_app = create_app(settings, service)
    flask_app.config["TESTING"] = True
    yield flask_app
    service.close()


def post(app: Any, sign: Any, groups: list[str], route: str, body: dict[str, Any]) -> Any:
    token = sign(claims(groups=groups, preferred_username=f"{groups[0]}@firm.example"))
    return app.test_client().post(f"/api/v1/{route}", json=body,
                                  headers={"Authorization": f"Bearer {token}"})


def notice(body: dict[str, Any]) -> dict[str, Any]:
    return next(t for t in body["terms"] if t["dimension"] == "period:notice")


@pytest.mark.parametrize("engine", ["embedded", "milvus"], indirect=True)
def test_a_walled_precedent_never_counts_for_a_walled_user(app: Any, sign: Any, tmp_path: Path) -> None:
    request = {"text": YOURS, "min_score": 0.3}
    eve = post(app, sign, ["litigation"], "market", request)
    alice = post(app, sign, ["acme-team"], "market", request)
    assert eve.status_code == alice.status_code == 200, eve.get_json()
    walled_view, team_view = notice(eve.get_json()), notice(alice.get_json())
    assert [(b["label"], b["documents"]) for b in walled_view["buckets"]] == [("30 days", 2)]
    assert [(b["label"], b["documents"]) for b in team_view["buckets"]] == [("30 days", 2), ("90 days", 1)]
    # Yours (60 days) placed: above both documents eve may see; between the three alice may see.
    assert walled_view["placement"] == {"below": 0, "same": 0, "above": 2}
    assert team_view["placement"] == {"below": 1, "same": 0, "above": 2}
    assert eve.get_json()["summary"]["documents"] == 2 and alice.get_json()["summary"]["documents"] == 3
    # The lawyer's clause and each precedent carry the core's label (number, heading, capitals).
    assert eve.get_json()["query_reading"] == {"number": "", "heading": "", "body": 0, "capitals": False}
    assert all({"number", "heading", "body", "capitals"} <= set(p["reading"])
               for b in team_view["buckets"] for p in b["precedents"])
    raw = eve.get_data(as_text=True)
    assert "Zanzibar" not in raw and "Acme" not in raw and "spa" not in raw

    document = {"paragraphs": [{"index": 0, "text": "Termination"}, {"index": 1, "text": YOURS}],
                "min_score": 0.3}
    eve_doc = post(app, sign, ["litigation"], "market/document", document)
    alice_doc = post(app, sign, ["acme-team"], "market/document", document)
    assert eve_doc.status_code == 200, eve_doc.get_json()
    [eve_clause] = eve_doc.get_json()["clauses"]
    [alice_clause] = alice_doc.get_json()["clauses"]
    assert (eve_clause["index"], eve_clause["documents"], alice_clause["documents"]) == (1, 2, 3)
    assert eve_clause["findings"] == [{"kind": "above", "dimension": "period:notice",
                                       "title": "Notice period", "yours": "60 days", "usual": "30 days",
                                       "usual_documents": 2, "documents": 2}]
    assert "Zanzibar" not in eve_doc.get_data(as_text=True)

    # The audit trail: one line per call, the ids each user was shown, never the text.
    lines = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    market_lines = [line for line in lines if line["route"].startswith("/api/v1/market")]
    assert len(market_lines) == 4
    eve_ids = {i for line in market_lines if line["user"].startswith("litigation") for i in line["clause_ids"]}
    assert eve_ids and not any(i.startswith("Matters/") for i in eve_ids)
    assert "terminate" not in (tmp_path / "audit.jsonl").read_text()


def test_market_refuses_unsigned_calls_and_bad_input(app: Any, sign: Any) -> None:
    assert app.test_client().post("/api/v1/market", json={"text": YOURS}).status_code == 401
    for body, fragment in (({}, "Missing 'text'"), ({"text": "  "}, "empty"),
                           ({"text": YOURS, "min_score": 2}, "min_score")):
        reply = post(app, sign, ["litigation"], "market", body)
        assert reply.status_code == 400 and fragment in reply.get_json()["error"]["message"]
    huge = post(app, sign, ["litigation"], "market", {"text": "x" * 2_000_000})
    assert huge.status_code == 413 and "too long" in huge.get_json()["error"]["message"]
    limit = app.config["PRECEDENT_SETTINGS"].market.document_max_clauses
    many = post(app, sign, ["litigation"], "market/document",
                {"paragraphs": [{"index": i, "text": YOURS} for i in range(limit + 1)]})
    message = many.get_json()["error"]["message"]  # the limit and what to do; the setting goes to the log
    assert many.status_code == 400 and f"up to {limit:,} at a time" in message and "PRECEDENT_" not in message
    for body in ({}, {"paragraphs": "text"}, {"paragraphs": [{"index": "a", "text": "b"}]}):
        reply = post(app, sign, ["litigation"], "market/document", body)
        assert reply.status_code == 400 and "paragraph" in reply.get_json()["error"]["message"]
    # Currencies and written-out numbers are read with their spans; a French clause answers, with
    # its euro amount and no period (French units of time are not read).
    mixed = "Either party may terminate on twelve (12) months' notice; liability is capped at EUR 2.5 million or $1,000,000."
    got = post(app, sign, ["litigation"], "market", {"text": mixed, "min_score": 0.3}).get_json()
    # the cap's amount is counted as the cap (its own family), the other amount as an amount
    assert [(t["type"], t["key"], t["text"]) for t in got["yours"]["terms"]] == [
        ("period", "12 month", "twelve (12) months"), ("money", "USD 1000000", "$1,000,000"),
        ("cap:fixed", "2500000.0", "liability is capped at EUR 2.5 million")]
    assert [(t["dimension"], t["label"]) for t in got["yours"]["terms"]][-1] == ("cap:fixed:EUR", "EUR 2,500,000")
    assert all(mixed[t["start"]:t["end"]] == t["text"] for t in got["yours"]["terms"])
    french = post(app, sign, ["litigation"], "market", {
        "text": "Chaque partie peut résilier le contrat avec un préavis de trente (30) jours; la responsabilité "
                "est limitée à 100 000 €.", "min_score": 0.3})
    assert french.status_code == 200
    assert [t["key"] for t in french.get_json()["yours"]["terms"]] == ["EUR 100000"]
    none = post(app, sign, ["litigation"], "market", {
        "text": "Time is of the essence of this Agreement and its termination.", "min_score": 0.1}).get_json()
    assert none["yours"] == {"terms": [], "caps": [], "mutuality": None, "subprovisions": []}
    # no figure: each market term is "not stated"; who it binds is "not read", never "not in your clause"
    assert none["terms"] and {t["dimension"]: t["status"] for t in none["terms"]} == {
        "period:notice": "not_stated", "mutuality": "not_read"}


@pytest.mark.parametrize("engine", ["embedded"], indirect=True)
def test_a_clause_no_precedent_reaches_is_said_not_compared(app: Any, sign: Any) -> None:
    # A new user's own clauses got "matches: 0" and a document "stand_out: 0", which a lawyer reads
    # as "in line with our precedents"; the answer says, per clause, that nothing was compared.
    alone = post(app, sign, ["litigation"], "market", {"text": YOURS, "min_score": 1.0}).get_json()
    assert alone["summary"]["documents"] == 0 and alone["compared"] is False
    assert alone["not_compared"]["reason"] == "no_precedent" and alone["not_compared"]["min_score"] == 1.0
    assert "says nothing about whether your terms are usual" in alone["not_compared"]["message"]
    assert any("min_score" in step for step in alone["not_compared"]["what_you_can_do"])
    found = post(app, sign, ["litigation"], "market", {"text": YOURS, "min_score": 0.3}).get_json()
    assert found["compared"] is True and "not_compared" not in found
    document = {"paragraphs": [{"index": 1, "text": YOURS}], "min_score": 1.0}
    answer = post(app, sign, ["litigation"], "market/document", document).get_json()
    assert answer["summary"] == {"paragraphs": 1, "compared": 1, "stand_out": 0, "with_precedent": 0,
                                 "without_precedent": 1}
    assert [c["compared"] for c in answer["clauses"]] == [False] and answer["not_compared"]["min_score"] == 1.0
