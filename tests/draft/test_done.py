"""The positive "done" check (addin_server/draft/done.py), one test per class of reading.

Each clause is a real one from the spent drafting-d set (its blind review found the product had
said "done" for these drafts when they were not), beside a sound draft of the same ask: the check
must tell them apart by reading the text the part names, not by the phrasing.
"""

from __future__ import annotations

import pytest

from addin_server.draft.instruction import read_instruction
from addin_server.draft.parts import check_part
from addin_server.draft.parts_result import Context


def statuses(instruction: str, clause: str, draft: str, parties: tuple[str, ...] = (),
             precedents: tuple[str, ...] = ()) -> list[str]:
    ins = read_instruction(instruction, clause, parties)
    ctx = Context(parties=parties, precedents=precedents)
    return [check_part(p, ins, clause, draft, ctx).status for p in ins.parts]


NCM = ("Upon termination or expiration of this Agreement, and upon reasonable prior notice to Network Affiliate, "
       "NCM shall be entitled to enter the Theatres upon reasonable prior written notice, and any other premises of "
       "Network Affiliate where any NCM Property may be located, and recover any and all NCM Property, unless "
       "Network Affiliate chooses to purchase such Property based on a straight line five year depreciated value.")
NCM_ASK = ("'Reasonable prior notice' won't do for coming into our cinemas - NCM should give at least 15 days' "
           "written notice. (We're Network Affiliate.)")


def test_a_period_put_in_a_place_the_part_does_not_name_is_not_done():
    wrong = NCM.replace("five year depreciated", "fifteen days depreciated")
    assert statuses(NCM_ASK, NCM, wrong, ("NCM", "Network Affiliate")) == ["wrong"]


def test_the_period_put_where_the_quoted_words_were_is_done_only_where_none_is_left():
    one = NCM.replace("enter the Theatres upon reasonable prior written notice",
                      "enter the Theatres upon at least fifteen (15) days' prior written notice")
    both = one.replace("upon reasonable prior notice to Network Affiliate", "upon at least fifteen (15) days' prior "
                                                                            "written notice to Network Affiliate")
    assert statuses(NCM_ASK, NCM, one, ("NCM", "Network Affiliate")) == ["partly"]
    assert statuses(NCM_ASK, NCM, both, ("NCM", "Network Affiliate")) == ["done"]


INDEMNITY = ("COMPANY shall indemnify Bravatek, its directors, officers and employees, for any and all damages arising "
             "from the negligence or intentional misconduct of COMPANY or breach of COMPANY of any of its obligations "
             "under this Agreement. Bravatek shall indemnify COMPANY, its directors, officers and employees, for any "
             "and all damages arising from the negligence or intentional misconduct of Bravatek or breach of "
             "Bravatek of any of its obligations under this Agreement.")


def test_a_mutual_draft_that_says_the_same_sentence_twice_is_not_done():
    one = ("Each party shall indemnify the other party, its directors, officers and employees, for any and all "
           "damages arising from its negligence or intentional misconduct or its breach of any of its obligations "
           "under this Agreement.")
    assert statuses("Make it mutual.", INDEMNITY, one + " " + one, ("COMPANY", "Bravatek")) == ["wrong"]
    assert statuses("Make it mutual.", INDEMNITY, one, ("COMPANY", "Bravatek")) == ["done"]


NON_SOLICIT = ("MKOS agrees that for twenty four months (24) following the execution of this Agreement, MKOS shall not, "
               "without UTEK's prior written consent, directly or indirectly solicit for employment any present "
               "employee of UTEK, or request, induce or advise any employee of UTEK to leave the employ of UTEK.")


def test_a_mutualised_sentence_still_naming_one_party_is_partly_done():
    left = ("Each party agrees that for twenty four months (24) following the execution of this Agreement, neither "
            "party shall, without the other party's prior written consent, directly or indirectly solicit for "
            "employment any present employee of the other party, or request, induce or advise any employee of the "
            "other party to leave the employ of UTEK.")
    sound = left.replace("the employ of UTEK", "its employ")
    assert statuses("Make the non-solicit mutual.", NON_SOLICIT, left, ("MKOS", "UTEK")) == ["partly"]
    assert statuses("Make the non-solicit mutual.", NON_SOLICIT, sound, ("MKOS", "UTEK")) == ["done"]


ROGERS = ("Notwithstanding the foregoing, Rogers may, without consent, assign this Agreement to a person that controls, "
          "is controlled by or is under common control with Rogers. A change of control of Rogers shall not be "
          "considered an assignment of this Agreement.")
ROGERS_ASK = ("Mutualise the 'Notwithstanding' sentence. And Rogers' change-of-control sentence should work both ways "
              "too.")


def test_a_one_party_sentence_the_mutual_ask_names_must_change():
    half = ROGERS.replace("Rogers may", "either party may").replace("common control with Rogers", "common control "
                                                                                                "with it")
    both = half.replace("A change of control of Rogers", "A change of control of either party")
    assert statuses(ROGERS_ASK, ROGERS, half, ("Rogers",)) == ["partly"]
    assert statuses(ROGERS_ASK, ROGERS, both, ("Rogers",)) == ["done"]


def test_a_sentence_the_lawyer_says_to_leave_is_not_named_by_the_ask():
    clause = ("Customer will reasonably cooperate with Provider to allow the performance of Services. Provider will "
              "provide its own equipment and tools to perform the Services.")
    draft = ("Each party will reasonably cooperate with the other party to allow the performance of Services. Provider "
             "will provide its own equipment and tools to perform the Services.")
    assert statuses("Make the cooperation duty mutual. Leave the equipment sentence alone.", clause, draft,
                    ("Provider", "Customer")) == ["done"]


def test_party_names_the_clause_lacks_said_x_not_y_are_a_rename():
    clause = ("During the Restricted Period, Employee must not Solicit the business of any Covered Customer. This "
              "covenant applies only to Employer's current customers.")
    ins = read_instruction("Moving this into our independent contractor agreement: Contractor, not Employee; Company, "
                           "not Employer.", clause, ("Company", "Contractor"))
    assert [p.kind for p in ins.parts] == ["conform"]
    assert ins.parts[0].params["renames"] == {"Employee": "Contractor", "Employer": "Company"}


def test_a_rate_asked_with_no_other_kind_is_a_part_of_its_own():
    ins = read_instruction("Three asks on the marketing clause:\n• local spend 2% of Gross Sales, not 3%\n"
                           "• grand opening budget $20,000\n• plain English", "You must spend three percent (3%).")
    assert [p.kind for p in ins.parts] == ["other", "amount", "plain"]


@pytest.mark.parametrize("ask", [
    "Carve out: we're Licensee, it's Licensor who shouldn't assign without our consent.",
    "Carve-out, 60 words max, keep all three.",
])
def test_the_carve_out_check_abstains_where_what_it_covers_is_not_words(ask):
    clause = "Licensee shall not assign this Agreement without the prior written consent of Licensor."
    draft = clause + " Licensor shall not assign this Agreement without Licensee's consent."
    assert statuses(ask, clause, draft, ("Licensee", "Licensor")) in (["unchecked"], ["unchecked", "unchecked"])


INDEMNITY_WPD = ("WPD hereby agrees to indemnify CNS, its officers and agents (the \"CNS Indemnitees\") from any and all "
                 "third party claims resulting from WPD's or its employees' negligence or willful misconduct.")


def test_a_flip_where_only_some_names_moved_is_not_checked_never_done():
    # Whose each name is ("WPD's negligence" must move, "Customer's use of the Product" may stay)
    # is not read from the names: the part is said "not checked", never "done".
    ask = "Swap it - CNS indemnifies WPD (call them the 'WPD Indemnitees') for claims from CNS's side."
    sound = ("CNS hereby agrees to indemnify WPD, its officers and agents (the \"WPD Indemnitees\") from any and all "
             "third party claims resulting from CNS's or its employees' negligence or willful misconduct.")
    half = sound.replace("from CNS's", "from WPD's")
    assert statuses(ask, INDEMNITY_WPD, sound, ("WPD", "CNS")) == ["done"]
    assert statuses(ask, INDEMNITY_WPD, half, ("WPD", "CNS")) == ["unchecked"]


def test_a_conformed_draft_keeping_a_term_the_instruction_says_the_document_lacks_is_not_done():
    clause = ("Employer and Employee acknowledge that each covenant is ancillary to the employment relationship. "
              "Employee will receive access to Employer's Protected Interests.")
    ask = ("It's Company, not Employer, there, and that form doesn't define Protected Interests - spell out what "
           "they are: its Confidential Information, trade secrets and goodwill.")
    kept = clause.replace("Employer", "Company")
    spelt = kept.replace("Protected Interests", "Confidential Information, trade secrets and goodwill")
    ins = read_instruction(ask, clause, ("Company", "Employee"))
    ctx = Context(parties=("Company", "Employee"), document_terms=("Confidential Information",))
    conform = [p for p in ins.parts if p.kind == "conform"]
    assert conform and check_part(conform[0], ins, clause, kept, ctx).status == "partly"
    assert check_part(conform[0], ins, clause, spelt, ctx).status == "done"
