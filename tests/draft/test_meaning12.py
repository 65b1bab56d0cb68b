"""Session 12 (issue 38), the meaning check: an exception and an inclusion swapped at one place, an added
limb that cannot stand in for a dropped one, an order of precedence turned round, and a kept sentence
named by a description that the draft says again (not checked, never failed). Small real fixtures
(ACORD clauses of the spent drafting sets, cut down)."""

from __future__ import annotations

from addin_server.draft import compare as C
from addin_server.draft.compare_base import Allowances
from addin_server.draft.compare_logic import logic_changes
from addin_server.draft.compare_meaning import meaning_changes
from addin_server.draft.parts_keep import dropped
from index_builder.reading import logic as L

TRANSFER = ("The Franchisee shall not sell, assign, transfer or encumber this Agreement, including to an affiliate, "
            "without the prior written consent of the Franchisor.")
SUBLICENSE = ("No rights granted to Customer hereunder shall be sublicensable, without the prior written consent of "
              "Provider, to any party other than Customer's Affiliates.")


def test_including_turned_into_except_at_one_place_fails() -> None:
    draft = TRANSFER.replace("including to", "except to")
    found = logic_changes(TRANSFER, draft, Allowances(), "Tidy the transfer clause.", ("Franchisee", "Franchisor"))
    assert found and "“including” into “except”" in found[0]


def test_without_consent_turned_into_with_consent_fails_in_a_conform_too() -> None:
    draft = SUBLICENSE.replace("without the prior", "with the prior")
    found = logic_changes(SUBLICENSE, draft, Allowances(conform=True, drop_ok=True), "Carry it across.",
                          ("Customer", "Provider"), True)
    assert found and "“without” into “with”" in found[0]


def test_only_with_consent_says_without_consent_again() -> None:
    clause = "Licensee shall not assign this Agreement without the prior written consent of Licensor."
    draft = "Licensee may assign this Agreement only with the prior written consent of Licensor."
    assert L.differences(clause, draft, ["Licensee", "Licensor"]) == []
    assert not logic_changes(clause, draft, Allowances(), "Say it positively.", ("Licensee", "Licensor"))


def test_an_added_limb_does_not_stand_in_for_a_dropped_one() -> None:
    clause = ("Neither party may assign this Agreement without the prior written consent of the other party, which "
              "consent shall not be unreasonably withheld, provided that (a) Metavante may assign it to a successor.")
    draft = ("Neither party may assign this Agreement without the prior written consent of the other party, provided "
             "that (a) Metavante may assign it to a successor; and (b) either party may assign this Agreement to its "
             "Affiliate without the consent of the other party.")
    found = L.differences(clause, draft, ["Metavante"])
    assert any(d.new == "" and {t.kind for t in d.dropped} >= {"not"} for d in found)


def test_an_order_of_precedence_is_read_and_turning_it_round_fails() -> None:
    clause = ("If there is any inconsistency between the Cover Page and the NDA Terms, the Cover Page will control "
              "over the NDA Terms.")
    assert L.precedence(clause) == [("Cover Page", "NDA Terms")]
    turned = "The NDA Terms control over any inconsistent Cover Page."
    kept = "Where the Cover Page and the NDA Terms are inconsistent, the Cover Page controls."
    found = meaning_changes(C.compare(clause, turned), Allowances(rewrite=True))
    assert any("order of precedence is turned round" in f for f in found)
    assert not any("precedence" in f for f in meaning_changes(C.compare(clause, kept), Allowances(rewrite=True)))
    asked = Allowances(rewrite=True, asked="make it so that the nda terms control over the cover page.")
    assert not any("precedence" in f for f in meaning_changes(C.compare(clause, turned), asked))


ORDER_FORM = ("The Agreement has 2 parts: the Order Form and the Standard Terms. If there is any inconsistency between "
              "the Order Form and the Standard Terms, the Order Form will control. Capitalized words have the meanings "
              "given in the Order Form or Standard Terms. A copy of the Standard Terms is attached for convenience only.")
CONFORM_ASK = ("The front document there is the Cover Page. The 'Capitalized words' sentence and the convenience-copy "
               "sentence carry over unchanged.")


def test_a_described_sentence_said_again_around_a_conformed_name_is_not_failed() -> None:
    draft = ORDER_FORM.replace("Order Form", "Cover Page")
    lost, _ = dropped(CONFORM_ASK, ORDER_FORM, draft, rewrite=False)
    assert lost == []


def test_a_described_sentence_with_a_figure_changed_is_still_lost() -> None:
    clause = ("The Attachment renews for six (6) months unless either party gives notice twelve (12) months before. "
              "This Agreement will automatically be renewed for periods of twelve (12) months unless either party "
              "gives six (6) months' notice.")
    ask = "The Attachment's notice comes down to three months. The Agreement's own renewal sentence should be left as it is."
    draft = clause.replace("twelve (12) months before", "three (3) months before").replace(
        "six (6) months' notice", "three (3) months' notice")
    lost, _ = dropped(ask, clause, draft, rewrite=False)
    assert lost == ["The Agreement's own renewal sentence"]


def test_shall_be_free_to_is_a_permission() -> None:
    clause = "If the parties fail to agree in a timely manner, Fox shall be free not to exploit the Opportunity."
    draft = "If the parties do not agree on time, Fox may choose not to exploit the Opportunity."
    assert [t.kind for t in L.turns(clause)][-2:] == ["may", "not"]
    assert not logic_changes(clause, draft, Allowances(rewrite=True, plain=True), "Everyday English.", ("Fox",), True, True)


def test_a_not_said_again_by_without_is_no_reversal() -> None:
    clause = "VerticalNet may audit the records in a manner that does not cause unreasonable interference with Impresse."
    draft = "VerticalNet may audit the records without unreasonable interference with Impresse."
    assert not logic_changes(clause, draft, Allowances(), "Two years, not one.", ("VerticalNet", "Impresse"))
    lost = "VerticalNet may audit the records in a manner that does cause unreasonable interference with Impresse."
    assert logic_changes(clause, lost, Allowances(), "Two years, not one.", ("VerticalNet", "Impresse"))


def test_control_with_an_object_ranks_nothing() -> None:
    # l-plain-04: "the DPA will control each party's rights" governs; "... as to Personal Data and will prevail"
    # has the DPA as its subject, not Personal Data.
    clause = ("If the parties have a DPA, the terms of the DPA will control each party's rights as to Personal Data, "
              "and the terms of the DPA will control in the event of any conflict with this Agreement.")
    draft = "The DPA will govern each party's rights as to Personal Data and will prevail if it conflicts with this Agreement."
    assert L.precedence(draft) == []
    assert not any("precedence" in f for f in meaning_changes(C.compare(clause, draft), Allowances(rewrite=True)))


INSURANCE = ("Exact shall maintain product liability insurance of five million dollars ($5,000,000) per occurrence, "
             "with an insurer rated A- or better, during the Term and for a period of five (5) years after the Term.")
INSURANCE_ASK = ("Double the per-occurrence limit. The five-year tail after the Term, the A- rating, and Pfizer's "
                 "additional-insured status are all agreed and must not move.")


def test_a_kept_figure_written_in_words_is_anchored_by_value_and_a_list_before_its_cue_is_kept_whole() -> None:
    doubled = INSURANCE.replace("five million dollars ($5,000,000)", "ten million dollars ($10,000,000)")
    assert dropped(INSURANCE_ASK, INSURANCE, doubled, rewrite=False)[0] == []
    lost, _ = dropped(INSURANCE_ASK, INSURANCE, doubled.replace("five (5) years", "three (3) years"), rewrite=False)
    assert lost == ["five-year"]
