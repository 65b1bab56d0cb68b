"""The reference rater (precedent-bench rerank --reference) reads a prompt as a model that
follows it would: its scale, its tags; and the A/B over it detects a reversed scale."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from addin_server.rerank import load_rerank_prompt
from index_builder.evaluate.evaluation import EvalQuery
from index_builder.model import Clause, SearchHit
from index_builder.settings import load_settings

from precedent_bench.cache import AnswerStore
from precedent_bench.reference import ReferenceRater, open_reference, scale_of
from precedent_bench.rerank_ab import head_of, run_ab

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "prompts" / "rerank.prompt"
REVERSED = ROOT / "benchmarks" / "prompt_edits" / "rerank-reversed-scale.prompt"
NEED = "total liability capped at the fees paid in the twelve months before the claim"
# Grade g shares more of the need's words as g rises: the rater's cosine orders them so.
CLAUSES = ["This Agreement is governed by the laws of New York.",
           "Neither party is liable for indirect loss.",
           "Total liability is capped at an amount agreed in the order.",
           "Total liability is capped at the fees paid under this Agreement.",
           "Total liability is capped at the fees paid in the twelve months before the claim."]


def _body(prompt: Any, clause: str) -> dict[str, Any]:
    return {"messages": prompt.render(query=NEED, clause=clause)}


def test_the_scale_is_read_from_the_prompt() -> None:
    assert scale_of(load_rerank_prompt(SHIPPED).render(query="q", clause="c")[0]["content"]) == (0, 4)
    assert scale_of(load_rerank_prompt(REVERSED).render(query="q", clause="c")[0]["content"]) == (4, 0)
    assert scale_of("Rate from 1 to 5.") == (0, 4)  # no scale stated: the usual direction


def test_ratings_follow_the_stated_scale_and_need_the_tags(embedder: Any) -> None:
    rater = ReferenceRater(embedder.embed)
    shipped, reversed_ = load_rerank_prompt(SHIPPED), load_rerank_prompt(REVERSED)
    forward = [int(rater(_body(shipped, c)).content) for c in CLAUSES]
    backward = [int(rater(_body(reversed_, c)).content) for c in CLAUSES]
    assert forward[-1] > forward[0] and backward[-1] < backward[0]
    assert [4 - f for f in forward] == backward  # the same judgement on the mirrored scale
    untagged = {"messages": [{"role": "system", "content": "4 = highly relevant"},
                             {"role": "user", "content": f"Need: {NEED}\nClause: {CLAUSES[-1]}"}]}
    assert rater(untagged).content == "I cannot rate this."


def test_the_ab_detects_the_reversed_scale(embedder: Any, tmp_path: Path) -> None:
    heads = []
    for q in range(8):
        judged = {f"c{q}-{g}": g for g in range(5)}
        hits = [SearchHit(Clause(f"c{q}-{g}", CLAUSES[g], "d"), score=1.0 - g / 10, rank=g + 1)
                for g in range(5)]  # retrieval order: the worst first
        query = EvalQuery(f"q{q}", NEED, "cap", judged)
        heads.append(head_of(f"valid/short/q{q}", query, hits, depth=5))
    store = AnswerStore(tmp_path / "answers.sqlite")
    model = open_reference(load_settings(), store, embed=embedder.embed)
    try:
        ab = run_ab(heads, (load_rerank_prompt(SHIPPED), load_rerank_prompt(REVERSED)), model, "t")
    finally:
        model.close()
        store.close()
    overall = ab.deltas(resamples=1000)[0]
    assert overall.mean_a > overall.mean_b and overall.direction == "worse"
    # 8 queries with the same 5 clauses: 5 calls a prompt, the rest from the answer cache
    assert ab.calls["calls"] == 10 and "reference rater" in ab.model


def test_the_retrieval_order_is_the_baseline_a_prompt_must_beat() -> None:
    from precedent_bench.rerank_ab import retrieval_order

    judged = {f"c{g}": g for g in range(5)}
    best_first = [SearchHit(Clause(f"c{g}", CLAUSES[g], "d"), score=g, rank=5 - g) for g in (4, 3, 2, 1, 0)]
    query = EvalQuery("q", NEED, "cap", judged)
    assert retrieval_order([head_of("valid/short/q", query, best_first, depth=5)]) == 100.0
    assert retrieval_order([head_of("valid/short/q", query, best_first[::-1], depth=5)]) < 70.0
