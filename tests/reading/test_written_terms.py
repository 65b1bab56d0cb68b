"""How a document writes its terms (reading/document.py written_terms): the capitals an
all-capitals precedent keeps when Insert puts it in sentence case. The pane reads no terms
itself; these are the server's reading, sent with POST /api/v1/document."""

from __future__ import annotations

import json
from pathlib import Path

from index_builder.reading.document import read_document, written_terms
from index_builder.reading.paragraphs import from_pane

FIXTURES = Path(__file__).resolve().parents[1] / "js" / "fixtures" / "documents"


def _terms(texts: list[str]) -> list[str]:
    paragraphs = from_pane([{"index": i, "text": t} for i, t in enumerate(texts)])
    return written_terms(paragraphs, read_document(paragraphs))


def test_terms_used_without_a_definition_are_read_as_the_document_writes_them() -> None:
    terms = _terms([
        "12. LIMITATION OF LIABILITY",
        "THE SUPPLIER DISCLAIMS ALL WARRANTIES UNDER THE SLA AND ANY OTHER TERMS WHATSOEVER.",
        "The Supplier's liability to the Customer under this Agreement and the SOW is capped. IT staff may audit it.",
        "13. TERMINATION",
    ])
    # Party words used as parties, what the document calls itself, a short word in capitals.
    assert set(terms) == {"Supplier", "Customer", "Agreement", "SOW"}
    # Not read: a heading in capitals, a clause set in capitals ("SLA"), an English word in capitals ("IT").


def test_definitions_parties_and_used_terms_of_a_real_agreement() -> None:
    paragraphs = from_pane(json.loads((FIXTURES / "contractor-agreement.json").read_text()))
    document = read_document(paragraphs)
    terms = written_terms(paragraphs, document)
    assert set(document.terms) <= set(terms)  # everything it defines
    assert {"Company", "Contractor", "SOW", "Work Product", "Confidential Information"} <= set(terms)
    # A clause's run-in heading ("Injunctive Relief. Contractor ...") names a section, not a term;
    # a single word capitalised only as a heading ("Liability") is no term either.
    assert not {"Injunctive Relief", "Required Disclosures", "Non-Exhaustive Remedies", "Liability", "Termination"} & set(terms)
    assert all(any(c.isupper() for c in t) for t in terms)


def test_a_term_the_document_writes_in_lower_case_is_ordinary_words() -> None:
    terms = _terms(["“service credits” means the credits in Schedule 2, and the “Supplier” means Acme Ltd.",
                    "The Supplier shall pay service credits."])
    assert "service credits" not in terms and "Supplier" in terms
