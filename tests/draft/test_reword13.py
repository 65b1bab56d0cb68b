"""The meaning check's reading of a reworded clause (addin_server/draft/compare_reword.py, session 13): what a
faithful rewording keeps whatever its words. An exception dropped with its own words, an exception turned
into an inclusion, a comparison turned to its other side and an order of precedence turned round fail; the
faithful rewording of each does not. Fixtures are spent tasks' clauses (drafting-n, -o), cut short."""

from __future__ import annotations

from addin_server.draft.compare_base import Allowances
from addin_server.draft.compare_meaning import _precedence_turned
from addin_server.draft.compare_base import compare
from addin_server.draft.compare_reword import reworded_changes
from index_builder.reading import logic as L
from index_builder.reading import polarity as P
import re

SELL_OFF = ("After early termination of this Agreement (other than a termination based on a breach of Sections 5 or "
            "8 by Integra) and continuing for a period of eighteen (18) months thereafter, Integra may Sell any "
            "Treated Integra Product in its inventory, subject to payment of all amounts payable to PcoMed for such "
            "Sales under this Agreement.")
ASK = "Simplify the sell-off paragraph, within 45 words."


def test_an_exception_dropped_with_its_words_fails_and_a_rewording_that_keeps_it_does_not() -> None:
    dropped = ("For eighteen (18) months after early termination of this Agreement (for any reason), Integra may Sell "
               "its inventory of Treated Integra Product, subject to payment of all amounts payable to PcoMed for "
               "such Sales under this Agreement.")
    kept = ("For eighteen (18) months after early termination of this Agreement, unless Integra's breach of Sections "
            "5 or 8 caused it, Integra may Sell its inventory of Treated Integra Product, subject to payment of all "
            "amounts payable to PcoMed for such Sales under this Agreement.")
    found = reworded_changes(SELL_OFF, dropped, Allowances(rewrite=True), ASK, ("Integra", "PcoMed"))
    assert found and "other than a termination based on a breach" in found[0]
    assert reworded_changes(SELL_OFF, kept, Allowances(rewrite=True), ASK, ("Integra", "PcoMed")) == []


def test_a_pointer_at_the_agreement_is_no_exception_to_keep() -> None:
    clause = "Except as expressly set forth herein, the Software is provided as is, and Vendor makes no warranty."
    draft = "The Software is provided as is, and Vendor makes no warranty."
    assert reworded_changes(clause, draft, Allowances(rewrite=True), "Plain English please.", ("Vendor",)) == []


def test_an_exception_dropped_in_a_flip_is_left_to_the_flip_reading() -> None:
    clause = ("Except for Pre-Existing Materials and Third-Party Materials, Provider assigns all right in the "
              "Deliverables to Customer.")
    draft = "Provider retains all right in the Deliverables, and nothing assigns them to Customer."
    assert reworded_changes(clause, draft, Allowances(parties={"Provider", "Customer"}), "Turn it round.",
                            ("Provider", "Customer")) == []


def test_an_exception_turned_into_an_inclusion_fails() -> None:
    clause = ("This Agreement shall be governed in all respects by the laws of the State of Florida, except for "
              "conflict of laws provisions.")
    turned = "This Agreement shall be governed in all respects by the Governing Law, including its conflict of laws provisions."
    kept = "This Agreement shall be governed in all respects by the Governing Law, except for its conflict of laws provisions."
    ask = "Conform the governing law to the Governing Law of the Cover Page."
    found = reworded_changes(clause, turned, Allowances(conform=True), ask)
    assert found and "what your clause leaves out, the draft takes in" in found[0]
    assert reworded_changes(clause, kept, Allowances(conform=True), ask) == []


def test_a_comparison_turned_round_fails_unless_asked() -> None:
    clause = ("If FMI enters into an agreement for substantially the same services at substantially the same (or a "
              "lesser) scale, on more favorable pricing terms, FMI shall notify Roche.")
    turned = ("If FMI agrees to more favorable pricing terms for substantially the same services, at the same or a "
              "larger scale, FMI must tell Roche.")
    kept = ("If FMI agrees to more favorable pricing terms for substantially the same services, at the same or a "
            "smaller scale, FMI must tell Roche.")
    found = reworded_changes(clause, turned, Allowances(rewrite=True), "Plain English.", ("FMI", "Roche"))
    assert found and "“larger scale”" in found[0] and "“lesser scale”" in found[0]
    assert reworded_changes(clause, kept, Allowances(rewrite=True), "Plain English.", ("FMI", "Roche")) == []
    assert reworded_changes(clause, turned, Allowances(rewrite=True), "Make it a larger scale.", ("FMI", "Roche")) == []
    assert L.comparisons("at the same (or a lesser) scale") == [("lesser", "lesser", "scale")]


def test_precedence_read_with_an_unnamed_loser_and_turned_round() -> None:
    clause = ("If there is any inconsistency between the parts of the Agreement, the Cover Page will control over the "
              "Standard Terms.")
    turned = "If the two parts conflict, the Standard Terms win."
    kept = "If the two parts conflict, the Cover Page wins."
    assert L.precedence(turned) == [("Standard Terms", "")]
    found = _precedence_turned(compare(clause, turned), Allowances(rewrite=True))
    assert found and "“Standard Terms” control," in found[0]
    assert _precedence_turned(compare(clause, kept), Allowances(rewrite=True)) == []


def test_save_in_relation_to_is_an_exception() -> None:
    assert re.search(rf"\b(?:{P.UNLESS_WORDING})\b", "Save in relation to the Publishers' logos, HealthGate may use it", re.I)
    assert [t.kind for t in L.turns("Save in relation to the logos, X may use it")][0] == "unless"


def test_a_grant_quality_turned_fails_unless_the_instruction_speaks_of_it() -> None:
    clause = "Diversinet hereby grants to Reseller an exclusive, non- transferable licence to resell the Product."
    turned = "Diversinet grants Reseller an exclusive, transferable licence to resell the Product."
    kept = "Diversinet grants Reseller an exclusive licence to resell the Product, which Reseller may not transfer."
    assert P.non_turned(clause, turned) == ("non-transferable", "transferable")
    assert P.non_turned(clause, kept) is None
    found = reworded_changes(clause, turned, Allowances(rewrite=True), "Shorten it.", ("Diversinet", "Reseller"))
    assert found and "“transferable” where your clause says “non-transferable”" in found[0]
    assert reworded_changes(clause, turned, Allowances(rewrite=True), "Make it transferable.", ("Diversinet",)) == []
    # A bare quality denied earlier in its part of the sentence says the "non-" form.
    assert P.non_turned("The licence is not assignable, transferable or sublicensable.",
                        "The licence is non-transferable and cannot be assigned or sublicensed.") is None
