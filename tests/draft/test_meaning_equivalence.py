"""Session 11 (meaning11): a faithful restatement keeps its meaning, and the meaning check sees it.

Meaning is carried by propositions, not words: "does not prohibit E from hiring" = "E may hire"; "if A
fails to notify" = "unless A notifies"; "shall not A, nor shall it B" = "shall not A or B"; "$1.29 or less"
= "no more than $1.29"; "non-exclusive" = "is not exclusive"; a conform that calls the Employer "Company"
moves nobody. Each fixture is a sentence pair from a spent drafting task; each broken twin still fails.
"""

from __future__ import annotations

from addin_server.draft.compare_base import Allowances, compare
from addin_server.draft.compare_limits import limit_changes
from addin_server.draft.compare_roles import role_changes

J_MULTI_09 = ("Employee must not Solicit any Covered Employee. This restriction does not prohibit Employee from "
              "providing a professional reference upon request or from hiring a person who responds to a general "
              "advertisement not directed specifically at Employer's employees. This covenant does not apply to any "
              "Covered Employee who provided only secretarial or clerical services.")


def _limits(clause: str, draft: str, **allow: object) -> list[str]:
    return limit_changes(compare(clause, draft), Allowances(**allow))  # type: ignore[arg-type]


def test_does_not_prohibit_e_from_is_e_may_and_prohibits_is_still_a_reversal() -> None:
    # j-multi-09-p1: two "not"s (the "not" and the prohibiting verb) make a "may".
    may = J_MULTI_09.replace("This restriction does not prohibit Employee from providing a professional reference "
                             "upon request or from hiring a person who responds",
                             "Employee may still give a professional reference on request, and may hire a person "
                             "who answers")
    assert not _limits(J_MULTI_09, may)
    prohibits = J_MULTI_09.replace("does not prohibit", "prohibits")
    found = _limits(J_MULTI_09, prohibits)
    assert found and "drops a “not”" in found[0]


E_PERIOD_04 = ("If Affiliate fails to notify Network of its desire that this Agreement terminate on its expiration "
               "date, at least six (6) months before the expiration date, this Agreement will automatically renew, "
               "upon the same terms and conditions, for an additional four (4) -year period (\"Renewal Term\").")


def test_if_it_fails_to_notify_is_unless_it_notifies() -> None:
    # e-period-04-p1
    unless = ("Unless Affiliate notifies Network at least six (6) months before the expiration date that it wants "
              "this Agreement to terminate on that date, this Agreement will automatically renew, on the same terms "
              "and conditions, for an additional four (4)-year period (\"Renewal Term\").")
    assert not _limits(E_PERIOD_04, unless)
    turned = E_PERIOD_04.replace("If Affiliate fails to notify", "If Affiliate notifies")
    assert _limits(E_PERIOD_04, turned)


J_MULTI_01 = ("PAPA JOHN'S shall not, during the Term or at any time thereafter: (I) defame or disparage CELEBRITY or "
              "the Personality Rights (or any portion thereof), nor shall PAPA JOHN'S place the CELEBRITY or the "
              "Personality Rights (or any portion thereof) in a negative light, whether in connection with this "
              "Agreement or otherwise.")


def test_a_nor_after_a_not_continues_it_and_a_not_moved_in_its_sentence_is_no_reversal() -> None:
    # j-multi-01-p1: "shall not A, nor shall it B" = "shall not A or B".
    said_once = ("PAPA JOHN'S shall not, during the Term or at any time afterwards, defame or disparage CELEBRITY or "
                 "the Personality Rights (or any portion of them) or place CELEBRITY or the Personality Rights (or "
                 "any portion of them) in a negative light, whether in connection with this Agreement or otherwise.")
    assert not _limits(J_MULTI_01, said_once)
    lifted = said_once.replace("shall not,", "may,")
    assert _limits(J_MULTI_01, lifted)


J_AMOUNT_02 = ("Such a consumer will be entitled to receive up to seven (7) free MP3 song downloads having a retail "
               "value of $1.29 per song or less.")


def test_or_less_is_no_more_than_and_or_more_is_a_floor() -> None:
    # j-amount-02-p1: a ceiling said another way is no "less" turned into "more".
    assert not _limits(J_AMOUNT_02, J_AMOUNT_02.replace("having a retail value of $1.29 per song or less",
                                                        "each with a retail value of no more than $1.29 per song"))
    found = _limits(J_AMOUNT_02, J_AMOUNT_02.replace("or less", "or more"))
    assert found and "changes what it means" in found[0]


J_PLAIN_01 = ("Sponsor grants Excite a non-exclusive, royalty-free, worldwide license to use, reproduce and publicly "
              "display the Content in accordance with this Agreement.")


def test_not_exclusive_is_non_exclusive() -> None:
    # j-plain-01-p1, reworded throughout: "the license Sponsor gives is not exclusive".
    plain = ("Excite may use, copy and show the Content anywhere in the world, free of charge, as this Agreement "
             "allows; the license Sponsor gives is not exclusive.")
    assert not _limits(J_PLAIN_01, plain)
    exclusive = plain.replace("is not exclusive", "is exclusive")
    found = _limits(J_PLAIN_01, exclusive)
    assert found and "“non-exclusive” into “exclusive”" in found[0]


J_CONFORM_05 = ("Customer will pay Provider Fees and taxes in U.S. Dollars, unless the Order Form specifies a different "
                "currency, according to the Payment Process.")


def test_an_unless_said_as_the_condition_of_an_alternative_is_kept() -> None:
    # j-conform-05-p1
    alternative = ("Customer will pay Provider Fees and taxes in U.S. Dollars, or in a different currency if the "
                   "Order Form specifies one, according to the Payment Process.")
    assert not _limits(J_CONFORM_05, alternative)
    dropped = "Customer will pay Provider Fees and taxes in U.S. Dollars, according to the Payment Process."
    assert _limits(J_CONFORM_05, dropped.replace("Dollars,", "Dollars, whatever the Order Form specifies,"))


J_CONFORM_04 = ("Employer may disclose only factual information about lawful confidentiality, trade-secret, "
                "return-of-property, and other obligations that remain enforceable. Employee consents to that "
                "disclosure.")


def test_a_party_renamed_throughout_moves_nobody_and_a_swap_still_does() -> None:
    # j-conform-04: "For the invention agreement. It says Company." (document parties Company, Employee)
    parties = ("Company", "Employee")
    renamed = J_CONFORM_04.replace("Employer", "Company")
    assert not role_changes(compare(J_CONFORM_04, renamed), Allowances(), parties)
    swapped = ("Employee may disclose only factual information about lawful confidentiality, trade-secret, "
               "return-of-property, and other obligations that remain enforceable. Employer consents to that "
               "disclosure.")
    assert role_changes(compare(J_CONFORM_04, swapped), Allowances(), parties)


def test_equals_or_exceeds_is_at_least_and_either_way_said_again_is_no_new_either_way() -> None:
    from addin_server.draft.compare_logic import logic_changes
    # i-conform-07-p1: "equals or exceeds" is a floor, the "not" of "does not apply" before it or not.
    clause = ("Any Non-Competition covenant in this agreement does not apply unless Employee's compensation equals or "
              "exceeds $162,164 and Employee satisfies the objective work-location conditions.")
    floor = clause.replace("equals or exceeds", "is at least")
    assert not logic_changes(clause, floor, Allowances(), "Port it.", ("Employee",))
    # j-mutual-02-p1: an alternative held either way, said as "whether or not".
    clause = ("Consultant will not, directly or indirectly (whether for compensation or without compensation) engage in "
              "or provide consulting services.")
    draft = ("Consultant will not, directly or indirectly and whether or not for compensation, engage in or provide "
             "consulting services.")
    assert not logic_changes(clause, draft, Allowances(), "Make it mutual.", ("Consultant",))
    # ... and a limit that now holds either way still fails (session 9's rule).
    permitted = "Either party may assign this Agreement to its permitted successors."
    either = "Either party may assign this Agreement to its successors, whether or not permitted."
    assert logic_changes(permitted, either, Allowances(), "Tidy it.", ())


def test_in_no_event_later_than_is_no_later_than_and_nobody_is_a_not() -> None:
    from addin_server.draft.compare_logic import logic_changes
    # i-period-06-p1, a rewording: the limit said without "in no event" is kept, not a "not" dropped.
    clause = ("FCE will provide notice as soon as practicable, but in no event later than one (1) business day after "
              "any public announcement of the Change in Control.")
    draft = ("FCE will give notice as soon as practicable, and in any case no later than one (1) business day after "
             "any public announcement of the Change in Control.")
    assert not logic_changes(clause, draft, Allowances(rewrite=True), "Plainer, please.", ("FCE",), True, True)
    # k-plain-04-s1: "neither Provider nor its representative acknowledges" = "nobody at Provider ... acknowledges".
    clause = ("If neither Provider nor Provider's support representative acknowledge a support request within the "
              "Target Response Time, Customer is eligible to receive a Response Time Credit.")
    draft = ("If nobody at Provider, or its support representative, acknowledges a support request in that time, "
             "Customer can get a Response Time Credit.")
    assert not logic_changes(clause, draft, Allowances(rewrite=True), "Grade 8, please.", ("Provider", "Customer"),
                             True, True)
    dropped = draft.replace("nobody at Provider", "somebody at Provider")
    assert logic_changes(clause, dropped, Allowances(rewrite=True), "Grade 8, please.", ("Provider", "Customer"),
                         True, True)


def test_an_unless_added_beside_a_not_dropped_is_still_a_reversal() -> None:
    # f-carve_out-03-b2 (broken): "EFS shall not process" -> "unless approved, EFS may process"; the
    # "unless" takes no "if"'s place, so it is a condition added to a reversal, not the "not" said again.
    clause = "EFS shall not process any Client Data outside the United States."
    draft = "Unless otherwise approved by Client, EFS may continue to process any Client Data outside the United States."
    assert _limits(clause, draft)
    # b-amount-10-b1 (broken): "does not apply unless X" -> "does not apply if X".
    clause = "This covenant does not apply unless Employee's compensation equals or exceeds $162,164."
    assert _limits(clause, clause.replace("unless", "if"))


def test_two_nots_dropped_where_no_double_negative_went_are_a_reversal() -> None:
    # a-conform-02-b3 (broken): both "other than"s gone, an even count but no "may" made of them.
    clause = ("The warranty does not apply if Customer uses the Software in a manner other than as permitted by the "
              "Agreement, such as for purposes other than as intended.")
    draft = ("The warranty does not apply if Customer uses the Product as permitted by the Agreement, including for "
             "purposes as intended.")
    assert _limits(clause, draft)


def test_or_less_turned_into_more_than_is_a_ceiling_made_a_floor() -> None:
    # b-amount-07-b1 (broken)
    clause = "The exclusion applies to any Employee whose base salary is equal to or less than $350,000."
    found = _limits(clause, clause.replace("equal to or less than $350,000", "more than $350,000"))
    assert found and "“or less” into “more than”" in found[0]


F_CONFORM_08 = ("1.4 Insurance. Contractor acknowledges that Company will not carry any liability insurance on behalf of "
                "Contractor. Contractor will maintain adequate liability insurance to protect Contractor from claims.")


def test_both_parties_renamed_throughout_move_nobody_and_a_duty_moved_still_does() -> None:
    # f-conform-08: "the contractor there is 'Provider' and the client is 'Customer'".
    parties = ("Provider", "Customer")
    renamed = F_CONFORM_08.replace("Contractor", "Provider").replace("Company", "Customer")
    assert not role_changes(compare(F_CONFORM_08, renamed), Allowances(), parties)
    # f-conform-08-b1 (wrong_direction): the duty to insure moved to Customer.
    moved = renamed.replace("Provider will maintain adequate liability insurance to protect Provider",
                            "Customer will maintain adequate liability insurance to protect Customer")
    assert role_changes(compare(F_CONFORM_08, moved), Allowances(), parties)


def test_a_section_title_in_brackets_is_no_not() -> None:
    # e-conform-08-s1
    clause = "The Restricted Period for each covenant runs from the date Employee's employment ends and is not tolled."
    draft = ("The twelve (12) month period in Section 12 (No Solicitation of Company Personnel) runs from the date "
             "Employee's employment with Company ends and is not tolled.")
    assert not _limits(clause, draft)


def test_a_limit_said_around_its_subject_is_the_same_ceiling_and_a_bare_exceeds_is_a_floor() -> None:
    # g-multi-03-p1: "no more than one (1) such audit may be conducted" = "MBE may not conduct more than one".
    clause = "MBE may audit the records; provided, however, that no more than one (1) such audit may be conducted per year."
    draft = "MBE may audit the records, but MBE may not conduct more than one (1) such audit per year."
    assert not _limits(clause, draft)
    # d-plain-08-s1: "exceeds the minimum order quantity" = "is more than the minimum order quantity".
    clause = "If the order exceeds the vendor's minimum order quantity, Buyer pays the difference."
    assert not _limits(clause, clause.replace("exceeds", "is more than"))
    # a-flip-09-b2 (broken): "more than thirty days" -> "within thirty days" still turns the limit round.
    clause = "Licensee may terminate if Dolphin fails to deliver more than thirty (30) days after the due date."
    assert _limits(clause, clause.replace("more than", "within"))


def test_a_bare_exceed_after_a_distant_neither_is_a_ceiling_and_no_more_to_no_less_still_fails() -> None:
    # g-multi-04-p1: "Each party's liability will not be more than the Cap" = "neither party's ... will exceed".
    clause = ("Each party’s total cumulative liability for all claims arising out of or relating to this Agreement "
              "will not be more than the General Cap Amount.")
    draft = ("Neither party’s total cumulative liability for all claims arising out of or relating to this Agreement "
             "will exceed the General Cap Amount.")
    assert not [f for f in _limits(clause, draft, exception=True) if "turns" in f]
    # c-period-02-b2 (broken): "but no more than once a year" -> "and no less than once a year".
    clause = "VerticalNet may audit Impresse's records on thirty days' notice, but no more than once in any year."
    found = _limits(clause, clause.replace("but no more", "and no less"))
    assert found and "changes what it means" in found[0]


def test_neither_party_liable_in_excess_of_is_each_partys_liability_shall_not_exceed() -> None:
    # c-amount-05-p1: the "not" of a cap said across a long limb is the cap's own, no "not" dropped.
    clause = ("EXCEPT FOR EITHER PARTY'S INDEMNIFICATION OBLIGATIONS, NEITHER PARTY SHALL BE LIABLE UNDER ANY "
              "CONTRACT, NEGLIGENCE, STRICT LIABILITY, OR OTHER LEGAL OR EQUITABLE THEORY FOR ANY AMOUNTS IN EXCESS IN "
              "THE AGGREGATE OF THE FEES PAID UNDER THIS AGREEMENT.")
    draft = ("EXCEPT FOR EITHER PARTY'S INDEMNIFICATION OBLIGATIONS, EACH PARTY'S AGGREGATE LIABILITY UNDER ANY "
             "CONTRACT, NEGLIGENCE, STRICT LIABILITY, OR OTHER LEGAL OR EQUITABLE THEORY SHALL NOT EXCEED THE FEES PAID "
             "UNDER THIS AGREEMENT.")
    assert not _limits(clause, draft)
    # ... while a "not" dropped from a promise with no limit in its limb still fails.
    clause = "Neither party shall assign this Agreement without the other party's consent."
    assert _limits(clause, clause.replace("Neither party shall", "Each party may"))
