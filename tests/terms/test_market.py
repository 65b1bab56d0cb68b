"""The distribution: counted per document, buckets merged on one scale, yours placed, missing
sub-provisions; pure, over hand-made hits."""

from __future__ import annotations

from index_builder.model import Clause, SearchHit
from index_builder.terms import extract, stamp
from index_builder.terms.market import compare


def hits(*rows: tuple[str, str]) -> list[SearchHit]:
    clauses, _ = stamp([Clause(f"{doc}#{i}", text, doc) for i, (doc, text) in enumerate(rows)])
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
    [term] = [t for t in found.terms if t.dimension == "fee_cap"]
    assert term.status == "usual" and term.same == 3
    for bucket in term.buckets:
        for p in bucket.precedents:
            assert p.hit.clause.text[p.term.start:p.term.end] == p.term.text


def test_a_runaway_paragraph_stores_a_bounded_number_of_figures() -> None:
    import json

    from index_builder.terms import TERMS_KEY, terms_of
    from index_builder.terms.stored import MAX_STORED

    [clause], extracted = stamp([Clause("x#1", "Either party may terminate on 30 days notice. " * 1000, "x")])
    assert extracted == 1
    raw = clause.metadata[TERMS_KEY]
    assert len(json.loads(raw)["terms"]) == MAX_STORED and len(raw.encode()) < 64_000
    assert len(terms_of(clause).terms) == MAX_STORED  # read back as stored, not extracted again
