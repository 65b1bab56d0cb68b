"""Issue 38, round 4 of the cap and figure readers: the wording classes the never-seen caps3 set
(spent) showed, each on real clause text (ACORD, © The Atticus Project, CC BY 4.0), beside the
readings that must not change:

* a limit whose measure follows a qualifier ("BE GREATER THAN, PER CLAIM OR SERIES OF CLAIMS ...,
  [* * *]"), several in one clause;
* a cap set through a defined term, one measure per party;
* consideration over one unit written without a number ("the fee for the month during which");
* a fraction in words and digits ("one fifth (1/5th)") and digits in square brackets ("one hundred
  eighty [180] calendar days").
"""

from __future__ import annotations

import pytest

from index_builder.reading.caps import caps
from index_builder.reading.figures import figures
from index_builder.reading.numbers import read


def kinds(text: str) -> list[tuple]:
    out = []
    for c in caps(text):
        assert text[c.start:c.end] == c.text
        out.append((c.kind, c.amount, c.multiple, c.period_months, c.whose))
    return out


# -- a qualifier between the limiting verb and the measure -----------------------------------------

PER_CLAIM = (
    "b) EXCEPT AS SET FORTH BELOW IN THIS SECTION 13.4(b), IN NO EVENT WILL SUPPLIER'S LIABILITY, [* * *], BE "
    "GREATER THAN, PER CLAIM OR SERIES OF CLAIMS ARISING FROM THE SAME CAUSE OF ACTION, [* * *].\n"
    "EXCEPT AS SET FORTH BELOW IN THIS SECTION 13.4(b), [* * *], AS APPLICABLE, IN NO EVENT SHALL A PARTY'S "
    "LIABILITY, HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, BE GREATER THAN, PER CLAIM OR SERIES OF CLAIMS "
    "ARISING FROM THE SAME CAUSE OF ACTION, [* * *].")


def test_a_per_claim_qualifier_before_a_redacted_measure_one_cap_per_sentence() -> None:
    got = kinds(PER_CLAIM)
    assert [(k[0], k[4]) for k in got] == [("redacted", "SUPPLIER"), ("redacted", "each party")]
    assert all(c.text.endswith("[* * *]") for c in caps(PER_CLAIM))


def test_a_qualifier_before_an_amount_and_before_fees() -> None:
    amount = ("In no event shall Vendor's liability exceed, with respect to any one event or series of related "
              "events, $2,000,000.")
    fees = ("In no event shall Vendor's liability exceed, in the aggregate, the fees paid by Customer in the twelve "
            "(12) months preceding the claim.")
    assert kinds(amount) == [("fixed", 2_000_000, None, None, "Vendor")]
    assert kinds(fees) == [("fees_period", None, None, 12, "Vendor")]


@pytest.mark.parametrize("text, expected", [
    ("In no event shall Company's aggregate liability be greater than, for all claims arising under this Agreement, "
     "the amounts paid by Customer hereunder.", ("fees_all", None, "Company")),
    ("The Supplier's liability shall not exceed, per occurrence, One Million Dollars ($1,000,000).",
     ("fixed", 1_000_000, "Supplier")),
    ("The Contractor's total liability shall not exceed, in respect of any claim or series of related claims, the sum "
     "of £500,000.", ("fixed", 500_000, "Contractor")),
])
def test_qualifiers_a_lawyer_writes_before_the_measure(text: str, expected: tuple) -> None:
    assert [(k[0], k[1], k[4]) for k in kinds(text)] == [expected]


def test_a_redacted_per_claim_cap_beside_a_redacted_aggregate_is_two_caps() -> None:
    text = ("IN NO EVENT WILL SUPPLIER'S LIABILITY BE GREATER THAN [* * *] PER CLAIM OR SERIES OF CLAIMS, AND [* * *] IN "
            "THE AGGREGATE.")
    assert [k[0] for k in kinds(text)] == ["redacted", "redacted"]


def test_the_verb_is_not_part_of_the_name_whose_liability_is_capped() -> None:
    text = "IN NO EVENT SHALL THE LIABILITY OF SUPPLIER BE GREATER THAN $500,000 PER CLAIM OR SERIES OF RELATED CLAIMS."
    assert kinds(text) == [("fixed", 500_000, None, None, "SUPPLIER")]


def test_no_qualifier_no_change() -> None:
    # the measure right after the verb is read as before; a comma clause that is the measure stays it
    text = "IN NO EVENT SHALL SUPPLIER'S LIABILITY EXCEED [* * *]."
    assert kinds(text) == [("redacted", None, None, None, "SUPPLIER")]


# -- a cap set through a defined term ---------------------------------------------------------------

MAXIMUM_LIABILITY = (
    "\"Maximum Liability\" means, with respect to Operator, the aggregate Residual Value of the Portfolio as of such "
    "date, and with respect to Owner, One Million Dollars ($1,000,000); provided that a reduction in the Maximum "
    "Liability of Operator shall never result in a requirement for Owner or any Owner Indemnitee to return any money "
    "to Operator. Maximum Liability will be determined on an aggregate basis between this Agreement and the MESPA.\n"
    "(a) Notwithstanding anything to the contrary in this Agreement, in no event shall a Party be liable to the other "
    "Party for an aggregate amount in excess of the Maximum Liability; provided that such limitation of liability "
    "shall not apply to any liability that is the result of gross negligence.")


def test_a_defined_cap_term_gives_one_cap_per_party_and_the_reference_is_not_read_again() -> None:
    got = caps(MAXIMUM_LIABILITY)
    assert [(c.kind, c.amount, c.whose) for c in got] == [("other", None, "Operator"), ("fixed", 1_000_000, "Owner")]
    assert got[0].text.startswith('"Maximum Liability" means') and got[0].text.endswith("as of such date")
    assert got[1].text == "with respect to Owner, One Million Dollars ($1,000,000)"


def test_a_defined_cap_term_with_one_measure() -> None:
    text = ("\u201cLiability Cap\u201d means the total fees paid by Customer under this Agreement in the twelve (12) "
            "months before the claim.")
    assert kinds(text) == [("fees_period", None, None, 12, None)]


def test_a_defined_term_that_is_not_a_cap_is_not_read_as_one() -> None:
    # a definition of "liability" itself (ACORD), and a term defined elsewhere: no cap made up
    assert caps("\"liability\" means liability for any and all claims, causes of action, judgments, costs and "
                "expenses (including but not limited to reasonable attorneys' fees).") == []
    assert caps("\"Losses\" means any liabilities, damages, costs and expenses of $5,000 or more.") == []


# -- fees over one unit written without a number ----------------------------------------------------

def test_fees_for_the_month_during_which_the_loss_occurred_are_one_month() -> None:
    text = ("If you have any basis for recovering damages (including breach of these Terms), you agree that your "
            "exclusive remedy is to recover, from Microsoft or any affiliates, resellers, distributors, Third-Party "
            "Apps and Services providers, and vendors, direct damages up to an amount equal to your Services fee for "
            "the month during which the loss or breach occurred (or up to $10.00 if the Services are free).")
    assert [k[:4] for k in kinds(text)] == [("fees_period", None, None, 1.0), ("fixed", 10.0, None, None)]


def test_one_unit_windows_and_those_left_unstated() -> None:
    quarter = ("Supplier's liability shall not exceed the charges paid in the calendar quarter in which the claim "
               "arose.")
    unstated = "Supplier's liability shall not exceed the fees paid during the [***] preceding the claim."
    numbered = "Supplier's liability shall not exceed the fees paid during the 6-month period prior to the month in which the claim arose."
    assert kinds(quarter)[0][:4] == ("fees_period", None, None, 3.0)
    assert kinds(unstated)[0][:4] == ("fees_period", None, None, None)
    assert kinds(numbered)[0][:4] == ("fees_period", None, None, 6.0)


# -- figures: fractions in words and digits, digits in square brackets -----------------------------

@pytest.mark.parametrize("text, expected", [
    ("which in no event shall receive no more than one fifth (1/5th) of the promotion",
     ("multiple", 0.2, None, "one fifth (1/5th)", "both")),
    ("In no event shall the transition exceed one hundred eighty [180] calendar days from the date of termination",
     ("period", 180, "day", "one hundred eighty [180] calendar days", "both")),
    ("Licensee shall pay two-fifths of the net receipts", ("multiple", 0.4, None, "two-fifths", "words")),
    ("within thirty [30] days after receipt", ("period", 30, "day", "thirty [30] days", "both")),
    ("one-half (1/2) of the fees", ("multiple", 0.5, None, "one-half (1/2)", "both")),
])
def test_fractions_and_square_brackets(text: str, expected: tuple) -> None:
    got = [(f.kind, f.value, f.unit, f.text, f.written) for f in figures(text)]
    assert got == [expected]


def test_ordinals_are_not_fractions() -> None:
    assert figures("on the fifth day of each month and the tenth Business Day thereafter") == []
    assert read("ten [12]").disagree and read("ten [12]").value == 10


def test_the_month_or_months_is_a_window_of_no_stated_length() -> None:
    # caps2 (spent held-out, ACORD): labelled fees_period with no period
    text = ("Galaxy's liability in any matter related to Services shall be limited to the fee paid by Telnet for the "
            "Service with respect to which the liability relates in the month or months in which the event giving rise "
            "to the liability occurred.")
    assert kinds(text)[0][:4] == ("fees_period", None, None, None)


# -- a contribution cap (caps3 tuning, ACORD) --------------------------------------------------------

def test_no_party_required_to_contribute_in_excess_of_a_difference_is_a_cap_of_another_measure() -> None:
    text = ("Notwithstanding the provisions of this subsection (d), no Remarketing Agent shall be required to contribute "
            "any amount in excess of the amount by which the total price at which the applicable Securities remarketed "
            "by it and distributed to the public were offered to the public exceeds the amount of any damages which "
            "such Remarketing Agent has otherwise been required to pay by reason of such untrue or alleged untrue "
            "statement or omission or alleged omission.")
    assert [k[0] for k in kinds(text)] == ["other"]


def test_a_contribution_that_is_not_a_liability_is_not_a_cap() -> None:
    assert caps("Each Member's capital contribution shall not exceed $500,000 without the consent of the Board.") == []
    assert caps("No Member shall be required to contribute any additional capital to the Company.") == []


def test_a_contribution_cap_beside_an_indemnity_cap_is_no_super_cap() -> None:
    from index_builder.reading.limitations import super_cap

    # ACORD (a registration rights agreement): the indemnity's limit and the contribution's limit
    text = ("In no event shall the liability for indemnity of any Holder under this Section 13.9(b) exceed the dollar "
            "amount of the proceeds received by such Holder from the sale of the Registrable Securities giving rise to "
            "such indemnification obligation. Each Holder shall not be required to contribute, in the aggregate, any "
            "amount in excess of the amount by which the net proceeds received by such Holder from the sale of the "
            "Registrable Securities exceeds the amount of any damages which such Holder has otherwise been required to "
            "pay by reason of such untrue statement.")
    found = caps(text)
    assert [c.kind for c in found] == ["other", "other"]
    assert super_cap(text, found) is None


@pytest.mark.parametrize("text, expected", [
    ("\"General Cap Amount\" means the greater of (a) $1,000,000 and (b) two times the fees paid or payable by "
     "Customer in the twelve (12) months before the claim.", ["greater_of"]),
    ("\u201cIndemnity Cap\u201d means Five Million Dollars ($5,000,000).", ["fixed"]),
    ("\"Liability Cap\" means the amount set out in Schedule 3.", ["other"]),
    ("\"Interest Rate Cap\" means the interest rate protection agreement entered into by the Borrower.", []),
    ("\"Cap\" means the interest rate cap agreement dated as of the Closing Date.", []),
    ("\"Fee Cap\" means $250,000 per Contract Year.", []),
])
def test_cap_terms_without_the_word_liability_need_a_measure_that_can_be_valued(text: str, expected: list) -> None:
    assert [c.kind for c in caps(text)] == expected
