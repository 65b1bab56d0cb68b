"""Usage feedback end to end on the small index: shown lists, events, no text stored, bad
input, rate limit, a corrupted database at start, and IT's delete / purge / export."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from addin_server.cli import main as addin_main
from server_data import CLAUSES

QUERY = "aggregate liability cap on fees paid"


def _db(app: Any) -> Path:
    """The usage database, once the lists stored after each answer (web/deferred.py) are in."""
    assert app.extensions["precedent_usage"].writes.drain()
    return Path(app.config["PRECEDENT_SETTINGS"].index_dir).resolve().parent / "usage" / "usage.sqlite"


def _search(client: Any, text: str = QUERY) -> dict[str, Any]:
    response = client.post("/api/v1/precedents", json={"text": text, "top_k": 5, "rerank": False})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def _event(found: dict[str, Any], i: int = 0, kind: str = "insert", **extra: Any) -> dict[str, Any]:
    item = found["results"][i]
    return {"kind": kind, "clause_id": item["clause_id"], "rank": item["rank"], "position": i + 1,
            **extra}


def test_events_are_recorded_against_the_list_and_hold_no_text(make_app: Any) -> None:
    app = make_app(llm=False)
    client = app.test_client()
    found = _search(client)
    assert found["list_id"]
    events = [_event(found, 0, "insert"), _event(found, 1, "not_relevant", reason="outdated"),
              _event(found, 2, "compare")]
    response = client.post("/api/v1/feedback", json={"list_id": found["list_id"], "events": events})
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {"recorded": 3}
    with sqlite3.connect(_db(app)) as conn:
        rows = conn.execute("SELECT kind, clause_id, rank, position, reason FROM events").fetchall()
        shown = conn.execute("SELECT count(*), count(features) FROM shown_items").fetchone()
    assert [r[0] for r in rows] == ["insert", "not_relevant", "compare"]
    assert rows[1][4] == "outdated" and rows[0][2:4] == (1, 1)
    assert shown[0] >= 3 and shown[1] >= 3  # one feature row per result
    # The database files (and any journal beside them) never hold the query or a clause's text.
    stored = b"".join(p.read_bytes() for p in _db(app).parent.iterdir() if p.is_file())
    assert QUERY.encode() not in stored and b"aggregate liability" not in stored
    for text in CLAUSES.values():
        assert text[:40].encode() not in stored


@pytest.mark.parametrize("change, status", [
    ({"clause_id": "no-such-clause"}, 404),  # not in that list
    ({"rank": 5}, 404),  # in the list, but not at that rank
    ({"kind": "teleport"}, 400),
    ({"reason": "The clause said something we did not like"}, 400),  # reasons are codes, not text
])
def test_events_naming_what_was_not_shown_are_refused_whole(make_app: Any, change: dict, status: int) -> None:
    app = make_app(llm=False)
    client = app.test_client()
    found = _search(client)
    events = [_event(found, 0), {**_event(found, 1, "not_relevant"), **change}]
    response = client.post("/api/v1/feedback", json={"list_id": found["list_id"], "events": events})
    assert response.status_code == status, response.get_json()
    with sqlite3.connect(_db(app)) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 0


def test_unknown_list_and_bad_bodies(make_app: Any) -> None:
    client = make_app(llm=False).test_client()
    found = _search(client)
    unknown = client.post("/api/v1/feedback", json={"list_id": "f" * 32, "events": [_event(found)]})
    assert unknown.status_code == 404 and "search again" in unknown.get_json()["error"]["message"]
    for body in ({"events": [_event(found)]}, {"list_id": found["list_id"], "events": []},
                 {"list_id": found["list_id"], "events": [_event(found)] * 21},
                 {"list_id": found["list_id"], "events": ["insert"]}):
        assert client.post("/api/v1/feedback", json=body).status_code == 400
    assert client.post("/api/v1/feedback", data="not json",
                       content_type="application/json").status_code == 400


def test_a_flood_of_events_from_one_user_is_rate_limited(make_app: Any) -> None:
    client = make_app(llm=False, learning__rate_limit="3/minute").test_client()
    found = _search(client)
    body = {"list_id": found["list_id"], "events": [_event(found)]}
    codes = [client.post("/api/v1/feedback", json=body).status_code for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]
    refused = client.post("/api/v1/feedback", json=body)
    assert "too many" in refused.get_json()["error"]["message"] and refused.headers["Retry-After"]
    assert _search(client)["results"]  # search has its own limit: still served


def test_a_corrupted_database_at_start_leaves_search_working(make_app: Any, app_settings: Any,
                                                             caplog: Any) -> None:
    db = Path(app_settings.index_dir).resolve().parent / "usage" / "usage.sqlite"
    db.parent.mkdir(parents=True, exist_ok=True)
    db.write_bytes(b"this is not a database" * 500)
    app = make_app(llm=False)
    assert any("cannot be used" in r.getMessage() and "move the file aside" in r.getMessage()
               for r in caplog.records)
    client = app.test_client()
    found = _search(client)
    assert found["results"] and "list_id" not in found
    refused = client.post("/api/v1/feedback", json={"list_id": "x", "events": [_event(found)]})
    assert refused.status_code == 503
    assert refused.get_json()["error"]["code"] == "feedback_unavailable"
    health = client.get("/api/v1/health").get_json()
    assert health["feedback"]["enabled"] is False and "usage.sqlite" in health["feedback"]["reason"]
    assert db.read_bytes().startswith(b"this is not a database")  # kept for IT to inspect


def test_feedback_off_records_nothing(make_app: Any) -> None:
    client = make_app(llm=False, learning__feedback=False).test_client()
    found = _search(client)
    assert "list_id" not in found
    assert client.post("/api/v1/feedback", json={"list_id": "x", "events": [_event(found)]}).status_code == 503


def test_health_and_audit_name_the_ranker(make_app: Any, tmp_path: Path) -> None:
    app = make_app(llm=False, audit__file=str(tmp_path / "audit.jsonl"))
    client = app.test_client()
    health = client.get("/api/v1/health").get_json()
    assert health["ranker"]["version"] and health["feedback"]["enabled"] is True
    found = _search(client)
    client.post("/api/v1/feedback", json={"list_id": found["list_id"], "events": [_event(found)]})
    lines = [json.loads(x) for x in (tmp_path / "audit.jsonl").read_text().splitlines()]
    feedback = [x for x in lines if x["route"] == "/api/v1/feedback"]
    assert feedback and feedback[0]["requested_ids"] == [found["results"][0]["clause_id"]]
    assert all(x["ranker"] == health["ranker"]["version"] for x in lines)


def test_delete_purge_and_export_from_the_command_line(make_app: Any, tmp_path: Path,
                                                       capsys: Any) -> None:
    app = make_app(llm=False)
    client = app.test_client()
    found = _search(client)
    client.post("/api/v1/feedback", json={"list_id": found["list_id"], "events": [_event(found)]})
    index = str(app.config["PRECEDENT_SETTINGS"].index_dir)
    out = tmp_path / "events.jsonl"
    assert addin_main(["feedback", "--index", index, "export", "--out", str(out)]) == 0
    exported = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(exported) == 1 and exported[0]["events"][0]["kind"] == "insert"
    assert len(exported[0]["items"][0]["features"]) == 15 and QUERY not in out.read_text()
    assert addin_main(["feedback", "--index", index, "purge"]) == 0  # nothing is a year old
    assert addin_main(["feedback", "--index", index, "delete", "--user", "anonymous"]) == 0
    assert addin_main(["feedback", "--index", index, "stats"]) == 0
    printed = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert printed[1]["events"] == 0 and printed[2]["events"] == 1 and printed[2]["lists"] >= 1
    assert printed[3]["events"] == 0 and printed[3]["lists"] == 0


def test_swaps_for_position_bias_are_recorded(make_app: Any) -> None:
    plain = _search(make_app(llm=False).test_client())
    app = make_app(llm=False, learning__swap_share=1.0)
    swapped = _search(app.test_client())
    with sqlite3.connect(_db(app)) as conn:
        (p,) = conn.execute("SELECT swapped FROM shown_lists WHERE swapped IS NOT NULL").fetchone()
    ids = [r["clause_id"] for r in plain["results"]]
    ids[p - 1], ids[p] = ids[p], ids[p - 1]
    assert [r["clause_id"] for r in swapped["results"]] == ids
    assert [r["rank"] for r in swapped["results"]] == list(range(1, len(ids) + 1))
