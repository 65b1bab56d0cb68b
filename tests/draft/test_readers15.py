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
