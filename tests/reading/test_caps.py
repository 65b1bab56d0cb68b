"""The core's cap reader on real liability caps (ACORD, © The Atticus Project, CC BY 4.0; Common
Paper, CC BY 4.0): every kind, with its value, its limbs and whose liability it caps."""

from __future__ import annotations

import pytest

from index_builder.reading.caps import caps


def one(text: str):
    [cap] = caps(text)
    assert text[cap.start:cap.end] == cap.text
    return cap


@pytest.mark.parametrize("text,kind,value", [
    ("THE LIABILITY OF A PARTY TO THE OTHER FOR DIRECT DAMAGES SHALL NOT EXCEED FIFTEEN MILLION DOLLARS.",
     "fixed", {"amount": 15_000_000, "currency": "USD", "whose": "each party"}),
    ("either party's total liability to the other party under this Agreement shall be limited to the amounts paid "
     "or payable by the Reseller to Todos during the twelve-month period preceding the interposition of the claim.",
     "fees_period", {"period_months": 12, "whose": "each party"}),
    ("i-on's liability for damages to the Customer for any cause whatsoever shall be limited to one (1) month's "
     "fees and the remaining portion of any prepaid fees.", "fees_period", {"period_months": 1}),
    ("IN NO EVENT SHALL D2'S LIABILITY HEREUNDER EXCEED THE TOTAL AMOUNT PAID OR OWED BY LICENSEE TO D2 UNDER "
     "THIS AGREEMENT.", "fees_all", {"whose": "D2"}),
    ("EACH PARTY'S ENTIRE LIABILITY UNDER THIS AGREEMENT WILL IN NO EVENT EXCEED THREE TIMES (3X) THE TOTAL VALUE "
     "OF THE WORK ORDER UNDER WHICH THE CLAIM AROSE.", "multiple", {"multiple": 3}),
    ("The total liability for either Party is limited to three percent (3%) of the value of the bill of materials.",
     "multiple", {"multiple": 0.03}),
    ("NEITHER PARTY'S AGGREGATE LIABILITY ARISING OUT OF OR IN CONNECTION WITH THIS AGREEMENT SHALL EXCEED [***].",
     "redacted", {}),
    ("Each party's total cumulative liability for all other claims will not be more than the General Cap Amount.",
     "other", {}),
])
def test_cap_kinds(text: str, kind: str, value: dict) -> None:
    cap = one(text)
    assert cap.kind == kind
    for key, expected in value.items():
        assert getattr(cap, key) == expected, key


def test_lesser_of_keeps_its_limbs_even_with_ocrd_digits() -> None:
    cap = one("DEVELOPER'S MAXIMUM LIABILITY HEREUNDER IS EXPRESSLY LIMITED TO THE LESSER OF: THE AMOUNT PAID UNDER "
              "THIS AGREEMENT BY DISTRIBUTOR TO DEVELOPER WITHIN THE SIX (6) MONTH PERIOD IMMEDIATELY PRECEDING THE "
              "CAUSE GIVING RISE TO THE CLAIM; OR FIVE HUNDRED THOUSAND DOLLARS ($5OO,000).")
    assert cap.kind == "lesser_of"
    assert [(p.kind, p.period_months, p.amount) for p in cap.parts] == [("fees_period", 6, None), ("fixed", None, 500_000)]


def test_greater_of_redacted_limbs_in_a_list_under_the_liability_it_opens() -> None:
    text = ("a Party's liability for damage suffered by the other Party shall be limited to the following amounts: "
            "a) for direct damage to physical goods: up to a maximum of *** per event and up to a further maximum "
            "of *** for all events in any period of 12 calendar months; b) for damage directly resulting from a "
            "material breach of this Agreement: up to a maximum *** or *** as set out in Appendix 2), whatever "
            "amount is the highest, in any period of 12 calendar months.")
    assert [c.kind for c in caps(text)] == ["redacted", "redacted", "greater_of"]
    assert [p.kind for p in caps(text)[-1].parts] == ["redacted", "redacted"]


def test_cover_page_options_with_placeholders_invent_no_number() -> None:
    text = ("General Cap Amount\nLimitation of liability amount for most claims\n"
            "( x ) {payment_terms_days}x the Fees paid or payable by Customer to Provider in the 12 month period "
            "immediately before the claim\n( ) ${general_cap_amount}\n")
    cap = one(text)  # only the ticked option
    assert (cap.kind, cap.multiple, cap.period_months) == ("multiple", None, 12)


@pytest.mark.parametrize("text", [
    "IN NO EVENT SHALL Erchonia BE LIABLE FOR ANY LOSS OF PROFIT, INCLUDING BUT NOT LIMITED TO SPECIAL, "
    "INCIDENTAL, CONSEQUENTIAL OR OTHER INDIRECT DAMAGES.",
    "Seller's liability and Buyer's exclusive remedy for defective Cartons shall be limited to replacement, "
    "repair, refund, credit or allowance as Seller may elect.",
    "The price of each Product shall not exceed $1,000 per unit.",
])
def test_not_caps(text: str) -> None:
    assert caps(text) == []
