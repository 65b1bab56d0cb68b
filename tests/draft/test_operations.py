"""Drafting operations: only the words the instruction names change, each with a reason; where
renaming the parties cannot do what was asked, the operation declines and says why."""

from __future__ import annotations

import pytest

from addin_server.draft.carve_out import add_carve_out
from addin_server.draft.edits import Declined, apply
from addin_server.draft.instruction import Part, read_instruction
from addin_server.draft.operations import (
    AlreadyDone,
    change_amount,
    change_period,
    conform_terms,
    delete_part,
    flip_party,
    make_mutual,
)
from index_builder.model import Clause

ISSUE = "The Supplier shall not be liable to the Customer for any indirect or consequential loss."
CONSULTING = ("The Company shall hold the Consultant's Confidential Information in strict confidence and shall not "
              "disclose it to any third party without the Consultant's prior written consent.")


def part(instruction: str, clause: str, parties: tuple[str, ...] = ()) -> Part:
    return read_instruction(instruction, clause, parties).parts[0]


def mutual(clause: str, instruction: str = "Make this mutual", parties: tuple[str, ...] = ()) -> str:
    return make_mutual(clause, part(instruction, clause, parties), parties).text


def test_make_mutual_the_issue_example() -> None:
    result = make_mutual(ISSUE, part("Make this mutual", ISSUE))
    assert result.text == ("Neither party shall be liable to the other party for any indirect or "
                           "consequential loss.")
    assert all(e.reason for e in result.edits)
    # Every edit names a span of the original; nothing else moves.
    assert apply(ISSUE, result.edits) == result.text
    assert {e.old for e in result.edits} == {"The Supplier", " not", "the Customer"}


def test_make_mutual_protects_both_parties_possessive_only_mentions_included() -> None:
    """Issue 38's quickstart example: the Consultant is named only in possessives, and its information
    is what the clause protects; both obligations and the protection become mutual."""
    assert mutual(CONSULTING, parties=("Company", "Consultant")) == (
        "Each party shall hold the other party's Confidential Information in strict confidence and shall not "
        "disclose it to any third party without the other party's prior written consent.")


@pytest.mark.parametrize("clause, expected", [
    ("Contractor may not assign any of Contractor’s rights without Company’s prior written consent.",
     "Neither party may assign any of its rights without the other party’s prior written consent."),
    ("Discloser may terminate this NDA upon written notice to the Recipient.",
     "Either party may terminate this NDA upon written notice to the other party."),
    ("Contractor will not solicit any Company personnel.",
     "Neither party will solicit any of the other party’s personnel."),
    ("However, Provider may assign this Agreement if Provider undergoes a merger.",
     "However, either party may assign this Agreement if it undergoes a merger."),
    ("Employee must not disparage Employer.", "Neither party may disparage the other party."),
    ("Galaxy shall have no liability to Telnet for lost profits.",
     "Neither party shall have any liability to the other party for lost profits."),
])
def test_make_mutual_pronouns_possessives_and_agreement(clause: str, expected: str) -> None:
    assert mutual(clause, parties=("Galaxy", "Telnet")) == expected


@pytest.mark.parametrize("instruction", ["Make this reciprocal", "should bind both sides", "pls make mutual",
                                         "Can this work both ways?", "Make it two-way"])
def test_mutual_in_a_lawyers_many_words(instruction: str) -> None:
    assert mutual(ISSUE, instruction).startswith("Neither party shall be liable to the other party")


def test_a_trigger_naming_the_other_party_turns_round() -> None:
    clause = ("In the event Agent changes its legal structure, Kallo shall have the option of immediate "
              "termination of this Agreement.")
    assert mutual(clause, parties=("Agent", "Kallo")) == (
        "In the event either party changes its legal structure, the other party shall have the option of "
        "immediate termination of this Agreement.")


def test_mutual_of_one_sentence_leaves_the_rest() -> None:
    clause = ("Airspan will recognize payments due to Distributor for orders received. Distributor will maintain "
              "its records and will permit examination thereof by representatives of Airspan.")
    got = mutual(clause, "Make the second sentence reciprocal and leave the first alone", ("Airspan", "Distributor"))
    assert got == ("Airspan will recognize payments due to Distributor for orders received. Each party will maintain "
                   "its records and will permit examination thereof by representatives of the other party.")


@pytest.mark.parametrize("clause, why", [
    ("PlanetCAD shall not market any services to Customers without the approval of Dassault.", "one party's"),
    ("CONSULTANT agrees that during its consultancy it will not solicit any of the Company's employees.",
     "its consultancy"),
    ("The RemainCo Group may continue to distribute literature, provided SpinCo House Marks are covered up.",
     "one party's assets"),
    ("Supplier will notify Customer and the Licensor of any breach.", "3 parties"),
])
def test_make_mutual_declines_where_renaming_cannot_do_it(clause: str, why: str) -> None:
    with pytest.raises(Declined, match=why):
        parties = ("PlanetCAD", "Dassault", "RemainCo Group", "SpinCo Group", "CONSULTANT", "Company")
        make_mutual(clause, part("Make this mutual", clause, parties), parties)


def test_already_mutual_changes_nothing() -> None:
    clause = "Each party will keep the other party's Confidential Information secret."
    with pytest.raises(AlreadyDone):
        make_mutual(clause, part("Make this mutual", clause))


def test_make_mutual_leaves_one_partys_defined_terms_and_says_so() -> None:
    clause = "Customer will indemnify Provider against all Customer Covered Claims."
    result = make_mutual(clause, part("Make this mutual", clause))
    assert "Customer Covered Claims" in result.text and result.notes


def test_flip_in_words_moves_the_right_and_only_that() -> None:
    clause = ("Discloser may terminate this NDA upon written notice to the Recipient. The Recipient’s obligations "
              "will survive termination.")
    result = flip_party(clause, part("Recipient should be the one who can terminate.", clause))
    # Each party is written as the clause writes it: "the Recipient", "Discloser" (session 10: "the HDI").
    assert result.text == ("The Recipient may terminate this NDA upon written notice to Discloser. The Recipient’s "
                           "obligations will survive termination.")


def test_flip_keeps_what_the_instruction_names_and_declines_when_unsure() -> None:
    clause = ("Dolphin hereby indemnifies and defends DGT against claims arising from the use of DGT's products "
              "by Dolphin.")
    instruction = "Other way round: DGT should indemnify Dolphin for claims coming from DGT's products."
    parties = ("Dolphin", "DGT")
    assert flip_party(clause, part(instruction, clause, parties), parties).text == (
        "DGT hereby indemnifies and defends Dolphin against claims arising from the use of DGT's products by Dolphin.")
    with pytest.raises(Declined, match="DGT's products"):
        flip_party(clause, part("Switch this so DGT bears the indemnity.", clause, parties), parties)
    given = "Customer may use Provider's name."
    with pytest.raises(AlreadyDone):
        flip_party(given, part("Give this to the Customer instead of the Provider", given))


@pytest.mark.parametrize("clause, instruction, expected", [
    ("within thirty (30) days of notice", "change it to 15 days", "within fifteen (15) days of notice"),
    ("within 30 days of notice", "make it 15 days", "within 15 days of notice"),
    ("for one (1) year thereafter", "cut the tail to six months", "for six (6) months thereafter"),
    ("no more than ten business days", "change ten business days to five", "no more than five business days"),
    ("a minimum of 36 consecutive months", "we need 48 months minimum, not 36", "a minimum of 48 consecutive months"),
    ("for an additional three (3) month period", "make-good extension: 6 months",
     "for an additional six (6) month period"),
    ("The one-year cap does not apply", "six-month cap instead of one year", "The six-month cap does not apply"),
    # drafting-t (spent): a unit before a plural noun stays singular ("two (2) years periods" was written).
    ("will renew for additional, successive five (5) year periods unless", "renewal blocks of two (2) years instead",
     "will renew for additional, successive two (2) year periods unless"),
])
def test_change_period_keeps_the_clauses_form(clause: str, instruction: str, expected: str) -> None:
    assert change_period(clause, part(instruction, clause)).text == expected


def test_change_period_asks_which_and_does_not_invent_one() -> None:
    two = "within 30 days, or 60 days after notice"
    with pytest.raises(Declined, match="more than one period"):
        change_period(two, part("make it 15 days", two))
    assert change_period(two, part("change the 60 days to 15 days", two)).text == "within 30 days, or 15 days after notice"
    with pytest.raises(Declined, match="no period"):
        change_period("The term ends on notice.", part("limit it to twelve months", "The term ends on notice."))


@pytest.mark.parametrize("clause, instruction, expected", [
    ("exceeds $162,164 a year", "make it $150,000", "exceeds $150,000 a year"),
    ("a fee of Five Thousand Dollars ($5,000) with the request", "bump the processing fee to $7,500",
     "a fee of Seven Thousand Five Hundred Dollars ($7,500) with the request"),
    ("limits of One Million and No/100 Dollars ($1,000,000.00) combined", "raise the drone cover to $2m",
     "limits of Two Million and No/100 Dollars ($2,000,000.00) combined"),
    ("fifty-five thousand dollars ($55,000USD) in Contract Year 2011 and seventy thousand dollars ($70,000USD) in "
     "Contract Year 2012", "2012 fee: $85k",
     "fifty-five thousand dollars ($55,000USD) in Contract Year 2011 and eighty-five thousand dollars ($85,000USD) "
     "in Contract Year 2012"),
])
def test_change_amount_in_words_and_figures(clause: str, instruction: str, expected: str) -> None:
    assert change_amount(clause, part(instruction, clause)).text == expected


def test_carve_out_is_taken_word_for_word_and_cited() -> None:
    precedent = Clause("p", "7. Non-Solicitation\nEmployee must not Solicit any Covered Employee. "
                            "This restriction does not prohibit Employee from providing a "
                            "professional reference upon request.", "d")
    clause = "Employee must not Solicit any Covered Employee."
    result = add_carve_out(clause, [precedent], 1, "professional references")
    assert result.text == clause + (" This restriction does not prohibit Employee from providing "
                                    "a professional reference upon request. [1]")
    assert result.cited == [1]


def test_carve_out_takes_only_the_item_asked_for_and_refuses_another_documents_party() -> None:
    precedent = Clause("p", "The foregoing shall not preclude either party from employing any person (a) who "
                            "responds to any general advertisement or (b) who contacts the other party on his own "
                            "initiative.", "d")
    clause = "Neither party will solicit the other party's personnel."
    assert add_carve_out(clause, [precedent], None, "general job ads").text == clause + (
        " The foregoing shall not preclude either party from employing any person who responds to any general "
        "advertisement. [1]")
    dangling = Clause("r", "The foregoing shall not preclude either party from employing any such employee who responds "
                           "to a general advertisement.", "d")
    with pytest.raises(Declined, match="such employee"):
        add_carve_out(clause, [dangling], None, "general job ads")
    foreign = Clause("q", "The limitations will not apply to injury caused by AT&T's gross negligence.", "d")
    with pytest.raises(Declined, match="AT&T"):
        add_carve_out("Seller's liability is limited to the price.", [foreign], 1, "gross negligence")


def test_carve_out_qualifier_is_inserted_in_place() -> None:
    precedent = Clause("p", "Employee must not compete, subject to applicable law.", "d")
    result = add_carve_out("Employee must not compete.", [precedent], 1, "applicable law")
    assert result.text == "Employee must not compete, subject to applicable law [1]."


def test_conform_terms_renames_parties_to_the_documents() -> None:
    clause = "Employer may notify Employee's new employer."
    assert conform_terms(clause, part("Conform", clause), ["Company", "Employee"]).text == \
        "Company may notify Employee's new employer."
    other = "Provider will notify Customer."
    with pytest.raises(Declined, match="not clear which"):
        conform_terms(other, part("Conform", other), ["Company", "Partner"])
    with pytest.raises(Declined, match="were not sent"):
        conform_terms(other, part("Conform", other), None)
    renamed = "Bachem will ship to Magenta."
    assert conform_terms(renamed, part("Change Bachem to Provider and Magenta to Customer", renamed), ["Provider"],
                         ["Provider", "Customer"]).text == "Provider will ship to Customer."


def test_delete_drops_the_sentence_named() -> None:
    clause = "Company's liability is capped at the fees. MA agrees that the pricing would be higher but for these limits."
    assert delete_part(clause, part("drop the pricing acknowledgement", clause)).text == \
        "Company's liability is capped at the fees."


def test_the_model_reads_the_document_note_and_operations_do_not() -> None:
    """The document's terms (issue 23) guide the model; the router reads the instruction alone."""
    from addin_server.draft.checks import DraftTask
    from addin_server.draft.router import DraftRouter

    asked = []

    class Redrafter:
        def redraft(self, text, precedents, instructions):
            asked.append(instructions)
            raise RuntimeError("stop")

    router = DraftRouter(Redrafter())  # type: ignore[arg-type]
    note = "Write it in the lawyer's document's own terms: the parties are “Supplier” and “Client”."
    task = DraftTask("The Supplier shall keep the records for five years.", "Make it shorter.",
                     model_note=note)
    try:
        router.draft(task)
    except RuntimeError:
        pass
    assert asked == ["Make it shorter.\n" + note]


def test_an_amount_written_figure_first_keeps_its_form_and_currency() -> None:
    from addin_server.draft.operations import change_amount
    clause = "The termination fee shall in no event exceed RUB 50 000 000 (fifty million roubles)."
    part = read_instruction("cap the termination fee at RUB 30m", clause, ()).parts[0]
    assert change_amount(clause, part).edits[0].new == "RUB 30 000 000 (thirty million roubles)"
    clause = "The fee shall not exceed $500,000 (five hundred thousand dollars)."
    part = read_instruction("make it $2,000,000", clause, ()).parts[0]
    assert change_amount(clause, part).edits[0].new == "$2,000,000 (two million dollars)"


INSURANCE = ("The Parties will maintain general liability insurance in amounts not less than five million dollars "
             "($5,000,000) per occurrence and ten million dollars ($10,000,000) in the aggregate.")


def test_a_value_the_clause_holds_beside_another_of_its_kind_is_not_called_already_done() -> None:
    # The asked ten million is the aggregate's figure; the per-occurrence $5m is the one meant. The
    # operation claims nothing (declined, not "already done") rather than "done, nothing changed".
    asked = part("the per-occurrence floor goes to ten million dollars", INSURANCE)
    with pytest.raises(Declined) as caught:
        change_amount(INSURANCE, asked)
    assert not isinstance(caught.value, AlreadyDone)
    assert "$5,000,000" in caught.value.reason or "$10,000,000" in caught.value.reason


def test_a_value_the_clause_holds_alone_is_already_done() -> None:
    alone = "The Supplier's liability shall not exceed one million dollars ($1,000,000) in the aggregate."
    with pytest.raises(AlreadyDone):
        change_amount(alone, part("make the cap one million dollars", alone))


GARDEN = ("The Employee shall give the Company not less than six (6) months' written notice of termination. Any bonus "
          "shall be paid within ninety (90) days after the end of the financial year.")


def test_the_period_the_ask_names_changes_whatever_its_unit() -> None:
    # A new user's "Shorten the notice period to 30 days": the six months' notice, not the 90-day bonus window.
    done = change_period(GARDEN, part("Shorten the notice period to 30 days", GARDEN))
    assert "thirty (30) days' written notice" in done.text and "ninety (90) days" in done.text
    other = change_period(GARDEN, part("Cut the bonus payment window to 30 days", GARDEN))
    assert "six (6) months'" in other.text and "within thirty (30) days" in other.text
