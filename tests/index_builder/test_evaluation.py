import math

import pytest

from index_builder.evaluate.acord import load_acord
from index_builder.evaluate.evaluation import eval_queries, format_table, score_ranking, score_runs


def _dcg(grades):
    return sum(g / math.log2(i + 2) for i, g in enumerate(grades))


def test_unjudged_clauses_are_dropped_before_scoring():
    judged = {"a": 4, "b": 0, "c": 2}
    with_noise = score_ranking(["x", "a", "y", "c", "b"], judged)
    clean = score_ranking(["a", "c", "b"], judged)
    assert with_noise == clean
    assert clean["ndcg@5"] == pytest.approx(100.0)


def test_ndcg_matches_hand_computation():
    judged = {"a": 4, "b": 3, "c": 0, "d": 1}
    got = score_ranking(["c", "b", "a", "d"], judged)
    expected = _dcg([0, 3, 4, 1]) / _dcg([4, 3, 1, 0])
    assert got["ndcg@5"] == pytest.approx(100 * expected)


def test_star_precision_both_forms():
    # grades: 4 = five stars. Two clauses rated >= 4 stars exist, one is in the top five.
    judged = {"a": 4, "b": 3, "c": 1, "d": 0, "e": 0, "f": 2}
    got = score_ranking(["a", "c", "d", "e", "f", "b"], judged)
    assert got["p@5_4star"] == pytest.approx(100 * 1 / 5)
    assert got["p@5_4star_norm"] == pytest.approx(100 * 1 / 2)
    assert got["p@5_3star"] == pytest.approx(100 * 2 / 5)  # a and f (3 stars)
    assert got["p@5_5star_norm"] == pytest.approx(100.0)


def test_queries_without_k_star_clauses_are_skipped_for_that_metric():
    judged = {"a": 1, "b": 0}
    got = score_ranking(["a", "b"], judged)
    assert "p@5_4star" not in got and "p@5_3star" not in got
    assert "ndcg@5" in got


def test_acord_loads_all_wordings(acord_dir):
    acord = load_acord(acord_dir)
    assert len(acord.queries) == 114
    test = acord.split_queries("test")
    assert len(test) == 57
    assert all({"short", "medium", "long"} <= set(q.wordings) for q in acord.queries.values())
    assert {q.category for q in test} >= {"Limitation of Liability", "Indemnification"}


def test_clause_mode_uses_five_star_clauses_as_queries(mini_acord):
    acord = load_acord(mini_acord)
    corpus = {"x": "unused"}
    for split_qrels in acord.qrels["test"].values():
        for cid in split_qrels:
            corpus[cid] = f"text of {cid}"
    items = eval_queries(acord, "test", mode="clause", corpus=corpus)
    assert items, "the mini ACORD keeps each query's best clauses"
    for item in items:
        assert item.exclude not in item.judged
        assert item.text == f"text of {item.exclude}"


def test_score_runs_groups_by_category_and_formats(mini_acord):
    acord = load_acord(mini_acord)
    queries = eval_queries(acord, "test")
    perfect = {q.query_id: sorted(q.judged, key=lambda c: -q.judged[c]) for q in queries}
    result = score_runs(queries, perfect)
    assert result.overall["ndcg@10"] == pytest.approx(100.0)
    assert result.overall["queries"] == len(queries)
    table = format_table(result, "perfect")
    assert "OVERALL" in table and "100.0" in table
