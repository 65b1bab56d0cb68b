"""Drafting readers that misread ordinary English (session 15, readers15). Fixtures are spent tasks' clauses,
cut short."""

from __future__ import annotations

from addin_server.draft.compare_additions import additions
from addin_server.draft.compare_base import Allowances, compare, stem_of

# i-plain-01's clause (drafting-i), cut short.
AUDIT = ("The cost of such an audit will be borne by NAI unless a material discrepancy indicating that additional fees "
         "due to NAI are discovered, in which case the cost of the audit shall be borne by Co-Host. Audits and "
         "inspections shall not interfere unreasonably with Co-Host's business activities.")


def test_a_word_past_a_prefix_is_not_known_from_another_word_with_that_prefix() -> None:
    assert stem_of("interest") != stem_of("interfere")
    assert stem_of("consent") != stem_of("consequential")
    assert stem_of("subsidiary") != stem_of("substitute")


def test_a_family_still_agrees() -> None:
    for family in ("interest interests", "interpret interpretation", "comply complies complied compliance",
                   "company companies", "disclose disclosure disclosed", "undertake undertaking",
                   "signed signature", "written writing", "pay paid pays", "party parties", "deny denied denial"):
        assert len({stem_of(w) for w in family.split()}) == 1, family


def test_interest_added_beside_interfere_is_an_addition() -> None:
    # i-plain-01-b3 adds interest on the fees; the clause's "interfere" made "interest" look known.
    draft = AUDIT.replace("borne by Co-Host.", "borne by Co-Host, plus interest on the fees.")
    found = additions(compare(AUDIT, draft), Allowances(rewrite=True), ("NAI", "Co-Host"))
    assert found and "interest" in found[0]


# v-multi-02's clause (drafting-v) and its sound draft's last sentence.
CHASE = ("Chase grants Affiliate a non-exclusive, nontransferable, revocable right to (a) access the Chase site through the "
         "links solely in accordance with the terms of this Agreement and (b) solely in connection with such links, to "
         "use Chase's logos, trade names, trademarks, and similar identifying material relating to Chase (collectively, "
         "the \"Licensed Materials\"), for the sole purpose of booking Chase products.")
CHASE_ASK = ("We would like Chase to be able to show our logo beside the link too - same terms in both directions. Our web "
             "team will read this clause, so it needs to be in plain English.")


def _mutual_confirm(clause: str, ask: str, draft: str, parties: tuple[str, ...]):
    from addin_server.draft.done import confirm
    from addin_server.draft.instruction import read_instruction
    ins = read_instruction(ask, clause)
    part = next(p for p in ins.parts if p.kind == "mutual")
    return confirm(part, ins, clause, draft, parties, "done")


def test_a_name_that_describes_a_thing_is_no_party_left_one_sided() -> None:
    draft = ("Chase gives Affiliate a non-exclusive, nontransferable, revocable right to (a) access the Chase site "
             "through the links, but only as this Agreement allows, and (b) use Chase's logos, trade names, trademarks "
             "and similar identifying material relating to Chase (together, the \"Licensed Materials\"), only in "
             "connection with those links. Affiliate gives Chase the same non-exclusive, nontransferable, revocable "
             "right to use Affiliate's logos, trade names, trademarks and similar identifying material, only in "
             "connection with those links. Each party may use the other's material only for booking Chase products.")
    assert _mutual_confirm(CHASE, CHASE_ASK, draft, ("Chase", "Affiliate")) is None
    # A party the mutual part still names alone is still read ("any employee of Customer").
    clause = "During the Term, Supplier shall not solicit any employee of Customer."
    draft = "During the Term, neither party shall solicit any employee of Customer."
    found = _mutual_confirm(clause, "Make it mutual.", draft, ("Supplier", "Customer"))
    assert found and "names only Customer" in found[1]


def test_an_ask_about_form_asks_for_no_content_to_go() -> None:
    # h-multi-11's ask ("lose the block capitals and the jargon") on its clause's style, cut short.
    from addin_server.draft.compare_logic import asks_drop, logic_changes
    clause = ("10.2 Warranty Period. JRVS WARRANTS EACH OF THE PRODUCTS AGAINST DEFECTS IN MATERIAL AND WORKMANSHIP FOR "
              "TWELVE MONTHS FROM DELIVERY, UNLESS THE PRODUCT HAS BEEN MODIFIED BY THE DISTRIBUTOR.")
    draft = ("10.2 Warranty Period. JRVS warrants each of the Products against defects in material and workmanship for "
             "twelve months from delivery.")
    found = logic_changes(clause, draft, Allowances(), "While you're in there, lose the block capitals and the jargon.",
                          ("JRVS", "Distributor"))
    assert found and "UNLESS THE PRODUCT" in found[0]
    for form in ("remove the legalese", "cut the unnecessary words", "cut it down to 80 words",
                 "keep it no longer than 100 words"):
        assert not asks_drop(form), form
    for content in ('delete the words "without limitation"', "drop the words in brackets", "strike the exception for "
                    "affiliates", "lose the capitals; also drop the exception for affiliates"):
        assert asks_drop(content), content


def test_a_keep_of_the_rest_after_a_semicolon_keeps_not_the_figure_asked() -> None:
    # session14-parts noticed "Extend the notice to 60 days; the rest stays." read 60 days as kept; keep14b's
    # _THE_REST rule (1a19576) already reads it right: this pins it.
    from addin_server.draft.instruction import read_instruction
    clause = "Either party may terminate this Agreement by giving 30 days written notice to the other party."
    for ask in ("Extend the notice to 60 days; the rest stays.", "Extend the notice to 60 days. The rest stays."):
        parts = read_instruction(ask, clause).parts
        assert [(p.kind, p.params.get("value"), bool(p.params.get("kept"))) for p in parts] == [("period", 60, False)]


def test_a_change_request_s_current_figure_is_not_kept() -> None:
    # n-multi-02's clause and change request (drafting-n), cut short.
    from addin_server.draft.instruction import read_instruction
    clause = ("The term of this Agreement shall expire upon delivery of [**] to ebix, but in no way shall this Agreement "
              "extend any later than thirty (30) months from the Effective Date. About will make commercially reasonable "
              "efforts to achieve that number in twelve (12) months or less from the Effective Date.")
    ask = ("CHANGE REQUEST CR-019 (About / ebix)\nCurrent: term ends 30 months after the Effective Date at the latest; "
           "About's target for the delivery number is 12 months or less.\nProposed: longstop 36 months; target 18 months "
           "or less.\nDecision: APPROVED. Please reflect in the agreement.")
    parts = read_instruction(ask, clause).parts
    current = next(p for p in parts if p.text.startswith("Current"))
    assert not current.params.get("kept")
    assert [p.params.get("value") for p in parts if p.kind == "period" and not p.params.get("unclear")] == [36, 18]


def test_a_name_before_a_verb_in_s_acts_and_is_no_describing_word() -> None:
    # a-mutual-08-s2 (drafting a-tuning): "between HEMISPHERX and SCIEN terminates" names both parties.
    from addin_server.draft.done import _only_describes
    sentence = ("Each party shall keep its Documentation for at least two (2) years after the Agreement between "
                "HEMISPHERX and SCIEN terminates or expires.")
    assert not _only_describes(sentence, "SCIEN")
    assert _only_describes("Each party may use the other's material only for booking Chase products.", "Chase")
