"""The support check accepts a faithful paraphrase of the cited precedent and rejects a changed meaning
(issue 38). Each sound sentence below is a real redraft sentence of a spent drafting task, cited to
its precedent, that the check flagged before its rule; each has a broken twin the check must still
flag (a "not" put into the cited proposition, another party acting)."""

from __future__ import annotations

import pytest

from addin_server.draft.support import features, score_support

# a-mutual-09: the sentence cites the first limb of a precedent whose later limb sets minimum limits
# ("but with limits not less than the following"); that "not" belongs to a limb the sentence does not claim.
INSURANCE_PRECEDENT = (
    "Each party shall maintain insurance, including comprehensive or commercial general liability and products "
    "liability insurance (contractual liability included), with respect to its activities under this Agreement in "
    "such amounts and with such limits as reasonable and customary in the industry, but with limits not less than "
    "the following: (a) each occurrence, one million dollars ($1,000,000); (b) general aggregate (commercial form "
    "only), five million dollars ($5,000,000).")
INSURANCE_OWN = ("Contractor shall maintain, at Contractor's own expense, insurance policies of the kind and limits as "
                 "set forth in APPENDIX D to this Agreement.\nShould bind both sides")

# c-period-02: the cited period, inside the lawyer's own sentence whose last limb ("but no more frequently
# than once per year") is the clause's, not the precedent's.
AUDIT_PRECEDENT = ("This right to audit shall remain in effect throughout the life of this Agreement and for a period "
                   "of three (3) years after the termination of this Agreement.")
AUDIT_OWN = ("During the term of this Agreement and for one year thereafter, VerticalNet shall have the right to "
             "appoint a certified public accountant to audit Impresse's financial records relating to such payment, "
             "but no more frequently than once per year.\nUse the three-year audit tail from [1].")
AUDIT = ("During the term of this Agreement and for three (3) years thereafter, VerticalNet shall have the right to "
         "appoint a certified public accountant to audit Impresse's financial records relating to such payment, "
         "but no more frequently than once per year.")

# h-carve_out-08: an opening word capitalised only by its place ("Despite that,").
REPORT_PRECEDENT = ("Recipient may disclose Discloser's Confidential Information to Users, employees, advisors, "
                    "contractors, and representatives who each have a need to know the Confidential Information, but "
                    "only if the person or entity is bound by confidentiality obligations at least as protective as "
                    "those in this Section 10 (Confidentiality)")
REPORT_OWN = ("Upon written request, Provider will give Customer, on a confidential basis, a summary copy of its "
              "then-current Report so that Customer can verify Provider's compliance with the Security Policy.\n"
              "Carve our auditors (and our advisers) out of the 'confidential basis' - need-to-know and bound by "
              "confidentiality, like [1].")
REPORT = ("Despite that, Customer may disclose the Report to its advisors and auditors who have a need to know it, as "
          "long as each is bound by confidentiality obligations at least as protective as those that bind Customer.")

# g-multi-06: a name read with the sentence's "If" before it ("If Array does not give ...").
DEEMED_PRECEDENT = ("Customer will be deemed to have approved a Deliverable if Customer does not reject the Deliverable "
                    "within the Rejection Period.")
DEEMED_OWN = ("In the event that Array reasonably objects to a proposed usage of the Product Trademark(s), it shall "
              "give written notice of such objection to Ono within sixty (60) days of receipt of such sample.\n"
              "Silence means approval - see [1] for a deemed-approval sentence we can borrow.")

# g-carve_out-06: the lawyer's defined term in the singular where the clause has its plural.
STAKE_PRECEDENT = ("the ownership by Developer of less than five percent (5%) of the issued or outstanding stock of any "
                   "company whose shares are listed for trading on any public exchange, provided that Developer does "
                   "not control or become involved in the operations of any such company.")
STAKE_OWN = ("During the term of this Agreement, neither Party shall, and shall not permit its Affiliates to, directly "
             "or indirectly, Commercialize any New Product in the Territory, except as permitted in accordance with "
             "this Section 3.4.\nPut in the under-5% passive holding exception from [1], with its no-control condition.")


def test_a_not_of_a_limb_the_sentence_does_not_claim_is_no_reversal() -> None:
    sound = "Each party shall maintain insurance with respect to its activities under this Agreement."
    assert features(sound, INSURANCE_PRECEDENT, INSURANCE_OWN).negation == 0
    assert score_support(sound, INSURANCE_PRECEDENT, INSURANCE_OWN).supported
    # (A "not" put in here is not seen: the precedent's other limb has one, and a limb of its own may explain
    # a difference of parity away but never make one. The twin below gives a figure the precedent lacks.)
    broken = ("Each party shall maintain insurance of at least ten million dollars ($10,000,000) with respect to its "
              "activities under this Agreement.")
    assert not score_support(broken, INSURANCE_PRECEDENT, INSURANCE_OWN).supported


def test_the_lawyers_own_limb_keeps_its_not_out_of_the_comparison() -> None:
    assert features(AUDIT, AUDIT_PRECEDENT, AUDIT_OWN).negation == 0
    assert score_support(AUDIT, AUDIT_PRECEDENT, AUDIT_OWN).supported
    # The spent task's broken twin: a period the precedent does not give.
    broken = AUDIT.replace("three (3) years", "five (5) years")
    assert not score_support(broken, AUDIT_PRECEDENT, AUDIT_OWN).supported


def test_an_opening_word_set_off_by_a_comma_is_no_party() -> None:
    assert features(REPORT, REPORT_PRECEDENT, REPORT_OWN).party == 0
    assert score_support(REPORT, REPORT_PRECEDENT, REPORT_OWN).supported
    # Another party acting, the precedent's act given to someone neither text names.
    broken = REPORT.replace("Customer may disclose", "Distributor may disclose")
    assert features(broken, REPORT_PRECEDENT, REPORT_OWN).missing_party == "Distributor"
    assert not score_support(broken, REPORT_PRECEDENT, REPORT_OWN).supported


@pytest.mark.parametrize("sentence, supported", [
    ("If Array does not give such notice within that period, Array shall be deemed to have approved the proposed "
     "usage.", True),
    ("If Array does not give such notice within that period, Licensor shall be deemed to have approved the proposed "
     "usage.", False),
])
def test_a_name_does_not_begin_with_if(sentence: str, supported: bool) -> None:
    assert score_support(sentence, DEEMED_PRECEDENT, DEEMED_OWN).supported is supported


def test_the_lawyers_defined_term_in_the_singular_is_theirs() -> None:
    sound = ("A Party (or its Affiliate) that holds less than five percent (5%) of the issued or outstanding stock of "
             "a company listed on a public exchange does not breach this restriction, so long as it neither controls "
             "nor becomes involved in that company's operations.")
    assert features(sound, STAKE_PRECEDENT, STAKE_OWN).party == 0
    assert score_support(sound, STAKE_PRECEDENT, STAKE_OWN).supported
    broken = sound.replace("less than five percent (5%)", "less than fifteen percent (15%)")
    assert not score_support(broken, STAKE_PRECEDENT, STAKE_OWN).supported


# i-period-07: the cited tail inside the lawyer's own sentence, restated ("after this Agreement expires" for
# the clause's "from the date of expiration"; "for anyone else" for "on behalf of any person").
TAIL_CLAUSE = ("The Consultant covenants, undertakes and agrees with the Company that during the Term and for a period "
               "of one year from the date of expiration or termination of this Agreement for any reason whatsoever, it "
               "shall not, on its own behalf or on behalf of any person, whether directly or indirectly, in any capacity "
               "whatsoever, offer employment to or solicit the employment of or otherwise entice away from the "
               "employment of the Company any individual who is employed or engaged by the Company.")
TAIL_ASK = "the Consultant's no-poach tail -> six months, like [1]."
TAIL_PRECEDENT = ("during the Term of this Agreement and for a period of six (6) months thereafter it shall not, without "
                  "the prior written consent of the other Party")
TAIL = ("The Consultant undertakes to the Company that, during the Term and for a period of six (6) months after this "
        "Agreement expires or terminates for any reason, it will not, directly or indirectly and in any capacity, for "
        "itself or for anyone else, offer employment to, solicit the employment of or otherwise entice away from the "
        "Company any individual who is employed or engaged by the Company.")


def test_the_clauses_words_in_another_form_are_the_lawyers() -> None:
    from addin_server.draft.checks_support import _beyond_precedent
    from addin_server.draft.instruction import Instruction

    ask = Instruction(TAIL_ASK)
    assert _beyond_precedent(TAIL, TAIL_PRECEDENT, TAIL_CLAUSE, ask, None) == ""
    # Words neither the precedent, the clause nor the ask has, in any form, are still the citation's claim.
    broken = TAIL.replace("for any reason, it will not", "unless the board approves a waiver in its sole judgement, "
                          "it will not")
    assert _beyond_precedent(broken, TAIL_PRECEDENT, TAIL_CLAUSE, ask, None) != ""


def test_a_not_of_a_limb_of_its_own_never_makes_a_reversal() -> None:
    # l-period-06: the lawyer's clause sentence with the precedent's tail cited; the precedent's "not" governs
    # a lead-in ("agree not to engage in any attempt whatsoever, to hire") the sentence does not restate.
    precedent = ("COOL TECH and VET TECH agree not to engage in any attempt whatsoever, to hire, or to engage as "
                 "independent contractors, the other's employees or independent contractors during the term of this "
                 "Agreement and for a period of six (6) months following expiration or termination of this Agreement.")
    own = ("During the Term and for a period of one (1) year following expiration or termination of this Agreement, "
           "Reseller will not, directly or indirectly, make an offer of employment to any current employee of "
           "TouchStar, without (a) the prior written agreement of TouchStar, and (b) the payment by Reseller to "
           "TouchStar of a mutually agreeable severance fee.\nCut the tail to six months, as in [1].")
    sound = own.split("\n")[0].replace("one (1) year", "six (6) months")
    assert features(sound, precedent, own).negation == 0
    assert score_support(sound, precedent, own).supported
    broken = sound.replace("six (6) months", "nine (9) months")  # a tail the precedent does not give
    assert not score_support(broken, precedent, own).supported
