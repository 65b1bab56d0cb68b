"""Session 9, the instruction side: operations that decline where the spent blind reviews found them wrong
in ways the product can read (a one-party term left in a mutual draft, a conveyance or a proviso swapped, a
conform read as mutual), and asks read in more of the ways lawyers write them (a figure taken back, a value
said twice, a judged figure and a bare number, a sum by its scale, length and plain-English asks). Clauses
and asks are reworded from the faults found, so each rule holds for wording it was not written on."""

from __future__ import annotations

import pytest

from addin_server.draft.checks import DraftTask, check_draft
from addin_server.draft.instruction import read_instruction
from addin_server.draft.router import DraftRouter
from index_builder.errors import InvalidRequestError, LLMNotConfiguredError
from index_builder.model import Clause

DECLINED = (InvalidRequestError, LLMNotConfiguredError)


def drafted(clause: str, instruction: str, parties: tuple[str, ...] = ()):
    return DraftRouter(None).draft(DraftTask(clause, instruction, document_parties=parties), prefer="operation")


def kinds(instruction: str, clause: str = "") -> list[str]:
    return [p.kind for p in read_instruction(instruction, clause).parts]


def parts_said(clause: str, instruction: str, draft: str, parties: tuple[str, ...] = (),
               precedents: tuple[Clause, ...] = ()) -> list[tuple[str, str]]:
    checked = check_draft(DraftTask(clause, instruction, precedents, document_parties=parties), draft)
    return [(p.part.kind, p.status) for p in checked.parts]


# --- operations that decline -------------------------------------------------------------

def test_a_mutual_draft_that_keeps_a_term_of_one_party_declines() -> None:
    clause = ("Licensee will not register any domain name that consists of the Acme Marks or any name intended to "
              "suggest an endorsement by Acme.")
    with pytest.raises(DECLINED, match="Acme Marks"):
        drafted(clause, "Make this mutual.", ("Acme", "Licensee"))


def test_a_flip_of_a_conveyance_declines() -> None:
    clause = ("Developer hereby assigns all right, title and interest in the Work Product to Client on payment. "
              "Developer will assert no rights over the Work Product.")
    with pytest.raises(DECLINED, match="transfers ownership"):
        drafted(clause, "Other way round: Developer keeps the Work Product, and Client asserts no rights over it.",
                ("Developer", "Client"))


def test_a_flip_of_a_clause_with_a_proviso_naming_a_party_declines() -> None:
    clause = ("The Supplier may not assign this Agreement without the consent of the Buyer, provided that the "
              "Supplier may assign its right to receive payment to a lender.")
    with pytest.raises(DECLINED, match="proviso"):
        drafted(clause, "Switch this so it restricts the Buyer instead of the Supplier.", ("Supplier", "Buyer"))


def test_a_flip_without_proviso_or_conveyance_still_acts() -> None:
    clause = "The Supplier may not assign this Agreement without the prior written consent of the Buyer."
    done = drafted(clause, "Switch this so it restricts the Buyer instead of the Supplier.", ("Supplier", "Buyer"))
    assert done.operation is not None and done.operation.text.startswith("The Buyer may not assign")


def test_a_conform_said_with_too_is_not_read_as_mutual() -> None:
    clause = "Employee may withdraw from this covenant by written notice to Employer within three business days."
    ask = "Our consulting form needs this right too. Employee reads Consultant and Employer reads Client - otherwise verbatim."
    with pytest.raises(DECLINED, match="puts one name for another"):
        drafted(clause, ask, ("Consultant", "Client"))
    draft = "Consultant may withdraw from this covenant by written notice to Client within three business days."
    assert ("mutual", "not_done") not in parts_said(clause, ask, draft, ("Consultant", "Client"))
    assert ("mutual", "wrong") not in parts_said(clause, ask, draft, ("Consultant", "Client"))


# --- the ask read whole ------------------------------------------------------------------

def test_a_figure_taken_back_is_replaced_by_the_one_settled_on() -> None:
    ins = read_instruction("the run-off cover, make that two years, no sorry, four, so four years", 
                           "The Supplier shall keep run-off cover for two (2) years after termination.")
    assert [(p.kind, p.params.get("value")) for p in ins.parts] == [("period", 4)]


def test_a_value_said_again_as_a_bare_number_is_one_part() -> None:
    ins = read_instruction("Sixty days is ample for the handover. Make it 60.",
                           "The Supplier shall assist for one hundred twenty (120) days after expiry.")
    assert [(p.kind, p.params.get("value")) for p in ins.parts] == [("period", 60)]


def test_a_bare_number_after_a_judged_figure_takes_its_unit() -> None:
    ins = read_instruction("45 days' notice to cure makes no sense for a monthly service. Fifteen.",
                           "Either party may terminate if the other fails to cure within forty-five (45) days.")
    assert [(p.kind, p.params.get("value"), p.params.get("old")) for p in ins.parts] == [("period", 15, 45)]


def test_a_figure_said_not_is_the_old_one_and_the_number_after_the_dash_the_new() -> None:
    ins = read_instruction("Not ten days to object - twenty.", "Buyer may object within ten (10) days of delivery.")
    assert [(p.params.get("value"), p.params.get("old")) for p in ins.parts] == [(20, 10)]


def test_a_figure_named_to_amend_is_the_old_value_not_one_kept() -> None:
    clause = "For three (3) years after the Term the Licensor may inspect the Licensee's records."
    ins = read_instruction("Licensor wants the inspection tail at five years. Amend the three-year tail; nothing else.", clause)
    assert [(p.params.get("value"), p.params.get("old")) for p in ins.parts] == [(5, 3)]
    # Said with a word of keeping, it stays kept.
    kept = read_instruction("Notice goes to 60 days; the 3-year tail stays.",
                            clause + " Either party may end it on ninety (90) days' notice.")
    assert any(p.params.get("kept") for p in kept.parts)


def test_a_sum_by_its_scale_is_read_in_the_clauses_currency() -> None:
    ins = read_instruction("The basket caps out at ten million, not twenty.",
                           "Seller's liability under this Article is capped at $20,000,000.")
    assert [(p.kind, p.params.get("amount")) for p in ins.parts] == [("amount", 10_000_000)]


def test_exclusivity_is_not_an_exclusion() -> None:
    assert "carve_out" not in kinds("Texas law and the Travis County courts exclusively - [1] shows the exclusivity.")


@pytest.mark.parametrize("ask, length", [
    ("Cut it in half for the board pack.", {"ratio": 0.6}),
    ("Lose a third of the words.", {"ratio": 0.75}),
    ("Tighten this up - it says the same thing twice.", {"ratio": 0.95}),
    ("Collapse it into one sentence.", {"sentences": 1}),
    ("Two sentences, tops.", {"sentences": 2}),
    ("50-word ceiling on this one.", {"words": 50}),
    ("35 words max, please.", {"words": 35}),
])
def test_length_asks_in_their_many_phrasings(ask: str, length: dict) -> None:
    ins = read_instruction(ask, "The Supplier shall deliver the Goods on time. The Supplier shall deliver them whole.")
    assert "shorten" in [p.kind for p in ins.parts] and ins.length == length


@pytest.mark.parametrize("ask", [
    "Can the ops team have this in words they'd use themselves?",
    "Strip out the 'hereby' and 'pursuant to' please.",
    "Lose the 'hereinafter referred to' wording.",
    "Put it in everyday English for the buyers.",
    "Rewrite it so a non-lawyer gets it - no jargon.",
])
def test_plain_english_asks_in_their_many_phrasings(ask: str) -> None:
    assert kinds(ask) == ["plain"]


def test_words_quoted_to_delete_that_hold_an_archaic_word_are_a_delete() -> None:
    assert kinds("drop the 'rights now known or hereafter devised' language") == ["delete"]


# --- checks that say "not checked" rather than guess -------------------------------------

def test_a_kept_figure_written_twice_beside_an_unplaced_change_is_not_checked() -> None:
    clause = ("Services are warranted for ninety (90) days from performance. Media are warranted for ninety (90) "
              "days from delivery.")
    ask = "Client wants the services warranty at six months. The media warranty is also ninety days - leave that one alone."
    draft = ("Services are warranted for six (6) months from performance. Media are warranted for ninety (90) days "
             "from delivery.")
    said = parts_said(clause, ask, draft)
    assert ("period", "wrong") not in said and ("period", "done") in said


def test_a_carve_out_keyed_to_the_party_bound_not_the_one_the_ask_names_fails() -> None:
    clause = "Vendor shall indemnify Client against all claims arising from the use of the Platform."
    ask = "Vendor shouldn't pay where Client itself was grossly negligent. Carve that out - [1] has the wording."
    precedent = (Clause("p1", "except to the extent caused by the gross negligence of Reseller", "d"),)
    right = clause[:-1] + ", except to the extent caused by the gross negligence of Client [1]."
    wrong = clause[:-1] + ", except to the extent caused by the gross negligence of Vendor [1]."
    assert ("carve_out", "wrong") not in parts_said(clause, ask, right, ("Vendor", "Client"), precedent)
    assert ("carve_out", "wrong") in parts_said(clause, ask, wrong, ("Vendor", "Client"), precedent)


def test_too_beside_a_clause_already_mutual_is_not_read_as_mutual() -> None:
    clause = ("Except for a breach of Section 9, neither party will be liable to the other for indirect or "
              "consequential damages.")
    with pytest.raises(DECLINED, match="already binds both parties"):
        drafted(clause, "9.1: data breaches out too, cf. [1].")


def test_a_number_that_counts_renewals_is_a_value_no_operation_sets() -> None:
    clause = ("This Agreement renews for up to two (2) renewal terms of four (4) years each unless either party "
              "gives notice at least six (6) months before expiry.")
    with pytest.raises(DECLINED, match="“three”"):
        drafted(clause, "Renewals: three of them, three years each.")


def test_a_flip_that_carries_the_proviso_across_is_not_checked_as_done() -> None:
    clause = ("The Supplier may not assign this Agreement without the consent of the Buyer, provided that the "
              "Supplier may assign its right to receive payment for its Goods to a lender.")
    carried = ("The Buyer may not assign this Agreement without the consent of the Supplier, provided that the "
               "Buyer may assign its right to receive payment for its Goods to a lender.")
    said = parts_said(clause, "Switch this so it restricts the Buyer instead of the Supplier.", carried,
                      ("Supplier", "Buyer"))
    assert said == [("flip", "unchecked")]


def test_an_amount_in_words_keeps_its_currency_words() -> None:
    clause = "The Company agrees to spend not less than five million U.S. Dollars (US$5,000,000) on exploration."
    done = drafted(clause, "The committee wants the commitment at seven and a half million. Words and figures.")
    assert "seven million five hundred thousand U.S. Dollars (US$7,500,000)" in done.operation.text
