"""Walls for usage feedback and curation: an event can only name a clause the user was shown
and may still see; a curator can only mark what they may see; a card never names a walled
replacement to a walled user."""

from __future__ import annotations

from typing import Any

from test_walls import QUERY, As, app, leaks, library, llm, make_app  # noqa: F401 (fixtures)


def _search(user: As) -> dict[str, Any]:
    found = user.post("precedents", {"text": QUERY, "top_k": 10})
    assert found.status_code == 200
    return found.get_json()


def test_events_only_name_clauses_the_user_was_shown(app: Any, sign: Any, library: dict) -> None:  # noqa: F811 (fixtures of test_walls)
    alice, eve = As(app, sign, "alice"), As(app, sign, "eve")
    hers = _search(alice)
    walled = next(r for r in hers["results"] if r["clause_id"] in {c.clause_id for c in library["walled"]})
    # Eve replays Alice's list: unknown to her, exactly as a made-up id.
    replay = eve.post("feedback", {"list_id": hers["list_id"], "events": [
        {"kind": "insert", "clause_id": walled["clause_id"], "rank": walled["rank"]}]})
    assert replay.status_code == 404 and not leaks(replay, library, walled["clause_id"])
    # Eve names the walled clause against her own list: not in it, refused.
    mine = _search(eve)
    named = eve.post("feedback", {"list_id": mine["list_id"], "events": [
        {"kind": "copy", "clause_id": walled["clause_id"], "rank": 1}]})
    assert named.status_code == 404 and not leaks(named, library, walled["clause_id"])
    # Alice's own event on the walled clause she was shown is kept.
    kept = alice.post("feedback", {"list_id": hers["list_id"], "events": [
        {"kind": "insert", "clause_id": walled["clause_id"], "rank": walled["rank"]}]})
    assert kept.status_code == 200 and kept.get_json() == {"recorded": 1}


def test_curation_is_walled_for_curators_and_readers(app: Any, sign: Any, library: dict) -> None:  # noqa: F811 (fixtures of test_walls)
    walled_id = library["walled"][0].clause_id
    curator = As(app, sign, "eve", groups=["litigation", "knowledge"])  # walled off from Acme
    refused = curator.post("curation", {"clause_id": walled_id, "status": "approved"})
    assert refused.status_code == 404 and not leaks(refused, library, walled_id)
    # An Acme curator deprecates an open clause in favour of a walled one.
    acme_curator = As(app, sign, "alice", groups=["acme-team", "knowledge"])
    eve = As(app, sign, "eve")
    open_id = next(r["clause_id"] for r in _search(eve)["results"])
    marked = acme_curator.post("curation", {"clause_id": open_id, "status": "deprecated",
                                            "reason": "superseded",
                                            "replacement": "3 of the Zanzibar SPA",
                                            "replacement_clause_id": walled_id})
    assert marked.status_code == 200, marked.get_json()
    seen = eve.post("precedents", {"text": QUERY, "top_k": 10})
    card = next(r for r in seen.get_json()["results"] if r["clause_id"] == open_id)["curation"]
    assert card["status"] == "deprecated" and card["label"] == "Deprecated: superseded"
    assert card["replacement"] == "" and card["replacement_clause_id"] == ""
    assert not leaks(seen, library)
    alice_card = next(r for r in _search(As(app, sign, "alice"))["results"]
                      if r["clause_id"] == open_id)["curation"]
    assert alice_card["replacement_clause_id"] == walled_id  # who may see it, sees it
