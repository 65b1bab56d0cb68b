"""Readers that misread ordinary English (session 15, readers15): each test is a small real text."""

from index_builder.reading.sentences import sentence_spans


def _split(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


def test_a_line_break_a_lower_case_word_continues_is_inside_the_sentence():
    # r-conform-01's clause: the record breaks its last line before "not yet rendered".
    text = ("Garman shall immediately return all fees paid under this Agreement for services\n"
            "not yet rendered. The license continues.")
    assert _split(text) == ["Garman shall immediately return all fees paid under this Agreement for "
                            "services\nnot yet rendered.", "The license continues."]


def test_a_page_footer_inside_a_sentence_does_not_cut_it():
    # q-multi-03's clause: a page footer left between "under" and "Texas law".
    text = ("if the covenants in Section 19 would not be enforced as written under\nPage 55 of 80\n"
            "Texas law, then those covenants will be construed under the laws of that state.")
    assert len(_split(text)) == 1


def test_line_breaks_that_do_end_a_sentence_or_start_a_list_item_still_do():
    assert _split("The Supplier shall\na. pay the fees; and\nb. go.") == [
        "The Supplier shall", "a. pay the fees; and", "b. go."]
    assert _split("The Supplier shall pay:\nthe fees.") == ["The Supplier shall pay:", "the fees."]
    assert _split("INDEMNIFICATION\nthe supplier shall pay.") == ["INDEMNIFICATION", "the supplier shall pay."]
    assert _split("The fees are due.\nPage 3 of 9\nThe next term.") == [
        "The fees are due.", "Page 3 of 9", "The next term."]
