"""The distribution: counted per document, buckets merged on one scale, yours placed, missing
sub-provisions; pure, over hand-made hits."""

from __future__ import annotations

from index_builder.model import Clause, SearchHit
from index_builder.terms import extract, stamp
from index_builder.terms.market import compare


# Each document's own opening words, so that the same clause in two documents is two precedents
# rather than a near copy (near copies count once: test_near_copies_in_two_documents_count_once).
OWN = dict(zip("abcdefghij", (
    "Background: Acme buys widgets from Beta under purchase orders.",
    "The supplier hosts the platform and keeps customer data in Europe.",
    "Recitals. Gamma wishes to license its software to Delta's subsidiaries worldwide.",
    "Whereas the consultant advises the board on marketing strategy.",
    "This employment contract sets out the terms for the new chief engineer.",
    "Reseller markets and distributes the products in Latin America.",
    "The landlord lets the third floor of the building to the tenant.",
    "Our agency will run the television campaign for the spring launch.",
    "Lender makes a revolving credit facility available to the borrower group.",
    "The carrier ships frozen goods between the two ports every week.")))


def hits(*rows: tuple[str, str], own_words: bool = True) -> list[SearchHit]:
    clauses, _ = stamp([Clause(f"{doc}#{i}", f"{OWN[doc]} {text}" if own_words else text, doc)
                        for i, (doc, text) in enumerate(rows)])
    return [SearchHit(c, 0.9 - i / 100, i + 1) for i, c in enumerate(clauses)]


def notice(days: str) -> str:
    return f"Either party may terminate this Agreement on {days} written notice to the other party."


def test_each_document_counts_once_with_its_best_clause() -> None:
    found = compare(extract(notice("sixty (60) days'")), hits(
        ("a", notice("30 days'")), ("a", notice("90 days'")),  # a's best match says 30: a counts once
        ("b", notice("thirty (30) days'")), ("c", notice("one (1) month's")), ("d", notice("90 days'"))))
    [term] = [t for t in found.terms if t.dimension == "period:notice"]
    # "one (1) month" is within 1.5% of 30 days on the day scale: one bucket, the commoner wording.
    assert [(b.label, b.documents) for b in term.buckets] == [("30 days", 3), ("90 days", 1)]
    assert (term.below, term.same, term.above, term.documents) == (1, 0, 3, 4)
    assert term.status == "above"  # the usual value (30 days: 3 of 4 documents) is below yours
    assert found.documents == 4


def test_yours_flagged_when_the_usual_value_differs_and_terms_you_lack_are_shown() -> None:
    twelve = "Employee must not compete for a period of twelve (12) months after employment ends."
    found = compare(extract(twelve.replace("twelve (12) months", "six (6) months")),
                    hits(*[(d, twelve) for d in "abcd"], ("e", twelve.replace("twelve (12)", "24"))))
    [term] = [t for t in found.terms if t.dimension == "period:non_compete"]
    assert term.status == "below" and (term.below, term.same) == (5, 0)
    assert term.usual.label == "12 months" and term.usual.documents == 4
    none = compare(extract("Employee must not compete."), hits(*[(d, twelve) for d in "abc"]))
    assert {t.dimension: t.status for t in none.terms}["period:non_compete"] == "not_stated"


def test_missing_subprovisions_and_precedents_keep_their_figure_spans() -> None:
    cap = ("Except as provided in Section 9 (Exceptions), each party's total liability will not be more "
           "than the fees paid in the twelve (12) month period before the claim.")
    found = compare(extract("Each party's total liability will not exceed the fees paid in the 12 month period "
                            "before the claim."), hits(("a", cap), ("b", cap), ("c", cap.replace("Except as provided in Section 9 (Exceptions), e", "E"))))
    assert found.missing == ["cap_carveout"]
    [term] = [t for t in found.terms if t.dimension == "cap:fees_period"]
    assert term.status == "usual" and term.same == 3
    assert term.title == "Liability cap: fees over a period" and term.buckets[0].label == "fees of 12 months"
    assert not [t for t in found.terms if t.dimension.startswith("period:")]  # the window is the cap's
    for bucket in term.buckets:
        for p in bucket.precedents:
            assert p.hit.clause.text[p.term.start:p.term.end] == p.term.text


CAPS = {
    "fixed": "Each party's total liability will not exceed $1,000,000.",
    "fixed_more": "Each party's total liability will not exceed $2,000,000.",
    "window": "Each party's total liability will not exceed the fees paid in the twelve (12) months before the claim.",
    "all_fees": "Each party's liability shall be limited to the amounts actually paid by Customer under this Agreement.",
    "multiple": "Each party's entire liability will in no event exceed three times (3x) the total value of the work order.",
    "lesser": "Each party's liability shall not exceed the lesser of $50,000 or the fees paid in the 12 months before the claim.",
}


def test_each_cap_kind_is_its_own_family_and_a_capped_clause_is_never_missing_its_cap() -> None:
    rows = [("a", CAPS["fixed"]), ("b", CAPS["fixed_more"]), ("c", CAPS["window"]), ("d", CAPS["all_fees"]),
            ("e", CAPS["multiple"]), ("f", CAPS["lesser"]), ("g", CAPS["window"]), ("h", CAPS["multiple"]),
            ("i", CAPS["lesser"])]
    found = compare(extract(CAPS["all_fees"]), hits(*rows))
    by_dim = {t.dimension: t for t in found.terms}
    assert {d for d in by_dim if d.startswith("cap:")} == {
        "cap:fixed:USD", "cap:fees_period", "cap:fees_all", "cap:multiple", "cap:lesser_of"}
    assert [b.label for b in by_dim["cap:fixed:USD"].buckets] == ["USD 1,000,000", "USD 2,000,000"]
    assert by_dim["cap:multiple"].buckets[0].label == "3x"
    assert by_dim["cap:lesser_of"].buckets[0].label == "the lesser of USD 50,000 and fees of 12 months"
    assert by_dim["cap:fees_all"].status == "usual"
    # yours caps liability by all fees paid: the other families say "another kind", never "not stated"
    assert by_dim["cap:fixed:USD"].status == "other_kind" and by_dim["cap:fixed:USD"].yours_label == "all fees paid"
    assert "liability_cap" not in found.missing
    # the amounts of fixed caps are counted as caps, not again as loose amounts
    assert "money:USD" not in by_dim


def test_near_copies_in_two_documents_count_once() -> None:
    text = notice("thirty (30) days'")
    copy = text.replace("this Agreement", "the Agreement")  # the same form, filed twice
    other = "Customer may end the subscription with ninety (90) days' notice in writing, sent to Provider."
    found = compare(extract(text), hits(("a", text), ("b", copy), ("c", other), own_words=False))
    [term] = [t for t in found.terms if t.dimension == "period:notice"]
    assert found.documents == 2 and found.folded == 1
    assert [(b.label, b.documents) for b in term.buckets] == [("30 days", 1), ("90 days", 1)]
    # the same words with another figure are another deal, not a copy
    changed = compare(extract(text), hits(("a", text), ("b", notice("sixty (60) days'")), own_words=False))
    assert changed.documents == 2 and changed.folded == 0


def test_a_runaway_paragraph_stores_a_bounded_number_of_figures() -> None:
    import json

    from index_builder.terms import TERMS_KEY, terms_of
    from index_builder.terms.stored import MAX_STORED

    [clause], extracted = stamp([Clause("x#1", "Either party may terminate on 30 days notice. " * 1000, "x")])
    assert extracted == 1
    raw = clause.metadata[TERMS_KEY]
    assert len(json.loads(raw)["terms"]) == MAX_STORED and len(raw.encode()) < 64_000
    assert len(terms_of(clause).terms) == MAX_STORED  # read back as stored, not extracted again


def test_a_clause_stored_by_the_older_extractor_is_read_again() -> None:
    import json

    from index_builder.terms import TERMS_KEY, VERSION, terms_of
    from index_builder.terms.stored import _fingerprint

    text = "Each party's total liability will not exceed the fees paid in the 12 months before the claim."
    old = {"version": "terms-1", "sha": _fingerprint(text), "mutuality": "mutual", "subprovisions": [],
           "terms": [{"type": "fee_cap", "value": "1x/12m", "unit": "", "role": "cap", "start": 0, "end": 5,
                      "text": "Each "}]}
    found = terms_of(Clause("x#1", text, "x", metadata={TERMS_KEY: json.dumps(old)}))
    assert found.version == VERSION != "terms-1"
    assert [(c.kind, c.period_months) for c in found.caps] == [("fees_period", 12)]


# Issue 38 point 4: the lawyer's clause is never "missing" what it has in its own words.
EXCLUSION = "In no event shall either party be liable for any consequential damages."
CARVED = "Except for breach of Section 9 (Confidentiality), each party's total liability will not exceed $1,000,000."
SUPER = ("Each party's total liability will not exceed the General Cap Amount, and each party's total liability for "
         "the Increased Claims will not be more than the Increased Cap Amount (super-cap).")


def test_an_exclusion_written_neither_party_shall_be_liable_is_not_missing() -> None:
    yours = extract("Neither party shall be liable to the other for any indirect, special or consequential damages.")
    found = compare(yours, hits(*[(d, EXCLUSION) for d in "abc"]))
    assert "consequential_exclusion" in yours.subprovisions and found.missing == []
    # and a clause that excludes nothing still sees what the precedents hold
    assert compare(extract(CAPS["fixed"]), hits(*[(d, EXCLUSION) for d in "abc"])).missing == ["consequential_exclusion"]


def test_a_carve_out_in_other_words_is_not_missing() -> None:
    for words in ("Each party's total liability will not exceed $1,000,000. This limit shall not apply to a breach of "
                  "Section 9 (Confidentiality).",
                  "Each party's total liability will not exceed $1,000,000, excluding liability for breach of Section 9.",
                  "Each party's total liability will not exceed $1,000,000, save in respect of fraud."):
        found = compare(extract(words), hits(*[(d, CARVED) for d in "abc"]))
        assert "cap_carveout" not in found.missing, words
    assert compare(extract(CAPS["fixed"]), hits(*[(d, CARVED) for d in "abc"])).missing == ["cap_carveout"]


def test_a_super_cap_written_as_a_second_cap_for_named_claims_is_not_missing() -> None:
    yours = extract("Each party's total liability shall not exceed $1,000,000; provided that each party's liability for "
                    "breach of Section 9 (Data Protection) shall not exceed $5,000,000.")
    assert [c.kind for c in yours.caps] == ["fixed", "fixed"]
    assert "super_cap" not in compare(yours, hits(*[(d, SUPER) for d in "abc"])).missing
    # a per-claim limit beside an aggregate one is no super-cap
    per_claim = extract("Supplier's liability shall not exceed USD 2 million per claim and USD 5 million in the aggregate.")
    assert "super_cap" not in per_claim.subprovisions
    assert "super_cap" in compare(per_claim, hits(*[(d, SUPER) for d in "abc"])).missing


def test_a_choice_is_one_value_whatever_the_order_of_its_limbs() -> None:
    flipped = "Each party's liability shall not exceed the lesser of the fees paid in the 12 months before the claim or $50,000."
    found = compare(extract(flipped), hits(("a", CAPS["lesser"]), ("b", flipped), ("c", CAPS["lesser"])))
    [term] = [t for t in found.terms if t.dimension == "cap:lesser_of"]
    assert [(b.label, b.documents) for b in term.buckets] == [("the lesser of USD 50,000 and fees of 12 months", 3)]
    assert term.status == "usual" and term.same == 3


def test_limits_that_yield_to_law_are_no_carve_out() -> None:
    # Common Paper pilot agreement 5.3 (CC BY 4.0): a savings statement, not a claim taken out of the cap
    law = ("However, nothing in this Agreement will limit, exclude, or restrict a party's liability to the extent "
           "prohibited by Applicable Laws.")
    assert "cap_carveout" not in extract(law).subprovisions
    assert "cap_carveout" in extract("Nothing in this Agreement limits either party's liability for fraud or for "
                                     "death or personal injury caused by its negligence.").subprovisions


def test_a_period_in_hours_is_placed_on_the_day_scale() -> None:
    # A lawyer's "within 48 hours" made /market fail (the day scale had no hours: KeyError).
    cure = "Supplier shall cure any failure within {} of notice from Customer."
    found = compare(extract(cure.format("forty-eight (48) hours")), hits(
        ("a", cure.format("two (2) days")), ("b", cure.format("2 days")), ("c", cure.format("five (5) days"))))
    [term] = [t for t in found.terms if t.dimension.startswith("period")]
    assert [(b.label, b.documents) for b in term.buckets] == [("2 days", 2), ("5 days", 1)]
    assert (term.below, term.same, term.above) == (1, 2, 0)


# The change-of-control clause a new user compared (session 8): two notice periods, one card.
COC = ("The Vendor may end this Agreement by giving the Client thirty (30) days' written notice if the "
       "Client undergoes a change of control, and the Client shall notify the Vendor within thirty (30) "
       "days after any such change of control takes effect.")


def test_the_summary_counts_the_terms_it_lists() -> None:
    found = compare(extract(COC), hits(("a", notice("60 days'")), ("b", notice("30 days'"))))
    assert len(found.yours.terms) == 2  # two figures ...
    shown = [t for t in found.terms if t.yours is not None]
    assert [t.title for t in shown] == ["Notice period"] and found.your_terms == 1  # ... one term


def test_a_confidentiality_period_is_compared_with_confidentiality_periods() -> None:
    # A new user's NDA clause (session 8) against the agreements' cover-page durations.
    conf = ("The Client shall keep secret all non-public information it receives from the Vendor in "
            "connection with this Agreement, shall use it only to receive the Services, and shall not "
            "disclose it to anyone other than its employees who need to know it, for a period of three "
            "(3) years after this Agreement ends.")
    cover = "Confidentiality\nTrade Secrets Duration\nPerpetual\nOther Confidential Information Duration\n24 months"
    found = compare(extract(conf), hits(("a", cover), ("b", cover.replace("24 months", "36 months"))))
    [term] = [t for t in found.terms if t.yours is not None]
    assert (term.title, term.yours_label, term.documents) == ("Confidentiality period", "3 years", 2)
    assert (term.same, term.above) == (1, 1)  # 3 years is the 36 months, above the 24


def test_who_is_bound_not_read_is_never_said_not_in_your_clause() -> None:
    # a new user's "The Customer may terminate ..." (one side's right: mutuality None) was shown
    # "Who is bound: Not in your clause" against mutual precedents
    yours = ("The Customer may terminate this Agreement by written notice if the Supplier commits a material "
             "breach of this Agreement and fails to remedy that breach within thirty (30) days after receiving "
             "written notice of it.")
    found = compare(extract(yours), hits(*[(d, notice("thirty (30) days'")) for d in "abc"]))
    assert {t.dimension: t.status for t in found.terms} == {
        "mutuality": "not_read", "period:cure": "no_market", "period:notice": "not_stated"}
