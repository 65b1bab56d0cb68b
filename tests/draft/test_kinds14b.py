"""Session 14, kinds14b (issue 38): which kind a lawyer asks for, read only on clear evidence.

A flip is asked only where the message moves a right or a duty between the parties; sharing words ("should
get exactly the same") ask a mutual; a clause carried into another document ("bring this recital across",
"ported ... into the contractor agreement", "X becomes Y") is a conform, and its party mapping no flip; a
replacement of a word or a form ("instead of 'Protected Interests'", "describe it instead as") no move; a
bare "should" said of what stays ("must still say", "should remain free to") no move. The mutual operation
declines where a party's name describes a thing ("the Chase site") or the clause protects one party's own
interest. Fixtures are the spent drafting-q to -w tasks whose sound drafts were failed by these readings.
Each test fails without its rule.
"""

from __future__ import annotations

import pytest

from addin_server.draft.edits import Declined
from addin_server.draft.instruction import read_instruction
from addin_server.draft.operations_mutual import make_mutual

# w-mutual-01
ASSIGN = ("Neither this Agreement nor any rights or obligations of a Party may be assigned, delegated or otherwise "
          "transferred by such Party without the prior written consent of the other Party; provided, however, that "
          "Janssen may, without such consent but with prior written notice to Company, assign, delegate and transfer "
          "this Agreement or all or any of its rights and obligations under this Agreement to (a) any Third Party "
          "that acquires substantially all Janssen's assets relating to the Product in the Territory or (b) any "
          "Affiliate of Janssen.")


def kinds(instruction: str, clause: str, parties: tuple[str, ...] = ()) -> list[str]:
    return [p.kind for p in read_instruction(instruction, clause, parties).parts]


def test_the_same_for_the_other_party_is_a_share_not_a_move():
    said = "Janssen's free pass on assignment - Company should get exactly the same. Same notice, same two cases."
    assert kinds(said, ASSIGN, ("Janssen", "Company")) == ["mutual"]
    # the same said of a thing gives no party anything
    assert "mutual" not in kinds("Our 5.5 has the same hole. Add the carve-out for gross negligence.", ASSIGN)


# w-conform-05
RECITAL = ("Employer desires to protect its Protected Interests, and Employee acknowledges that the consideration "
           "in this Agreement is adequate.")
CARRIED = ("Talent acquisition, Montana hire: we are papering this one on the OpenAgreements CIAA (confidentiality "
           "plus invention assignment) rather than the covenant form. Please bring this recital across - Company for "
           "Employer, the agreement's own Confidential Information and Covered Inventions instead of 'Protected "
           "Interests', and the consideration language in the style of its signature block ([1]).")


def test_a_clause_carried_into_another_document_is_no_flip():
    got = kinds(CARRIED, RECITAL, ("Employer", "Employee", "Company"))
    assert "flip" not in got and "mutual" not in got


# r-conform-03: "X becomes Y ... too" renames, it binds no one else
def test_one_name_becoming_another_too_is_no_mutual():
    said = ("Yes. Employee becomes Contractor. Employer's employees become Company personnel too. Keep the "
            "reference exception.")
    got = kinds(said, "Employee shall not solicit any employee of Employer.", ("Employee", "Employer"))
    assert "mutual" not in got


# q-conform-03
def test_other_words_instead_is_no_move():
    said = "the DPA never defines Usage Data - describe it instead as data about Partner's use of the Product."
    assert "flip" not in kinds(said, "Provider may use Usage Data to improve the Product.", ("Provider", "Partner"))


# r-shorten-03, t-multi-05
def test_should_said_of_what_stays_is_no_move():
    clause = "Servicer shall not institute any bankruptcy proceeding against the Issuer."
    assert "flip" not in kinds("Summarise it in 45 words. The summary must still say that Issuer owns the Notes.",
                               clause, ("Servicer", "Issuer"))
    assert kinds("Separately, the Servicer should remain free to file a proof of claim in a proceeding begun by "
                 "someone else.", clause, ("Servicer", "Issuer")) == ["carve_out"]
    # a move said with "should" is still a flip
    assert kinds("The Issuer should bear this, not the Servicer.", clause, ("Servicer", "Issuer")) == ["flip"]


# v-multi-02
CHASE = ("Chase grants Affiliate a non-exclusive, nontransferable, revocable right to (a) access the Chase site through "
         "the links solely in accordance with the terms of this Agreement and (b) solely in connection with such "
         "links, to use Chase's logos, trade names, trademarks, and similar identifying material relating to Chase "
         "(collectively, the \"Licensed Materials\"), for the sole purpose of booking Chase products.")


def test_a_name_describing_a_thing_is_not_replaced_by_a_pronoun():
    parties = ("Chase", "Affiliate")
    part = read_instruction("We would like Chase to be able to show our logo beside the link too - same terms in "
                            "both directions.", CHASE, parties).parts[0]
    with pytest.raises(Declined, match="Chase site"):
        make_mutual(CHASE, part, parties)


# w-multi-08
SOLICIT = ("During the Restricted Period, Employee must not Solicit the business of any Covered Customer. It reaches "
           "only Covered Customers with whom Employee had material contact and is no broader than necessary to "
           "protect Employer's goodwill.")


def test_a_restriction_for_one_partys_interest_is_not_made_mutual_by_renaming():
    parties = ("Employee", "Employer")
    part = read_instruction("have it bind Employer as well, so Employer can't solicit his customers either",
                            SOLICIT, parties).parts[0]
    assert part.kind == "mutual"
    with pytest.raises(Declined, match="Employer's goodwill"):
        make_mutual(SOLICIT, part, parties)


def test_a_mutual_draft_that_drops_the_clauses_condition_is_not_done():
    from addin_server.draft.parts import check_part
    from addin_server.draft.parts_result import Context
    said = "Janssen's free pass on assignment - Company should get exactly the same. Same notice, same two cases."
    parties = ("Janssen", "Company")
    ins = read_instruction(said, ASSIGN, parties)
    broken = ASSIGN.replace("Janssen may, without such consent but with prior written notice to Company",
                            "either Party may, without such consent and without notice").replace(
        "all Janssen's assets", "all of that Party's assets").replace("Affiliate of Janssen", "Affiliate of that Party")
    sound = broken.replace("without such consent and without notice",
                           "without such consent but with prior written notice to the other Party")
    ctx = Context(parties, None, ())
    got = check_part(ins.parts[0], ins, ASSIGN, broken, ctx)
    assert got.status != "done" and "without notice" in got.reason
    assert check_part(ins.parts[0], ins, ASSIGN, sound, ctx).status == "done"



# j-multi-01: "nor shall PAPA JOHN'S place CELEBRITY ... in a negative light": a party after a modal acts.
def test_a_party_after_a_modal_is_no_name_describing_a_thing():
    clause = ("PAPA JOHN'S shall not defame or disparage CELEBRITY, nor shall PAPA JOHN'S place CELEBRITY in a "
              "negative light.")
    parties = ("PAPA JOHN'S", "CELEBRITY")
    part = read_instruction("Make it mutual.", clause, parties).parts[0]
    assert "PAPA JOHN" not in make_mutual(clause, part, parties).text



# a-mutual-03: "the Recipient remains responsible": a verb in -s after the party, which acts.
def test_a_party_before_its_verb_is_no_name_describing_a_thing():
    clause = ("Recipient shall protect Confidential Information, and the Recipient remains responsible for its "
              "representatives' compliance.")
    parties = ("Discloser", "Recipient")
    part = read_instruction("Make this mutual.", clause, parties).parts[0]
    assert "Recipient" not in make_mutual(clause, part, parties).text
