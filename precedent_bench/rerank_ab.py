"""`precedent-bench rerank`: two rerank prompts on ACORD valid/train, through the served pipeline.

Each item is one ACORD query (short, medium or long wording) of the chosen splits. Its head
is the first ``depth`` judged clauses of the served search (the pipeline `addin-server
eval` runs, without rerank); both prompts rate that head with the server's own
LLMReranker, and the item's score is NDCG@5 of the reranked head followed by the rest of
the judged ranking (ACORD's convention: unjudged clauses are dropped). Rating only judged
clauses spends every call on something the metric sees. The test split needs
``--allow-test``: prompts are chosen on valid and train.
"""

from __future__ import annotations

import argparse
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from addin_server.draft.prompts import PromptTemplate
from addin_server.rerank import LLMReranker, load_rerank_prompt
from index_builder.errors import InvalidRequestError
from index_builder.evaluate.evaluation import EvalQuery, score_ranking
from index_builder.model import SearchHit
from index_builder.settings import Settings

from precedent_bench.ab import ABRun, ItemRun, prompt_warnings
from precedent_bench.models import BenchModel

log = logging.getLogger(__name__)

WORDINGS = ("short", "medium", "long")


@dataclass(frozen=True)
class Head:
    """One query with the judged head to rerank and the judged tail that follows it."""

    item_id: str
    category: str
    query: str
    judged: dict[str, int]
    head: tuple[SearchHit, ...]
    tail: tuple[str, ...]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rerank", help="A/B two rerank prompts on ACORD valid/train (NDCG@5)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--prompt", action="append", type=Path, required=True,
                   help="rerank prompt file; give it twice: A (the baseline) then B (the edit)")
    p.add_argument("--split", action="append", choices=("valid", "train", "test"),
                   help="ACORD split(s) (default valid and train)")
    p.add_argument("--allow-test", action="store_true",
                   help="permit --split test (never for choosing a prompt)")
    p.add_argument("--wording", action="append", choices=WORDINGS,
                   help="query wording(s) (default short, medium and long)")
    p.add_argument("--limit", type=int, help="first N queries of each split and wording")
    p.add_argument("--depth", type=int, default=5, help="judged clauses rated per query (default 5)")
    p.add_argument("--index", type=Path, help="ACORD index folder (default var/acord-index)")
    p.add_argument("--first-stage", choices=("served", "bm25"), default="served",
                   help="heads from the served pipeline (builds the ACORD index, embedding every "
                        "clause, on first use) or from the project's BM25 alone (no embedding)")
    p.add_argument("--reference", action="store_true",
                   help="rate with the reference rater (precedent_bench/reference.py: MiniLM "
                        "cosine, follows the prompt's scale and tags) instead of a language "
                        "model: checks an edit's wiring where no capable model is at hand")
    p.set_defaults(handler="precedent_bench.rerank_ab:run_command", ab=True)


def check_splits(splits: Sequence[str], allow_test: bool) -> None:
    if "test" in splits and not allow_test:
        raise InvalidRequestError("The ACORD test split is for the final look only: choose prompts "
                                  "on valid and train, or add --allow-test to score test on purpose.")


def bm25_search(settings: Settings) -> Callable[[str], Sequence[SearchHit]]:
    """ACORD ranked by the project's BM25 alone (its tokenizer and parameters), no index."""
    import numpy as np

    from index_builder.evaluate.runner import acord_clauses
    from index_builder.index.lexical import BM25Index

    clauses = acord_clauses(settings.acord_dir)
    index = BM25Index.build([c.text for c in clauses], settings.bm25)

    def search(text: str) -> Sequence[SearchHit]:
        scores = index.scores(text)
        order = np.argsort(-scores, kind="stable")[:1000]
        return [SearchHit(clauses[i], score=float(scores[i]), rank=r)
                for r, i in enumerate(order, 1)]

    return search


def acord_heads(settings: Settings, splits: Sequence[str], wordings: Sequence[str],
                limit: int | None, depth: int, first_stage: str = "served",
                embedder: Any = None) -> list[Head]:
    """Judged heads from the served pipeline (building the ACORD index first if needed) or BM25."""
    if first_stage == "bm25":
        from index_builder.evaluate.acord import load_acord
        from index_builder.evaluate.evaluation import eval_queries

        acord, search = load_acord(settings.acord_dir), bm25_search(settings)
        return [head_of(f"{split}/{wording}/{q.query_id}", q, search(q.text), depth)
                for split in splits for wording in wordings
                for q in eval_queries(acord, split, wording)[:limit]]
    from index_builder.evaluate.acord import load_acord
    from index_builder.evaluate.evaluation import eval_queries
    from index_builder.evaluate.runner import (EvalConfig, ensure_acord_index, eval_pipeline,
                                               eval_search)
    from index_builder.index import load_embedder

    embedder = embedder or load_embedder(settings.embedding)
    ensure_acord_index(settings, embedder, progress=False)
    acord = load_acord(settings.acord_dir)
    heads: list[Head] = []
    for split in splits:
        config = EvalConfig(split=split)
        search = eval_search(eval_pipeline(settings, config, embedder), config)
        for wording in wordings:
            queries = eval_queries(acord, split, wording)[:limit]
            heads += [head_of(f"{split}/{wording}/{q.query_id}", q, search(q.text), depth)
                      for q in queries]
    log.info("%d ACORD items, heads of %d judged clauses", len(heads), depth)
    return heads


def head_of(item_id: str, query: EvalQuery, hits: Sequence[SearchHit], depth: int) -> Head:
    judged = [h for h in hits if h.clause.clause_id in query.judged]
    return Head(item_id, query.category, query.text, query.judged, tuple(judged[:depth]),
                tuple(h.clause.clause_id for h in judged[depth:]))


def retrieval_order(heads: Sequence[Head]) -> float:
    """Mean NDCG@5 of the heads as retrieved: what a prompt must beat to be worth a call."""
    if not heads:
        return 0.0
    return sum(score_ranking([h.clause.clause_id for h in head.head] + list(head.tail),
                             head.judged)["ndcg@5"] for head in heads) / len(heads)


def score_head(head: Head, reranker: LLMReranker) -> ItemRun:
    """NDCG@5 of the reranked head plus the tail; the ratings, for the report."""
    outcome = reranker.rerank_detailed(head.query, list(head.head))
    order = [hit.clause.clause_id for hit, _ in outcome.ranked]
    score = score_ranking(order + list(head.tail), head.judged)["ndcg@5"]
    lines = [f"{hit.clause.clause_id} (judged {head.judged[hit.clause.clause_id]}, retrieval "
             f"#{hit.rank}): rated {'-' if r.score is None else f'{r.score:.2f}'}"
             for hit, r in outcome.ranked]
    notes = () if outcome.status == "applied" else (f"rerank {outcome.status}: {outcome.reason}",)
    return ItemRun(head.item_id, head.category, score, f"query: {head.query}\n" + "\n".join(lines),
                   notes)


def run_ab(heads: Sequence[Head], prompts: tuple[PromptTemplate, PromptTemplate],
           model: BenchModel, subset: str,
           progress: Callable[[str], None] = lambda _: None) -> ABRun:
    """Both prompts on every head with the same model (answers cached).

    All of A, then all of B: llama.cpp reuses the cached prefix (the prompt's constant text)
    only while one prompt runs; alternating re-reads it at every switch (90 s against 20 s
    a call on two busy cores). B's items pair with A's as they come.
    """
    runs: list[list[ItemRun]] = []
    for label, prompt in zip("AB", prompts):
        reranker = LLMReranker(model.client, prompt, model.llm, budget_s=None)
        try:
            rows = []
            for n, head in enumerate(heads, 1):
                rows.append(score_head(head, reranker))
                progress(f"prompt {label}: {n}/{len(heads)} items ({model.client.counts()})")
            runs.append(rows)
        finally:
            reranker.close()
    return ABRun("rerank", "NDCG@5 (points)", prompts[0], prompts[1], runs[0], runs[1],
                 model.name, subset, model.client.counts(),
                 prompt_warnings("rerank", prompts, model.llm))


def run_command(args: argparse.Namespace, settings: Settings, model_opener) -> ABRun:  # type: ignore[no-untyped-def]
    if len(args.prompt) != 2:
        raise InvalidRequestError("Give --prompt twice: the baseline (A), then the edit (B).")
    splits = args.split or ["valid", "train"]
    check_splits(splits, args.allow_test)
    prompts = (load_rerank_prompt(args.prompt[0]), load_rerank_prompt(args.prompt[1]))
    wordings = args.wording or list(WORDINGS)
    heads = acord_heads(settings, splits, wordings, args.limit, args.depth, args.first_stage)
    source = ("the served pipeline" if args.first_stage == "served"
              else "BM25 alone (the project's tokenizer and parameters, no glossary expansion)")
    subset = (f"ACORD {' + '.join(splits)}, {', '.join(wordings)} wording"
              f"{', first ' + str(args.limit) + ' queries each' if args.limit else ''}: "
              f"{len(heads)} items, heads of {args.depth} judged clauses from {source}; "
              f"the heads in retrieval order, no rerank: NDCG@5 {retrieval_order(heads):.1f}")
    model = model_opener()
    try:
        return run_ab(heads, prompts, model, subset, log.info)
    finally:
        model.close()
