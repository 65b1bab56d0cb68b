"""Plain text and markdown: typed numbers and "#" headings drive the same segmentation."""

from __future__ import annotations

from pathlib import Path

import pytest

from index_builder.ingest import read_clauses
from index_builder.reading.numbering import typed_label
from index_builder.reading.defined_terms import defined_terms

NDA_TXT = """\
MUTUAL NON-DISCLOSURE AGREEMENT

This Agreement is made between {party_1_name} (the "Company") and
[Fill in name] (the "Recipient").

1. Definitions.
1.1 "Confidential Information" means all non-public information
disclosed by a party, in any form.
1.2 "Purpose" means evaluating a possible business relationship.

2. Obligations. The Recipient shall:
(a) use Confidential Information only for the Purpose;
(b) not disclose it to anyone except its employees who need to know; and
(c) protect it with at least reasonable care.

3. Term. This Agreement lasts two years from the Effective Date.
"""

TERMS_MD = """\
# Terms of Service

Welcome to Acme. These terms apply to everyone who uses the service.

## 1. Accounts

You are responsible for your account.

## 2. Payment

### 2.1 Fees

**Fees.** You will pay the fees listed on the pricing page.

### 2.2 Refunds

Fees are non-refundable except where the law requires a refund.

## Contact

Write to legal@example.com with any question about these terms.
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_txt_typed_numbering(tmp_path: Path) -> None:
    clauses = read_clauses(write(tmp_path, "nda.txt", NDA_TXT), "nda", "nda.txt")
    assert [(c.section, c.heading) for c in clauses] == [
        ("", "MUTUAL NON-DISCLOSURE AGREEMENT"),  # an ALL CAPS line is a heading
        ("1.1", "Definitions"),
        ("1.2", "Definitions"),
        ("2", "Obligations"),
        ("3", "Term"),
    ]
    preamble, definition, _, obligations, _ = clauses
    assert preamble.metadata["defines"] == "Company; Recipient"
    assert "{party_1_name}" in preamble.text and "[Fill in name]" in preamble.text
    # A hard-wrapped line continues its paragraph.
    assert definition.text == (
        '1.1 "Confidential Information" means all non-public information disclosed by a '
        "party, in any form."
    )
    assert definition.metadata == {
        "type": "contract", "format": "txt", "defines": "Confidential Information",
        # The document's own fields (ingest/metadata.py), on every clause of it.
        "document_type": "NDA", "party_roles": "Company, Recipient",
    }
    assert obligations.text.splitlines()[1:] == [
        "(a) use Confidential Information only for the Purpose;",
        "(b) not disclose it to anyone except its employees who need to know; and",
        "(c) protect it with at least reasonable care.",
    ]
    assert (obligations.paragraph_start, obligations.paragraph_end) == (5, 8)


def test_markdown_headings(tmp_path: Path) -> None:
    clauses = read_clauses(write(tmp_path, "terms.md", TERMS_MD), "tos", "tos.md")
    assert clauses[0].doc_title == "Terms of Service"
    assert [(c.section, c.heading) for c in clauses] == [
        ("", ""),  # the preamble: "# Terms of Service" is the document's title
        ("1", "Accounts"),
        ("2.1", "Fees"),
        ("2.2", "Refunds"),
        ("", "Contact"),
    ]
    fees = clauses[2]
    assert fees.text == "2.1 Fees\nFees. You will pay the fees listed on the pricing page."
    assert fees.metadata["format"] == "md"


def test_articles_hold_sections_which_hold_their_items(tmp_path: Path) -> None:
    text = (
        "ARTICLE I - DEFINITIONS\n\n"
        'Section 1.1 Agreement. "Agreement" means this document.\n\n'
        "ARTICLE II - PAYMENT\n\n"
        "Section 2.1 Fees. Customer pays the fees monthly in arrears.\n"
        "(a) Late fees accrue at 1% per month.\n"
        "(b) Disputes must be raised within 30 days.\n"
    )
    clauses = read_clauses(write(tmp_path, "msa.txt", text), "msa", "msa.txt")
    assert [(c.section, c.heading) for c in clauses] == [("1.1", "Agreement"), ("2.1", "Fees")]
    assert clauses[1].text.splitlines()[1:] == [
        "(a) Late fees accrue at 1% per month.",
        "(b) Disputes must be raised within 30 days.",
    ]


def test_windows_1252_text(tmp_path: Path) -> None:
    path = tmp_path / "old.txt"
    path.write_bytes(b"1. Definitions. The \x93Agreement\x94 means this document.\r\n")
    (clause,) = read_clauses(path, "old", "old.txt")
    assert clause.text == "1. Definitions. The \u201cAgreement\u201d means this document."
    assert clause.metadata["defines"] == "Agreement"


def test_text_without_numbering_is_grouped(tmp_path: Path) -> None:
    letter = "\n\n".join(f"Paragraph {n} of a plain letter with no numbers." for n in range(5))
    clauses = read_clauses(write(tmp_path, "letter.txt", letter), "l", "letter.txt")
    assert [(c.paragraph_start, c.paragraph_end) for c in clauses] == [(0, 2), (3, 4)]
    assert clauses[0].doc_title == "Letter"


def test_empty_text_file_is_an_error(tmp_path: Path) -> None:
    from index_builder.errors import DocumentError

    with pytest.raises(DocumentError, match="empty"):
        read_clauses(write(tmp_path, "blank.md", "\n\n  \n"), "b", "blank.md")


@pytest.mark.parametrize(
    ("text", "shown", "section_kind"),
    [
        ("12.2 Limitation. Text", "12.2", "decimal"),
        ("12. Limitation", "12.", "decimal"),
        ("Section 9. Governing Law", "Section 9", "decimal"),
        ("ARTICLE IV DEFINITIONS", "ARTICLE IV", "article"),
        ("(a) the first item", "(a)", "letter"),
        ("(iv) the fourth item", "(iv)", "roman"),
        ("(i) the first item", "(i)", "roman"),
        ("(A) upper item", "(A)", "letter"),
        ("a. item", "a.", "letter"),
        ("(3) numbered item", "(3)", "number"),
    ],
)
def test_typed_labels(text: str, shown: str, section_kind: str) -> None:
    label = typed_label(text)
    assert label is not None and (label.text, label.kind) == (shown, section_kind)


@pytest.mark.parametrize(
    "text",
    ["Section 9 of this Agreement survives.", "30 days after notice", "e.g. the Fees",
     "2024 was a good year", "1.5 times the fees"],
)
def test_not_labels(text: str) -> None:
    assert typed_label(text) is None


def test_i_after_h_is_a_letter() -> None:
    label = typed_label("(i) ninth item", {"(a)": "h"})
    assert label is not None and label.kind == "letter"


def test_defined_terms() -> None:
    text = (
        "“European Economic Area” or “EEA” means the EU states. Acme, Inc. (each, a “Party” "
        "and together, the “Parties”) provides the software “AS IS”."
    )
    assert defined_terms(text) == ["European Economic Area", "EEA", "Party", "Parties"]
