"""The core's one reader of a typed clause number (reading/numbering.py): the outline's
``typed_label``, and ``typed_number`` = the same reading of a paragraph given whole."""

from __future__ import annotations

import pytest

from index_builder.reading.numbering import typed_label, typed_number


@pytest.mark.parametrize("text, shown, number", [
    ("8 INDEMNIFICATION. The Supplier shall ...", "8", "8"),  # whole: no wrapped line starts it
    ("6.1.1 the Owner enters into any composition ...", "6.1.1", "6.1.1"),
    ("12.2 Fees. The Customer shall pay.", "12.2", "12.2"),
    ("  (a) the Customer shall pay.", "(a)", "(a)"),
    ("Section 14: EXCEPT AS SET OUT ...", "Section 14", "14"),
    ("Article 5.1 Limitation of Liability: A. THE AGGREGATE ...", "Article 5.1", "5.1"),
    ("Clause 4. Confidentiality. Each party ...", "Clause 4.", "4."),
    ("ARTICLE VII INDEMNIFICATION", "ARTICLE VII", "VII"),
    ("iv. the Licensee shall ...", "iv.", "iv."),
])
def test_a_number_typed_at_a_whole_paragraphs_start(text: str, shown: str, number: str) -> None:
    typed = typed_number(text)
    assert typed is not None and (typed.shown, typed.number) == (shown, number)


@pytest.mark.parametrize("text", [
    "Section 3.2 of this DPA contains the information required in Table 2.",  # a citation, not a number
    "Article 2 above shall, upon Aura's sole election, immediately become non-exclusive.",
    "Section 5.1 of the Agreement is amended.",
    "The Supplier shall pay within 30 days.",
])
def test_a_citation_at_a_paragraphs_start_is_no_number(text: str) -> None:
    assert typed_number(text) is None and typed_label(text) is None


def test_a_line_of_plain_text_may_be_wrapped_a_whole_paragraph_may_not() -> None:
    assert typed_label("30 days after the notice ...") is None  # a wrapped line begins with a figure
    assert typed_label("30 days after the notice ...", whole=True).token == "30"
    article = typed_label("Article 5.1 Limitation of Liability")  # not "Article 5" with "1 ..." after it
    assert (article.kind, article.token, article.rank) == ("decimal", "5.1", 2)


def test_an_index_clauses_typed_number_is_read_by_the_same_reader() -> None:
    """paragraphs.from_clauses gives a clause's number apart only when its first line does not
    type it: "Section 14: EXCEPT ..." types "14" (its colon too), "(a) the ..." does not type "8(a)"."""
    from index_builder.model import Clause
    from index_builder.reading.paragraphs import from_clauses

    clauses = [Clause("d#1", "Section 14: EXCEPT FOR INDEMNIFICATION OBLIGATIONS ...", "d", section="14"),
               Clause("d#2", "ARTICLE IV\nINDEMNIFICATION", "d", section="Article IV"),
               Clause("d#3", "(a) the Supplier shall pay.", "d", section="8(a)"),
               Clause("d#4", "The Supplier shall pay.", "d", section="9")]
    assert [p.number for p in from_clauses(clauses)] == ["", "", "", "8(a)", "9"]

