"""Session 13, parts13b (issue 38): a lawyer's message is cut where it breaks (its lines, the end of a quotation),
quoted words are context of an ask that has its own kind, the lawyer's words that point back to a quoted ask are
read with it, and a segment that only says what stays has no kind (instruction_lines.py, instruction_kinds._ONLY_KEPT).

Fixtures are the instructions of spent drafting-o and -l tasks. Each test fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.instruction import read_instruction
from addin_server.draft.instruction_kinds import kind_of
from addin_server.draft.instruction_lines import cut_at_lines

# o-period-02
CHRONOLOGY = ("Chronology - sell-off period\n3 March: licensor's notice of non-renewal received.\n"
              "17 March: licensor agrees by e-mail to a sell-off of 180 days.\n"
              "To do: amend the sell-off so it runs for 180 days after the end of the Contract Period.")
# o-carve_out-02
SIDE_LETTER = ("Side letter, paragraph 2 (countersigned by both sides on 2 May): \"The parties confirm that nothing in the "
               "Exclusivity Period restriction prevents Smith from rendering services or authorising the use of his Likeness "
               "for TDA itself and for TDA's products under the Agreement.\" Please fold this into the restriction itself so "
               "the agreement reads correctly on its own - an 'except as provided herein' exception of the kind in [1], "
               "written out as an exception for TDA and its products.")
# l-multi-08
CFO = ("Finance's answer, from the CFO's email of Tuesday: \"We can live with auto-pay. But treasury policy TP-3 says no "
       "single card charge above $10,000 goes through without a human sign-off on our side, and I want five days' "
       "warning before any charge so the account is funded.\" Please build both into 4.3.")


def test_a_heading_line_is_no_words_of_the_ask_below_it() -> None:
    assert cut_at_lines("Chronology - sell-off period\n3 March: notice") == "Chronology - sell-off period;\n3 March: notice"
    # A hard-wrapped sentence runs on: a joining word, or the next line in lower case.
    assert cut_at_lines("amend the\nsell-off so") == "amend the\nsell-off so"
    assert cut_at_lines("amend the sell-off\nso it runs") == "amend the sell-off\nso it runs"
    parts = read_instruction(CHRONOLOGY).parts
    assert [p.kind for p in parts] == ["period"]
    assert "3 March" not in parts[0].text


def test_quoted_words_are_context_of_an_ask_of_its_own_kind() -> None:
    # "countersigned by both sides" is the label of the quoted side letter, not a mutual ask.
    assert [p.kind for p in read_instruction(SIDE_LETTER).parts][0] == "carve_out"


def test_words_pointing_back_to_a_quoted_ask_are_read_with_it() -> None:
    kinds = [p.kind for p in read_instruction(CFO).parts]
    assert kinds == ["amount", "period"]


def test_a_segment_that_only_says_what_stays_has_no_kind() -> None:
    # o-plain-04: the nouns name what is kept; k-plain-02: an ask with a colon is more than a keep.
    assert kind_of("the substance (Licensee's bar, the mutual consent rule and Licensor's three routes without consent) "
                 "cannot change") is None
    assert kind_of("Make it mutual so the cap does not change") == "mutual"
    assert kind_of("Rewrite it so a translator's software can cope: ordinary case, plain words, everything it disclaims "
                 "still listed") == "plain"


# p-multi-04
SCORECARD = ("Supplier evaluation scorecard, criterion C4 (contract flexibility). Scorer's note: \"2 out of 5. One-year "
             "renewals mean a fresh approval every year, and six months' exit notice is longer than our policy allows.\"\n"
             "Target for award: renewal terms of two years each (see [1]); exit notice three months.")


def test_quoted_context_joins_only_an_ask_that_points_back_to_it() -> None:
    # "Target for award: renewal terms of two years" does not point back: the scorer's figures are no words of it.
    parts = read_instruction(SCORECARD).parts
    assert [p.kind for p in parts][:2] == ["period", "period"]
    assert "six months" not in parts[0].text
    # "Please fold this into the restriction" points back: the side letter's words are read with it.
    assert "TDA itself" in read_instruction(SIDE_LETTER).parts[0].text


def test_a_figure_in_another_s_quoted_words_is_no_pin() -> None:
    # p-multi-04: the scorer's "One-year renewals" records the clause as it is; the ask is two years.
    from addin_server.draft.done import pinned_changed
    clause = ("At the end of such initial term, this Agreement shall automatically renew for an additional one (1) year term, "
              "unless a party provides written notice at least six (6) months prior to the end of the term.")
    draft = ("At the end of such initial term, this Agreement shall automatically renew for an additional two (2) year term, "
             "unless a party provides written notice at least three (3) months prior to the end of the term.")
    assert pinned_changed(read_instruction(SCORECARD, clause), clause, draft) is None
