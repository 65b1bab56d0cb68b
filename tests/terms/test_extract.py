"""Term extraction: figures with spans, written-out numbers, currencies, placeholders, bad input."""

from __future__ import annotations

import pytest

from index_builder.terms import extract


def keys(text: str) -> list[tuple[str, str, str]]:
    return [(t.type, t.key, t.role) for t in extract(text).terms]


def assert_spans(text: str) -> None:
    for term in extract(text).terms:
        assert text[term.start:term.end] == term.text


def test_words_and_digits_that_disagree_are_read_as_the_words_and_flagged() -> None:
    [term] = extract("within ten (12) days of notice").terms
    assert (term.key, term.role, term.disagree) == ("10 day", "notice", True)


@pytest.mark.parametrize("text,expected", [
    ("Either party may terminate on thirty (30) days’ prior written notice.", ("period", "30 day", "notice")),
    ("fails to cure the breach within fifteen (15) Business Days", ("period", "15 business_day", "cure")),
    ("During the Restricted Period, which must not exceed twelve (12) months, Employee must not compete.",
     ("period", "12 month", "non_compete")),
    ("for one (1) year thereafter, Contractor will not solicit any Company personnel", ("period", "1 year", "non_solicit")),
    ("The restriction may not exceed 365 calendar days from separation.", ("period", "365 day", "other")),
    ("Customer will pay each invoice within 45 days of receipt.", ("period", "45 day", "payment")),
    # How long a duty of confidence lasts (ACORD 730e657aa9, a new user's NDA clause) ...
    ("So long as this Agreement remains in effect and for a period of one (1) year thereafter, neither "
     "GSK nor any of its Affiliates may make any public disclosure of any holdings", ("period", "1 year", "confidentiality")),
    ("The Client shall keep secret all non-public information it receives from the Vendor, for a period "
     "of three (3) years after this Agreement ends.", ("period", "3 year", "confidentiality")),
    # ... not a deadline in a confidentiality clause, nor records kept under an NDA (ACORD ebca1750f4)
    ("The Recipient shall notify the Discloser within five (5) days of any unauthorised disclosure.",
     ("period", "5 day", "notice")),
    ("Such records shall be kept for at least three (3) years following the end of the calendar month, "
     "subject to Corio's standard non-disclosure agreement", ("period", "3 year", "retention")),
])
def test_periods_with_their_roles(text: str, expected: tuple[str, str, str]) -> None:
    assert keys(text) == [expected]
    assert_spans(text)


@pytest.mark.parametrize("text,key", [
    ("liability will not exceed $1,000,000 in aggregate", "USD 1000000"),
    ("a cap of EUR 2.5 million", "EUR 2500000"),
    ("no more than €250,000", "EUR 250000"),
    ("limited to £50,000", "GBP 50000"),
    ("the sum of 10,000 USD", "USD 10000"),
    ("one thousand pounds sterling", "GBP 1000"),
    ("FIFTEEN MILLION DOLLARS", "USD 15000000"),
    ("a minimum of 100 pounds of product", None),  # a weight, not money
])
def test_currencies(text: str, key: str | None) -> None:
    money = [t.key for t in extract(text).terms if t.type == "money"]
    assert money == ([key] if key else [])
    assert_spans(text)


def test_percentages_once_when_written_twice() -> None:
    text = "more than fifty percent (50%) of the voting stock; interest on late payments at 1.5% per month"
    got = [(t.key, t.role, t.text) for t in extract(text).terms if t.type == "percentage"]
    assert got == [("50", "other", "fifty percent (50%)"), ("1.5", "interest", "1.5%")]


@pytest.mark.parametrize("text,kind,multiple,months", [
    ("Each party's total liability will not exceed 2x the fees paid in the 12 month period before the claim.",
     "multiple", 2, 12),
    ("Company’s total cumulative liability will not be more than the fees paid or payable to Contractor "
     "in the twelve (12) month period preceding the claim.", "fees_period", None, 12),
    ("Either party's liability is limited to 12 months' fees", "fees_period", None, 12),
])
def test_fee_caps_are_caps_and_their_window_is_not_a_look_back(text: str, kind: str, multiple, months) -> None:
    found = extract(text)
    [cap] = found.caps
    assert (cap.kind, cap.multiple, cap.period_months) == (kind, multiple, months)
    # the window is the cap's: never a "look-back period" term of its own
    assert [t.role for t in found.terms if t.type == "period"] == ["cap"]
    assert "liability_cap" in found.subprovisions
    assert text[cap.start:cap.end] == cap.text
    assert_spans(text)


def test_placeholders_and_drafting_notes_are_never_figures() -> None:
    text = ("[ x ] {cap_multiplier}x the Fees paid in the 12 month period immediately before the claim\n"
            "within [Number of days after the termination date (commonly 60, 90, or 120 days)] days; "
            "up to $[Aggregate SAFE purchase amount (for example, \"500,000\")] <!-- Note: at least 30 days notice -->")
    got = keys(text)
    assert got == [("period", "12 month", "lookback")]


def test_statute_numbers_are_not_figures() -> None:
    assert keys("under C.R.S. § 8-2-113(2)(d) and 45 CFR §164.524, Form 5500, 401(k) plans, SOC 2") == []


def test_law_forum_mutuality_and_subprovisions() -> None:
    text = ("This agreement is governed by Alabama law. Disputes will be resolved in Alabama courts.")
    assert keys(text) == [("governing_law", "Alabama", ""), ("forum", "Alabama", "")]
    assert keys("governed by the laws of the State of Governing Law") == []  # a placeholder
    cap = ("Except as provided in Section 8.4 (Exceptions), each party’s total cumulative liability "
           "will not be more than the General Cap Amount.")
    found = extract(cap)
    assert found.mutuality == "mutual"
    assert found.subprovisions == ("liability_cap", "cap_carveout")
    waiver = "Under no circumstances will Company be liable for consequential or indirect damages."
    assert extract(waiver).mutuality == "one_sided"
    assert extract(waiver).subprovisions == ("consequential_exclusion",)



def test_mutuality_is_the_core_reading_of_who_the_clause_binds() -> None:
    # a passive's agent is bound (no "Recipient shall" for a party-word pattern to find)
    assert extract("Confidential Information shall be held in strict confidence by the Recipient.").mutuality == "one_sided"
    # a right of one side and a duty of the other: the duty says who the clause burdens
    assert extract("Customer may terminate the Order Form by notice. If Customer terminates, Provider will pay to "
                   "Customer a prorated refund of prepaid fees.").mutuality == "one_sided"
    assert extract("Either party may terminate this Agreement on 30 days' notice.").mutuality == "mutual"
    # one party's right binds nobody; "a party" states a rule about any party, not an allocation
    assert extract("The Company has the right to repurchase the Founder's unvested shares.").mutuality is None
    assert extract("Nothing in this Agreement will limit a party's liability to the extent prohibited by "
                   "Applicable Laws.").mutuality is None
    assert extract("Customer shall pay the fees and Provider shall deliver the Services.").mutuality is None


# Real clauses (Common Paper independent contractor 4.2, pilot agreement 7.6, CSA 9.3, software
# license 8.5; ACORD): a right one side alone holds, beside a duty of both, is not "mutual".
def test_a_one_sided_right_beside_a_duty_of_both_is_not_mutual() -> None:
    # the new user's clause: the Company's right to terminate; both keep performing meanwhile
    assert extract("Company may at any time terminate this Agreement by giving thirty (30) days' prior written "
                   "notice to Contractor. Until the effective date of termination the parties will continue "
                   "performing their obligations under this Agreement.").mutuality is None
    assert extract("Neither party may assign any rights or obligations under this Agreement without the prior "
                   "written consent of the other party. However, Provider may assign this Agreement upon notice if "
                   "Provider undergoes a merger, change of control, reorganization, or sale of all or substantially "
                   "all its equity, business, or assets to which this Agreement relates.").mutuality is None
    assert extract("The Appointment may be terminated by either party giving the other at least 12 months' notice "
                   "in writing. The Company may in its sole and absolute discretion terminate this Agreement at any "
                   "time and with immediate effect by giving notice in writing to the Executive.").mutuality is None


def test_a_right_each_side_holds_or_any_holder_of_a_role_holds_stays_mutual() -> None:
    # the same right named for each side in turn is both sides'
    assert extract("Company may terminate this Agreement on thirty (30) days' notice to Contractor, and Contractor "
                   "may terminate this Agreement on thirty (30) days' notice to Company. The parties will continue "
                   "performing until the effective date of termination.").mutuality == "mutual"
    # "a Protected Party" is whichever party an indemnity protects, not one side
    assert extract("The Indemnifying Party’s obligations in this section are contingent upon the Protected Party "
                   "promptly notifying the Indemnifying Party of each Covered Claim. A Protected Party may "
                   "participate in a Covered Claim for which it seeks protection with its own attorneys only at its "
                   "own expense. The Indemnifying Party may not agree to any settlement of a Covered Claim that "
                   "contains an admission of fault without the prior written consent of the Protected Party."
                   ).mutuality == "mutual"
    # Provider's indemnity, limited "as an Indemnifying Party": the limit shelters Provider alone
    assert extract("Provider’s obligations as an Indemnifying Party will not apply to Provider Covered Claims that "
                   "result from unauthorized use of the Product.").mutuality == "one_sided"


def test_a_cap_subprovision_is_a_cap_the_core_reads() -> None:
    # "limited to the fullest extent permitted by law" limits nothing to a measure: no cap
    waiver = "Each party's liability for any claim will be limited to the fullest extent permitted by Applicable Laws."
    assert extract(waiver).caps == () and "liability_cap" not in extract(waiver).subprovisions
    assert extract("Supplier's liability shall not exceed $10,000.").subprovisions == ("liability_cap",)

def test_no_term_non_english_and_huge_text() -> None:
    assert extract("The parties shall cooperate in good faith.").terms == ()
    french = "Le préavis est de trente (30) jours. La responsabilité est limitée à 100 000 €."
    # French units of time are not read (no period); the euro amount is, thousands grouped by a space.
    assert [(t.key, t.text) for t in extract(french).terms] == [("EUR 100000", "100 000 €")]
    assert_spans(french)
    assert keys("Die Haftung ist auf EUR 250 000 begrenzt.") == [("money", "EUR 250000", "")]
    # A runaway paragraph at index time (the API refuses texts over PRECEDENT_MAX_TEXT_CHARS):
    # linear work, every figure still found.
    huge = "Either party may terminate on 30 days notice. " * 4_000  # ~190 KB
    terms = extract(huge).terms
    assert len(terms) == 4_000 and {(t.key, t.role) for t in terms} == {("30 day", "notice")}


# A new user's own clauses (session 10, round 2): what a period governs is read from the duty it
# bounds ("fails to remedy ... within 30 days") or the noun it measures ("30 days' notice").
def roles(text: str) -> list[tuple[str, str]]:
    return [(t.label, t.role) for t in extract(text).terms]


def test_british_cure_verbs_bound_the_period_not_the_notice_it_runs_from() -> None:
    assert roles("The Customer may terminate this Agreement by written notice if the Supplier commits a material "
                 "breach of this Agreement and fails to remedy that breach within thirty (30) days after receiving "
                 "written notice of it.") == [("30 days", "cure")]
    assert roles("If the breach is not rectified within 14 days of notice, the Company may terminate.") == [("14 days", "cure")]
    # the noun "remedy" is no cure, and a period's own noun ("days' notice") governs it
    assert roles("Either party may terminate this Agreement on thirty (30) days' notice, without prejudice to any "
                 "other right or remedy.") == [("30 days", "notice")]
    assert roles("The Customer may terminate this Agreement on thirty (30) days' written notice if the Supplier "
                 "fails to remedy a breach.") == [("30 days", "notice")]
    # ... but a cure verb before it runs from that notice: the time to cure (Common Paper CSA 5.3)
    assert roles("Either party may terminate immediately if the other party fails to cure a material breach "
                 "following 30 days notice.") == [("30 days", "cure")]


def test_every_form_of_compete_makes_a_restraint_a_non_compete() -> None:
    assert roles("For twenty-four (24) months after the termination of his employment, the Employee shall not, "
                 "directly or indirectly, engage in or be concerned with any business that competes with the "
                 "Company.") == [("24 months", "non_compete")]
    assert roles("For twelve (12) months after the Effective Date, the Employee will not work for a competitor of "
                 "the Company.") == [("12 months", "non_compete")]

