"""Operations a new user found wrong (session 10, round 2, issue 38): each pins a principle on a
clause of the user's own kind, reworded, so that it holds on wording never seen; no label is read."""

from __future__ import annotations

import pytest

from addin_server.draft.carve_out import add_carve_out
from addin_server.draft.edits import Declined
from addin_server.draft.gates import unread
from addin_server.draft.instruction import read_instruction
from addin_server.draft.operations import change_amount, change_period, make_mutual
from addin_server.draft.operations_structure import slip
from index_builder.model import Clause
from index_builder.reading.binding import possessive_has_noun


def part(instruction: str, clause: str):
    return read_instruction(instruction, clause, ()).parts[0]


# 1. A party that is the object of a verb is "the other party", never an owner.
@pytest.mark.parametrize("clause, expected", [
    ("The Licensor shall keep the Licensee informed of every claim.",
     "Each party shall keep the other party informed of every claim."),
    ("The Vendor shall hold the Purchaser harmless from any third-party claim.",
     "Each party shall hold the other party harmless from any third-party claim."),
    ("The Agent shall keep the Principal updated.", "Each party shall keep the other party updated."),
    ("The Agent shall notify the Principal promptly.", "Each party shall notify the other party promptly."),
])
def test_make_mutual_an_object_left_as_it_is_stays_an_object(clause: str, expected: str) -> None:
    assert make_mutual(clause, part("Make this mutual", clause)).text == expected


def test_a_word_that_ends_its_phrase_is_no_noun_owned_but_one_before_a_noun_is() -> None:
    at = len("the other party’s")
    assert not possessive_has_noun("the other party’s informed of it", at)
    assert not possessive_has_noun("the other party’s harmless.", at)
    assert not possessive_has_noun("the other party’s promptly", at)
    assert possessive_has_noun("the other party’s registered office", at)
    assert possessive_has_noun("the other party’s monthly fee", at)
    assert possessive_has_noun("the other party’s supply of goods", at)
    assert possessive_has_noun("the other party’s need for", at)


def test_any_operation_draft_with_a_possessive_owning_nothing_is_refused() -> None:
    original = "The Agent shall keep the Principal informed."
    assert slip(original, "Each party shall keep the other party’s informed.", ())
    assert slip(original, "Each party shall keep the other party informed.", ()) == ""
    # A possessive the clause had itself is no slip of the operation's.
    assert slip("It is the Buyer's.", "It is the Seller's.", ()) == ""


# 2. A figure written with its words changes whole, in the clause's own order.
@pytest.mark.parametrize("clause, ask, expected", [
    ("The Vendor's liability shall not exceed £1,000,000 (one million pounds).", "increase the cap to £2 million",
     "The Vendor's liability shall not exceed £2,000,000 (two million pounds)."),
    ("The Vendor shall pay £500 (five hundred pounds) per day of delay.", "change the liquidated damages to £600 per day",
     "The Vendor shall pay £600 (six hundred pounds) per day of delay."),
])
def test_change_amount_rewrites_the_words_beside_the_figure(clause: str, ask: str, expected: str) -> None:
    assert change_amount(clause, part(ask, clause)).text == expected


def test_change_amount_declines_where_the_words_cannot_be_rewritten() -> None:
    clause = "Fees are capped at £10,000 (ten thousand and fifty-odd pounds)."
    with pytest.raises(Declined, match="in words"):
        change_amount(clause, part("change the cap to £12,000", clause))


def test_change_period_keeps_digits_then_words() -> None:
    clause = "Either party may terminate on 3 (three) months' notice."
    assert change_period(clause, part("change the notice period to six months", clause)).text == (
        "Either party may terminate on 6 (six) months' notice.")


# 3. A carve-out named by its subject is taken only where the precedent speaks of that subject.
def test_carve_out_for_a_named_subject_the_precedent_lacks_is_declined() -> None:
    precedent = Clause("p", doc_id="d", text="The Supplier's liability shall not exceed the fees paid. However, nothing in this "
                            "Agreement will limit a party's liability to the extent prohibited by law.")
    clause = "The Supplier's liability shall not exceed the fees paid in the preceding twelve (12) months."
    with pytest.raises(Declined, match="no carve-out about “fraud”"):
        add_carve_out(clause, [precedent], 1, "fraud from")


# 4. A length limit is a length, not a figure left unread.
def test_a_word_limit_is_no_unplaced_figure() -> None:
    clause = ("The Recipient shall keep the Discloser's Confidential Information confidential for three (3) years "
              "after disclosure.")
    ins = read_instruction("make this mutual and change the confidentiality period to five years; keep it under 40 "
                           "words", clause, ())
    assert "40" not in unread(ins, clause)


# 2, end to end: the figures reader reads "(one million pounds)" as the figure said again, so the
# router offers the amount change with the meaning check passed (it was declined at "changes “two”").
@pytest.mark.parametrize("clause, ask, expected", [
    ("The Vendor's liability shall not exceed £1,000,000 (one million pounds).", "increase the cap to £2 million",
     "£2,000,000 (two million pounds)"),
    ("The Vendor shall pay £500 (five hundred pounds) per day of delay.", "change the liquidated damages to £600 per day",
     "£600 (six hundred pounds)"),
])
def test_an_amount_with_its_words_in_pounds_is_changed_through_the_router(clause: str, ask: str, expected: str) -> None:
    from addin_server.draft.checks import DraftTask
    from addin_server.draft.router import DraftRouter

    result = DraftRouter(None).draft(DraftTask(clause, ask), prefer="operation")
    assert result.producer == "operation" and expected in result.result.verified.text
    assert [c.name for c in result.checks if c.passed is False] == []


# tidy10's "renaming keeps its grammar" reads renamings only: a carve-out sentence inserted from a
# precedent brings the precedent's possessives ("Employer's employees"), which are not a slip (the
# e2e carve-out from the Alaska covenant was declined by it).
def test_a_carve_out_sentence_with_its_own_possessive_is_no_renaming_slip() -> None:
    from addin_server.draft.edits import Edit
    from addin_server.draft.operations_structure import possessive_made

    clause = "During the Restricted Period, Employee must not Solicit any Covered Employee."
    inserted = Edit(len(clause), len(clause), new=" This does not prohibit hiring a person who answers an "
                    "advertisement not directed at Employer's employees.", reason="carve-out")
    assert possessive_made(clause, [inserted]) == ""
    renamed = "Each party shall pay any costs which DCL incurs."
    at = renamed.index("DCL")
    assert possessive_made(renamed, [Edit(at, at + 3, new="the other party's", reason="mutual", old="DCL")]) != ""


# 2, a currency code before the words (blind review of drafting-y: "RMB50,000 (RMB TEN THOUSAND)" was
# marked done): the code stays, the words change with the figure; words it cannot rewrite decline.
def test_change_amount_rewrites_words_led_by_a_currency_code() -> None:
    clause = "a payment of the liquidated damages of RMB10,000 (RMB TEN THOUSAND), this Agreement shall terminate"
    assert change_amount(clause, part("make the break fee RMB50,000", clause)).text == (
        "a payment of the liquidated damages of RMB50,000 (RMB FIFTY THOUSAND), this Agreement shall terminate")


def test_change_amount_declines_where_a_bracket_says_the_amount_in_other_words() -> None:
    clause = "The fee is RMB10,000 (say RMB ten thousand only) a year."
    with pytest.raises(Declined, match="in words"):
        change_amount(clause, part("make the fee RMB50,000", clause))
    # A bracket that says something else is no amount in words.
    note = "The fee is £5,000 (for each of two years)."
    assert change_amount(note, part("make the fee £6,000", note)).text == "The fee is £6,000 (for each of two years)."


# A topic heading a point in a list, then a dash, is no part of the ask: "Assignment - add the acquirer
# exception in [1], for both parties" asks a carve-out, not make-mutual (drafting-z's blind review: the
# mutual operation rewrote the Contractor's consent sentence and said "mutual: done").
def test_a_topic_before_a_dash_does_not_turn_an_exception_into_a_mutual() -> None:
    clause = ("Neither party may assign its rights and obligations under this Agreement without the written consent "
              "of the other party.")
    ins = read_instruction("Assignment - add the acquirer exception in [1], for both parties.", clause,
                           ("Company", "Contractor"))
    assert [p.kind for p in ins.parts] == ["carve_out"]


def test_a_topic_before_a_dash_is_no_part_of_what_a_carve_out_covers() -> None:
    clause = ("Neither party may assign its rights and obligations under this Agreement without the written consent "
              "of the other party.")
    ins = read_instruction("Counsel's note: two things and we can sign.\nAssignment - add the acquirer exception in [1] "
                           "(substantially all of the business or assets), for both parties.", clause,
                           ("Company", "Contractor"))
    carve = [p for p in ins.parts if p.kind == "carve_out"]
    assert carve and carve[0].params["phrase"] == "acquirer"
