"""The clause's logic read across a change of parties (index_builder/reading/logic.py) and the meaning
check's use of it (addin_server/draft/compare_logic.py): a condition turned round or dropped fails,
a faithful paraphrase and a party swap do not."""

from __future__ import annotations

from addin_server.draft.compare_base import Allowances
from addin_server.draft.compare_logic import logic_changes
from index_builder.reading import logic as L

FLIP = ("Distributor may terminate the Term for: (b) a material change in the management, ownership or control of WGT, "
        "unless approved by an officer of Distributor; or (c) WGT's uncured breach.")
FLIPPED = ("WGT may terminate the Term for: (b) a material change in the management, ownership or control of "
           "Distributor, unless approved by an officer of WGT; or (c) Distributor's uncured breach.")


def test_turns_reads_each_kind_once() -> None:
    kinds = [t.kind for t in L.turns("Subject to Section 1.6, Vendor may terminate, provided that it is not in "
                                     "breach, unless waived; the greater of $5 and $6, not to exceed $9.")]
    assert kinds == ["subject", "hook", "may", "if", "not", "unless", "greater", "limit"]


def test_a_flip_alone_reads_as_no_difference() -> None:
    assert L.differences(FLIP, FLIPPED, ["WGT", "Distributor"]) == []
    assert logic_changes(FLIP, FLIPPED, Allowances(parties={"WGT", "Distributor"}), "Flip limb (b).") == []


def test_unless_turned_into_even_if_while_flipping_fails() -> None:
    broken = FLIPPED.replace("unless approved", "even if approved")
    found = logic_changes(FLIP, broken, Allowances(parties={"WGT", "Distributor"}), "Flip limb (b).")
    assert found and "“unless” into “even if”" in found[0]


def test_a_condition_dropped_while_making_it_mutual_fails_and_a_paraphrase_does_not() -> None:
    clause = ("The Company may, subject to not being in breach of any of its obligations under the Agreement, "
              "terminate this Agreement by giving notice to the Repairer.")
    dropped = "Either party may terminate this Agreement by giving notice to the other party."
    kept = ("Either party may, subject to not being in breach of any of its obligations under the Agreement, "
            "terminate this Agreement by giving notice to the other party.")
    allow = Allowances(parties={"Company", "Repairer"}, mirror=True)
    assert logic_changes(clause, dropped, allow, "Make the exit mutual.")
    assert logic_changes(clause, kept, allow, "Make the exit mutual.") == []


def test_a_hook_the_lawyer_keeps_is_read_and_one_asked_away_is_not() -> None:
    clause = "Subject to Section 1.6, by Vendor upon a change of control of Distributor, on thirty days' notice."
    draft = "By either party upon a change of control of the other party, on thirty days' notice."
    allow = Allowances(parties={"Vendor", "Distributor"}, mirror=True)
    assert logic_changes(clause, draft, allow, "Reciprocate it. Keep the Section 1.6 hook.")
    assert logic_changes(clause, draft, allow, "Reciprocate it and drop the Section 1.6 hook.") == []


def test_equivalent_wordings_are_the_same() -> None:
    clause = "Licensee shall not assign this Agreement without the prior written consent of Licensor."
    draft = "Licensee may assign this Agreement only with the prior written consent of Licensor."
    assert L.differences(clause, draft, ["Licensee", "Licensor"]) == []
    cap = ("Each party's aggregate liability under this Agreement for all claims of any kind shall not be more than "
           "the General Cap Amount.")
    neither = ("Neither party's aggregate liability under this Agreement for all claims of any kind shall exceed two "
               "million dollars.")
    assert logic_changes(cap, neither, Allowances(), "a flat $2m instead of the General Cap Amount") == []


def test_a_rewording_throughout_is_not_aligned() -> None:
    clause = "The Supplier shall indemnify the Customer against all losses arising from any breach of warranty."
    draft = "If a warranty is broken, whatever the Customer loses is made good by the Supplier in full."
    assert L.differences(clause, draft, ["Supplier", "Customer"]) is None
