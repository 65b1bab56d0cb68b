"""A time condition dropped, and a 'not' lost under a mutual ask while others remain
(index_builder/reading/logic.py, addin_server/draft/compare_logic.py). Fixtures are real spent clauses,
cut down."""

from __future__ import annotations

from addin_server.draft.compare_base import Allowances
from addin_server.draft.compare_logic import logic_changes
from index_builder.reading import logic as L

# j-period-02 (ACORD 7e02318713), cut down.
SOLICIT = ("Without the prior written consent of the other Party, a Party shall not at any time while this Agreement "
           "is in force and for a one-year period after termination of this Agreement solicit any employee of the "
           "other Party to leave such employment.")
ASK = "Any reason the post-termination tail can't be two years? If none, make it two."


def test_while_is_a_time_condition() -> None:
    assert "while" in [t.kind for t in L.turns(SOLICIT)]
    assert "while" in [t.kind for t in L.turns("Licensee shall pay for so long as it uses the Software.")]


def test_a_time_condition_dropped_fails_and_kept_does_not() -> None:
    dropped = SOLICIT.replace("while this Agreement is in force and ", "")
    found = logic_changes(SOLICIT, dropped.replace("one-year", "two-year"), Allowances(parties=set()), ASK)
    assert found and "holds at other times" in found[0]
    kept = ("Without the other Party's prior written consent, neither Party shall, while this Agreement is in force "
            "or for two years after its termination, solicit any employee of the other Party to leave that employment.")
    assert logic_changes(SOLICIT, kept, Allowances(parties=set()), ASK) == []


# m-carve_out-04 (cut down): the mutual ask adds a limb; the draft drops the consent standard.
ASSIGN = ("Neither this Agreement nor the rights hereunder may be assigned by either party without the prior written "
          "consent of the other party, which consent shall not be unreasonably withheld, provided that Metavante's "
          "consent need not be obtained in connection with a merger.")
MUTUAL = "Please add it for both parties, following [1]; the proviso untouched."


def test_a_not_lost_under_a_mutual_ask_fails_though_others_remain() -> None:
    limb = " and either party may assign this Agreement to its Affiliate without the consent of the other party."
    broken = ASSIGN.replace(", which consent shall not be unreasonably withheld", "")[:-1] + limb
    found = logic_changes(ASSIGN, broken, Allowances(parties={"Metavante"}, mirror=True), MUTUAL)
    assert found and "unreasonably withheld" in found[0]
    assert logic_changes(ASSIGN, ASSIGN[:-1] + limb, Allowances(parties={"Metavante"}, mirror=True), MUTUAL) == []


def test_a_not_said_once_for_both_parties_is_no_loss() -> None:
    clause = ("Customer shall not disclose the Confidential Information, and Supplier shall not disclose the "
              "Confidential Information, except as this Agreement permits.")
    merged = "Neither party shall disclose the Confidential Information, except as this Agreement permits."
    assert logic_changes(clause, merged, Allowances(parties={"Customer", "Supplier"}, mirror=True),
                         "Make it mutual.") == []
