"""The one sentence splitter (reading/sentences.py): search's spans and the drafting checks use it."""

from index_builder.reading.sentences import part_spans, sentence_spans


def split(text):
    return [text[a:b] for a, b in sentence_spans(text)]


def test_clause_numbers_and_list_labels_do_not_end_a_sentence():
    assert split("8. INDEMNIFICATION. Supplier shall indemnify Customer.") == [
        "8. INDEMNIFICATION.", "Supplier shall indemnify Customer."]
    assert split("SECTION 9. Indemnification.\n(a) The Company shall pay.") == [
        "SECTION 9. Indemnification.", "(a) The Company shall pay."]
    assert split("one of these statements: a. \"Freeze Tag is a sponsor\" b. \"Another\"") == [
        "one of these statements: a. \"Freeze Tag is a sponsor\" b. \"Another\""]
    assert split("8.F. LIMITATION ON LIABILITY. 21.D. INDEMNIFICATION.") == ["8.F. LIMITATION ON LIABILITY.", "21.D. INDEMNIFICATION."]
    assert split("breach of warranty;\nii. Activities outside scope.") == [
        "breach of warranty;", "ii. Activities outside scope."]


def test_references_and_lettered_parts_end_a_sentence_but_initials_do_not():
    assert split("as set out in Section 3.5. Subject to the cap, it applies.") == [
        "as set out in Section 3.5.", "Subject to the cap, it applies."]
    assert split("as listed in EXHIBIT E. Furthermore, Excite may act.") == [
        "as listed in EXHIBIT E.", "Furthermore, Excite may act."]
    assert split("rated by A. M. Best Company and 15 U.S.C. 1051 applies.") == [
        "rated by A. M. Best Company and 15 U.S.C. 1051 applies."]
    assert split("appointed by TPH-A. Notwithstanding that, it stands.") == [
        "appointed by TPH-A.", "Notwithstanding that, it stands."]


def test_abbreviations_lower_case_and_citation_markers_keep_a_sentence_together():
    assert split("Acme Inc. shall pay, e.g. fees. The fees paid ... before the claim. Done.[2] Next.") == [
        "Acme Inc. shall pay, e.g. fees.", "The fees paid ... before the claim.", "Done.[2]", "Next."]
    assert split("referred to in clause 12. 4. 1; or it fails.") == ["referred to in clause 12. 4. 1; or it fails."]
    # A stray full stop stays with the sentence before it.
    assert split("existing shareholding. . If any transfer occurs.") == [
        "existing shareholding. .", "If any transfer occurs."]


def test_parts_split_at_semicolons_and_list_items():
    text = "The Supplier shall (a) deliver; and (b) invoice; the Customer shall pay."
    assert [text[a:b] for a, b in part_spans(text)] == [
        "The Supplier shall (a) deliver", "(b) invoice", "the Customer shall pay."]


def test_a_label_before_a_full_stop_is_read_in_running_text_not_as_a_paragraphs_typed_number():
    """sentences._LABEL is not numbering.typed_number (its comment): lettered labels that no
    paragraph's number reader takes alone keep their sentence, a statute cited at a sentence's
    end ends it, where typed_number reads "\u00a7 688.002" as a number."""
    from index_builder.reading.numbering import typed_number

    assert split("8.F. LIMITATION ON LIABILITY. Pretzel Time shall not be liable.") == [
        "8.F. LIMITATION ON LIABILITY.", "Pretzel Time shall not be liable."]
    assert split("7B. Limitation of Liability. The cap applies.") == ["7B. Limitation of Liability.", "The cap applies."]
    assert typed_number("8.F. LIMITATION") is None and typed_number("7B. Limitation") is None
    assert split("As defined in the statute. \u00a7 688.002. The Recipient shall not disclose them.")[-1] == \
        "The Recipient shall not disclose them."
    assert typed_number("\u00a7 688.002. The Recipient") is not None
