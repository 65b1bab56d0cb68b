"""Knowledge-team curation on the small index: who may mark, what cards show, how ranking
moves (deprecated never first unless asked, approved lifted within its tier), the CSV import
and the audit trail."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from addin_server.cli import main as addin_main
from index_builder.retrieve.curated import curated_order
from index_builder.learn.store import Mark

KM, LAWYER = "km-token-0123456789abcdef", "lawyer-token-0123456789abcd"
QUERY = "aggregate liability shall not exceed the fees paid"


@pytest.fixture
def app(make_app: Any, tmp_path: Path) -> Any:
    accounts = tmp_path / "accounts.json"
    accounts.write_text(json.dumps([{"name": "km", "token": KM, "groups": ["Knowledge"]},
                                    {"name": "lawyer", "token": LAWYER, "groups": ["litigation"]}]))
    return make_app(llm=False, auth__service_accounts_file=str(accounts),
                    audit__file=str(tmp_path / "audit.jsonl"))


def _post(app: Any, token: str, route: str, body: dict) -> Any:
    return app.test_client().post(f"/api/v1/{route}", json=body,
                                  headers={"Authorization": f"Bearer {token}"})


def _ids(app: Any, **extra: Any) -> tuple[list[str], list[dict]]:
    found = _post(app, LAWYER, "precedents", {"text": QUERY, "top_k": 5, "rerank": False, **extra})
    assert found.status_code == 200, found.get_json()
    results = found.get_json()["results"]
    return [r["clause_id"] for r in results], results


def test_only_the_knowledge_team_may_mark(app: Any) -> None:
    refused = _post(app, LAWYER, "curation", {"clause_id": "cap-fees", "status": "approved"})
    assert refused.status_code == 403 and "Knowledge team" in refused.get_json()["error"]["message"]
    assert _post(app, KM, "curation", {"clause_id": "no-such", "status": "approved"}).status_code == 404
    assert _post(app, KM, "curation", {"clause_id": "cap-fees", "status": "deprecated"}).status_code == 400
    assert _post(app, KM, "curation", {"clause_id": "cap-fees", "status": "great"}).status_code == 400


def test_deprecated_is_never_first_and_the_card_says_what_to_use(app: Any, tmp_path: Path) -> None:
    before, _ = _ids(app)
    first = before[0]
    marked = _post(app, KM, "curation", {"clause_id": first, "status": "deprecated",
                                         "replacement": "7.2 of the 2026 MSA",
                                         "replacement_clause_id": before[1]})
    assert marked.status_code == 200, marked.get_json()
    assert marked.get_json()["curation"]["label"] == "Deprecated: use 7.2 of the 2026 MSA"
    after, results = _ids(app)
    assert after[0] != first and after[-1] == first and set(after) == set(before)
    card = next(r for r in results if r["clause_id"] == first)["curation"]
    assert card["status"] == "deprecated" and card["replacement_clause_id"] == before[1]
    asked, _ = _ids(app, curation=False)  # the plain order on request
    assert asked == before
    audit = [json.loads(x) for x in (tmp_path / "audit.jsonl").read_text().splitlines()]
    line = next(x for x in audit if x["route"] == "/api/v1/curation")
    assert line["user"] == "km" and line["requested_ids"] == [first, before[1]]


def test_approved_rises_within_its_tier_and_a_document_mark_covers_its_clauses(app: Any) -> None:
    before, _ = _ids(app)
    last = before[-1]
    assert _post(app, KM, "curation", {"clause_id": last, "status": "approved"}).status_code == 200
    after, results = _ids(app)
    assert after.index(last) == len(before) - 1 - 3  # PRECEDENT_CURATION_LIFT places, no more
    card = next(r for r in results if r["clause_id"] == last)["curation"]
    assert card["label"].startswith("Approved by Knowledge, 20") and card["scope"] == "clause"
    assert _post(app, KM, "curation", {"clause_id": last, "status": "cleared"}).status_code == 200
    assert _ids(app)[0] == before
    whole = _post(app, KM, "curation", {"clause_id": before[0], "scope": "document",
                                        "status": "deprecated", "reason": "superseded form"})
    assert whole.status_code == 200
    _, results = _ids(app)
    assert all(r["curation"]["label"] == "Deprecated: superseded form" for r in results)  # one document


def test_curated_order_keeps_the_llm_tier_and_better_marks() -> None:
    marks = {"d": Mark("clause", "d", "approved"), "b": Mark("clause", "b", "preferred"),
             "a": Mark("clause", "a", "deprecated", "old")}
    items = [("a", 3), ("b", 3), ("c", 2), ("d", 2), ("e", 2)]
    order = curated_order(items, marks, lambda x: x[0], lambda x: x[1], lift=3)
    # b (preferred) rises to the top of rating 3; d (approved) rises above c but not into
    # rating 3; a (deprecated) goes last.
    assert [x[0] for x in order] == ["b", "d", "c", "e", "a"]


def test_csv_import_checks_every_row_first(app: Any, tmp_path: Path) -> None:
    index = str(app.config["PRECEDENT_SETTINGS"].index_dir)
    good = tmp_path / "marks.csv"
    good.write_text("target,id,status,reason,replacement,replacement_clause_id\n"
                    "clause,cap-fees,approved,,,\n"
                    "clause,gov-de,deprecated,,Clause 12 of the 2026 MSA,gov-ny\n")
    bad = tmp_path / "bad.csv"
    bad.write_text("target,id,status\nclause,cap-fees,approved\nclause,typo-id,approved\n")
    assert addin_main(["curation", "--index", index, "import", str(bad), "--by", "km"]) == 2
    assert addin_main(["curation", "--index", index, "import", str(good), "--by", "km"]) == 0
    found = _post(app, LAWYER, "precedents", {"text": "governed by the laws of", "rerank": False})
    labels = {r["clause_id"]: r.get("curation", {}).get("label") for r in found.get_json()["results"]}
    assert labels["gov-de"] == "Deprecated: use Clause 12 of the 2026 MSA"
    assert labels.get("cap-fees", "Approved by Knowledge").startswith("Approved by Knowledge")
    assert [r["clause_id"] for r in found.get_json()["results"]][0] != "gov-de"


def test_one_search_reads_the_marks_once(app: Any, monkeypatch: Any) -> None:
    # The pipeline reads the marks to order the page; the cards' labels reuse them (one query).
    from index_builder.learn.curation import Curation

    first = _ids(app)[0][0]
    assert _post(app, KM, "curation", {"clause_id": first, "status": "approved"}).status_code == 200
    reads = []
    original = Curation.marks_for
    monkeypatch.setattr(Curation, "marks_for", lambda self, clauses: reads.append(1) or original(self, clauses))
    _, results = _ids(app)
    assert len(reads) == 1
    assert next(r for r in results if r["clause_id"] == first)["curation"]["status"] == "approved"
    _, results = _ids(app, curation=False)  # not curated: the labels are still shown
    assert len(reads) == 2 and next(r for r in results if r["clause_id"] == first)["curation"]
