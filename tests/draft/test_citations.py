"""Every marker form a model writes is parsed and verified; quotations in any marks are
checked; weakly supported citations are flagged; sentences without a source are listed."""

from __future__ import annotations

import pytest

from addin_server.draft.citations import FLAG, verify
from addin_server.draft.markers import normalise
from addin_server.draft.support import THRESHOLD, score_support
from index_builder.model import Clause

PRECEDENTS = [
    Clause("p1", "Each party's aggregate liability shall not exceed the fees paid in the twelve "
                 "months before the claim. Neither party excludes liability for fraud.", "nda",
           doc_title="Mutual NDA", section="9.1", heading="Limitation of Liability"),
    Clause("p2", "Supplier shall indemnify Customer against third-party claims.", "msa"),
    Clause("p3", "This Agreement is governed by the laws of Delaware.", "msa"),
]
SELECTED = "Supplier's liability is unlimited. Payment is due within [30] days."
INDEMNITY = "Supplier shall indemnify Customer against third-party claims"


@pytest.mark.parametrize("written, shown, cited", [
    ("[2]", " [2]", [2]),
    ("[ 2 ]", " [2]", [2]),
    ("【2】", " [2]", [2]),
    ("［２］", " [2]", [2]),
    ("〔2〕", " [2]", [2]),
    ("[2, 3]", " [2][3]", [2, 3]),
    ("[2;3]", " [2][3]", [2, 3]),
    ("[2 and 3]", " [2][3]", [2, 3]),
    ("[1-3]", " [1][2][3]", [1, 2, 3]),
    ("[1–3]", " [1][2][3]", [1, 2, 3]),
    ("[2] [3]", " [2][3]", [2, 3]),
    ("[2][2]", " [2]", [2]),
    ("[#2]", " [2]", [2]),
    ("[^2]", " [2]", [2]),
    ("[P2]", " [2]", [2]),
    ("[Precedent 2]", " [2]", [2]),
    ("[precedent two]", " [2]", [2]),
    ("(Precedent 2)", " [2]", [2]),
    ("(see precedents 2 and 3)", " [2][3]", [2, 3]),
    ("(2)", " [2]", [2]),  # a bare number closing the sentence, nothing enumerated
    ("²", "[2]", [2]),
])
def test_marker_forms_become_canonical_citations(written: str, shown: str, cited: list[int]) -> None:
    result = verify(f"{INDEMNITY} {written}.".replace(" ²", "²"), PRECEDENTS, SELECTED)
    assert result.text == f"{INDEMNITY}{shown}."
    assert result.cited == cited and result.removed_markers == []


@pytest.mark.parametrize("written, removed", [
    ("[7]", ["[7]"]),
    ("[0]", ["[0]"]),
    ("[2, 7]", ["[7]"]),
    ("[2-5]", ["[4]", "[5]"]),
    ("[1-999]", ["[1-999]"]),
    ("[Precedent A]", ["[Precedent A]"]),
    ("[citation needed]", ["[citation needed]"]),
    ("(precedent 9)", ["[9]"]),
    ("【12】", ["[12]"]),
])
def test_markers_that_cannot_be_verified_are_removed_and_reported(written: str,
                                                                  removed: list[str]) -> None:
    result = verify(f"{INDEMNITY} {written}.", PRECEDENTS, SELECTED)
    assert result.removed_markers == removed
    assert all(p["reason"] == "names no precedent that was given" for p in result.problems)
    assert "7" not in result.text and "9" not in result.text and "A]" not in result.text


def test_prose_references_are_citations_and_invalid_ones_disappear() -> None:
    result = verify(f"As in precedent two, {INDEMNITY}. As in Precedent 7, the Customer pays "
                    "the fees [1].", PRECEDENTS, SELECTED)
    assert result.text.startswith(f"As in precedent two, {INDEMNITY}. The Customer pays")
    assert result.cited == [1, 2] and result.removed_markers == ["[7]"]
    assert result.comments[0].support.supported  # "two" is the reference, not an amount


@pytest.mark.parametrize("text", [
    "Supplier shall (1) indemnify Customer and (2) defend Customer.",
    "The conditions precedent 1 to 3 are set out in Schedule 2.",
    "Payment is due within [30] days.",
    "The Supplier shall pay the Fees [Fill in amount].",
])
def test_drafting_that_looks_like_a_marker_stays(text: str) -> None:
    result = verify(text, PRECEDENTS, SELECTED)
    assert result.text == text and result.cited == [] and result.removed_markers == []


def test_normalise_makes_odd_brackets_spaces_and_widths_plain() -> None:
    assert normalise("fees\u00a0paid\u200b【１】") == "fees paid[1]"


@pytest.mark.parametrize("opening, closing", [
    ('"', '"'), ("“", "”"), ("‘", "’"), ("'", "'"), ("«", "»"), ("„", "“"), ("‚", "‘"),
    ("「", "」"),
])
def test_quotations_in_any_marks_are_checked(opening: str, closing: str) -> None:
    good = verify(f"Supplier must {opening}indemnify Customer against third-party claims{closing} [2].",
                  PRECEDENTS, SELECTED)
    assert good.cited == [2] and opening + "indemnify" in good.text
    bad = verify(f"Supplier must {opening}indemnify Customer against all losses{closing} [2].",
                 PRECEDENTS, SELECTED)
    assert bad.cited == [] and bad.removed_markers == ["[2]"]
    # The words stay, no longer dressed as a quotation of the precedent.
    assert bad.text == "Supplier must indemnify Customer against all losses."
    assert bad.problems[-1]["quote"] == "indemnify Customer against all losses"


def test_apostrophes_are_not_quotation_marks() -> None:
    result = verify("The Supplier's fees and the parties' rights are as agreed in the claims [2].",
                    PRECEDENTS, SELECTED)
    assert result.cited == [2] and not [p for p in result.problems if "quote" in p]


def test_quotation_with_an_ellipsis_and_odd_spacing() -> None:
    result = verify("Liability is limited to “the fees   paid … before the claim” [1].",
                    PRECEDENTS, SELECTED)
    assert result.cited == [1] and len(result.comments) == 1
    assert result.comments[0].sentence.endswith("claim” [1].")


def test_a_quotation_of_the_lawyers_own_text_is_allowed() -> None:
    result = verify("As drafted, “Supplier's liability is unlimited” today [2].", PRECEDENTS, SELECTED)
    assert result.cited == [2] and result.removed_markers == []


def test_a_changed_amount_is_flagged_in_the_comment() -> None:
    result = verify("Liability shall not exceed the fees paid in the six months before the claim [1].",
                    PRECEDENTS, SELECTED)
    comment = result.comments[0]
    assert comment.flag == FLAG and result.flagged == [comment]
    assert comment.support.reason == "the precedent does not give “six months”"
    assert comment.text.endswith("Check: the precedent may not say this (the precedent does not "
                                 "give “six months”).")


def test_a_faithful_restatement_is_not_flagged() -> None:
    result = verify("Each party's liability shall not exceed the fees paid in the twelve months "
                    "before a claim [1].", PRECEDENTS, SELECTED)
    assert result.comments[0].flag is None and result.flagged == []
    assert result.comments[0].support.score >= THRESHOLD


def test_swapped_parties_are_flagged() -> None:
    result = verify("Customer shall indemnify Supplier against third-party claims [2].",
                    PRECEDENTS, SELECTED)
    assert result.comments[0].flag == FLAG


def test_uncited_sentences_are_listed_unless_they_are_the_lawyers_own() -> None:
    answer = (f"{INDEMNITY} [2]. The Customer waives all claims against the Supplier. "
              "Supplier's liability is unlimited. Payment is due within [30] days.")
    result = verify(answer, PRECEDENTS, SELECTED)
    assert [result.text[a:b] for a, b in result.uncited] == [
        "The Customer waives all claims against the Supplier."]


def test_comment_offsets_match_their_sentences() -> None:
    answer = ("Each party's liability is capped at fees paid in the twelve months【1】. "
              "Delaware law governs (Precedent 3). Supplier indemnifies Customer [2, 9].")
    result = verify(answer, PRECEDENTS, SELECTED)
    assert [c.marker for c in result.comments] == ["[1]", "[3]", "[2]"]
    for comment in result.comments:
        assert result.text[comment.start:comment.end] == comment.sentence
        assert PRECEDENTS[comment.n - 1].text[comment.support.start:comment.support.end]



# From the shared agreements (Common Paper's cloud service agreement): a "not" put in or taken
# out is the opposite of the precedent however many of its words the sentence keeps.
@pytest.mark.parametrize("precedent, sentence", [
    ("However, this section does not excuse Customer's obligations to pay Fees.",
     "However, this section does excuse Customer's duties to pay Fees."),
    ("However, Provider will try to inform Customer before suspending Customer's account when practical.",
     "However, Provider will not try to inform Customer before suspending Customer's account when practical."),
    ("This Agreement will be binding upon and inure to the benefit of the parties and their permitted "
     "successors and assigns.",
     "This Agreement will not be binding upon and inure to the benefit of the parties and their permitted "
     "successors and assigns."),
])
def test_a_negation_put_in_or_taken_out_is_flagged(precedent: str, sentence: str) -> None:
    verified = verify(f"{sentence} [1]", [Clause("p1", precedent, "csa")], SELECTED)
    assert verified.comments[0].support is not None and not verified.comments[0].support.supported
    # The precedent's own words are backed.
    assert score_support(precedent, precedent).supported


def test_a_marker_on_a_line_of_its_own_joins_the_sentence_before_it() -> None:
    # A new user's model wrote the carve-out, then "\n\n\n[1]": in Word, empty paragraphs.
    answer = "Supplier shall indemnify Customer against third-party claims.\n\n\n[2]"
    result = verify(answer, PRECEDENTS, SELECTED)
    assert result.text == "Supplier shall indemnify Customer against third-party claims. [2]"
    assert [c.n for c in result.comments] == [2]
    # Paragraphs of the clause itself stay paragraphs.
    two = verify("Supplier shall indemnify Customer [2].\n\nThis Agreement is governed by the laws of Delaware [3].",
                 PRECEDENTS, SELECTED)
    assert "\n\n" in two.text
