"""The meaning check's reading of a reworded clause part by part (addin_server/draft/compare_pairs.py, session 14):
a "not" of a clause part gone from the draft part that says again what it was said on fails; a "not" said another
way, lifted by a condition the draft keeps, doubled, or said on a verb of changing does not. Fixtures are spent
tasks' clauses (drafting-q, -h, -e, -l, -i), cut short."""

from __future__ import annotations

from index_builder.reading import polarity as P

from addin_server.draft.compare_base import Allowances
from addin_server.draft.compare_pairs import paired_changes

AFFILIATE = ("During the Subscription Period, Customer may access and use the Cloud Service for its internal business "
             "purposes. If a Customer Affiliate enters a separate Order Form with Provider, the Customer's Affiliate "
             "creates a separate agreement between Provider and that Affiliate, where Provider's responsibility to the "
             "Affiliate is individual and separate from Customer and Customer is not responsible for its Affiliates' "
             "agreement.")
ASK = "please make it readable for them, within 80 words. leave every capitalised defined term alone."
NAMES = ("Customer", "Provider")


def test_a_not_gone_from_the_part_that_says_its_statement_again_fails() -> None:
    turned = ("During the Subscription Period, Customer may use the Cloud Service for its own internal business "
              "purposes. If a Customer Affiliate signs its own Order Form with Provider, Customer remains responsible "
              "to Provider for that Affiliate's use and its agreement.")
    found = paired_changes(AFFILIATE, turned, Allowances(rewrite=True), ASK, NAMES)
    assert found and "not responsible" in found[0] and "denies" in found[0]


def test_a_not_said_another_way_is_kept() -> None:
    for kept in ("If a Customer Affiliate signs its own Order Form with Provider, that is a separate agreement between "
                 "Provider and the Affiliate, and Customer isn't responsible for the Affiliate's agreement.",
                 "If a Customer Affiliate signs its own Order Form with Provider, that is a separate agreement between "
                 "Provider and the Affiliate alone; Customer is free of any responsibility for the Affiliate's "
                 "agreement."):
        draft = "During the Subscription Period, Customer may use the Cloud Service for its internal business purposes. " + kept
        assert paired_changes(AFFILIATE, draft, Allowances(rewrite=True), ASK, NAMES) == []


def test_an_instruction_limb_that_asks_for_the_statement_excuses_it() -> None:
    turned = ("During the Subscription Period, Customer may use the Cloud Service for its own internal business "
              "purposes. If a Customer Affiliate signs its own Order Form with Provider, Customer remains responsible "
              "to Provider for that Affiliate's use and its agreement.")
    ask = "plain english - customer is to be responsible for its affiliates' agreement from now on."
    assert paired_changes(AFFILIATE, turned, Allowances(rewrite=True), ask, NAMES) == []


def test_a_not_lifted_by_a_condition_the_draft_keeps_is_no_denial_dropped() -> None:
    clause = ("Without the prior written consent of the other party, neither party shall assign or transfer any of its "
              "rights or obligations hereunder, in whole or in part, to any third party.")
    draft = ("A party needs the other party's written consent, given in advance, before it assigns or transfers any of "
             "its rights or obligations under this Agreement, or any part of them, to a third party.")
    assert paired_changes(clause, draft, Allowances(rewrite=True), "plain english, please.", ()) == []


def test_two_denials_in_one_limb_and_a_not_on_a_verb_of_changing_are_not_read() -> None:
    clause = ("(c) the Founder has full right, power, and authority to sell and transfer the Repurchased Shares to the "
              "Company, without the consent of any other person that has not been obtained")
    draft = ("(c) the Founder is fully entitled to sell and transfer the Repurchased Shares to the Company, and every "
             "consent needed from anyone else has been obtained")
    assert paired_changes(clause, draft, Allowances(rewrite=True), "plain english.", ("Founder", "Company")) == []
    clause = "This carve-out does not alter the covenants as applied to any other worker."
    draft = "For any other worker, the covenants apply as written."
    assert paired_changes(clause, draft, Allowances(rewrite=True), "plain english.", ()) == []


def test_none_before_a_bound_is_a_limit_not_a_denial() -> None:
    # (drafting-q, q-period-02: "each not to exceed six hours" said "none of which may last more than four hours".)
    assert P.bounded_negation.search("on at least the following days, none of which may last more than four hours")


def test_a_not_added_to_a_statement_the_clause_makes_without_one_fails() -> None:
    # (drafting-u, u-conform-02: "Employee remains responsible" said "Employee is not responsible".)
    clause = ("Employee remains responsible for any agreed damages reasonably related to competition with the Company "
              "during the Restricted Period.")
    turned = ("Employee is not responsible for any damages related to competition with the Company during the "
              "Restricted Period.")
    found = paired_changes(clause, turned, Allowances(rewrite=True), "conform it to our form.", ("Company",))
    assert found and "adds a “not”" in found[0] and "affirms" in found[0]


def test_a_not_that_denies_nothing_is_not_read() -> None:
    clause = "The Member will be liable for any and all acts or failures to act that result from its gross negligence."
    draft = "The Member is liable for all its acts that result from its gross negligence."
    assert paired_changes(clause, draft, Allowances(rewrite=True), "plain english.", ("Member",)) == []
    assert P.NO_NEGATION.search("either party may terminate for any reason or no reason on notice")


def test_a_precedence_read_with_its_loser_after_the_verb() -> None:
    # (drafting-t, t-conform-02: "the DPA will control in the event of any conflict with this Agreement".)
    from index_builder.reading import logic as L
    assert L.precedence("If the parties have a DPA, the terms of the DPA will control in the event of any conflict "
                        "with this Agreement.") == [("DPA", "Agreement")]
    assert L.precedence("If the parties have a DPA, this Agreement will control in the event of any conflict "
                        "with it.") == [("Agreement", "")]


def test_a_quality_said_either_way_is_no_quality_turned() -> None:
    # (drafting-s, s-plain-02: "(whether patentable or non-patentable)" said "patentable or not".)
    clause = "Customer shall own any ideas or inventions (whether patentable or non-patentable) developed by Supplier."
    assert P.non_turned(clause, "Customer owns the ideas and inventions, patentable or not, that Supplier develops.") is None
    assert P.non_turned("Supplier grants a non-exclusive licence.", "Supplier grants an exclusive licence.") == (
        "non-exclusive", "exclusive")


def test_cut_both_ways_asks_for_a_mutual_provision_not_a_deletion() -> None:
    # (drafting-u, u-mutual-01: "make this cut both ways" read as "cut", so an exception dropped was excused.)
    from addin_server.draft.compare_logic import asks_drop
    assert not asks_drop("equidata's side wants the same protection - make this cut both ways, please.")
    assert asks_drop("cut the second sentence.")
    from addin_server.draft.compare_reword import reworded_changes
    clause = ("Marketing Affiliate shall not directly or indirectly solicit an existing business customer of Equidata "
              "during the term of this Agreement other than for joint marketing purposes.")
    draft = ("Marketing Affiliate shall not directly or indirectly solicit an existing business customer of Equidata "
             "during the term of this Agreement.")
    found = reworded_changes(clause, draft, Allowances(rewrite=True), "make this cut both ways, please.",
                             ("Marketing Affiliate", "Equidata"))
    assert found and "joint marketing" in found[0]


def test_a_not_the_instruction_says_itself_is_asked_and_one_it_does_not_is_a_reversal() -> None:
    # (drafting-p, p-multi-08: the ask says "general advertising not aimed at Covered Customers is not Soliciting".)
    from addin_server.draft.compare_limits import _denial_asked
    ask = ("fix the look-back at 12 months, and say in terms that general advertising not aimed at covered customers "
           "is not soliciting. the restricted period is untouched.")
    clause = ("During the Restricted Period, Employee must not Solicit the business of any Covered Customer whom Employee "
              "actually served during the look-back period stated in Cover Terms.")
    assert _denial_asked("General advertising not aimed at Covered Customers is not Soliciting.", ask, clause)
    assert not _denial_asked("General advertising aimed at Covered Customers is not Soliciting.", ask, clause)
    assert not _denial_asked("Employee must not Solicit any Covered Customer.", ask, clause)
    # (drafting-e, e-flip-07-b2: the ask's "not" is of whom consent runs to; the draft's, in the clause's words.)
    clause = ("Shipper may assign with the prior written consent of Transporter, which consent may be withheld in "
              "Transporter's sole discretion.")
    ask = "consent rights on assignment run to us as shipper, not to transporter. keep the sole discretion."
    assert not _denial_asked("Shipper, which consent shall not be unreasonably withheld", ask, clause)
