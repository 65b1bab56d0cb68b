"""The variation explorer's guarantees, property-tested, and its blackline."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.errors import InvalidRequestError
from index_builder.model import Clause, SearchHit
from index_builder.retrieve.variations import blackline, explore, similarity, tokens, words

# A small vocabulary, so that random clauses are often near copies of each other.
VOCAB = ["employee", "shall", "not", "compete", "solicit", "customers", "twelve", "months",
         "employer", "the", "of", "for"]
PROPERTY = settings(derandomize=True, max_examples=150, deadline=None)


def hit(n: int, text: str, doc: str = "", score: float = 1.0) -> SearchHit:
    clause = Clause(clause_id=f"c{n}", text=text, doc_id=doc or f"d{n % 7}")
    return SearchHit(clause=clause, score=score, rank=n + 1)


texts = st.lists(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=10).map(" ".join),
                 min_size=1, max_size=25)
thresholds = st.tuples(st.floats(0.2, 1.0), st.floats(0.0, 1.0)).map(
    lambda p: (round(p[0], 3), round(p[0] + (1.0 - p[0]) * p[1], 3)))


def sim(a: SearchHit, b: SearchHit) -> float:
    return similarity(words(a.clause.text), words(b.clause.text))


@PROPERTY
@given(texts, thresholds)
def test_every_member_is_within_the_threshold_of_its_representative(items, pair):
    major_t, minor_t = pair
    hits = [hit(i, t) for i, t in enumerate(items)]
    result = explore(hits, major_t, minor_t)
    for major in result.majors:
        for member, _ in major.members:
            assert sim(member, major.representative) >= major_t
        for wording in [major.own, *major.minors]:
            for member, score in wording.members:
                assert sim(member, wording.representative) >= minor_t
                assert score == pytest.approx(sim(member, wording.representative), abs=1e-4)


@PROPERTY
@given(texts, thresholds)
def test_representatives_are_distinct_wordings(items, pair):
    major_t, minor_t = pair
    result = explore([hit(i, t) for i, t in enumerate(items)], major_t, minor_t)
    reps = [m.representative for m in result.majors]
    for i, a in enumerate(reps):
        for b in reps[i + 1:]:
            assert sim(a, b) < major_t
    for major in result.majors:
        wording_reps = [w.representative for w in [major.own, *major.minors]]
        for i, a in enumerate(wording_reps):
            for b in wording_reps[i + 1:]:
                assert sim(a, b) < minor_t


@PROPERTY
@given(texts, thresholds)
def test_every_match_is_in_exactly_one_wording_and_counts_add_up(items, pair):
    hits = [hit(i, t) for i, t in enumerate(items)]
    result = explore(hits, *pair)
    placed = [m.clause.clause_id for major in result.majors for m, _ in major.members]
    assert sorted(placed) == sorted(h.clause.clause_id for h in hits)
    assert result.matches == len(hits) == sum(m.count for m in result.majors)
    ranks = [m.representative.rank for m in result.majors]
    assert ranks == sorted(ranks)  # majors in relevance order, each led by its best match
    assert all(m.representative.rank == min(h.rank for h, _ in m.members) for m in result.majors)
    for major in result.majors:
        counts = [w.count for w in major.minors]
        assert counts == sorted(counts, reverse=True)


@PROPERTY
@given(texts, texts)
def test_blackline_rebuilds_both_texts(a_items, b_items):
    original, revised = " ".join(a_items), ", ".join(b_items) + ".\n"
    ops = blackline(original, revised)
    assert "".join(o.text for o in ops if o.op != "delete") == revised
    assert tokens("".join(o.text for o in ops if o.op != "insert")) == tokens(original)
    assert "".join(o.text for o in ops if o.op != "insert").split() == original.split()
    assert all(o.op in ("equal", "insert", "delete") and o.text for o in ops)


def test_similarity_is_symmetric_and_ignores_numbering_case_and_punctuation():
    a, b = words("12.1 The Employee shall not compete."), words("(a) the employee shall NOT compete")
    assert similarity(a, b) == 1.0
    c = words("The employee shall not solicit customers.")
    assert similarity(a, c) == similarity(c, a) == pytest.approx(2 * 4 / (5 + 6))


NONCOMPETE = ("During employment and for twelve months after, Employee shall not engage in a "
              "Competitive Business within the Restricted Territory.")
NONCOMPETE_24 = NONCOMPETE.replace("twelve months", "twenty-four months")
NONSOLICIT = ("For twelve months after employment ends, Employee shall not solicit any Covered "
              "Customer to reduce its business with Employer.")


def test_copies_nest_under_their_major_with_a_blackline_and_documents():
    hits = [hit(0, NONCOMPETE, "texas"), hit(1, NONSOLICIT, "texas"),
            hit(2, NONCOMPETE, "ohio"), hit(3, NONCOMPETE_24, "utah"),
            hit(4, "Governing law is Texas.", "texas", score=0.1)]
    result = explore(hits, major_threshold=0.6, minor_threshold=0.95, min_score=0.5)
    assert result.matches == 4 and result.documents == ["texas", "ohio", "utah"]
    first = result.majors[0]
    assert first.representative.clause.clause_id == "c0" and first.count == 3
    assert first.own.documents == ["texas", "ohio"]
    [minor] = first.minors
    assert minor.representative.clause.clause_id == "c3" and 0.6 <= minor.similarity < 0.95
    assert [(o.op, o.text.strip()) for o in minor.blackline if o.op != "equal"] == [
        ("delete", "twelve"), ("insert", "twenty-four")]
    assert [m.representative.clause.clause_id for m in result.majors] == ["c0", "c1"]


def test_thresholds_the_guarantee_does_not_cover_are_refused():
    with pytest.raises(InvalidRequestError, match="at least the major"):
        explore([], major_threshold=0.9, minor_threshold=0.8)
    with pytest.raises(InvalidRequestError, match="between 0 and 1"):
        explore([], major_threshold=0.0, minor_threshold=0.8)
