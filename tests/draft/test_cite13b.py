"""Session 13 (cite13b): a citation that claims the opposite of its precedent's ground (support_claims.py,
polarity.conditions_denied/required), and a new promise in a clause written in capitals (compare_additions.py).

Fixtures: spent drafting tasks (o-period-03, k-carve_out-04), clauses, asks and precedents as the sets give
them; the capitals draft's added sentence is written for the test.
"""

from __future__ import annotations

from index_builder.model import Clause
from index_builder.reading import polarity as P

from addin_server.draft.checks import run_checks
from addin_server.draft.checks_base import DraftTask
from addin_server.draft.support_claims import claim_unbacked

# o-period-03: ninety days' notice from [1], which lets Bellicum terminate without cause.
BELLICUM = ("Bellicum may terminate this Agreement or a particular Module upon ninety (90) days written notice to "
            "Miltenyi: 1) if Bellicum, in its sole and absolute discretion, discontinues or indefinitely suspends the "
            "development and/or commercialization of the Bellicum Product(s) or 2) without cause for any reason or "
            "no reason.")
TERM = ("This Agreement shall continue in force for a term of twelve (12) months from the Effective Date, unless "
        "terminated earlier under the provisions of this Article 8 (the \"Term\"); PROVIDED that TouchStar shall have "
        "the right to terminate this Agreement at any time after the Effective Date upon not less than fifteen (15) "
        "days' prior written notice to Reseller.")
NINETY = ("PROVIDED that TouchStar shall have the right to terminate this Agreement at any time after the Effective "
          "Date upon not less than ninety (90) days' prior written notice")


def test_without_before_a_noun_denies_that_ground_but_not_in_set_phrases():
    assert P.conditions_denied("may terminate without cause for any reason") == {"cause"}
    assert P.conditions_denied("with or without cause, including without limitation any breach") == set()
    assert P.conditions_required("may terminate only for cause") == {"cause"}


def test_only_for_the_ground_the_precedent_does_without_is_unbacked():
    said = claim_unbacked(NINETY + ", and only for cause [1], to Reseller.", 1, BELLICUM, TERM)
    assert "without cause" in said and "opposite" in said


def test_the_precedents_notice_cited_alone_passes():
    assert claim_unbacked(NINETY + " to Reseller [1].", 1, BELLICUM, TERM) == ""


# k-carve_out-04: an NDA disclaimer in capitals made subject to the NDA's express promises.
DISCLAIMER = ("ALL CONFIDENTIAL INFORMATION IS PROVIDED “AS IS”, WITH ALL FAULTS, AND WITHOUT WARRANTIES, INCLUDING "
              "THE IMPLIED WARRANTIES OF TITLE, MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE.")
D3 = ("Playbook rule D-3 (disclaimers): an as-is disclaimer must always yield to the express promises made in the "
      "same document - see how the IP deal's disclaimer opens [1]. Apply D-3 to the NDA disclaimer; we are "
      "Recipient. The capitals stay (conspicuousness).")
IP_DEAL = ("EXCEPT AS EXPRESSLY PROVIDED IN THIS AGREEMENT, THE SDA OR ANY OTHER ANCILLARY AGREEMENT, (A) EACH OF THE "
           "PARTIES CONVEYS INTELLECTUAL PROPERTY RIGHTS UNDER THIS AGREEMENT SOLELY ON AN \"AS IS,\" \"WHERE IS\" AND "
           "\"WITH ALL FAULTS\" BASIS")
SUBJECT = "EXCEPT AS EXPRESSLY PROVIDED IN THIS NDA, " + DISCLAIMER


def _additions(draft: str) -> bool | None:
    task = DraftTask(clause=DISCLAIMER, instruction=D3, precedents=(Clause(clause_id="1", text=IP_DEAL, doc_id="1"),),
                     document_parties=("Recipient",))
    return next(r for r in run_checks(task, draft) if r.name == "additions").passed


def test_a_new_warranty_in_capitals_is_an_addition():
    assert _additions(SUBJECT + " EACH PARTY WARRANTS THAT ALL CONFIDENTIAL INFORMATION IS ACCURATE, CURRENT AND "
                                "COMPLETE.") is False


def test_the_asked_carve_out_in_capitals_adds_nothing():
    assert _additions(SUBJECT) is not False


# p-carve_out-02: a successor carve-out from [1], whose affiliate limb the ask refuses.
INURE = ("The benefits of the Agreement shall inure to the respective successors and assignees of the parties and "
         "assigns and representatives, and the obligations and liabilities assumed in this Agreement by the parties "
         "hereto shall be binding upon their respective successors and assigns; provided that the rights and "
         "obligations of UTK under this Agreement may not be assigned or delegated without the prior written consent "
         "of AVDU{} and any such purported assignment shall be null and void.")
CONDITION = ("Investment committee paper, Project Tennessee - conditions of approval\nCondition 2 (UTK licence): as "
             "drafted, a sale of UTK's business needs AVDU's consent before this licence can move. Approval is "
             "conditional on a carve-out of that consent for a transfer to a successor of UTK by merger or by a sale "
             "of (substantially) the whole of UTK's assets, as in [1]. No affiliate limb is to be added.")
ASSIGN = ("either Party may assign its rights hereunder to an Affiliate or to any successor by merger, consolidation, "
          "sale of stock or other equity interests or the sale of substantially all of the assets of such Party "
          "without the consent of the other Party.")


def test_a_thing_the_ask_says_not_to_add_is_refused_not_asked():
    assert [CONDITION[a:b] for a, b in P.things_refused(CONDITION)] == ["affiliate limb"]
    assert P.things_refused("do not add an audit right") and P.things_refused("don't include any cap")
    assert P.things_refused("there are no Stations, and termination when no Statement of Work is in effect") == []


def _assign_additions(inserted: str) -> bool | None:
    task = DraftTask(clause=INURE.format(","), instruction=CONDITION,
                     precedents=(Clause(clause_id="1", text=ASSIGN, doc_id="1"),), document_parties=("UTK", "AVDU"),
                     document_terms=())
    return next(r for r in run_checks(task, INURE.format(inserted)) if r.name == "additions").passed


def test_the_refused_limb_added_is_an_addition():
    assert _assign_additions(", except to an Affiliate of UTK or to a successor of UTK by merger or by the sale of "
                             "substantially all of its assets,") is False


def test_the_asked_successor_limb_adds_nothing():
    assert _assign_additions(", except to a successor of UTK by merger or by the sale of substantially all of its "
                             "assets,") is not False
