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


# -- round 2: the sentence's structure, on development clauses' own wording ------------------------

def kinds(text: str) -> list[tuple]:
    out = []
    for cap in caps(text):
        assert text[cap.start:cap.end] == cap.text
        out.append((cap.kind, cap.amount, cap.multiple, cap.period_months,
                    tuple((p.kind, p.amount, p.multiple, p.period_months) for p in cap.parts)))
    return out


@pytest.mark.parametrize("text,expected", [
    # enumerated limbs on lines of their own, a redacted amount and a redacted percentage
    ("each party's total liability under or in connection with this Agreement (whether in contract, tort or otherwise) "
     "arising in any Contract Year is limited to the greater of:\n(a) [ * ] Euros ([ * ] Euros); and\n(b) [ * ]% of the "
     "total payment due to the Distributor in the relevant Contract Year pursuant to Clause 4 (Payment Terms).",
     ("greater_of", (("redacted", None, None, None), ("redacted", None, None, None)))),
    # "(i) £1000; or (ii) 125% of the Price", the line broken inside a limb
    ("the total aggregate liability of Molson Coors arising from or in connection with any Contract, whether for\n"
     "negligence, breach of contract, breach of statutory duty, misrepresentation or otherwise, shall be limited to the "
     "greater of (i) £1000; or\n(ii) 125% of the Price (exclusive of VAT, duty and less the benefit of any discount) paid "
     "or payable by the Customer pursuant to the\nContract.",
     ("greater_of", (("fixed", 1000, None, None), ("multiple", None, 1.25, None)))),
    # a limb of damages alone is "other", never a number
    ("SPONSOR’S CUMULATIVE LIABILITY TO PARTICIPANT ARISING FROM ANY CAUSE OF ACTION WILL AT ALL TIMES BE LIMITED TO "
     "THE LESSER OF (A) YOUR ACTUAL LOSS; OR (B) $1,000. THE FOREGOING DISCLAIMERS SHALL APPLY.",
     ("lesser_of", (("other", None, None, None), ("fixed", 1000, None, None)))),
    # "..., or any defective portion thereof, whichever is the lesser": the limb repeats the first's measure
    ("In no event will Seller's entire liability to Buyer, including any liability in the event the exclusive remedy set "
     "forth in this Agreement fails of its essential purpose, exceed the purchase price actually paid by Buyer for the "
     "products hereunder, or any defective portion thereof, whichever is the lesser amount.",
     ("lesser_of", (("fees_all", None, None, None), ("fees_all", None, None, None)))),
    ("our maximum liability on any claim for loss, damage, injury, or death, whether in tort, contract, active or "
     "passive negligence, product liability, indemnity, contribution, or breach of warranty, is limited to and shall "
     "not exceed $500 or the amount of the invoice from which the dispute arises, whichever is less.",
     ("lesser_of", (("fixed", 500, None, None), ("fees_all", None, None, None)))),
    # the "(1)" of "ONE (1) MILLION DOLLARS" is not a limb's number
    ("IN NO EVENT SHALL THE AGGREGATE LIABILITY OF COMCAST UNDER THIS AGREEMENT EXCEED THE GREATER OF (I) ONE (1) "
     "MILLION DOLLARS ($1,000,000) AND (II) THE SUM TOTAL OF PAYMENTS MADE BY CUSTOMER DURING THE TWELVE (12) MONTH "
     "PERIOD IMMEDIATELY PRECEDING THE DATE ON WHICH THE INTELLECTUAL PROPERTY CLAIM FIRST AROSE.",
     ("greater_of", (("fixed", 1_000_000, None, None), ("fees_period", None, None, 12)))),
    ("Provider’s total cumulative liability arising out of or related to DPA Covered Claims will not be more than the "
     "greater of $[_________] or {cap_multiplier} times the fees paid or payable by Customer to Provider in the 12 "
     "month period immediately before the claim.",
     ("greater_of", (("fixed", None, None, None), ("multiple", None, None, 12)))),
])
def test_choices_read_by_their_limbs(text: str, expected: tuple) -> None:
    [(kind, *_, parts)] = kinds(text)
    assert (kind, parts) == expected


@pytest.mark.parametrize("text,expected", [
    # a window whose length is redacted: fees over a period, no length made up
    ("THE TOTAL CUMULATIVE LIABILITY OF EITHER PARTY FOR ANY AND ALL CLAIMS AND DAMAGES UNDER THIS AGREEMENT WILL NOT "
     "EXCEED THE FEES PAID BY ALLSCRIPTS TO COMPANY HEREUNDER DURING THE [***] PRECEDING THE EVENT GIVING RISE TO THE "
     "CLAIM.", ("fees_period", None, None, None)),
    ("IN NO EVENT SHALL EITHER PARTY'S TOTAL LIABILITY ARISING OUT OF OR RELATED TO THIS AGREEMENT EXCEED THE AMOUNTS "
     "PAID BY SONOS FOR THE PRODUCTS IN THE [*] PERIOD IMMEDIATELY PRECEDING THE EVENT GIVING RISE TO THE LIABILITY.",
     ("fees_period", None, None, None)),
    ("the cumulative liability of each of SERVICERS and ISO for all Losses shall not exceed [***] [***] times the amount "
     "of clearing/sponsorship fees paid to SERVICERS by ISO pursuant to this Agreement during the immediately "
     "preceding [***] [***] full months; provided, however, that this limitation shall not apply to fraud.",
     ("multiple", None, None, None)),
    # "direct damages equal to" only introduces the measure
    ("THE AGGREGATE LIABILITY OF COMCAST FOR ANY AND ALL LOSSES SHALL NOT EXCEED DIRECT DAMAGES EQUAL TO THE SUM TOTAL "
     "OF PAYMENTS MADE BY CUSTOMER TO COMCAST DURING THE THREE (3) MONTHS IMMEDIATELY PRECEDING THE EVENT FOR WHICH "
     "DAMAGES ARE CLAIMED.", ("fees_period", None, None, 3)),
    ("IN NO EVENT SHALL EITHER PARTY BE LIABLE UNDER THIS AGREEMENT FOR AN AMOUNT GREATER THAN THE AMOUNT THAT SUCH "
     "PARTY HAS EARNED PURSUANT TO THE REVENUE SHARING PROVISIONS OF SECTION 5.4 [Share of Net Revenue] IN THE TWELVE "
     "MONTH PERIOD PRECEDING THE CLAIM", ("fees_period", None, None, 12)),
    # the limiting verb parted from its "to" by a parenthesis, or by a qualifying phrase
    ("Any and all liability of EKR to PPI howsoever arising in respect of this Agreement shall be limited (except for "
     "death or personal injury caused by the negligence of EKR, and except in relation to any specified payment, lump "
     "sum, milestone or royalty payment unpaid) to [**] US Dollars ($[**]); provided however that such limitation "
     "shall not apply to the extent that PPI is required to pay in excess of such amount to a third party.",
     ("redacted", None, None, None)),
    ("THEREFORE, CONTRACTOR'S LIABILITY IS FURTHER LIMITED IN ANY EVENT, UNDER ANY LAW, RULE OR REGULATION, TO ANY "
     "AMOUNT IT ACTUALLY RECEIVED IN CONSIDERATION OF THE MANUFACTURING SUBJECT MATTER OF THE RESPECTIVE CLAIM.",
     ("fees_all", None, None, None)),
    ("And Distributor, taken as a whole, shall be liable for physical damage to Airspan's property resulting from "
     "Distributor's negligence under or in connection with this Agreement up to a maximum aggregate amount of one "
     "million US Dollars (US$1,000,000).", ("fixed", 1_000_000, None, None)),
    ("the Sponsor's aggregate obligation hereunder will not exceed the amount of the sponsorship fee set forth in "
     "Section 3 hereof.", ("fees_all", None, None, None)),
    ("In case of loss of data, Oracle’s liability is limited to the amount which would have been required in case of "
     "a regular back-up routine and virus protection.", ("other", None, None, None)),
    ("LICENSOR'S AGGREGATE LIABILITY UNDER THIS AGREEMENT SHALL NOT EXCEED ONE AND ONE HALF (1½) TIMES THE FEES PAID "
     "BY LICENSEE IN THE TWELVE (12) MONTHS PRECEDING THE CLAIM.", ("multiple", None, 1.5, 12)),
])
def test_one_cap_read_from_the_sentence(text: str, expected: tuple) -> None:
    [(*got, _)] = kinds(text)
    assert tuple(got) == expected


def test_heads_listed_after_liable_for_no_more_than_are_not_the_measure() -> None:
    text = ("IBM is liable for no more than:\na. indemnification payments as provided in Section 8.1;\nb. damages for "
            "bodily injury (including death) and damage to real property and tangible personal property; and\nc. the "
            "amount of any other actual direct damages, up to the greater of $100,000 or the charges paid by Customer "
            "to IBM for the Services in the twelve (12) months immediately preceding the accrual of the first claim "
            "related to the Services. The foregoing limit also applies to any of IBM's Affiliates.")
    [cap] = caps(text)
    assert (cap.kind, [(p.kind, p.amount, p.period_months) for p in cap.parts]) == \
        ("greater_of", [("fixed", 100_000, None), ("fees_period", None, 12)])
    assert cap.whose == "IBM"


@pytest.mark.parametrize("text,expected", [
    # a fallback measure is a second cap
    ("AT&T’s entire liability and Your exclusive remedy for damages arising out of this Agreement shall not exceed the "
     "applicable credits specified in the Service publication or, if no credits are specified, an amount equal to the "
     "total net charges to You for service to which the claimed damages relate during the period in which such "
     "claimed damages occur and continue. In no event shall any other liability attach to AT&T.",
     [("other", None, None, None), ("fees_period", None, None, None)]),
    # a per-claim limit and an aggregate one
    ("IN NO EVENT SHALL EITHER PARTY'S LIABILITY EXCEED THE TOTAL AMOUNT ACTUALLY PAID BY CORIO HEREUNDER FOR THE "
     "TRANSACTION WHICH THE LIABILITY RELATES TO DURING THE TWELVE (12) MONTHS IMMEDIATELY PRIOR TO THE CAUSE OF ACTION "
     "FIRST ARISING, EVEN IF IT IS A CONTINUOUS ONE, OR IN THE AGGREGATE, WITH RESPECT OF ALL CLAIMS ARISING OUT OF OR "
     "RELATED TO THIS AGREEMENT, THE TOTAL AMOUNT ACTUALLY PAID BY CORIO UNDER THIS AGREEMENT TO CHANGEPOINT.",
     [("fees_period", None, None, 12), ("fees_all", None, None, None)]),
    # "in no one event", a further limit after "; and further provided", and a clause past <omitted>
    ("IN NO ONE EVENT SHALL EITHER PARTY'S AGGREGATE LIABILITY FOR DAMAGES OR LOSSES UNDER THIS AGREEMENT EXCEED THE "
     "AGGREGATE AMOUNT OF THE PRODUCT PRICES PAID BY BELLICUM FOR THE MILTENYI PRODUCT(S) DURING THE TWELVE (12) MONTH "
     "PERIOD IMMEDIATELY PRECEDING THE EVENT GIVING RISE TO SUCH LIABILITY; AND FURTHER PROVIDED THAT SUCH AGGREGATE "
     "LIABILITY DURING SUCH PERIOD ALSO SHALL NOT EXCEED THE AMOUNT OF SUCH PARTY'S INSURANCE COVERAGE FOR SUCH "
     "AGGREGATE LIABILITY.<omitted>The total amount of any reduction(s) pursuant to this Section 11.5(b) shall in no "
     "event exceed [...***...] percent ([...***...]%) of the Product Price payable in that Contract Year.",
     [("fees_period", None, None, 12), ("other", None, None, None)]),
])
def test_several_caps_in_one_sentence(text: str, expected: list) -> None:
    assert [k[:4] for k in kinds(text)] == expected


@pytest.mark.parametrize("text", [
    # damages alone, the extent permitted by law, a negated "apply": no amount, no cap
    "THE LIABILITY OF PRIMECALL FOR DAMAGES OR ALLEGED DAMAGES HEREUNDER, WHETHER IN CONTRACT, TORT OR ANY OTHER "
    "LEGAL THEORY, IS LIMITED TO, AND WILL NOT EXCEED, DELTATHREE'S DIRECT DAMAGES.",
    "IN SUCH STATES OR JURISDICTIONS, UBER’S LIABILITY SHALL BE LIMITED TO THE EXTENT PERMITTED BY LAW.",
    "Each party’s liability for any claim or liability arising out of or relating to this Agreement will be limited "
    "to the fullest extent permitted by Applicable Laws.",
    "such limitation shall not apply to the extent that PPI or any PPI Indemnified Party is required to pay in excess "
    "of such amount to a third party in respect of a final judgment.",
    "Racing agrees to indemnify the Sponsor and to hold it harmless from any loss, claim, cost, damage or liability "
    "in excess of the Maximum Obligation which the Sponsor shall incur as a result of this Agreement.",
    # insurance ceilings, an expense ceiling and a daily rate are not liability caps
    "Comprehensive General Liability insurance per restaurant; except that if Franchisee owns more than ten (10) "
    "Burger King Restaurants, the umbrella coverage applicable to all such restaurants need not exceed an mount which "
    "is at any time in excess of the equivalent of Ten Million U.S. Dollars (U.S. $10,000,000).",
    "Supplier shall maintain Commercial General Liability insurance with limits up to $1,000,000 per occurrence.",
    "Company shall reimburse Consultant for reasonable travel expenses up to $5,000 per year.",
    "Supplier shall pay liquidated damages of up to $500 per day of delay.",
])
def test_not_caps_round_two(text: str) -> None:
    assert caps(text) == []


@pytest.mark.parametrize("text", [
    # a choice that sizes a price or liquidated damages owed, not a limit on liability
    "The purchase price for the Put Shares (the \"Put Option Price\") shall be the greater of (x) the amount in "
    "Japanese Yen equal to the Net Book Value as of the most recently completed month end prior to the Put Closing "
    "Date, multiplied by the number of Put Shares, or (y) one Japanese Yen (¥1).",
    "you agree to pay to us liquidated damages equal to the average monthly Royalty Fee you paid during the twelve (12) "
    "months of operation preceding the effective date of termination multiplied by (a) twenty-four (24) (being the "
    "number of months in two (2) full years), or (b) the number of months remaining in the Agreement had it not been "
    "terminated, whichever is lower.",
])
def test_a_choice_is_a_cap_only_under_a_limit_on_liability(text: str) -> None:
    assert caps(text) == []
