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
