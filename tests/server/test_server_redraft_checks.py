"""/redraft with operations and run-time checks: who wrote the draft, what changed and why,
which checks failed; the lawyer can ask for the other producer."""

from __future__ import annotations

from typing import Any

from addin_server.llm.scripted import Reply, ScriptedLLMServer

ISSUE = "The Supplier shall not be liable to the Customer for any indirect or consequential loss."


def post(client: Any, **body: Any) -> Any:
    return client.post("/api/v1/redraft", json={"text": ISSUE, "clause_ids": ["cap-fees"], **body})


def test_make_mutual_by_an_operation_without_any_model(make_app: Any) -> None:
    client = make_app(llm=False).test_client()
    response = post(client, instructions="Make this mutual")
    assert response.status_code == 200
    body = response.get_json()
    assert body["redraft"] == ("Neither party shall be liable to the other party for any indirect "
                               "or consequential loss.")
    assert body["producer"]["kind"] == "operation" and body["producer"]["operation"] == "make_mutual"
    assert body["producer"]["alternative"] is None  # no model on this server
    assert all(ISSUE[c["start"]:c["end"]] == c["old"] and c["reason"] for c in body["changes"])
    checks = {c["name"]: c for c in body["checks"]}
    assert checks["instruction"]["passed"] is True and body["checks_failed"] == []
    assert {"operation", "checks", "total"} <= set(body["timings_ms"])


def test_the_model_unchanged_answer_is_flagged(client: Any, llm_server: ScriptedLLMServer) -> None:
    llm_server.script(Reply(content=ISSUE + " [1]"))
    body = post(client, instructions="Make this mutual", producer="model").get_json()
    assert body["producer"]["kind"] == "model" and body["producer"]["alternative"] == "operation"
    failed = {c["name"]: c["reason"] for c in body["checks"] if c["passed"] is False}
    assert "still binds only the Supplier" in failed["instruction"]
    assert body["parts"] == [{"kind": "mutual", "label": "mutual", "asks": "Make this mutual", "status": "not_done",
                              "reason": body["parts"][0]["reason"], "by": "model"}]
    assert "changed" in failed and set(body["checks_failed"]) >= {"changed", "instruction"}


def test_routed_to_the_model_when_no_operation_matches(client: Any, llm_server: ScriptedLLMServer) -> None:
    llm_server.script(Reply(content="Neither party is liable for indirect loss [1]."))
    body = post(client, instructions="Shorten this").get_json()
    assert body["producer"]["kind"] == "model" and body["producer"]["alternative"] is None
    assert {c["name"]: c["passed"] for c in body["checks"]}["length"] is True


def test_operation_asked_for_where_none_applies_is_a_clear_400(client: Any) -> None:
    response = post(client, instructions="Shorten this", producer="operation")
    assert response.status_code == 400
    assert "without the assistant you can" in response.get_json()["error"]["message"]


def test_bad_input_is_named_and_nothing_changes_silently(make_app: Any) -> None:
    client = make_app(llm=False).test_client()
    contradictory = post(client, instructions="Make this mutual but only binding the Supplier")
    assert contradictory.status_code == 400
    assert "Nothing was changed" in contradictory.get_json()["error"]["message"]
    mutual = "Neither party shall be liable to the other party for any indirect loss."
    already = client.post("/api/v1/redraft", json={"text": mutual, "clause_ids": ["cap-fees"],
                                                   "instructions": "Make this mutual"}).get_json()
    assert already["redraft"] == mutual and already["changes"] == []
    assert "already binds both parties" in " ".join(already["notes"])
    assert already["checks_failed"] == []  # unchanged is right here, not a failure
    three = client.post("/api/v1/redraft", json={
        "text": "Supplier will notify Customer and the Licensor of any breach.",
        "clause_ids": ["cap-fees"], "instructions": "Make this mutual"})
    assert three.status_code == 503  # no model to fall back on: the reason is the operation's
    assert "names 3 parties" in three.get_json()["error"]["message"]
    foreign = post(client, instructions="Rendre cette clause réciproque")
    assert foreign.status_code == 503 and "drafting assistant" in foreign.get_json()["error"]["message"]


def test_document_terms_and_producer_are_validated(client: Any) -> None:
    assert post(client, producer="robot").status_code == 400
    assert post(client, document_terms="Company").status_code == 400
    body = client.post("/api/v1/redraft", json={
        "text": "Employer may notify Employee's new employer.", "clause_ids": ["cap-fees"],
        "instructions": "Conform this to my document's defined terms",
        "document_terms": ["Company", "Employee"]}).get_json()
    assert body["redraft"] == "Company may notify Employee's new employer."


CONSULTING = ("The Company shall hold the Consultant's Confidential Information in strict confidence and shall not "
              "disclose it to any third party without the Consultant's prior written consent.")
DOCUMENT = {"parties": ["Company", "Consultant"], "definitions": [{"term": "Confidential Information"}]}


def test_make_mutual_protects_both_parties_through_the_api(make_app: Any) -> None:
    """Issue 38's quickstart: the Consultant is named only in possessives; both its duty and its
    protection become mutual, and the check line says so honestly."""
    client = make_app(llm=False).test_client()
    body = client.post("/api/v1/redraft", json={"text": CONSULTING, "clause_ids": [], "document": DOCUMENT,
                                                "instructions": "Make this mutual"}).get_json()
    assert body["redraft"] == ("Each party shall hold the other party's Confidential Information in strict confidence "
                               "and shall not disclose it to any third party without the other party's prior written "
                               "consent.")
    assert body["checks_failed"] == [] and body["precedents"] == []
    assert [(p["kind"], p["status"], p["by"]) for p in body["parts"]] == [("mutual", "done", "operation")]


def test_a_multi_part_instruction_says_what_was_done_and_what_was_not(make_app: Any) -> None:
    client = make_app(llm=False).test_client()
    body = client.post("/api/v1/redraft", json={
        "text": CONSULTING, "clause_ids": [], "document": DOCUMENT,
        "instructions": "Make this mutual, and the obligations should survive for three years"}).get_json()
    said = {p["kind"]: p for p in body["parts"]}
    assert said["mutual"]["status"] == "done" and said["period"]["status"] == "not_done"
    assert "not set up" in said["period"]["reason"]
    instruction = next(c for c in body["checks"] if c["name"] == "instruction")
    assert instruction["passed"] is False
    assert instruction["reason"].startswith("Done: mutual. Not done: 3 years.")
    assert "instruction" in body["checks_failed"]
