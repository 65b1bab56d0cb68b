"""The core's readings of a text's headings, acronyms, self-references and quotes: the one home
conforming and the document check read them from (reading/document.py, defined_terms.py)."""

from __future__ import annotations

import pytest

from index_builder.reading.defined_terms import quoted_spans
from index_builder.reading.document import acronyms, after_this, headings_in, is_heading, lead_heading


def _lead(text: str, line: bool = False) -> str | None:
    span = lead_heading(text, line)
    return text[span[0]:span[1]] if span else None


def test_run_in_headings_after_a_number_or_a_drafting_notes_bracket() -> None:
    assert _lead("3. Exceptions. The liability cap does not apply.") == "Exceptions"
    assert _lead("(b) Governing Law: The laws of Delaware govern.") == "Governing Law"
    assert _lead("[Drafting note: Many AI products include a policy.]") == "Drafting note"
    # a sentence of more than eight words, a lower-case start, a heading line alone
    assert _lead("The Supplier shall deliver the Goods to the Customer on time. Then") is None
    assert _lead("fees are due. Then") is None
    assert _lead("7.1 Liability Caps.") is None and _lead("7.1 Liability Caps.", line=True) == "Liability Caps"
    assert _lead("Notice Address (choose one or both):", line=True) is None  # a form's field label


def test_headings_a_clause_names_are_its_lines_and_its_references() -> None:
    text = ("7.1 Liability Caps.\n(a) Except as provided in Section 7.4 (Exceptions), each party's liability "
            "will not be more than the General Cap Amount.\nLimits. Nothing limits fraud.")
    assert headings_in(text) == ["Liability Caps", "Limits", "Exceptions"]


def test_is_heading() -> None:
    assert is_heading("Fees, Payment and Taxes") and is_heading("Limitation of Liability")
    assert not is_heading("Fees are due: monthly") and not is_heading("Payment. Fees are due monthly.")
    assert not is_heading(" ".join(["Word"] * 13))


def test_acronyms_are_short_capitals_used_as_terms() -> None:
    assert acronyms("The SOW and each SOW's fees; an NDA for the IT team under US law. LIMITATION OF LIABILITY.") == ["SOW", "NDA"]


def test_after_this_and_quoted_spans() -> None:
    text = "This Agreement and this NDA. “Fees” means \"the fees\"."
    assert after_this(text, text.index("NDA")) and after_this(text, text.index("Agreement"))
    assert not after_this(text, text.index("Fees"))
    assert [text[a:b] for a, b in quoted_spans(text)] == ["“Fees”", '"the fees"']


@pytest.mark.parametrize("line, capitals", [
    ("NOTICES", True), ("ARTICLE I", True), ("12. LIMITATION OF LIABILITY", True),
    ("ARTICLE I Definitions", False), ("A", False), ("(a) NOTICES", False), ("2.1", False),
])
def test_a_line_in_capitals_is_the_cores_text_in_capitals_every_letter_a_capital(line: str, capitals: bool) -> None:
    """ingest/text_reader.py keeps a heading line in capitals apart from the text around it by the
    core's rule (document.mostly_capitals), not a reading of its own."""
    from index_builder.ingest.text_reader import _is_caps
    from index_builder.reading.document import mostly_capitals

    assert _is_caps(line) is capitals
    assert mostly_capitals(line, least=2, share=1) is capitals


def test_the_headings_a_cross_reference_names_are_read_by_the_one_reader_of_references() -> None:
    """document.headings_in reads reading/references.py: every heading of a list, none taken
    from a sub-number ("Section 7(a) (Definitions)" names "Definitions", not "a")."""
    assert headings_in("Sections 8.1 (Liability Caps) and 8.2 (Damages Waiver) apply to all liability.") == [
        "Liability Caps", "Damages Waiver"]
    assert headings_in("as defined in Section 7(a) (Definitions) and Section 2.1(B)") == ["Definitions"]
