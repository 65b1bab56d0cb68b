"""Session 10 (issue 38): the run-time checks fail a part only on evidence, read from how lawyers write.

Each fixture is a real clause from a spent drafting set (h and i held-out, d, f), cut to the sentence
the rule reads; each test fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.instruction import read_instruction
from addin_server.draft.parts import check_part
from addin_server.draft.parts_result import Context
from index_builder.reading.binding import MUTUAL, read


def statuses(instruction: str, clause: str, draft: str, parties: tuple[str, ...] = ()) -> list[str]:
    ins = read_instruction(instruction, clause, parties)
    return [check_part(p, ins, clause, draft, Context(parties=parties)).status for p in ins.parts]


# --- binding.py -------------------------------------------------------------------------------------

def test_a_passive_right_of_either_party_binds_both() -> None:
    text = ("This Agreement may be terminated by either ExxonMobil or FCE on fifteen (15) days written notice to "
            "the other if that other party undergoes a Change in Control.")
    assert [(p.kind, p.bound) for p in read(text, ("ExxonMobil", "FCE")).provisions] == [("right", MUTUAL)]


def test_a_verb_in_the_list_after_may_not_is_no_grant() -> None:
    # "may not, without the written consent of the Client, assign, subcontract": "assign" continues the
    # "may not"; it is not a grant by the Developer.
    text = ("The Developer may not, without the written consent of the Client, assign, subcontract, or delegate its "
            "obligations under this Agreement.")
    found = read(text, ("Developer", "Client")).provisions
    assert found and all(p.kind == "prohibition" and p.negated for p in found)


def test_a_flip_said_with_the_consent_first_is_done() -> None:
    clause = ("The Developer may not, without the written consent of the Client, assign, subcontract, or delegate its "
              "obligations under this Agreement, except that the Developer may transfer the right to receive any "
              "amounts that may be payable to it for its Services under this Agreement.")
    draft = ("Without the Developer's written consent, the Client may not assign, subcontract or delegate any of its "
             "obligations under this Agreement.")
    assert "wrong" not in statuses("Flip this so it binds the Client rather than us.", clause, draft,
                                   ("Developer", "Client"))


# --- instruction reading ----------------------------------------------------------------------------

def test_also_said_of_a_non_party_is_checked_only_for_naming_them() -> None:
    clause = ("1.1 Access and Use. During the Pilot Period and subject to the terms of this Agreement, Customer may "
              "access and use the Product solely for Customer's Evaluation Purposes.")
    ask = "Also make clear that Users can access it too, with Customer answerable for them."
    draft = clause.replace("Customer may", "Customer and its Users may") + " Customer is responsible for its Users."
    assert statuses(ask, clause, draft, ("Customer", "Provider")) == ["unchecked"]
    # What it does say for sure: the draft must name them.
    assert statuses(ask, clause, clause, ("Customer", "Provider")) == ["not_done"]
    # Said of a party, "as well as" still asks for both; a sentence opener is no name.
    both = read_instruction("the consent requirement should bind BP as well as Company",
                            "Company may not assign this Agreement without BP's consent.", ("Company", "BP"))
    assert [p.kind for p in both.parts] == ["mutual"] and not both.parts[0].params.get("widens")
    opener = read_instruction("Please make the indemnity run the right way too.",
                              "Company shall indemnify BP.", ("Company", "BP"))
    assert not opener.parts[0].params.get("widens")


def test_wrong_way_round_and_the_one_who_must_ask_for_a_flip() -> None:
    clause = "Customer shall not solicit any employee of Kubient during the Term."
    for ask in ("Is wrong way round, this non-solicit. Kubient is the one who must not take Customer's people.",
                "The assignment clause favours the wrong side: we need to be the one free to assign on notice."):
        assert [p.kind for p in read_instruction(ask, clause, ("Customer", "Kubient")).parts] == ["flip"]


def test_a_figure_said_rather_than_is_the_old_one_and_a_full_month_the_new() -> None:
    clause = "The parties will work together to resolve the dispute within 15 days after the end of the Payment Period."
    ins = read_instruction("can we give the dispute talks a full month rather than 15 days? Payment Period mechanics "
                           "stay", clause, ("Customer", "Provider"))
    period = [p for p in ins.parts if p.kind == "period"][0]
    assert (period.params.get("value"), period.params.get("unit"), period.params.get("old")) == (1, "months", 15)
    # Written the way contracts count: 30 days is one month.
    assert statuses(ins.text, clause, clause.replace("15 days", "30 days"), ("Customer", "Provider")) == ["done"]
    assert statuses(ins.text, clause, clause, ("Customer", "Provider")) == ["not_done"]


def test_a_judged_figure_then_a_bare_number_after_the_dash() -> None:
    clause = ("Both parties shall have the right to terminate this Agreement at any time, for any or for no reason, "
              "upon one hundred twenty (120) days written notice to the other party.")
    ins = read_instruction("Four months' notice to get out is more than we can live with - three is plenty. Nothing "
                           "else.", clause)
    assert [(p.params.get("value"), p.params.get("unit")) for p in ins.parts if p.kind == "period"] == [(3, "months")]
    assert statuses(ins.text, clause, clause.replace("one hundred twenty (120)", "ninety (90)")) == ["done"]
    assert statuses(ins.text, clause, clause) == ["not_done"]


def test_a_carve_out_label_names_what_it_covers_not_how_it_is_worded() -> None:
    ins = read_instruction("Add a carve-out for breach of confidentiality, worded like [1].",
                           "In no event shall either party be liable for consequential damages.")
    assert ins.parts[0].label() == "carve-out for breach of confidentiality from precedent [1]"


# --- the mutual check -------------------------------------------------------------------------------

BP = ("The rights and obligations created by this Agreement may not be assigned by Company, in whole or in part, "
      "without first obtaining BP's written consent under this Agreement, such consent not to be unreasonably "
      "withheld. Any assignment of the rights and obligations under this Agreement by Company without the consent "
      "of BP shall be voidable by BP.")
BP_ASK = ("Agreed on the 12 May call: the consent requirement and the 'voidable' consequence bind BP as well as "
          "Company, same not-unreasonably-withheld standard.")
BP_FIRST = ("The rights and obligations created by this Agreement may not be assigned by either Company or BP, in "
            "whole or in part, without first obtaining the other party's written consent under this Agreement, such "
            "consent not to be unreasonably withheld. ")


def test_a_sentence_the_mutual_ask_names_kept_word_for_word_is_partly_done() -> None:
    sound = BP_FIRST + ("Any assignment of the rights and obligations under this Agreement by either party without the "
                        "consent of the other party shall be voidable by that other party.")
    half = BP_FIRST + BP.split(". ", 1)[1]
    assert statuses(BP_ASK, BP, sound, ("Company", "BP")) == ["done"]
    assert statuses(BP_ASK, BP, half, ("Company", "BP")) == ["partly"]


# --- the flip check and what stays ------------------------------------------------------------------

MMI = ("7. INDEMNITY MMI shall reimburse Dragon Systems and hold Dragon Systems harmless from any liabilities or "
       "obligations imposed upon Dragon Systems resulting directly or indirectly from MMI's or its employees or agents "
       "activities under this Agreement. 10. PATENTS AND COPYRIGHT MMI warrants that the Services supplied to Dragon "
       "Systems will not infringe any third parties' intellectual property rights. MMI will defend and indemnity "
       "Dragon Systems against a claim that the Services supplied hereunder infringe a patent or copyright.")
MMI_ASK = ("7. INDEMNITY only: wrong way round for this deal - Dragon Systems should be the one reimbursing MMI, for "
           "Dragon Systems' own people's activities. Section 10 (patents) stays as it is.")


def test_what_the_ask_says_stays_is_not_read_as_half_a_flip() -> None:
    parties = ("MMI", "Dragon Systems")
    flipped = MMI.replace("MMI shall reimburse Dragon Systems and hold Dragon Systems harmless from any liabilities or "
                          "obligations imposed upon Dragon Systems resulting directly or indirectly from MMI's",
                          "Dragon Systems shall reimburse MMI and hold MMI harmless from any liabilities or obligations "
                          "imposed upon MMI resulting directly or indirectly from Dragon Systems'")
    assert flipped != MMI
    assert statuses(MMI_ASK, MMI, flipped, parties) == ["done"]
    assert statuses(MMI_ASK, MMI, MMI, parties) == ["not_done"]
    # The duty moved but still answers for MMI's own people: not "done" (said, not failed).
    half = flipped.replace("from Dragon Systems' or its employees", "from MMI's or its employees")
    assert statuses(MMI_ASK, MMI, half, parties) == ["unchecked"]


# --- the meaning check ------------------------------------------------------------------------------

def _meaning(clause: str, ask: str, draft: str, parties: tuple[str, ...] = ()) -> bool | None:
    from addin_server.draft.checks import DraftTask, check_draft
    checked = check_draft(DraftTask(clause, ask, (), document_parties=parties), draft)
    found = [c for c in checked.checks if c.name == "meaning"]
    return found[0].passed if found else None


ROYALTY = ("For Manufacturer's Products that are rechargeable, Manufacturer shall pay Subcontractor a Royalty equal to "
           "the higher of (i) one hundred percent (100.0%) of the Product Cost; and (ii) $100 per unit. For "
           "Manufacturer's Products that are non-rechargeable, Manufacturer shall pay Subcontractor a Royalty equal to "
           "the higher of (i) eighty percent (80.0%) of the Product Cost; and (ii) $80 per unit.")


def test_the_one_figure_the_asked_value_replaces_is_no_unasked_drop() -> None:
    ask = "Could the per-unit floor on rechargeables come down to seventy-five dollars? The non-rechargeable floor stays at $80."
    parties = ("Manufacturer", "Subcontractor")
    assert _meaning(ROYALTY, ask, ROYALTY.replace("$100 per unit", "$75 per unit"), parties) is not False
    # Two figures gone for one asked: the second is a change nobody asked for.
    both = ROYALTY.replace("$100 per unit", "$75 per unit").replace("$80 per unit", "$60 per unit")
    assert _meaning(ROYALTY, ask, both, parties) is False


GRANT = ("Company grants to Investor a non-exclusive licence to use the Data. This Agreement will be governed by the "
         "law of British Columbia and the parties submit to the non-exclusive jurisdiction of its courts.")


def test_an_opposite_the_instruction_asks_for_is_no_reversal() -> None:
    draft = GRANT.replace("the non-exclusive jurisdiction", "the exclusive jurisdiction")
    assert _meaning(GRANT, "Make the BC courts exclusive.", draft) is not False
    assert _meaning(GRANT, "Tidy the governing-law sentence.", draft) is False
    # A line broken at its hyphen ("non- exclusive") is the same word, not its opposite.
    broken = GRANT.replace("a non-exclusive licence", "a non- exclusive licence")
    assert _meaning(broken, "Make the BC courts exclusive.", draft) is not False


def test_a_reworded_draft_that_leaves_the_right_where_it_was_is_not_done() -> None:
    clause = ("Roche shall have the right to terminate the Agreement in its entirety, or on a Work Stream-by-Work Stream "
              "basis, except for the ctDNA Work Stream, upon […***…] prior written notice, without cause.")
    ask = "FMI should hold this termination-for-convenience right instead of Roche"
    kept = ("Roche may terminate the Agreement without cause, in full or by Work Stream (other than the ctDNA Work "
            "Stream), on […***…] prior written notice.")
    moved = kept.replace("Roche may", "FMI may")
    from addin_server.draft.checks import DraftTask, check_draft
    task = DraftTask(clause, ask, (), document_parties=("Roche", "FMI"))
    assert [p.status for p in check_draft(task, kept).parts] == ["not_done"]
    assert [p.status for p in check_draft(task, moved).parts] == ["done"]


def test_an_exception_named_only_to_keep_is_no_carve_out_ask() -> None:
    ins = read_instruction("Leave the retirement-benefits exception exactly as it is. Otherwise get it into one "
                           "sentence.", "Employee shall not compete, except for the retirement benefits.")
    assert "carve_out" not in [p.kind for p in ins.parts]
