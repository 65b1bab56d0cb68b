"""Session 9: the meaning side read through the one polarity reader (reading/polarity.py): a ceiling
turned into a floor, a condition that held either way made one, a duty made an option or a "not" lost in
a rewording fail; a limit said another way, a covenant's name and a heading in capitals do not."""

from __future__ import annotations

from addin_server.draft import support as S
from addin_server.draft.compare_base import Allowances
from addin_server.draft.compare_limits import _negatives
from addin_server.draft.compare_logic import logic_changes

CAP = ("In no event shall Company's aggregate liability arising out of this Agreement exceed the amounts paid by "
       "Company to Consultant under this Agreement.")


def test_a_ceiling_turned_into_a_floor_fails_in_a_rewording_too() -> None:
    floor = ("In no event shall Company's aggregate liability arising out of this Agreement be at least the amounts "
             "paid by Company to Consultant under this Agreement.")
    found = logic_changes(CAP, floor, Allowances(), "Plain English, please.", ("Company", "Consultant"), True)
    assert found and "“exceed” into “at least”" in found[0]
    same = CAP.replace("exceed", "be more than")
    assert not logic_changes(CAP, same, Allowances(), "Plain English, please.", ("Company", "Consultant"), True)


def test_a_bare_exceeds_is_a_floor_and_at_least_says_it_again() -> None:
    clause = "The Minimum Royalty is $50,000 a year, provided that such amount equals or exceeds $50,000 in each year."
    draft = "The Minimum Royalty is $50,000 a year, provided that such amount is at least $50,000 in each year."
    assert not logic_changes(clause, draft, Allowances(), "Plain English.", (), True)


def test_only_once_a_year_turned_into_at_least_once_a_year_fails() -> None:
    clause = "All such requests must be made in writing to the Security Contact and may only be made once a year."
    draft = "All such requests must be made in writing to the Security Contact and must be made at least once a year."
    found = logic_changes(clause, draft, Allowances(), "Plainer please.", (), True)
    assert found and "“only” into “at least”" in found[0]


def test_whether_or_otherwise_turned_into_unless_fails() -> None:
    clause = ("The Parties shall indemnify each other for injury arising out of the responsibilities set forth in this "
              "Agreement, whether due to the negligence of a Party or otherwise.")
    draft = ("The Parties shall indemnify each other for injury arising out of the responsibilities set forth in this "
             "Agreement, unless due to the negligence of a Party.")
    found = logic_changes(clause, draft, Allowances(exception=True), "carve out gross negligence", ("Party",))
    assert found and "“whether” into “unless”" in found[0]


def test_the_earlier_of_turned_into_the_later_of_fails() -> None:
    clause = "The Term will end on the earlier of (a) the first anniversary of the last Order Form; or (b) notice."
    draft = "The Term will end on the later of (a) the first anniversary of the last Order Form; or (b) notice."
    found = logic_changes(clause, draft, Allowances(conform=True), "Conform to our agreement.")
    assert found and "earlier of" in found[0]


def test_a_duty_made_an_option_fails_in_a_shortening_and_a_shortening_that_keeps_it_does_not() -> None:
    clause = ("Provider will maintain a privacy and information security program that takes steps to ensure that "
              "employees or agents of Provider comply with this BAA.")
    optional = "Provider may maintain a privacy and information security program so its employees and agents comply with this BAA."
    kept = "Provider will maintain a privacy and information security program so its employees and agents comply with this BAA."
    found = logic_changes(clause, optional, Allowances(rewrite=True), "Lose a third of the words.", ("Provider",), True, True)
    assert found and "what was required is now optional" in found[0]
    assert not logic_changes(clause, kept, Allowances(rewrite=True), "Lose a third of the words.", ("Provider",), True, True)
    # An ask that is more than a rewording ("so the choice is ours") may make "will" "may" itself.
    assert not logic_changes(clause, optional, Allowances(rewrite=True), "Make it our choice.", ("Provider",), True, False)


def test_a_not_lost_at_one_place_of_a_rewording_fails() -> None:
    clause = ("The parties do not intend, and this agreement does not provide for, any extension of the Restricted "
              "Period during a breach.")
    lost = "The parties intend, and this agreement allows, an extension of the Restricted Period during a breach."
    found = logic_changes(clause, lost, Allowances(rewrite=True, plain=True), "Put it in plain words.", (), True)
    assert found and "it now says the opposite" in found[0]


def test_a_bare_not_beside_an_asked_exception_fails_and_the_exception_itself_does_not() -> None:
    clause = ("During the Restricted Period, Employee must not carry on a Competitive Business. Passive Public "
              "Holdings are permitted.")
    reversed_ = clause.replace("are permitted", "are not permitted")
    found = logic_changes(clause, reversed_, Allowances(exception=True), "Carve out a non-competing division.")
    assert found and "adds “not”" in found[0]
    carved = clause.replace("Business.", "Business, but this does not apply to a non-competing division.")
    assert not logic_changes(clause, carved, Allowances(exception=True), "Carve out a non-competing division.")


def test_a_no_that_runs_to_a_bound_is_a_limit_not_a_reversal() -> None:
    said_in_a_row = "any covenant restricting Employee's practice lasts no more than two years. No non-compete restricts it."
    said_around = "no covenant restricting Employee's practice may last longer than one year. No non-compete restricts it."
    assert _negatives(said_in_a_row) == _negatives(said_around)
    assert _negatives("no more than one (1) such audit may be conducted") == _negatives("MBE may not conduct more than one audit")
    assert _negatives("any covenant not to compete is limited to one year") == 0


def test_the_citation_score_reads_a_covenant_name_as_no_not() -> None:
    assert S._negations("breaches the non-competition or non-solicitation covenant") == 0
    assert S._negations("grants a non-exclusive licence") == 1  # "non-exclusive" stays a "non" for the score


def test_a_heading_in_capitals_written_in_title_case_is_the_clauses_own_words() -> None:
    from addin_server.draft.checks_terms import _lawyers_own
    clause = "10. LIMITED WARRANTY 10.1 Sole Warranty. JRVS MAKES NO WARRANTIES TO THE DISTRIBUTOR."
    assert _lawyers_own("Limited Warranty", clause, "10. Limited Warranty 10.1 Sole Warranty.", set())
    assert not _lawyers_own("Extended Warranty", clause, "10. Extended Warranty 10.1 Sole Warranty.", set())


def test_must_not_said_as_may_not_and_whether_or_otherwise_added_are_no_change() -> None:
    clause = "During the Restricted Period, Employee must not engage in any Competitive Business within the Territory."
    draft = "While the Restricted Period lasts, Employee may not engage in any Competitive Business within the Territory."
    assert not logic_changes(clause, draft, Allowances(rewrite=True, plain=True), "Plain English.", (), True, True)
    clause = ("Network Affiliate may not assign, by operation of law or otherwise, any of its rights under this "
              "Agreement without NCM's prior written consent.")
    draft = ("Network Affiliate may not assign, whether by operation of law or otherwise, any of its rights under this "
             "Agreement without NCM's prior written consent.")
    assert not logic_changes(clause, draft, Allowances(), "Tidy it.", ("NCM", "Network Affiliate"))
