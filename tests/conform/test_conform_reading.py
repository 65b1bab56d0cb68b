"""Conforming on the clause-reading core, on clauses as lawyers write them: Disclosing and
Receiving Party NDAs, plurals, possessives, cover-page terms, capitals, and the lawyer's
override changing exactly what it names. Documents are read from their paragraphs, as the
server reads what the pane sends."""

from __future__ import annotations

from pathlib import Path

from addin_server.conform import conform
from index_builder.ingest.docx_reader import word_paragraphs
from index_builder.reading.document import Document, read_document
from index_builder.reading.paragraphs import from_pane
from index_builder.settings import ConformSettings

SETTINGS = ConformSettings()


def doc(*texts: str, table: tuple[str, ...] = ()) -> Document:
    rows = [{"index": i, "text": t, "inTable": True} for i, t in enumerate(table)]
    return read_document(from_pane(rows + [{"index": len(rows) + i, "text": t} for i, t in enumerate(texts)]))


NDA = doc("This Mutual Non-Disclosure Agreement (this \u201cAgreement\u201d) is made on 1 March 2026 between Acme Limited, "
          "a company incorporated in England (the \u201cDisclosing Party\u201d), and Beta LLC, a Delaware limited liability "
          "company (the \u201cReceiving Party\u201d).",
          "1. The Receiving Party shall keep the Disclosing Party\u2019s Confidential Information secret and shall use it only "
          "for the Purpose. This Agreement continues for two years.",
          "2. \u201cConfidential Information\u201d means all information disclosed by the Disclosing Party to the Receiving Party.")
ONE_WAY = doc("This One-Way Non-Disclosure Agreement (the \u201cNDA\u201d) is made between the Discloser and the Recipient.",
              "1. Recipient shall protect the Discloser\u2019s Confidential Information. Discloser may end this NDA. "
              "Recipient will return it. The Discloser decides.",
              table=("Discloser", "{discloser_name_and_address}", "NDA Term", "Period for sharing Confidential Information"))


def test_discloser_and_recipient_become_disclosing_and_receiving_party_with_their_possessives() -> None:
    text = ("Recipient may disclose Discloser\u2019s Confidential Information to the extent required by law, if Recipient "
            "gives the Discloser notice at the Discloser\u2019s expense.")
    result = conform(text, ONE_WAY, NDA, SETTINGS)
    # The NDA writes "the Receiving Party", so the renamed parties take its article (session 9).
    assert result.text == ("The Receiving Party may disclose the Disclosing Party\u2019s Confidential Information to the extent "
                           "required by law, if the Receiving Party gives the Disclosing Party notice at the Disclosing "
                           "Party\u2019s expense.")
    assert {(m.source, m.target, m.method, m.apply) for m in result.mappings if m.method == "role"} == {
        ("Recipient", "Receiving Party", "role", True), ("Discloser", "Disclosing Party", "role", True)}
    back = conform("The Receiving Party shall hold the Disclosing Party\u2019s Confidential Information in strict confidence.",
                   NDA, ONE_WAY, SETTINGS)
    assert back.text == "The Recipient shall hold the Discloser\u2019s Confidential Information in strict confidence."


def test_this_nda_becomes_this_agreement_and_the_nda_term_follows() -> None:
    result = conform("The Recipient\u2019s obligations in this NDA survive the end of the NDA Term.", ONE_WAY,
                     doc("This Agreement is between Provider and Customer (this \u201cAgreement\u201d). This Agreement ends.",
                         "The Recipient and the Discloser under this Agreement are the parties.",
                         table=("Agreement Term", "Period of this Agreement")), SETTINGS)
    assert result.text == "The Recipient\u2019s obligations in this Agreement survive the end of the Agreement Term."


def test_plural_and_singular_of_one_term() -> None:
    source = doc("1. \u201cService\u201d means the cloud service described in the Order Form. \u201cCovered Employees\u201d "
                 "means the staff named in writing.")
    target = doc("1. \u201cServices\u201d means the cloud services described in the Order Form. \u201cCovered Employees\u201d "
                 "means the staff named in writing.")
    result = conform("Provider will maintain the Service and each Covered Employee will use the Services.", source, target, SETTINGS)
    assert result.text == "Provider will maintain the Services and each Covered Employee will use the Services."


def test_a_party_word_inside_a_longer_or_capitalised_term_is_never_rewritten() -> None:
    source = doc("This Agreement is between the Company and the Contractor. The Company will pay. The Company may end it.")
    target = doc("This Agreement is between the Client and the Contractor. The Client will pay. The Client may end it.")
    text = ("The Company owns all Company Materials. ALL COMPANY MATERIALS ARE PROVIDED AS IS. THE COMPANY SHALL NOT BE "
            "LIABLE. Section 4 (Restrictions on Company) applies.")
    result = conform(text, source, target, SETTINGS)
    assert result.text == ("The Client owns all Company Materials. ALL COMPANY MATERIALS ARE PROVIDED AS IS. THE CLIENT SHALL "
                           "NOT BE LIABLE. Section 4 (Restrictions on Company) applies.")


def test_the_lawyers_override_changes_exactly_what_it_names(contracts_dir: Path) -> None:
    mutual = read_document(from_pane(word_paragraphs(contracts_dir / "common-paper-cc-by-4.0/common-paper-mutual-nda.docx")))
    one_way = read_document(from_pane(word_paragraphs(contracts_dir / "common-paper-cc-by-4.0/common-paper-one-way-nda.docx")))
    text = ("MNDA Term\nPeriod for sharing Confidential Information\n[ x ] Expires {mnda_term} from Effective Date.\n"
            "[ ] Continues until terminated in accordance with the terms of the MNDA.")
    plain = conform(text, mutual, one_way, SETTINGS)
    assert plain.text == text.replace("MNDA Term", "NDA Term").replace("the MNDA.", "the NDA.")  # {mnda_term} kept
    overridden = conform(text, mutual, one_way, SETTINGS, overrides={"MNDA": "Agreement"})
    assert overridden.text == text.replace("MNDA Term", "NDA Term").replace("the MNDA.", "the Agreement.")
    # The mutual NDA's cover page names no party roles: its Discloser is not defined there, and
    # the lawyer's own term for it (the pane's field on a missing term) replaces it and nothing else.
    clause = "The Discloser retains its rights and its disclosure to the Recipient grants no license."
    assert {m.term for m in conform(clause, one_way, mutual, SETTINGS).missing_terms} == {"Discloser", "Recipient"}
    chosen = conform(clause, one_way, mutual, SETTINGS, overrides={"Discloser": "Disclosing Party"})
    assert chosen.text == "The Disclosing Party retains its rights and its disclosure to the Recipient grants no license."


def test_a_rename_onto_a_word_the_clause_already_uses_is_shown_not_applied() -> None:
    # Data-protection roles are not the deal's: "Customer is a Controller" keeps its words.
    source = doc("This DPA is between Provider and Customer. Provider will process. Customer will instruct. Provider may stop.",
                 "1. \u201cProcessor\u201d means the party processing Personal Data. \u201cController\u201d means the party deciding.")
    target = doc("This Agreement is between Supplier and Customer. Supplier will process. Customer will pay. Supplier may stop.")
    text = "Where Customer is a Controller of the Customer Personal Data, Provider will be deemed a Processor."
    assert conform(text, source, target, SETTINGS).text == text.replace("Provider", "Supplier")
    # The precedent's Vendor is the document's Supplier, but this clause already has a "Supplier"
    # (the Vendor's own): renaming would merge two parties, so it is shown, not applied.
    vendor = doc("This Agreement is between Vendor and Customer. Vendor will supply. Customer will pay. Vendor may stop.")
    clause = "Vendor will require each Supplier it engages to keep Customer Data secure."
    result = conform(clause, vendor, target, SETTINGS)
    by = {m.source: m for m in result.mappings}
    assert (by["Vendor"].target, by["Vendor"].apply) == ("Supplier", False) and "already uses" in by["Vendor"].reason
    assert result.text == clause


def test_a_party_the_document_has_no_role_for_is_read_from_the_clause_and_only_shown() -> None:
    source = doc("This Agreement is between the Company and the Contractor. The Contractor will work. The Company will pay. "
                 "The Contractor may invoice.")
    text = "Contractor will not use or disclose any Confidential Information of the Company except to perform the Services."
    result = conform(text, source, ONE_WAY, SETTINGS)
    by = {m.source: m for m in result.mappings}
    assert (by["Contractor"].target, by["Contractor"].apply) == ("Recipient", False)
    assert (by["Company"].target, by["Company"].apply) == ("Discloser", False)
    assert result.text == text


def test_a_term_the_clause_defines_follows_its_rename_in_its_own_definition() -> None:
    clause = ("This Confidentiality Deed (the \u201cDeed\u201d) is made by Acme Ltd (the \u201cSupplier\u201d). "
              "This Deed binds the Supplier for two years.")
    source = doc("This Confidentiality Deed (the \u201cDeed\u201d) is between Supplier and Customer. This Deed ends. "
                 "Supplier will keep secrets. Customer will pay. Supplier may stop. Customer may stop.")
    target = doc("This Master Agreement (this \u201cAgreement\u201d) is between Supplier and Customer. This Agreement ends.")
    # The document's name for itself, in the clause's own definition too.
    # ("Confidentiality Deed" is the title, a longer name: kept.)
    assert conform(clause, source, target, SETTINGS).text == clause.replace("(the \u201cDeed\u201d)", "(the \u201cAgreement\u201d)").replace(
        "This Deed", "This Agreement")
    # The lawyer's override of a term the clause defines renames the definition with its uses.
    chosen = conform(clause, source, target, SETTINGS, overrides={"Supplier": "Vendor"})
    assert "(the \u201cVendor\u201d)" in chosen.text and "binds the Vendor" in chosen.text


def test_a_singular_defined_apart_from_its_plural_is_its_own_term() -> None:
    source = doc("1. \u201cOrder Terms\u201d means the terms printed on an order. \u201cOrder Term\u201d means how long an order runs.")
    target = doc("1. \u201cOrder Terms\u201d means the terms printed on an order.")
    result = conform("The Order Term ends when the Order Terms say.", source, target, SETTINGS)
    by = {m.source: m for m in result.mappings}
    assert not by["Order Term"].apply and by["Order Terms"].method == "exact"
    assert result.text == "The Order Term ends when the Order Terms say."
    kept = conform("The Order Term ends when the Order Terms say.", source, target, SETTINGS, overrides={"Order Term": "Term"})
    assert kept.text == "The Term ends when the Order Terms say."
