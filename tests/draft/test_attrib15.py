"""Session 15 (attrib15): a limb a cited sentence adds is backed only by what the precedent gives for it.

A drafter cites a precedent in its own words and adds one limb it does not give (a proviso, an "and any
..."), then attributes the lot in prose ("as [1] requires", "as [1] permits"). Read whole, the attributed
span is mostly the precedent's words (5 of 9, 7 of 13), and they carried the added limb past the support
check: each limb must be the precedent's itself.

Fixtures: the spent drafting-z tasks z-multi-06 (broken b1, sound s1) and z-carve_out-03 (broken b3,
sound s1), with their clauses, asks and precedents.
"""

from addin_server.draft.support_claims import claim_unbacked

ASSIGN_P = ("This Agreement shall not be assignable by either party to any third party without the written consent "
            "of the other party hereto; except that either party may assign this Agreement without the other party's "
            "consent to an entity that acquires substantially all of the business or assets of the assigning party "
            "within the Field, in each case whether by merger, transfer of assets, or otherwise.")
ASSIGN_CLAUSE = ("Neither party may assign its rights and obligations under this Agreement without the written consent "
                 "of the other party. The Contractor shall not assign this Agreement or any of its rights, powers, "
                 "duties or obligations hereunder without the express prior written consent of the Company, which "
                 "shall not be unreasonably withheld.")
ASSIGN_ASK = ("Contractor's counsel: two things and we can sign.\nAssignment - add the acquirer exception in [1] "
              "(substantially all of the business or assets, by merger, asset transfer or otherwise), for both parties.")
ACQUIRER = ("Neither party may assign its rights and obligations under this Agreement without the written consent of "
            "the other party, except that either party may assign this Agreement without the other party's consent to "
            "an entity that acquires substantially all of the business or assets of the assigning party, whether by "
            "merger, transfer of assets, or otherwise")

SUPPLY_P = ("Except for the subcontractors appointed by MMT as of the Effective Date as listed on Exhibit A attached "
            "hereto, MMT may not grant sublicenses of the rights and licenses granted to it in Section 2.1(a) to any "
            "Affiliate (including Pfizer or any Affiliate of Pfizer) or Third Party without the prior written approval "
            "of SIGA (such approval not to be unreasonably withheld).")
SUPPLY_CLAUSE = ("MediWound's rights as per Section 3.1 will be exclusive in the sense that CBC shall not nor shall "
                 "permit any Affiliate or third party to manufacture, use, supply or sell Bromelain SP for utilization "
                 "as an ingredient of any product which directly or indirectly competes with the Product.")
SUPPLY_ASK = ("CBC already supplies Bromelain SP to two customers whose products may compete with the Product, under "
              "contracts signed before this one. Add an exception for supply under contracts in force as of the "
              "Effective Date as listed on an exhibit - the same device as the Exhibit A exception in [1].")
EXHIBIT = ("MediWound's rights as per Section 3.1 will be exclusive in the sense that, except for supply under CBC's "
           "contracts in force as of the Effective Date as listed on Exhibit A attached hereto")
REST = (" CBC shall not nor shall permit any Affiliate or third party to manufacture, use, supply or sell Bromelain SP "
        "for utilization as an ingredient of any product which directly or indirectly competes with the Product.")


def test_an_added_proviso_attributed_to_the_precedent_is_not_backed():
    sentence = (ACQUIRER + ", provided that the assigning party first obtains the acquirer's written assumption of "
                "this Agreement, as [1] requires.")
    said = claim_unbacked(sentence, 1, ASSIGN_P, ASSIGN_CLAUSE, ASSIGN_ASK)
    assert "first obtains the acquirer" in said


def test_the_precedents_own_exception_attributed_to_it_is_backed():
    assert claim_unbacked(ACQUIRER + ", as [1] provides.", 1, ASSIGN_P, ASSIGN_CLAUSE, ASSIGN_ASK) == ""


def test_an_open_list_attributed_to_a_closed_one_is_not_backed():
    # The ask's words ("contracts", "add") do not back it: the draft says [1] permits it, not the lawyer.
    sentence = EXHIBIT + " and any contracts CBC later adds to that exhibit, as [1] permits," + REST
    assert "later adds" in claim_unbacked(sentence, 1, SUPPLY_P, SUPPLY_CLAUSE, SUPPLY_ASK)


def test_the_closed_list_attributed_to_it_is_backed():
    # "CBC" and "supply" are the clause's own words: they count neither way.
    sentence = EXHIBIT + ", as in [1]," + REST
    assert claim_unbacked(sentence, 1, SUPPLY_P, SUPPLY_CLAUSE, SUPPLY_ASK) == ""
