"""Defined terms and their mentions: forms kept, longer terms and capitals left alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from index_builder.reading.defined_terms import (capitalised_terms, defined_terms, fix_article, mentions, same_term,
                                                 singular, written_as)
from index_builder.reading.document import read_document
from index_builder.ingest.docx_reader import word_paragraphs
from index_builder.reading.paragraphs import from_pane


@pytest.mark.parametrize("text", [
    "The Company Materials remain with the Company’s licensors.",
    "ALL COMPANY MATERIALS ARE PROVIDED AS IS.",
    "Any Covered Company must comply.",
])
def test_a_party_word_inside_a_longer_term_is_not_the_party(text: str) -> None:
    found = mentions(text, "Company")
    assert all(m.possessive for m in found)  # only "the Company’s", never "Company Materials"


def test_capitals_are_a_form_unless_they_make_a_longer_term() -> None:
    assert [m.surface for m in mentions("THE COMPANY SHALL NOT BE LIABLE.", "Company")] == ["COMPANY"]
    assert mentions("the MNDA Term ends; the MNDA survives", "MNDA")[0].surface == "MNDA"
    assert len(mentions("the MNDA Term ends; the MNDA survives", "MNDA")) == 1
    assert [m.surface for m in mentions("a provider of Providers’ goods", "Provider")] == ["Providers’"]


@pytest.mark.parametrize("surface,target,expected", [
    ("Providers", "Supplier", "Suppliers"), ("Provider’s", "Disclosing Party", "Disclosing Party’s"),
    ("Providers’", "Receiving Party", "Receiving Parties’"), ("PROVIDER", "Supplier", "SUPPLIER"),
    ("Service", "Services", "Services"), ("Services", "Services", "Services"),
])
def test_a_mention_keeps_its_form(surface: str, target: str, expected: str) -> None:
    term = "Service" if surface.startswith("Service") else "Provider"
    assert written_as(target, mentions(f"the {surface} may", term)[0]) == expected


def test_number_and_articles() -> None:
    assert same_term("Covered Employee", "Covered Employees") and singular("High Risk Activities") == "High Risk Activity"
    assert not same_term("Service", "Services Fee")
    assert fix_article("an ", "Supplier") == "a " and fix_article("a ", "NDA") == "an "


def test_definitions_quoted_chained_and_parenthetical() -> None:
    assert defined_terms("“Processing” or “Process” will have the meaning given in the DPA.") == ["Processing", "Process"]
    assert defined_terms("Acme Inc. (the “Disclosing Party”) and Beta LLC (each, a “Party”)") == ["Disclosing Party", "Party"]
    assert defined_terms("Provider gives it “AS IS” without warranty.") == []


def test_capitalised_terms_including_an_all_capitals_first_word() -> None:
    text = ("Expires at the end of the MNDA Term. Each Recipient will protect the Increased Claims under the "
            "Health Insurance Portability and Accountability Act in New York.")
    assert [c.phrase for c in capitalised_terms(text)] == ["MNDA Term", "Increased Claims"]


def test_a_cover_page_defines_terms_in_its_table(contracts_dir: Path) -> None:
    doc = read_document(from_pane(word_paragraphs(contracts_dir / "common-paper-cc-by-4.0/common-paper-mutual-nda.docx")))
    table = {d.term for d in doc.definitions if d.how == "table"}
    assert {"MNDA Term", "Term of Confidentiality", "Effective Date"} <= table
    assert "Print Name" not in table  # a signature block's field, not a term
    assert doc.definition("MNDA").how == "quoted" and doc.self_name == "MNDA"


def test_used_terms() -> None:
    from index_builder.reading.defined_terms import used_terms
    text = "Customer must install Updates within the time stated on the Cover Page and in the Cover Terms."
    assert used_terms(text) == []  # "Updates" alone is an ordinary word capitalised; "Cover" is part of a name
    assert used_terms(text, ordinary="customer must install updates promptly") == ["Updates"]
    assert used_terms(text, parts=True) == ["Cover Page", "Cover Terms"]
    assert used_terms(text, singles=True) == ["Updates"]  # "Customer" opens the sentence
    assert used_terms("Services are provided in Delaware in January.", singles=True) == []
    assert used_terms("The fee is Fifty Thousand Dollars, paid to the Product Owner.") == ["Product Owner"]
    assert used_terms("The Supplier shall deliver the Product.", words={"Supplier"}) == ["Supplier", "Product"]


def test_one_rule_for_a_word_set_in_capitals():
    from index_builder.reading.defined_terms import capitalised_words, in_capitals_run
    from index_builder.reading.document import acronyms

    text = "LIMITATION OF LIABILITY. The SOW and NCM's fees; THE COMPANY SHALL NOT pay COMPANY MATERIALS."
    at = text.index
    assert in_capitals_run(text, at("LIABILITY"), at("LIABILITY") + 9)
    assert not in_capitals_run(text, at("SOW"), at("SOW") + 3)
    assert not in_capitals_run(text, at("NCM"), at("NCM") + 3)
    assert in_capitals_run(text, at("MATERIALS"), at("MATERIALS") + 9)
    # The acronyms of written terms and the support check's names read it the same way.
    assert acronyms(text) == ["SOW", "NCM"]
    assert [w for w in capitalised_words(text) if w.isupper()] == ["SOW", "NCM"]
