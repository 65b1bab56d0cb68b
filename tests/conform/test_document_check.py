"""The open document as the server reads it (the one reader of terms): its profile and Check
document, on a real agreement's paragraphs as the pane sends them (Common Paper Independent
Contractor Agreement, CC BY 4.0: tests/js/fixtures/documents/contractor-agreement.json) and on
small edits of it that plant each kind of error. Ported from the pane's old JavaScript reader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from addin_server.conform import documents
from addin_server.conform.check import check_document
from index_builder.ingest.definitions import search_unit
from index_builder.reading.defined_terms import defined_terms
from index_builder.reading.document import read_document, section_map
from index_builder.reading.paragraphs import from_pane

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "fixtures" / "documents" / "contractor-agreement.json"
CONTRACTOR: list[dict[str, Any]] = json.loads(FIXTURE.read_text())


def at(label: str) -> int:
    return next(p["index"] for p in CONTRACTOR if p["listString"] == label and len(p["text"]) > 40)


def edit(paragraphs: list[dict[str, Any]], index: int, fn: Callable[[str], str]) -> list[dict[str, Any]]:
    return [dict(p, text=fn(p["text"])) if p["index"] == index else p for p in paragraphs]


def check(paragraphs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    read = documents.read(from_pane(paragraphs))
    return check_document(read.paragraphs, read.document)


def kinds(found: list[dict[str, Any]], kind: str) -> list[str]:
    return [f["term"] for f in found if f["kind"] == kind]


def test_profile_of_a_real_agreement() -> None:
    doc = read_document(from_pane(CONTRACTOR))
    assert doc.party_names[:2] == ("Company", "Contractor")
    assert doc.definition("Work Product").section == "10.11"
    sections = {s.number: s.heading for s in doc.sections}
    assert sections["8.4"] == "Exceptions" and sections["4.2"] == "Termination" and "4.2(a)" in sections
    assert doc.reference_word == "Section" and doc.self_name == "Agreement"


def test_the_unmodified_agreement_has_no_missing_sections_duplicates_or_unused_definitions() -> None:
    found = check(CONTRACTOR)
    assert kinds(found, "missing-section") == [] and kinds(found, "defined-twice") == [] and kinds(found, "unused") == []


def test_planted_errors_are_each_found_at_their_paragraph() -> None:
    doc = edit(CONTRACTOR, at("8.2"), lambda t: f"{t} Increased Claims are not subject to this cap.")
    doc = edit(doc, at("9.3"), lambda t: t.replace("Contractor may not assign", "Contractor may not, except under Section 14.2 (Exceptions), assign"))
    doc = edit(doc, at("9.6"), lambda t: f"{t} \u201cServices\u201d means any work Contractor does for anyone.")
    doc = edit(doc, at("5.1"), lambda t: t.replace("Confidential Information", "Confidential information"))
    found = check(doc)
    assert next(f for f in found if f["kind"] == "undefined" and f["term"] == "Increased Claims")["index"] == at("8.2")
    assert kinds(found, "missing-section") == ["14.2"]
    assert kinds(found, "defined-twice") == ["Services"]
    assert "Confidential Information" in kinds(found, "capitalisation")
    assert [f["kind"] for f in found] == sorted((f["kind"] for f in found), key=["undefined", "defined-twice", "unused",
                                                                                 "capitalisation", "missing-section"].index)


def test_a_lowercase_cross_reference_is_checked_and_prose_clause_is_not_one() -> None:
    # English style writes "subject to clause 7.3"; it was never flagged, "Clause 7.3" was.
    doc = edit(CONTRACTOR, at("9.3"), lambda t: t.replace("Contractor may not assign",
                                                          "Subject to clause 14.2, Contractor may not assign"))
    doc = edit(doc, at("8.2"), lambda t: f"{t} This clause survives as set out in section 8.4.")
    found = check(doc)
    assert kinds(found, "missing-section") == ["14.2"]
    assert next(f for f in found if f["kind"] == "missing-section")["search"] == "clause 14.2"
    assert read_document(from_pane(doc)).reference_word == "Section"


def test_a_definition_nobody_uses_is_reported() -> None:
    doc = edit(CONTRACTOR, at("10.7"), lambda _: "\u201cMoral Rights\u201d means rights of paternity, integrity, disclosure and withdrawal.")
    doc = [dict(p, text="Deleted.") if p["index"] == at("3.2") else p for p in doc]
    assert "Moral Rights" in kinds(check(doc), "unused")


def test_names_of_laws_bodies_places_and_parts_are_not_undefined_terms_a_real_one_still_is() -> None:
    doc = edit(CONTRACTOR, at("10.7"), lambda t: (
        f"{t} Contractor will comply with OFAC\u2019s Specially Designated Nationals and Blocked Persons List, the Health "
        "Insurance Portability and Accountability Act, rules of the Office of Foreign Assets Control and the Delaware "
        "General Corporation Law, as any California-based Employee would under the Standard Terms. The Passive Retention "
        "Amount is paid monthly, but this does not extend to the Escrow Materials."))
    assert kinds(check(doc), "undefined") == ["Passive Retention Amount", "Escrow Materials"]


def test_plural_singular_and_a_statutes_section() -> None:
    doc = [{"index": 0, "text": "1. Definitions. \u201cCovered Employees\u201d means the staff named in writing. \u201cHigh Risk "
                                "Activity\u201d means a use where failure could cause death.", "listString": "1.", "inTable": False},
           {"index": 1, "text": "2. Duties. Each Covered Employee will avoid High Risk Activities. Removal follows Section "
                                "141(k) and Section 2.", "listString": "2.", "inTable": False}]
    found = check(doc)
    assert kinds(found, "unused") == [] and kinds(found, "missing-section") == []
    planted = edit(doc, 1, lambda t: f"{t} See Section 7.")
    assert kinds(check(planted), "missing-section") == ["7"]


def test_bad_input_no_numbering_no_definitions_non_english() -> None:
    plain = [{"index": 0, "text": "Le Fournisseur fournit les Services au Client conform\u00e9ment \u00e0 l\u2019article 12."}]
    assert kinds(check(plain), "missing-section") == [] and section_map(from_pane(plain)) == []
    french = [{"index": 0, "text": "Le Fournisseur (le \u00ab Prestataire \u00bb) fournit les Services au Client."},
              {"index": 1, "text": "\u201cDonn\u00e9es Client\u201d d\u00e9signe les donn\u00e9es du Client.", "listString": "1.1"}]
    assert read_document(from_pane(french)).definitions == ()  # "désigne" is not read as "means": nothing guessed


def test_definitions_in_a_table_and_a_schedule_after_the_body() -> None:
    doc = [{"index": 0, "text": "1. Services. The Supplier provides the Services to the Client under the Order."},
           {"index": 1, "text": "2. Fees. The Client pays the Charges for the Services."},
           {"index": 2, "text": "Schedule 1 \u2013 Definitions", "isHeading": True},
           {"index": 3, "text": "\u201cServices\u201d means the services in the Order.", "inTable": True},
           {"index": 4, "text": "\u201cCharges\u201d means the amounts in the Order.", "inTable": True},
           {"index": 5, "text": "Order Form", "inTable": True},
           {"index": 6, "text": "The order form signed by both parties.", "inTable": True}]
    read = read_document(from_pane(doc))
    by = {d.term: d for d in read.definitions}
    assert by["Services"].in_table and by["Charges"].in_table and by["Order Form"].how == "table"


def test_a_cover_row_asking_for_a_legal_name_names_a_party_whatever_the_word() -> None:
    row = lambda i, t, table=True: {"index": i, "text": t, "inTable": table}  # noqa: E731
    doc = [row(0, "Cover Terms", False), row(1, "Organisation"), row(2, "[Legal name of the employer]"),
           row(3, "Staff Member"), row(4, "[Full legal name of the employee]"), row(5, "Governing Law"), row(6, "Arizona"),
           *[row(i, "Staff Member will not solicit Organisation's clients for Organisation's rivals.", False) for i in (7, 8, 9)]]
    read = read_document(from_pane(doc))
    assert read.party_names == ("Organisation", "Staff Member")
    assert read.definition("Organisation").text == "Organisation: [Legal name of the employer]"
    other = read_document(from_pane([row(0, "Arizona"), row(1, "the State of Arizona"), *doc[7:]]))
    assert other.definitions == () and all(p.how == "used" for p in other.parties)  # none from the "Arizona" row


def test_a_selected_definition_searches_definitions_when_the_pane_asks() -> None:
    definition = "\u201cSupplier Personnel\u201d means all employees and agents of the Supplier."
    assert search_unit(None, definition, auto=True) == ({"unit": "definition"}, {"unit": "definition", "term": "Supplier Personnel"})
    assert search_unit(None, "The Supplier shall provide the Services (the \u201cWork\u201d) with due care.", auto=True) == (None, None)
    assert search_unit({"unit": "clause"}, definition, auto=True) == ({"unit": "clause"}, None)  # the lawyer's filter wins
    assert search_unit(None, definition, auto=False) == (None, None)  # API callers get clauses unless they ask
    assert defined_terms(definition) == ["Supplier Personnel"]


def test_a_terms_other_number_is_a_use_and_known_as_the_core_reads_it() -> None:
    # The forms are the core's (defined_terms.singular/pluralise): "Withholding Taxes" is the
    # defined "Withholding Tax", "Service" a use of "Services"; "services" stays a plain word.
    paragraphs = [
        {"index": 0, "text": "1. \u201cWithholding Tax\u201d means any tax withheld at source by the Payer under law."},
        {"index": 1, "text": "2. \u201cServices\u201d means the consulting work described in the statement of work."},
        {"index": 2, "text": "3. The Payer will deduct Withholding Taxes from each payment and report them promptly."},
        {"index": 3, "text": "4. Each Service is performed with care; other services are not covered by this document."},
        {"index": 4, "text": "5. The Payer will gross up any withholding tax it deducts from the amounts it pays."},
    ]
    found = check(paragraphs)
    assert kinds(found, "undefined") == [] and kinds(found, "unused") == []
    assert [(f["term"], f["search"]) for f in found if f["kind"] == "capitalisation"] == [("Withholding Tax", "withholding tax")]


def test_a_partys_company_name_is_not_an_undefined_term() -> None:
    # A new user's Check document (session 8) said "“Harbour Freight” is used but not defined" of
    # the Client's company name in the preamble. Planted into the real agreement's prose: the
    # name a sentence defines, and a name by its legal form, are names; a real undefined term
    # beside them still is one.
    doc = edit(CONTRACTOR, at("10.7"), lambda t: (
        f'{t} Notices to Harbour Freight plc (the "Client") and to Northwind Analytics Ltd go to Acme Widgets, '
        "Inc. (\u201cAcme\u201d) under the Passive Retention Amount."))
    assert kinds(check(doc), "undefined") == ["Passive Retention Amount"]
