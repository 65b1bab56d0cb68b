"""Ethical walls end to end: a walled user tries every path and never receives a walled
clause's id, text, title or count; audit trail and server logs never hold clause or query text.

The library: Matters/Acme/spa.txt (walled: acme-team only, never acme-conflict) and
Forms/nda.txt (open to all). Both hold an identical confidentiality clause, so variants and
"also in" notes would carry the walled copy if any path forgot the walls; alice (acme-team)
shows each path really does return the walled clause to someone allowed.
"""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

import docx
import pytest

from addin_server.annotate import Selection, annotate
from addin_server.llm.scripted import Reply, ScriptedLLMServer
from addin_server.service import build_service
from addin_server.web.app import create_app
from addin_server.web.auth import annotate_access
from index_builder.errors import ConfigError
from index_builder.index import open_store
from index_builder.index.build import build_index

from security_helpers import POLICY, WALLED_WORDS, claims, entra_settings

QUERY = "Each party shall keep the Confidential Information of the other confidential"
SHORT_QUERY = "indemnify against losses arising from breach"
SHARED = "3. Confidentiality. Each party shall keep the Confidential Information of the other confidential."
USERS = {
    "eve": ["litigation"],  # walled off from Acme
    "alice": ["acme-team"],  # on the Acme team
    "mallory": ["acme-team", "acme-conflict"],  # on the team but conflicted: denied wins
}


# Paths that must answer a walled user exactly as they answer an unknown clause id.
REFUSED = {"walled clause", "redraft with a walled id", "search by a walled example",
           "variations of a walled example", "conform a walled clause"}


def responder(body: dict[str, Any]) -> Reply:
    if body["model"] == "redraft-model":
        return Reply(content="Each party shall keep the other's information confidential [1].")
    return Reply(content="3", logprobs={"3": math.log(0.9), "2": math.log(0.1)})


@pytest.fixture
def llm() -> Iterator[ScriptedLLMServer]:
    with ScriptedLLMServer(responder) as server:
        yield server


@pytest.fixture
def library(tmp_path: Path, contracts: Path, embedder: Any, engine: dict) -> dict[str, Any]:
    """Index the contracts under the wall policy; return what is walled, read from the index."""
    for name in ("Matters/Acme/spa.txt", "Forms/nda.txt"):  # the identical clause in both
        path = contracts / name
        path.write_text(path.read_text().replace(
            next(line for line in path.read_text().splitlines() if line.startswith("3.")), SHARED))
    policy = tmp_path / "walls.json"
    policy.write_text(json.dumps(POLICY))
    values = {"index_dir": tmp_path / "index", "walls.policy_file": policy, **engine}
    settings = entra_settings("https://unused.example/keys", **values)
    build_index(settings, [contracts], embedder, progress=False)
    backend = open_store(settings).open()
    clauses = [c for c in backend.get(_all_ids(backend)) if c is not None]
    backend.close()
    walled = [c for c in clauses if c.doc_id.startswith("Matters/Acme")]
    assert walled and len(walled) < len(clauses)
    return {"policy": policy, "index": tmp_path / "index", "walled": walled,
            "open": [c for c in clauses if c not in walled]}


def _all_ids(backend: Any) -> list[str]:
    # Every clause id the version holds: a dense search for anything, as deep as the index.
    import numpy as np

    total = backend.stats()["clauses"]
    return [cid for cid, _ in backend.dense(np.ones((1, backend.dimension), dtype=np.float32), total)]


@pytest.fixture
def make_app(tmp_path: Path, library: dict[str, Any], jwks: Any, llm: ScriptedLLMServer,
             embedder: Any, engine: dict) -> Iterator[Any]:
    """make_app(**dotted overrides) -> the app over the walled library, Entra sign-in on."""
    services = []

    def make(**overrides: Any) -> Any:
        settings = entra_settings(jwks.url, **{
            "index_dir": library["index"], "walls.policy_file": library["policy"],
            "rerank.default": "off", "rerank.cross_encoder": "",
            "audit.file": tmp_path / "audit.jsonl", "llm.base_url": llm.url,
            "llm.api_key": "test-key", "llm.rerank_model": "rerank-model",
            "llm.redraft_model": "redraft-model", "llm.deadline_s": 5.0,
            "llm.request_timeout_s": 2.0, "server.rate_limit": "off",
            "server.redraft_rate_limit": "off", **engine, **overrides})
        services.append(build_service(settings, embedder=embedder))
        app = create_app(settings, services[-1])
        app.config["TESTING"] = True
        return app

    yield make
    for service in services:
        service.close()


@pytest.fixture
def app(make_app: Any) -> Any:
    return make_app()


class As:
    """A test client signed in as one of USERS (a real RS256 token from the local JWKS)."""

    def __init__(self, app: Any, sign: Any, name: str, **changes: Any) -> None:
        self.client = app.test_client()
        values = {"preferred_username": f"{name}@firm.example", "groups": USERS.get(name),
                  "oid": f"0b0b0b0b-0000-4000-8000-{sum(map(ord, name)):012d}", **changes}
        token = sign(claims(**values))
        self.headers = {"Authorization": f"Bearer {token}"}

    def post(self, route: str, body: dict[str, Any]) -> Any:
        return self.client.post(f"/api/v1/{route}", json=body, headers=self.headers)

    def get(self, route: str) -> Any:
        return self.client.get(f"/api/v1/{route}", headers=self.headers)


def leaks(response: Any, library: dict[str, Any], asked: str = "") -> list[str]:
    """Every walled id, text, word, title or document id found in a response body.

    ``asked``: the id the request itself named, which a refusal may echo ("Unknown clause id
    '...'") exactly as for an id that does not exist; the echo is not a leak.
    """
    body = response.get_data(as_text=True)
    decoded = json.dumps(response.get_json(), ensure_ascii=False) if response.is_json else body
    if asked:
        body, decoded = body.replace(asked, "<id>"), decoded.replace(asked, "<id>")
    found = []
    for clause in library["walled"]:
        for value in (clause.clause_id, clause.doc_id, clause.doc_title):
            if value and (value in decoded or value in body):  # also inside citations, notes
                found.append(value)
        if clause.text and clause.text not in SHARED and clause.text in decoded:
            found.append(clause.text[:40])
    found += [word for word in WALLED_WORDS if word in decoded]
    return found


def walled_path_calls(user: As, library: dict[str, Any]) -> dict[str, Any]:
    """One response per path a walled clause could travel by."""
    walled_id = library["walled"][0].clause_id
    open_id = library["open"][0].clause_id
    return {
        "search": user.post("precedents", {"text": QUERY, "top_k": 10}),
        "search short": user.post("precedents", {"text": SHORT_QUERY, "top_k": 10}),
        "search filtered to the walled document": user.post("precedents", {
            "text": QUERY, "filters": {"document": library["walled"][0].doc_id}}),
        "search filtered to the open document": user.post("precedents", {
            "text": QUERY, "filters": {"doc_id": library["open"][0].doc_id}}),
        "search with rerank": user.post("precedents", {"text": SHORT_QUERY, "rerank": True}),
        # Follow the cursor and strict mode (issue 31): the same search, the same walls.
        "strict search": user.post("precedents", {"text": SHARED, "mode": "strict",
                                                  "min_similarity": 0.5, "top_k": 10}),
        "cursor search": user.post("precedents", {"text": QUERY, "trigger": "cursor", "top_k": 10}),
        "search by a walled example": user.post("precedents", {"examples": [{"clause_id": walled_id}]}),
        "variations": user.post("variations", {"text": QUERY, "min_score": 0.01}),
        "variations of a walled example": user.post("variations", {
            "examples": [{"clause_id": walled_id}], "min_score": 0.01}),
        "facets": user.get("facets"),
        "health": user.get("health"),
        "walled clause": user.get(f"clauses/{quote(walled_id, safe='/')}"),
        "open clause and neighbours": user.get(f"clauses/{quote(open_id, safe='/')}"),
        "redraft with a walled id": user.post("redraft", {"text": QUERY, "clause_ids": [walled_id]}),
        "redraft by search": user.post("redraft", {"text": QUERY}),
        "conform a walled clause": user.post("conform", {"clause_ids": [walled_id], "document": {}}),
        "conform an open clause (its document's definitions)": user.post("conform", {"clause_ids": [open_id], "document": {}}),
    }


# Walls are applied inside each engine's search: the whole walk runs on Milvus too.
@pytest.mark.parametrize("engine", ["embedded", pytest.param("milvus", marks=pytest.mark.slow)],
                         indirect=True)
def test_a_walled_user_never_receives_a_walled_clause(app: Any, sign: Any, library: dict,
                                                      llm: ScriptedLLMServer) -> None:
    for name in ("eve", "mallory"):
        calls = walled_path_calls(As(app, sign, name), library)
        asked = library["walled"][0].clause_id
        found = {path: leaks(r, library, asked if path in REFUSED else "") for path, r in calls.items()}
        assert {path: hits for path, hits in found.items() if hits} == {}, name
        answered = {path for path, r in calls.items() if r.status_code == 200}
        assert answered == set(calls) - REFUSED, name  # each path really ran
        assert calls["search"].status_code == 200 and calls["search"].get_json()["results"]
        assert calls["search filtered to the walled document"].get_json()["results"] == []
        health = calls["health"].get_json()["index"]
        assert (health["documents"], health["clauses"]) == (1, len(library["open"]))
        facets = calls["facets"].get_json()["fields"]
        open_values = {v for c in library["open"] for v in c.metadata.values()}
        assert facets and all(item["value"] in open_values and item["count"] == 1
                              for values in facets.values() for item in values), facets
        summary = calls["variations"].get_json()["summary"]
        assert summary["documents"] == 1, summary
        unknown = As(app, sign, name).get("clauses/no-such-clause")
        for path in sorted(REFUSED):
            refused = calls[path]
            assert refused.status_code == unknown.status_code == 404, path
            assert refused.get_json()["error"]["code"] == unknown.get_json()["error"]["code"]
            assert _shape(refused, library["walled"][0].clause_id) == _shape(unknown, "no-such-clause")
    prompts = " ".join(json.dumps(r.body) for r in llm.chat_requests())
    assert not [word for word in WALLED_WORDS if word in prompts]  # nor did the LLM see them


def test_the_same_paths_do_return_walled_clauses_to_the_team(app: Any, sign: Any,
                                                             library: dict) -> None:
    calls = walled_path_calls(As(app, sign, "alice"), library)
    walled_ids = {c.clause_id for c in library["walled"]}
    for path in ("search", "variations", "strict search", "cursor search", *sorted(REFUSED)):
        assert calls[path].status_code == 200, path
        assert leaks(calls[path], library), f"{path} shows the walled clause to the team"
    results = calls["search"].get_json()["results"]
    also_in = {v["clause_id"] for r in results for v in r.get("variants", [])} | \
        {r["clause_id"] for r in results}
    assert also_in & walled_ids  # the identical clause: found for alice, folded or listed
    health = calls["health"].get_json()["index"]
    assert health["documents"] == 2
    assert calls["variations"].get_json()["summary"]["documents"] == 2
    assert len(calls["facets"].get_json()["fields"]["document_type"]) == 2


def test_unknown_groups_are_refused_while_walls_are_up(app: Any, sign: Any) -> None:
    overage = As(app, sign, "oscar", groups=None, _claim_names={"groups": "src1"})
    refused = overage.post("precedents", {"text": QUERY})
    assert refused.status_code == 403 and "directory export" in refused.get_json()["error"]["message"]


def test_without_required_groups_an_unknown_user_counts_as_in_no_group(make_app: Any, sign: Any,
                                                                        library: dict) -> None:
    app = make_app(**{"walls.require_groups": False})
    overage = As(app, sign, "oscar", groups=None, _claim_names={"groups": "src1"})
    response = overage.post("precedents", {"text": QUERY, "top_k": 10})
    assert response.status_code == 200 and response.get_json()["results"]
    assert leaks(response, library) == []


def test_annotate_runs_as_a_group_and_refuses_without_one(tmp_path: Path, library: dict,
                                                          embedder: Any) -> None:
    settings = entra_settings("https://unused.example/keys", **{
        "index_dir": library["index"], "rerank.cross_encoder": "", "audit.enabled": False})
    service = build_service(settings, embedder=embedder)
    try:
        with pytest.raises(ConfigError, match="--as-user"):
            annotate_access(settings, service.pipeline.backend)
        access = annotate_access(settings, service.pipeline.backend, groups=("litigation",))
        draft = docx.Document()
        draft.add_paragraph(QUERY + ", and shall indemnify the other against all losses.")
        draft.save(tmp_path / "draft.docx")

        def find(text: str) -> list[Any]:
            return [r.hit for r in service.search(text, 3, (), False, access=access).results]

        report = annotate(tmp_path / "draft.docx", tmp_path / "out.docx", find, Selection(min_chars=20))
        comments = " ".join(c.text for c in docx.Document(str(tmp_path / "out.docx")).comments)
        assert report.comments and "nda" in comments
        assert not [c.clause_id for c in library["walled"] if c.clause_id in comments]
        assert not [w for w in WALLED_WORDS if w in comments]
    finally:
        service.close()


def test_no_query_or_clause_text_in_the_audit_trail_or_logs(app: Any, sign: Any, library: dict,
                                                            tmp_path: Path,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    for name in ("eve", "alice"):
        walled_path_calls(As(app, sign, name), library)
    trail = (tmp_path / "audit.jsonl").read_text()
    lines = [json.loads(line) for line in trail.splitlines()]
    assert len(lines) == 2 * 18 and {e["user"] for e in lines} == {"eve@firm.example", "alice@firm.example"}
    assert any(set(c.clause_id for c in library["walled"]) & set(e["clause_ids"])
               for e in lines if e["user"] == "alice@firm.example")  # the trail answers "who saw X"
    # What production logs at INFO, plus our own packages at DEBUG.
    ours = ("addin_server", "index_builder", "werkzeug", "flask")
    logged = "\n".join(r.getMessage() for r in caplog.records
                       if r.levelno >= logging.INFO or r.name.startswith(ours))
    assert logged  # the server did log the calls
    redrafts = [e for e in lines if e["route"] == "/api/v1/redraft" and e["status"] == 200]
    assert redrafts and all(e["llm_model"] == "redraft-model" for e in redrafts)
    searches = [e for e in lines if e["route"] == "/api/v1/precedents" and e["status"] == 200]
    assert sorted(str(e["llm_model"]) for e in searches).count("rerank-model") == 2  # rerank: True
    assert all(e["index_version"] for e in lines)
    texts = [QUERY, SHORT_QUERY, *WALLED_WORDS] + [c.text for c in library["walled"] + library["open"]]
    for text in texts:
        assert text not in trail, text[:40]
        assert text not in logged, text[:40]
    for word in ("confidential", "indemnify"):
        assert word not in trail.lower() and word not in logged.lower()


def _shape(response: Any, clause_id: str) -> str:
    """The 404 body with the id it names taken out: a walled id must read like an unknown one."""
    return response.get_data(as_text=True).replace(clause_id, "<id>")


def test_a_redraft_by_a_drafting_operation_names_no_model_in_the_trail(app: Any, sign: Any, library: dict,
                                                                       tmp_path: Path) -> None:
    # A new user read llm_model "local" on a draft no model wrote; the trail names a model only where
    # text may have gone to one.
    answer = As(app, sign, "alice").post("redraft", {
        "text": "Either party may terminate this Agreement on thirty (30) days' written notice.",
        "instructions": "Change 30 days to 45 days", "producer": "operation", "clause_ids": []})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["producer"]["kind"] == "operation"
    line = json.loads((tmp_path / "audit.jsonl").read_text().splitlines()[-1])
    assert line["route"] == "/api/v1/redraft" and line["llm_model"] is None
