"""The one reader of template text (reading/template.py), on lines of the real Common Paper forms
(CC BY 4.0) and OpenAgreements forms: each caller's option reads what its job needs."""

from __future__ import annotations

from index_builder.reading.figures import figures, mask
from index_builder.reading.template import blank, field_share, remove, spans, strip_notes

# Cover-page rows of the Common Paper Cloud Service Agreement, as read from the .docx.
CAP_ROW = ("[Drafting note: Optional variable. Choose one and delete the others.] "
           "[ x ] {cap_multiplier}x the Fees paid or payable by Customer in the 12 month period")
COMMENTED = ("Provider will give notice <!-- Note: This is an optional field. --> within 30 days "
             "<!-- 5x the fees -->.")
INSTRUCTION = "Notice of non-renewal at least [Number of days (commonly 60, 90, or 120 days)] before."


def test_every_reading_takes_notes_and_fields_and_keeps_spans():
    for options in ({}, {"comments": "all", "brackets": "capitalised"}, {"brackets": "all"},
                    {"brackets": "nested", "keep_lines": True}):
        out = blank(CAP_ROW, **options)
        assert len(out) == len(CAP_ROW)
        assert "Drafting note" not in out and "{cap_multiplier}" not in out and "[ x ]" not in out
        assert "the Fees paid or payable by Customer in the 12 month period" in out


def test_figures_never_come_from_a_note_a_field_or_a_commented_option():
    assert [f.text for f in figures(CAP_ROW)] == ["12 month"]
    assert [f.text for f in figures(COMMENTED)] == ["30 days"]  # not the commented-out "5x"
    assert figures(INSTRUCTION) == []  # the drafter's menu of days, not the clause's
    assert mask("(Note to draft: 45 days) Pay in 30 days").strip() == "Pay in 30 days"


def test_a_redaction_is_text_except_where_only_letters_or_uses_are_counted():
    filed = "a royalty of [***]% of Net Sales, payable within [*] days"
    assert blank(filed) == filed and mask(filed) == filed  # the text around it is real
    assert remove(filed, brackets="all") == "a royalty of % of Net Sales, payable within  days"


def test_the_options_differ_only_where_their_callers_do():
    text = "<!-- 5x the fees --> [Customer Name] [ ] {date}\n[Drafting note: pick one\nof these] Fees"
    assert remove(text) == "<!-- 5x the fees --> [Customer Name]  \n Fees"  # notes and fields only
    assert "5x" not in blank(text, comments="all") and "Customer Name" not in blank(text, brackets="capitalised")
    nested = blank(text, brackets="nested", keep_lines=True)
    assert nested.count("\n") == 2 and "pick one" not in nested and "of these" not in nested
    # The segmenter leaves notes to ingest, which takes them out after it and reports them.
    assert "keep" in remove("pick one (Note to draft: keep) now", notes=False)
    assert "keep" not in remove("pick one (Note to draft: keep) now")


def test_ingest_reads_notes_and_fields_with_the_same_reader():
    assert strip_notes(CAP_ROW) == ("[ x ] {cap_multiplier}x the Fees paid or payable by Customer in the "
                                    "12 month period", 1)
    assert field_share("Company: {customer_name} / Date: {date}") >= 0.5
    assert field_share("within {payment_terms_days} days after invoice") < 0.5
    assert spans("NTD: confirm with tax\nThe Fees are payable.") == [(0, 21)]  # the note's line only
