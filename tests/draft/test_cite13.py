"""Session 13 (cite13): what a citation's place claims from its precedent (support_claims.py), and names
side by side read as one run of capitals (checks_terms.py).

Fixtures: spent drafting tasks (clauses, asks and precedents as the sets give them; drafts cut down where
only one sentence matters). Each broken draft here passed the support score on the code before.
"""

from addin_server.draft.support_claims import claim_unbacked

# p-multi-04: renewal terms of two years from [1]; the notice period is the lawyer's own ask.
RENEW_P = "shall thereafter automatically renew for additional two (2) year terms"
RENEW_CLAUSE = ("At the end of such initial term, and any renewed term, as applicable, this Agreement shall "
                "automatically renew for an additional one (1) year term, unless a party provides written notice to "
                "the other parties at least six (6) months prior to the end of the initial term.")


def test_an_attribution_in_the_prose_claims_the_limb_it_closes():
    sentence = ("At the end of such initial term, and any renewed term, as applicable, this Agreement shall "
                "automatically renew for an additional two (2) year term, unless a party provides written notice to "
                "the other parties at least three (3) months prior to the end of the initial term, as [1] provides.")
    assert "does not say" in claim_unbacked(sentence, 1, RENEW_P, RENEW_CLAUSE)


def test_an_attribution_on_what_the_precedent_says_passes():
    sentence = ("At the end of such initial term, and any renewed term, as applicable, this Agreement shall "
                "automatically renew for an additional two (2) year term, as [1] provides, unless a party provides "
                "written notice to the other parties at least three (3) months prior to the end of the initial term.")
    assert claim_unbacked(sentence, 1, RENEW_P, RENEW_CLAUSE) == ""


# p-carve_out-03: an affiliate exception "cf. [1]"; "null and void" is the clause's, not [1]'s.
ASSIGN_P = ("either Party may assign its rights hereunder to an Affiliate or to any successor by merger, consolidation, "
            "sale of stock or other equity interests or the sale of substantially all of the assets of such Party "
            "without the consent of the other Party.")
ASSIGN_CLAUSE = ("This Agreement may not be assigned by a party to this Agreement to any other Person without the "
                 "express written approval of the other parties to this Agreement and any attempt at assignment in "
                 "violation of this section shall be null and void.")


def test_an_attribution_opening_a_limb_claims_that_limb():
    sentence = ("This Agreement may not be assigned by a party to this Agreement to any other Person without the "
                "express written approval of the other parties to this Agreement, except that a party may assign this "
                "Agreement to its Affiliate without that approval, and, as in [1], any attempt at assignment in "
                "violation of this section shall be null and void.")
    assert "null and void" in claim_unbacked(sentence, 1, ASSIGN_P, ASSIGN_CLAUSE)


def test_a_marker_on_the_new_exception_passes():
    sentence = ("This Agreement may not be assigned by a party to this Agreement to any other Person without the "
                "express written approval of the other parties to this Agreement, except that a party may assign this "
                "Agreement to its Affiliate without that approval [1], and any attempt at assignment in "
                "violation of this section shall be null and void.")
    assert claim_unbacked(sentence, 1, ASSIGN_P, ASSIGN_CLAUSE) == ""


# m-carve_out-04: the marker closes the clause's own "not unreasonably withheld", which [1] never says.
CONSENT_P = ("The assignment of this Agreement, in whole or in part, to any Affiliates in the United States or to a "
             "successor organization by merger or acquisition does not require the consent of the other.")
CONSENT_CLAUSE = ("Neither this Agreement nor the rights or obligations hereunder may be assigned by either party, by "
                  "operation of law or otherwise, without the prior written consent of the other party, which consent "
                  "shall not be unreasonably withheld, provided that Metavante may freely assign this Agreement.")


def test_a_citation_on_the_clauses_kept_words_is_misplaced():
    sentence = ("Neither this Agreement nor the rights or obligations hereunder may be assigned by either party, by "
                "operation of law or otherwise, without the prior written consent of the other party, which consent "
                "shall not be unreasonably withheld [1], provided that Metavante may freely assign this Agreement, "
                "and either party may assign this Agreement to its Affiliate without the consent of the other party.")
    assert "clause's own words" in claim_unbacked(sentence, 1, CONSENT_P, CONSENT_CLAUSE)


def test_a_kept_sentence_with_the_precedents_point_added_passes():
    # h-multi-03: the clause's sentence kept, "and is not a competitor of the other Party [1]" added to it.
    precedent = ("no such consent will be required in connection with an assignment or transfer of this Agreement to "
                 "(a) a party's successor in connection with a Change in Control of such party, provided that such "
                 "successor is not a competitor of the other party")
    clause = ("Each Party may assign this Agreement without consent of the other Party to a Third Party in connection "
              "with a change in control provided that the assignee assumes in writing all of the obligations of "
              "assignor under this Agreement.")
    sentence = clause[:-1] + " and is not a competitor of the other Party [1]."
    assert claim_unbacked(sentence, 1, precedent, clause) == ""


# o-carve_out-03 / n-carve_out-02: the precedent's words, without its limit.
GROSS_P = "except in the case of gross negligence or willful misconduct by the Plan Administrator or any such employee."
INDEMNITY = "THE COMPANY SHALL INDEMNIFY AND HOLD HARMLESS THE RESELLER FOR ANY AND ALL LOSSES."


def test_any_negligence_for_the_precedents_gross_negligence_gives_up_its_limit():
    sentence = INDEMNITY[:-1] + ", EXCEPT IN THE CASE OF ANY NEGLIGENCE OR BREACH OF THIS AGREEMENT BY THE RESELLER [1]."
    assert "gross negligence" in claim_unbacked(sentence, 1, GROSS_P, INDEMNITY)


def test_the_precedents_limit_kept_passes():
    sentence = INDEMNITY[:-1] + ", EXCEPT IN THE CASE OF GROSS NEGLIGENCE OR WILLFUL MISCONDUCT BY THE RESELLER [1]."
    assert claim_unbacked(sentence, 1, GROSS_P, INDEMNITY) == ""


def test_whether_or_not_gives_up_the_precedents_limit():
    precedent = ("shall not apply to ownership by You of less than a 5% beneficial interest in the outstanding equity "
                 "securities of any publicly traded corporation")
    clause = "Distributor will not market a computer program which competes with the Products."
    sentence = ("This restriction does not apply to Distributor's ownership of less than a 5% beneficial interest in "
                "the equity securities of any corporation, whether or not publicly traded [1].")
    assert "limit" in claim_unbacked(sentence, 1, precedent, clause)
    faithful = ("This restriction does not apply to Distributor's ownership of less than a 5% beneficial interest in "
                "the equity securities of any publicly traded corporation [1].")
    assert claim_unbacked(faithful, 1, precedent, clause) == ""


def test_a_new_thing_named_beside_the_precedents_list_is_unbacked():
    # l-carve_out-06: [1] lists charitable events; "paid speaking engagements" is nobody's.
    precedent = ("(iii) Endorser's performance of services, appearance or use of his name, likeness in connection with "
                 "charitable events, sports events, organizations, regardless of usage of products or services and/or "
                 "sponsorship thereof.")
    clause = "Auriemma will not enter into any arrangement which enables any Berkshire Competitor to be endorsed."
    sentence = ("This does not restrict Auriemma's performance of services, appearance or use of his name or likeness "
                "in connection with charitable events or paid speaking engagements, regardless of sponsorship [1].")
    assert "paid speaking engagements" in claim_unbacked(sentence, 1, precedent, clause)
    faithful = ("This does not restrict Auriemma's performance of services, appearance or use of his name or likeness "
                "in connection with charitable events, regardless of sponsorship [1].")
    assert claim_unbacked(faithful, 1, precedent, clause) == ""


def test_known_names_side_by_side_are_no_new_term():
    from addin_server.draft.checks_terms import _known_side_by_side
    known = {"Customer", "Provider", "Customer Personal Data", "Process", "DPA"}
    assert _known_side_by_side("Customer Processes Customer Personal Data", known)
    assert _known_side_by_side("Agreement for TDA", {"Agreement", "TDA"})
    assert not _known_side_by_side("Customer Processes PHI", known)
    assert not _known_side_by_side("Affiliate of UTK", {"UTK", "AVDU"})


def test_a_new_term_in_added_words_is_an_addition():
    # p-period-03: the notice goes to sixty days as asked; "which notice may not be given during the first Contract
    # Year" is added, and its term is nobody's.
    from addin_server.draft.checks_base import DraftTask
    from addin_server.draft.checks_terms import term_added
    from addin_server.draft.compare import compare
    clause = ("This Agreement continues until termination by either Party for any reason upon thirty (30) days' "
              "written notice to the other Party.")
    ask = "Supplier exit for any reason to need 60 days' written notice, not 30."
    task = DraftTask(clause, ask, document_terms=("Effective Date",), document_parties=("Party",))
    draft = ("This Agreement continues until termination by either Party for any reason upon sixty (60) days' "
             "written notice to the other Party, which notice may not be given during the first Contract Year.")
    found = term_added(task, draft, compare(clause, draft).regions, ["Contract Year"])
    assert found is not None and found.name == "additions" and "Contract Year" in found.reason
    asked = DraftTask(clause, ask + " No notice in the first Contract Year.", document_parties=("Party",))
    assert term_added(asked, draft, compare(clause, draft).regions, ["Contract Year"]) is None


def test_a_term_naming_the_asked_for_thing_is_the_terms_fault_not_an_addition():
    # e-carve_out-05: a sale carve-out asked for, drafted with an undefined "Qualified Sale"; the five-year
    # figure of p-period-03's ask asks for no "Contract Year".
    from addin_server.draft.checks_terms import _names_the_ask
    from index_builder.reading.figures import without_figures as _without_figures
    assert _names_the_ask("Qualified Sale", "Carve a merger, reorganisation or sale of substantially all its assets out")
    assert not _names_the_ask("Contract Year", _without_figures("Notice to be 60 days. The five-year long stop stays."))
