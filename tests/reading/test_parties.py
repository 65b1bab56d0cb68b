"""The one party table and the reading of parties, on clauses and agreements as lawyers write them."""

from __future__ import annotations

from pathlib import Path

import pytest

from index_builder.reading.document import read_document
from index_builder.ingest.docx_reader import word_paragraphs
from index_builder.reading.paragraphs import Paragraph, from_pane
from index_builder.reading.parties import (NEUTRAL, RELATIONS, ROLE_NAMES, Role, across_from, clause_parties,
                                           role_by_name, role_of)

DISCLOSER, RECIPIENT = Role("confidentiality", "discloser"), Role("confidentiality", "recipient")
CP = "common-paper-cc-by-4.0/"
OA = "openagreements-cc-by-4.0/"


def test_one_table_each_name_once_with_its_counterpart() -> None:
    names = [n.lower() for _, *sides in RELATIONS for _, ns in sides for n in ns]
    assert len(names) == len(set(names)), "a name on two sides would make the table disagree with itself"
    assert role_by_name("Disclosing Party") == role_by_name("Discloser") == DISCLOSER
    assert role_by_name("Receiving Party").counterpart == DISCLOSER
    assert role_by_name("Employer").counterpart == role_by_name("Employee")
    assert role_by_name("Lender").counterpart == role_by_name("Borrower")
    assert role_by_name("Landlord").counterpart == role_by_name("Tenant")
    assert role_by_name("Licensor") == role_by_name("Provider") and role_by_name("Licensee") == role_by_name("Customer")
    assert role_by_name("Buyer").counterpart == role_by_name("Seller")
    assert role_by_name("Discloser") != role_by_name("Employer") != role_by_name("Provider")
    assert "Company" in NEUTRAL and "Company" not in ROLE_NAMES


def test_company_is_read_from_the_party_across_from_it() -> None:
    assert role_of("Company", others=["Company", "Contractor"]) == Role("supply", "customer")
    assert role_of("Company", others=["Company", "Employee"]) == Role("employment", "employer")
    assert role_of("Company", others=["Company", "Founder"]) == Role("employment", "employer")
    # A one-way NDA's signature block names both confidentiality roles: no side for Company.
    assert across_from("Company", ["Discloser", "Recipient"]) is None
    # Confidentiality roles are played by either party: the deal's own roles decide.
    assert across_from("Company", ["Provider", "Discloser", "Recipient"]) == Role("supply", "customer")


def test_an_nda_preamble_as_lawyers_write_it() -> None:
    paragraphs = from_pane([
        {"index": 0, "text": "MUTUAL NON-DISCLOSURE AGREEMENT", "isHeading": True},
        {"index": 1, "text": "This Non-Disclosure Agreement (this “Agreement”) is entered into as of March 1, 2026 by and "
                             "between Acme Corp., a Delaware corporation (the “Disclosing Party”), and Beta LLC, a New "
                             "York limited liability company (the “Receiving Party”)."},
        {"index": 2, "text": "1. Confidentiality. The Receiving Party shall hold the Disclosing Party’s Confidential "
                             "Information in strict confidence and shall not disclose it to any third party.", "listString": ""},
        {"index": 3, "text": "2. Term. This Agreement continues for two years."},
    ])
    doc = read_document(paragraphs)
    assert [(p.name, p.role) for p in doc.parties] == [("Disclosing Party", DISCLOSER), ("Receiving Party", RECIPIENT)]
    assert doc.self_name == "Agreement"


@pytest.mark.parametrize("clause,expected", [
    ("The Receiving Party shall hold the Disclosing Party’s Confidential Information in strict confidence.",
     ["Receiving Party", "Disclosing Party"]),
    ("The Company shall hold the Consultant's Confidential Information in strict confidence.", ["Company", "Consultant"]),
    # Possessive only: the Discloser is never a subject, only an owner.
    ("Recipient may disclose Discloser’s Confidential Information to the extent required by law.", ["Recipient", "Discloser"]),
    # A party word inside a longer term is not the party.
    ("Customer Content and Provider Covered Claims are excluded.", []),
])
def test_the_parties_a_clause_names(clause: str, expected: list[str]) -> None:
    assert clause_parties(clause) == expected


def _read(contracts_dir: Path, name: str):
    return read_document(from_pane(word_paragraphs(contracts_dir / name)))


def test_real_agreements_cover_rows_signature_labels_and_aliases(contracts_dir: Path) -> None:
    one_way = _read(contracts_dir, CP + "common-paper-one-way-nda.docx")
    assert [(p.name, p.role, p.how) for p in one_way.parties] == [
        ("Discloser", DISCLOSER, "row"), ("Recipient", RECIPIENT, "signature")]  # "RECIPIENT" signs
    mutual = _read(contracts_dir, CP + "common-paper-mutual-nda.docx")
    assert [(p.name, p.role) for p in mutual.parties] == [("Party 1", None), ("Party 2", None)]  # no roles to map to
    stock = _read(contracts_dir, OA + "openagreements-founder-stock-assignment-separate.docx")
    assignor = stock.party("Assignor")
    assert assignor.aliases == ("Founder",)  # the Key Terms row "Founder (Assignor)"
    offer = _read(contracts_dir, OA + "openagreements-employment-offer-letter-massachusetts.docx")
    assert offer.party_names == ("Employer", "Employee", "Company")  # Company: the body's word, used throughout
    assert offer.party("Employer").role == Role("employment", "employer")


def test_paragraphs_are_only_text_structure() -> None:
    p = from_pane([{"index": 3, "text": "1.1 X", "listString": "1.1", "inTable": 1, "extra": "ignored"}])[0]
    assert p == Paragraph(3, "1.1 X", "1.1", "", False, True)


def test_a_signature_blocks_party_label_over_its_signature_field() -> None:
    # Bonterms' signature table: "Customer:" then "Signature:", "Name and Title:", "Company: {customer_name}".
    cells = ["Signatures", "Customer:", "Signature:", "Name and Title:", "Company: {customer_name}",
             "Provider:", "Signature:", "Name and Title:", "Company: {provider_name}"]
    doc = read_document([Paragraph(i, t, in_table=True) for i, t in enumerate(cells)])
    assert [(p.name, p.how) for p in doc.parties] == [("Customer", "signature"), ("Provider", "signature")]
    # OpenAgreements' consents: "Stockholder" over a table of "Signature", "Print Name".
    consent = [Paragraph(0, "The undersigned have executed this Action by Written Consent."), Paragraph(1, "Stockholder"),
               Paragraph(2, "Signature", in_table=True), Paragraph(3, "Print Name", in_table=True)]
    assert [(p.name, p.how) for p in read_document(consent).parties] == [("Stockholder", "signature")]
    # A label over anything but a signature field is not read this way ("Company:" over a name field).
    assert read_document([Paragraph(0, "Company:", in_table=True), Paragraph(1, "Email:", in_table=True)]).parties == ()


def test_the_deals_parties_leave_out_roles_either_party_plays() -> None:
    from index_builder.reading.parties import Party, deal_parties
    read = [Party("Provider", role_by_name("Provider"), "between", 0), Party("Customer", role_by_name("Customer"), "between", 0),
            Party("Discloser", DISCLOSER, "means", 4), Party("Licensor", role_by_name("Licensor"), "used", -1)]
    assert [p.name for p in deal_parties(read)] == ["Provider", "Customer"]
    nda = [Party("Discloser", DISCLOSER, "row", 1), Party("Recipient", RECIPIENT, "signature", 9)]
    assert deal_parties(nda) == nda  # a one-way NDA's parties are its confidentiality roles
    used = [Party("Provider", role_by_name("Provider"), "used", -1), Party("Customer", role_by_name("Customer"), "used", -1)]
    assert deal_parties(used) == used  # read only by use, but nothing surer was read
    # "Company" across from a Recipient discloses: an NDA between them keeps both.
    nda = [Party("Company", DISCLOSER, "preamble", 0), Party("Recipient", RECIPIENT, "preamble", 0)]
    assert deal_parties(nda) == nda


def test_parties_read_in_the_same_order_in_every_process() -> None:
    # Names of one length used as parties ("Provider", "Customer") were taken in a set's hash
    # order, so two server processes could name a document's parties in different orders.
    import json
    import os
    import subprocess
    import sys

    code = (
        "import json\n"
        "from index_builder.reading.paragraphs import Paragraph\n"
        "from index_builder.reading.parties import document_parties\n"
        "texts = ['Provider will give Customer access to the Cloud Service during the term.',\n"
        "         'Customer will pay Provider the fees, and Provider will invoice Customer monthly.',\n"
        "         'Provider may suspend Customer if Customer does not pay Provider on time.']\n"
        "paragraphs = [Paragraph(text=t, index=i) for i, t in enumerate(texts)]\n"
        "print(json.dumps([p.name for p in document_parties(paragraphs)]))\n")
    orders = set()
    for seed in ("1", "2", "3", "4"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed})
        orders.add(out.stdout.strip())
    assert len(orders) == 1 and json.loads(orders.pop()) == ["Provider", "Customer"]
