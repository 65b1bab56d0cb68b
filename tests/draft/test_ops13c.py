"""Session 13, ops13c (issue 38): a conform's mapping held by the role comparison, and a figure the ask
ties to a place read as asked for that place.

Fixtures are spent tasks: j-conform-03 ("the contractor is our Provider"; a draft that makes the Customer
the one who assigns) and q-multi-01 ("Renewals 1 yr each" where the initial term is one year and each
renewal two). Each test fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, check_draft
from addin_server.draft.instruction import read_instruction
from addin_server.draft.router import DraftRouter

# j-conform-03 (spent)
MORAL = ("Contractor hereby irrevocably transfers and assigns to Company, and agrees to irrevocably transfer and assign "
         "to Company, and waives and agrees never to assert, any and all Moral Rights that Contractor may have in or "
         "with respect to any Work Product, during and after the term of this Agreement.")
SWAP = ("\"Moral Rights\" as a capitalised term doesn't exist in our services paper, so lower-case it when you move this "
        "across. Otherwise it's a straight swap: the contractor is our Provider, the Company is our Customer, and Work "
        "Product is what the services paper calls Deliverables.")
MORAL_TASK = DraftTask(MORAL, SWAP, (), ("Deliverables",), ("Provider", "Customer"))
MORAL_SOUND = MORAL.replace("Contractor", "Provider").replace("Company", "Customer").replace(
    "Moral Rights", "moral rights").replace("Work Product", "Deliverables")


def _meaning(task: DraftTask, draft: str):
    return next(c for c in check_draft(task, draft).checks if c.name == "meaning")


def test_a_party_renamed_the_wrong_way_round_fails_meaning() -> None:
    broken = MORAL_SOUND.replace("Provider", "@").replace("Customer", "Provider").replace("@", "Customer")
    check = _meaning(MORAL_TASK, broken)
    assert check.passed is False and "Provider" in check.reason


def test_the_rename_the_instruction_asks_is_not_flagged() -> None:
    assert _meaning(MORAL_TASK, MORAL_SOUND).passed is not False


# q-multi-01 (spent)
RENEWAL = ("This Agreement shall have an initial term of one (1) year from the date first above written (the \"Initial "
           "Term\"), and shall thereafter automatically renew for successive two (2) year periods (each a \"Renewal "
           "Term\"), unless earlier terminated in accordance with the terms of this Agreement. Either party may cancel "
           "this Agreement effective on the last day of the Initial Term or any Renewal Term, by serving written notice "
           "of such termination on the other party at least ninety (90) days prior to the end of the Initial Term or "
           "any Renewal Term as the case may be.")
RENEWALS_ASK = "Renewals 1 yr each; 60 days' notice to get out."


def test_a_figure_tied_to_a_place_that_holds_another_is_asked_for_it() -> None:
    ins = read_instruction(RENEWALS_ASK, RENEWAL, ())
    year = next(p for p in ins.parts if p.kind == "period" and p.params.get("value") == 1)
    assert not year.params.get("kept") and year.params.get("old") == 2
    drafted = DraftRouter(None).draft(DraftTask(RENEWAL, RENEWALS_ASK, (), ("Initial Term", "Renewal Term")))
    assert "successive one (1) year periods" in drafted.result.verified.text


def test_a_figure_the_place_already_holds_stays() -> None:
    ins = read_instruction("Initial term 1 yr; 60 days' notice to get out.", RENEWAL, ())
    year = next(p for p in ins.parts if p.kind == "period" and p.params.get("value") == 1)
    assert year.params.get("kept")


# g-amount-03 (spent): the ask's figure is the aggregate's size, asked for the per-occurrence place.
INSURANCE = ("provided in no event shall the general liability insurance amounts be less than five million dollars "
             "($5,000,000) per occurrence and ten million dollars ($10,000,000) in the aggregate limit of liability per year.")
FLOOR = ("Their insurer's letter confirms they carry ten million per occurrence, so reflect it: the per-occurrence floor "
         "goes to ten million dollars. If that makes per-occurrence equal to the aggregate, so be it - the aggregate "
         "stays where it is.")


def test_an_amount_the_clause_holds_elsewhere_is_asked_for_the_place_named() -> None:
    ins = read_instruction(FLOOR, INSURANCE, ())
    floor = next(p for p in ins.parts if p.kind == "amount")
    assert not floor.params.get("kept") and floor.params.get("old") == 5000000


# i-period-01 (spent): the figure's own place is named beside it ("Distributor ... 120 days"): not moved.
RETURNS = ("Distributor may, no later than one hundred and twenty (120) calendar days after a Product is sold by "
           "Distributor to a customer, return to Vendor any Product which Distributor believes to be defective. Vendor "
           "intends to provide a six-month limited warranty to the end user.")


def test_a_figure_whose_own_place_is_named_is_not_moved_elsewhere() -> None:
    ins = read_instruction("Can Distributor live with 120 days to send back a defective unit? No - make it one hundred "
                           "and eighty days.", RETURNS, ())
    assert all(p.params.get("old") in (None, 120) for p in ins.parts if p.kind == "period")
