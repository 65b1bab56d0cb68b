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


def _provisions(text: str) -> list[tuple[str, str, str, bool]]:
    from index_builder.reading import binding
    return [(p.kind, p.bound, p.verb, p.negated) for p in binding.read(text, ("Supplier", "Customer", "Licensee")).provisions]


def test_an_adverb_after_the_modal_is_not_the_verb():
    assert _provisions("The Supplier shall promptly notify the Customer of any breach.")[0][2] == "notify"
    assert _provisions("The Customer shall not unreasonably withhold its consent.")[0][:3] == (
        "prohibition", "Customer", "withhold")
    assert _provisions("The Licensee may nevertheless seek injunctive relief.")[0][:3] == ("right", "Licensee", "seek")
    assert _provisions("The Customer may at any time terminate this Agreement.")[0][2] == "terminat"
    # Verbs that end in "ly" stay verbs.
    assert _provisions("The Supplier shall supply the Goods.")[0][2] == "supply"


def test_never_after_the_modal_is_a_not():
    assert _provisions("The Supplier will never be liable for indirect loss.")[0] == (
        "protection", "Supplier", "liabil", True)
    assert _provisions("The Supplier will never disclose the data.")[0][:2] == ("prohibition", "Supplier")


def test_nonexclusive_turned_exclusive_after_a_bare_any_is_read():
    from index_builder.reading import polarity
    # f-multi-10's clause, cut short: "any Invention" comes before the grant's quality.
    clause = ("the Consultant will inform the Company before incorporating such Prior Inventions into any Invention, "
              "and (ii) the Company is hereby granted a nonexclusive, royalty-free, perpetual license to exploit such "
              "Prior Inventions.")
    assert polarity.non_turned(clause, clause.replace("a nonexclusive", "an exclusive")) == ("non-exclusive", "exclusive")
    assert polarity.non_turned(clause, clause.replace("granted a nonexclusive", "granted no exclusive")) is None


def test_a_label_line_before_its_lower_case_definition_stays_its_own():
    # p-multi-06's clause: a table of cover terms, each label on its own line.
    text = ("Non-Competition\nDuration\n12 months\nRestricted Territory\nthe geographic area in which the employer "
            "actually does business\nRestricted Activities\nany sales role for a competitor")
    assert _split(text)[3:] == ["Restricted Territory", "the geographic area in which the employer actually does business",
                                "Restricted Activities", "any sales role for a competitor"]
