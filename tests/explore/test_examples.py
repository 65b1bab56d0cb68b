"""Query by examples: both retrievers combine several examples; examples never come back."""

from __future__ import annotations

import pytest

from index_builder.index.backend import Condition
from index_builder.model import Clause, SearchHit
from index_builder.retrieve.examples import (Combination, dense_run, example_runs, lexical_run,
                                             without_examples)

NONCOMPETE = "employee shall not compete with employer within territory"
NONSOLICIT = "employee shall not solicit customers of employer"
CLAUSES = [
    Clause("a", NONCOMPETE, "d1"),
    Clause("b", NONSOLICIT, "d1"),
    Clause("c", "employee shall not compete or solicit customers of employer within territory", "d2"),
    Clause("d", "employee shall not compete with employer within territory nationwide", "d2"),
    Clause("e", "governing law is delaware", "d3"),
    Clause("f", "fees are payable monthly in arrears", "d3"),
]


def ids(run):  # type: ignore[no-untyped-def]
    return [cid for cid, _ in run]


def test_dense_max_favours_a_near_copy_of_one_example_mean_the_clause_between_them(
        backend_of, embedder):
    backend = backend_of(CLAUSES)
    rows = embedder.embed([NONCOMPETE, NONSOLICIT])
    by_max = ids(dense_run(backend, rows, 6, (), "max"))
    by_mean = ids(dense_run(backend, rows, 6, (), "mean"))
    assert by_max[:2] == ["a", "b"] or by_max[:2] == ["b", "a"]
    assert by_mean.index("c") < by_mean.index("d")  # c shares words with both examples
    assert by_max.index("d") < by_max.index("c")
    assert set(ids(dense_run(backend, rows, 6, (), "rrf"))[:2]) == {"a", "b"}


def test_lexical_norm_gives_each_example_the_same_weight(backend_of):
    backend = backend_of(CLAUSES)
    texts = [CLAUSES[3].text, "fees"]  # a long example matching d in full, a one-word one
    summed = dict(lexical_run(backend, texts, 6, (), "sum"))
    normed = dict(lexical_run(backend, texts, 6, (), "norm"))
    assert summed == dict(backend.lexical(texts, 6))
    assert summed["d"] > 2 * summed["f"]
    assert normed["f"] == pytest.approx(1.0) and normed["d"] == pytest.approx(1.0)
    assert ids(lexical_run(backend, texts, 6, (), "rrf"))[:2] in (["d", "f"], ["f", "d"])


def test_example_runs_feed_both_retrievers_inside_the_filters(backend_of, embedder):
    backend = backend_of(CLAUSES)
    runs = example_runs(backend, embedder, [NONCOMPETE, NONSOLICIT, "  "], 10,
                        (Condition("doc_id", ("d2",)),), Combination("max", "norm"))
    assert set(runs) == {"dense", "bm25"}
    assert {cid for run in runs.values() for cid, _ in run} <= {"c", "d"}
    assert example_runs(backend, embedder, ["  "], 10) == {}
    with pytest.raises(ValueError, match="dense one of"):
        Combination("median", "sum")


def test_examples_are_left_out_by_id_and_by_wording():
    hits = [SearchHit(c, 1.0, i) for i, c in enumerate(CLAUSES, 1)]
    kept = without_examples(hits, ["a"], ["1. Employee shall NOT solicit customers of employer."])
    assert [h.clause.clause_id for h in kept] == ["c", "d", "e", "f"]
