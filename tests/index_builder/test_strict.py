"""Strict mode's matching (index_builder/retrieve/strict.py): the same measure as folding."""

from __future__ import annotations

from index_builder.model import Clause, SearchHit
from index_builder.retrieve.strict import near_copies
from index_builder.retrieve.variations import similarity, words

QUERY = "Each party shall keep the other party's Confidential Information secret."


def _hit(cid: str, text: str, rank: int) -> SearchHit:
    return SearchHit(clause=Clause(clause_id=cid, doc_id=cid, text=text), score=1.0 / rank, rank=rank)


def test_near_copies_keep_the_threshold_order_by_similarity_and_flag_identical_words() -> None:
    hits = [_hit("far", "Governing law is New York.", 1),
            _hit("near", QUERY.replace("secret", "confidential"), 2),
            _hit("same", "4.1 " + QUERY.upper(), 3),
            _hit("copy", QUERY, 4)]
    found = near_copies(QUERY, hits, 0.8)
    assert [h.clause.clause_id for h, _ in found] == ["same", "copy", "near"]  # ties: retrieval order
    assert [m.identical for _, m in found] == [True, True, False]
    near = found[2][1].similarity
    assert near == round(similarity(words(QUERY), words(hits[1].clause.text)), 4) and 0.8 <= near < 1
    assert [h.clause.clause_id for h, _ in near_copies(QUERY, hits, 1.0)] == ["same", "copy"]
    assert near_copies("...", hits, 0.5) == []
