"""Document metadata: rules over text and headings, blanks never taken, a firm's CSV on top."""

from __future__ import annotations

from pathlib import Path

import pytest

from index_builder.errors import InvalidRequestError
from index_builder.ingest.clauses import document_title
from index_builder.ingest.docx_reader import read_docx
from index_builder.ingest.metadata import (apply_overrides, coverage, extract, from_parsed,
                                           load_overrides)
from index_builder.ingest.outline import place
from index_builder.reading.paragraphs import Paragraph

SIGNED = [
    "MASTER SERVICES AGREEMENT",
    "This Master Services Agreement is entered into as of March 3, 2021 by and between Acme "
    "Corp., a Delaware corporation (\u201cCustomer\u201d), and Beta Labs LLC, a New York limited "
    "liability company (\u201cProvider\u201d).",
    "12.4 Governing Law. This Agreement is governed by and construed in accordance with the "
    "laws of the State of New York, without regard to its conflict of laws rules.",
]
TEMPLATE = [
    "Mutual Non-Disclosure Agreement",
    "Effective Date", "{effective_date}",
    "Governing Law", "The laws of the State of {governing_law}.",
    "This NDA is between [Legal name of party 1] and [Legal name of party 2].",
    "Reference the prior NDA (for example, \"Mutual NDA dated as of January 1, 2022\").",
]


def test_a_signed_agreement_yields_every_field():
    assert extract(SIGNED, "", "acme-msa.docx") == {
        "document_type": "Master Services Agreement", "governing_law": "New York",
        "parties": "Acme Corp.; Beta Labs LLC", "party_roles": "Customer, Provider",
        "effective_date": "2021-03-03", "effective_year": "2021"}


def test_template_blanks_and_worked_examples_are_not_values():
    assert extract(TEMPLATE, "", "nda.docx") == {"document_type": "Mutual NDA"}


def test_cover_page_fields_and_inline_labels():
    # Party rows are table cells, as Word gives them: the core's party reading needs to know.
    rows = ["Employer", "[Legal name of the employer]", "Employee", "[Full name of the employee]"]
    texts = ["Cover Terms", *[Paragraph(i + 1, t, in_table=True) for i, t in enumerate(rows)],
             "Effective Date", "1 June 2023", "Governing Law", "Texas"]
    texts = [t if isinstance(t, Paragraph) else Paragraph(i, t) for i, t in enumerate(texts)]
    assert extract(texts, "Employee Restrictive Covenant Agreement") == {
        "document_type": "Restrictive Covenant Agreement", "governing_law": "Texas",
        "party_roles": "Employee, Employer", "effective_date": "2023-06-01",
        "effective_year": "2023"}
    assert extract(["**Governing Law:** Washington, D.C."])["governing_law"] == "District of Columbia"
    assert extract(["Texas law governs this agreement."])["governing_law"] == "Texas"
    assert "effective_date" not in extract(["Effective Date", "February 30, 2024"])


def test_real_agreements(contracts_dir: Path):
    def meta(name: str) -> dict[str, str]:
        path = next(contracts_dir.rglob(name))
        parsed = read_docx(path)
        return from_parsed(parsed, document_title(parsed, place(parsed.blocks), path), path)

    texas = meta("openagreements-restrictive-covenant-texas.docx")
    assert texas == {"document_type": "Restrictive Covenant Agreement", "governing_law": "Texas",
                     "party_roles": "Employee, Employer"}
    repurchase = meta("openagreements-founder-stock-repurchase-agreement.docx")
    assert repurchase["governing_law"] == "Delaware"
    assert "effective_date" not in repurchase  # only a drafting example's date is in it
    assert "governing_law" not in meta("common-paper-mutual-nda.docx")


def test_a_firms_csv_overrides_extraction(tmp_path: Path):
    sheet = tmp_path / "meta.csv"
    sheet.write_text("file,document_type,governing_law,effective_date,matter\n"
                     "forms/acme-msa.docx,,England and Wales,2020-01-15,M-1\n"
                     "other.docx,NDA,,,\n", encoding="utf-8")
    rows = load_overrides(sheet)
    found = extract(SIGNED, "", "acme-msa.docx")
    merged = apply_overrides(found, rows, "forms/acme-msa.docx")
    assert merged["governing_law"] == "England and Wales" and merged["matter"] == "M-1"
    assert merged["effective_year"] == "2020" and merged["document_type"] == "Master Services Agreement"
    assert apply_overrides({}, rows, "elsewhere/other.docx") == {"document_type": "NDA"}
    assert apply_overrides(found, rows, "unlisted.docx") == found
    bad = tmp_path / "bad.csv"
    bad.write_text("name,document_type\nx.docx,NDA\n", encoding="utf-8")
    with pytest.raises(InvalidRequestError, match="needs a 'file' column"):
        load_overrides(bad)
    assert coverage([merged, {}])["governing_law"] == 0.5


def test_party_roles_are_the_cores_reading_of_the_deals_parties():
    # The same rows as plain text (no table cells): the core reads no party rows, and a label
    # alone is no longer taken for a party (the old second reader took any short role line).
    assert "party_roles" not in extract(["Cover Terms", "Employer", "[Legal name]", "Employee", "[Name]"])
    # A confidentiality or indemnity role every party plays is not the deal's party.
    texts = ["This Agreement is between Provider and Customer, each a party.",
             "\u201cDiscloser\u201d means a party disclosing Confidential Information.",
             "\u201cRecipient\u201d means a party receiving Confidential Information.",
             "Provider will host the Product and Customer will pay the Fees when due under this Agreement."]
    assert extract(texts)["party_roles"] == "Customer, Provider"
    assert extract(["This NDA is between Discloser and Recipient, each a party to it.",
                    "Recipient will protect what Discloser shares with it under this NDA."])["party_roles"] == \
        "Discloser, Recipient"
