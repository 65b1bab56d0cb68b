"""POST /api/v1/variations and GET /api/v1/facets over real agreements (hashing embedder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from addin_server.service import build_service
from addin_server.web import explore
from addin_server.web.app import create_app
from index_builder.index.backend import VersionData
from index_builder.index.embedded import EmbeddedStore
from index_builder.index.store import FORMAT_VERSION
from index_builder.ingest import read_clauses
from index_builder.ingest.metadata import clause_facets, for_file, with_fields
from index_builder.retrieve.matches import default_floor
from index_builder.settings import load_settings

DOCS = ("openagreements-restrictive-covenant-texas.docx",
        "openagreements-restrictive-covenant-ohio.docx",
        "openagreements-restrictive-covenant-california.docx",
        "common-paper-mutual-nda.docx")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory, contracts_dir: Path, embedder_factory):  # type: ignore[no-untyped-def]
    embedder = embedder_factory()
    clauses = []
    for name in DOCS:
        path = next(contracts_dir.rglob(name))
        doc_id = path.stem
        clauses += with_fields(read_clauses(path, doc_id, name), for_file(path))
    root = tmp_path_factory.mktemp("explore") / "index"
    store = EmbeddedStore(root)
    store.write(VersionData(
        params={"format_version": FORMAT_VERSION, "embedding_model": embedder.model_id},
        clauses=clauses, documents={c.doc_id: {"kind": "file"} for c in clauses},
        embeddings=embedder.embed([c.text for c in clauses])))
    settings = load_settings({}, {"index_dir": root, "rerank.cross_encoder": ""})
    service = build_service(settings, embedder=embedder, store=store)
    flask_app = create_app(settings, service)
    if "explore" not in flask_app.blueprints:
        flask_app.register_blueprint(explore.bp)
    flask_app.config["TESTING"] = True
    yield flask_app
    service.close()


def non_compete(app) -> dict:  # type: ignore[no-untyped-def,type-arg]
    pipeline = app.extensions["precedent"].pipeline
    [clause] = [c for c in pipeline.backend.index.clauses  # the clause, not its cover-page row
                if c.doc_id.endswith("texas") and c.heading.startswith("Non-Competition")
                and c.section][:1]
    return {"clause_id": clause.clause_id, "text": clause.text}


def test_variations_groups_the_state_variants_with_counts_and_blacklines(app):  # type: ignore[no-untyped-def]
    example = non_compete(app)
    reply = app.test_client().post("/api/v1/variations", json={
        "examples": [{"clause_id": example["clause_id"]}], "min_score": 0.6,
        "major_threshold": 0.5, "minor_threshold": 0.95})
    assert reply.status_code == 200, reply.get_json()
    body = reply.get_json()
    assert set(body) == {"summary", "majors", "settings", "truncated", "timings_ms"}
    summary = body["summary"]
    assert summary["matches"] == sum(m["count"] for m in body["majors"])
    assert summary["wordings"] == len(body["majors"])
    first = body["majors"][0]
    assert set(first) == {"representative", "count", "documents", "minors"}
    assert set(first["representative"]) == {"clause_id", "text", "source", "score", "count",
                                            "documents"}
    for minor in first["minors"]:
        assert 0.5 <= minor["similarity"] < 0.95 and minor["count"] >= 1
        assert {op["op"] for op in minor["blackline"]} <= {"equal", "insert", "delete"}
        assert "".join(o["text"] for o in minor["blackline"] if o["op"] != "delete") == minor["text"]
    # The Texas non-compete's own wording is found in the other states too.
    docs = {d["doc_id"] for m in body["majors"] for d in m["documents"]}
    assert "openagreements-restrictive-covenant-texas" in docs and len(docs) >= 2


def test_variations_refuses_bad_thresholds_and_empty_requests(app):  # type: ignore[no-untyped-def]
    client = app.test_client()
    bad = client.post("/api/v1/variations", json={"text": "non-compete", "major_threshold": 0.9,
                                                   "minor_threshold": 0.5})
    assert bad.status_code == 400 and "at least the major" in bad.get_json()["error"]["message"]
    assert client.post("/api/v1/variations", json={}).status_code == 400
    assert client.post("/api/v1/variations", json={"text": "x", "min_score": 2}).status_code == 400
    missing = client.post("/api/v1/variations", json={"examples": [{"clause_id": "nope#1"}]})
    assert missing.status_code == 404


def test_facets_count_documents_per_value_and_narrow_by_filters(app):  # type: ignore[no-untyped-def]
    client = app.test_client()
    fields = client.get("/api/v1/facets").get_json()["fields"]
    assert {"value": "Restrictive Covenant Agreement", "count": 3} in fields["document_type"]
    assert {"value": "Mutual NDA", "count": 1} in fields["document_type"]
    assert fields["governing_law"] == [{"value": "California", "count": 1},
                                       {"value": "Ohio", "count": 1},
                                       {"value": "Texas", "count": 1}]
    assert {"value": "Employer", "count": 3} in fields["party_roles"]
    narrowed = client.get("/api/v1/facets?governing_law=texas").get_json()["fields"]
    assert narrowed["document_type"] == [{"value": "Restrictive Covenant Agreement", "count": 1}]


def test_clause_facets_over_candidates():
    from index_builder.model import Clause

    clauses = [Clause("a#1", "x", "a", metadata={"party_roles": "Customer, Provider"}),
               Clause("a#2", "y", "a", metadata={"party_roles": "Customer, Provider"}),
               Clause("b#1", "z", "b", metadata={"party_roles": "Customer, Vendor",
                                                 "governing_law": "Texas"})]
    assert clause_facets(clauses) == {
        "governing_law": [{"value": "Texas", "count": 1}],
        "party_roles": [{"value": "Customer", "count": 2}, {"value": "Provider", "count": 1},
                        {"value": "Vendor", "count": 1}]}


def test_precedents_by_examples_leave_the_examples_out_and_carry_spans_and_facets(app):  # type: ignore[no-untyped-def]
    example = non_compete(app)
    pipeline = app.extensions["precedent"].pipeline
    ohio = [c for c in pipeline.backend.index.clauses
            if c.doc_id.endswith("ohio") and c.heading.startswith("Non-Competition") and c.section][0]
    client = app.test_client()
    reply = client.post("/api/v1/precedents", json={
        "examples": [{"clause_id": example["clause_id"]}, {"text": ohio.text}], "top_k": 5,
        "rerank": False})
    assert reply.status_code == 200, reply.get_json()
    body = reply.get_json()
    ids = [r["clause_id"] for r in body["results"]]
    assert example["clause_id"] not in ids and ohio.clause_id not in ids  # by id, by wording
    assert all(isinstance(r["spans"], list) for r in body["results"])
    for result in body["results"]:
        for span in result["spans"]:
            assert 0 <= span["start"] < span["end"] <= len(result["text"])
    assert any(r["spans"] for r in body["results"])  # these clauses run to many sentences
    assert body["facets"]["governing_law"][0]["count"] == 1  # documents, not clauses
    assert {f["value"] for f in body["facets"]["document_type"]} >= {"Restrictive Covenant Agreement"}
    bad = client.post("/api/v1/precedents", json={"examples": [{"clause": "x"}]})
    assert bad.status_code == 400 and "examples" in bad.get_json()["error"]["message"]


def test_the_default_floor_is_higher_for_a_whole_clause_than_for_a_phrase(app):  # type: ignore[no-untyped-def]
    retrieval = app.config["PRECEDENT_SETTINGS"].retrieval
    clause = " ".join(["word"] * (retrieval.expansion_max_words + 1))
    assert default_floor([clause], retrieval) == retrieval.explorer_min_score_clause
    assert default_floor([clause, "non-compete"], retrieval) == retrieval.explorer_min_score
    reply = app.test_client().post("/api/v1/variations", json={"text": non_compete(app)["text"]})
    assert reply.get_json()["settings"] == {
        "min_score": retrieval.explorer_min_score_clause, "major_threshold": 0.5,
        "minor_threshold": 0.9, "max_matches": retrieval.explorer_max_matches}
