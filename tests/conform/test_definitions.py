"""Definitions as precedent: their own units in the index, searched apart from clauses."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from index_builder.index.backend import Condition
from index_builder.ingest import read_clauses
from index_builder.ingest.definitions import definition_units, looks_like_definition, unit_filters

PILOT = "common-paper-cc-by-4.0/common-paper-pilot-agreement.docx"


def test_each_definition_of_a_real_agreement_is_a_unit_with_its_source(contracts_dir: Path) -> None:
    clauses = read_clauses(contracts_dir / PILOT, doc_id="pilot", source_path="pilot.docx")
    units = definition_units(clauses)
    by_term = {u.metadata["term"]: u for u in units}
    assert {"Customer Content", "Feedback", "Order Form"} <= set(by_term)
    feedback = by_term["Feedback"]
    assert feedback.text.startswith("“Feedback” means suggestions")  # without the precedent's number
    assert feedback.metadata["unit"] == "definition" and feedback.heading == "Feedback"
    assert feedback.section and feedback.doc_id == "pilot" and feedback.source_path == "pilot.docx"
    assert len({u.clause_id for u in units}) == len(units)
    assert not any("(the" in u.text[:20] for u in units)


def test_unit_filters_keep_clauses_and_definitions_apart() -> None:
    fields = {"unit", "doc_id"}
    assert unit_filters((), fields) == (Condition("unit", ("definition",), negate=True),)
    assert unit_filters((Condition("unit", ("definition",)),), fields) == (Condition("unit", ("definition",)),)
    assert unit_filters((Condition("unit", ("clause",)),), fields) == (Condition("unit", ("definition",), negate=True),)
    assert unit_filters((Condition("unit", ("clause",)),), {"doc_id"}) == ()  # an index from before definitions
    assert looks_like_definition("“Fees” means the amounts in the Order Form.")
    assert not looks_like_definition("Customer will pay the Fees (the “Charges”) on time.")


def test_find_precedent_on_a_definition_searches_definitions(conform_app: Any) -> None:
    client = conform_app.test_client()
    text = "“Client Data” means data and materials submitted by the Client to the Service."
    defs = client.post("/api/v1/precedents", json={"text": text, "filters": {"unit": "definition"}, "top_k": 5}).get_json()
    assert defs["results"] and all("#def:" in r["clause_id"] for r in defs["results"])
    plain = client.post("/api/v1/precedents", json={"text": text, "top_k": 10}).get_json()
    assert plain["results"] and not any("#def:" in r["clause_id"] for r in plain["results"])
    clauses = client.post("/api/v1/precedents", json={"text": text, "filters": {"unit": "clause"}, "top_k": 10}).get_json()
    assert [r["clause_id"] for r in clauses["results"]] == [r["clause_id"] for r in plain["results"]]


def test_wordings_and_full_clause_keep_definitions_apart(conform_app: Any) -> None:
    """The explorer (and market, which shares its matches) and a clause's neighbours are clauses."""
    client = conform_app.test_client()
    text = "“Client Data” means data and materials submitted by the Client to the Service."
    wordings = client.post("/api/v1/variations", json={"text": text}).get_json()
    majors = wordings["majors"]
    ids = [m["representative"]["clause_id"] for m in majors] + [
        w["clause_id"] for m in majors for w in m["minors"]]
    assert ids and not any("#def:" in i for i in ids)
    found = client.post("/api/v1/precedents", json={"text": text, "top_k": 3}).get_json()["results"]
    answer = client.get(f"/api/v1/clauses/{quote(found[0]['clause_id'], safe='')}").get_json()
    context = answer["context"]
    assert not any("#def:" in c["clause_id"] for c in context["before"] + context["after"])
    definitions = client.post("/api/v1/precedents", json={"text": text, "filters": {"unit": "definition"},
                                                           "top_k": 20}).get_json()["results"]
    for definition in definitions:  # the first definition of a document follows its last clauses
        around = client.get(f"/api/v1/clauses/{quote(definition['clause_id'], safe='')}").get_json()["context"]
        assert all("#def:" in c["clause_id"] for c in around["before"] + around["after"])
