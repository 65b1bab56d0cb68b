"""Every term's uses in one scan: the core's forms, improper capitals found, quotes skipped."""

from __future__ import annotations

from index_builder.reading.defined_terms import meaning, term_key
from index_builder.reading.term_uses import TermUses, forms


def test_forms_are_the_terms_own_number_both_ways() -> None:
    assert forms("Covered Employees") == ("Covered Employees", "Covered Employee")
    assert "Activities" in forms("Activity") and "Taxes" in forms("Tax") and "Tax" in forms("Taxes")


def test_each_use_is_its_term_with_the_form_as_written() -> None:
    scan = TermUses(["Confidential Information", "Covered Employees", "Activity", "Tax"])
    text = ("\u201cTax\u201d means any levy. Each Covered Employee keeps confidential information; the "
            "CONFIDENTIAL INFORMATION of High Risk Activities and Taxes\u2019 owed.")
    found = [(u.term, u.written, u.proper) for u in scan.uses(text)]
    assert found == [("Covered Employees", "Covered Employee", True),
                     ("Confidential Information", "confidential information", False),
                     ("Confidential Information", "CONFIDENTIAL INFORMATION", True),
                     ("Activity", "Activities", True),
                     ("Tax", "Taxes", True)]  # the quoted definition is no use


def test_a_terms_own_spelling_wins_over_another_terms_other_form() -> None:
    scan = TermUses(["Service", "Services"])
    assert [u.term for u in scan.uses("the Service and the Services")] == ["Service", "Services"]
    assert TermUses([]).uses("anything") == []


def test_meaning_is_what_follows_the_defining_verb() -> None:
    assert meaning("\u201cServices\u201d means the work in the SOW.") == "the work in the SOW."
    assert meaning("\u201cAffiliate\u201d or \u201cAffiliates\u201d shall mean any entity that controls a party.") == \
        "any entity that controls a party."
    assert meaning("Notices are given by means of email.") == ""  # "by means of" defines nothing
    assert meaning("Fees: USD 10,000") == ""


def test_term_key_joins_number_possessive_and_capitals() -> None:
    assert term_key("Claims") == term_key("Claim\u2019s") == term_key("CLAIMS") == "claim"
    assert term_key("Taxes") == term_key("Tax") and term_key("Status") == "status" and term_key("Business") == "business"
