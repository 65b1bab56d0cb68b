"""Few-shot retrieval on ACORD: 1, 2 and 3 example clauses against one (issue 12, point 1).

For every query with at least ``--min-high`` clauses rated 4-5 stars (grade >= 3), draw 3 of
those clauses (``--draws`` times, seeded by query id); give the first 1, 2 or 3 as the
examples and rank the corpus. All 3 drawn clauses are left out of the ranking and of the
judgments in every condition, so 1, 2 and 3 examples are scored on the same held-out
clauses. One example is the single-clause-as-query baseline. Scoring follows the project's
ACORD convention (index_builder/evaluate/evaluation.py: unjudged clauses dropped, graded
NDCG with pytrec_eval), over the top ``--depth`` candidates of each retriever.

The combination (index_builder/retrieve/examples.py) is chosen on train+valid by NDCG@5 with
3 examples; test is then scored once with it.

    precedent-bench few-shot --out benchmarks/results/explore/few_shot.json   (about 9 minutes)
    precedent-bench few-shot --served-check   (the API's own path on test's first draws)
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import random
import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Sequence

import faiss
import numpy as np

from index_builder.evaluate.acord import Acord, load_acord
from index_builder.evaluate.evaluation import score_ranking
from index_builder.index.embedded import EmbeddedBackend
from index_builder.index.embedder import SentenceTransformerEmbedder
from index_builder.index.lexical import BM25Index
from index_builder.index.store import ClauseIndex
from index_builder.model import Clause
from index_builder.retrieve.examples import DENSE_MODES, LEXICAL_MODES, Combination, example_runs
from index_builder.retrieve.fusion import reciprocal_rank_fusion
from index_builder.retrieve.pipeline import Example, SearchPipeline, SearchRequest, served_list
from index_builder.settings import Settings, load_settings

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import ACORD, RESULTS, acord_corpus

log = logging.getLogger("few_shot")

HIGH_GRADE = 3  # 4 or 5 stars


@dataclass(frozen=True)
class Episode:
    query_id: str
    examples: tuple[str, ...]  # 3 clause ids, in the order they are given
    judged: dict[str, int]  # the query's judgments minus the 3 examples


def episodes(acord: Acord, split: str, draws: int, min_high: int, seed: int = 12) -> list[Episode]:
    """Deterministic example draws for every query with enough highly rated clauses."""
    out = []
    for query in sorted(acord.split_queries(split), key=lambda q: q.query_id):
        judged = acord.qrels[split][query.query_id]
        high = sorted(c for c, g in judged.items() if g >= HIGH_GRADE)
        if len(high) < min_high:
            continue
        for draw in range(draws):
            chosen = tuple(random.Random(f"{seed}:{query.query_id}:{draw}").sample(high, 3))
            rest = {c: g for c, g in judged.items() if c not in chosen}
            out.append(Episode(query.query_id, chosen, rest))
    return out


def acord_backend(acord_dir: Path, settings: Settings, cache: Path) -> EmbeddedBackend:
    """ACORD's corpus in memory behind the SearchBackend protocol (vectors cached in ``cache``)."""
    clauses = [Clause(clause_id=str(r["_id"]), text=str(r["text"]).strip(), doc_id="acord")
               for r in acord_corpus(acord_dir)]
    if cache.is_file():
        vectors = np.load(cache, allow_pickle=False)
    else:
        log.info("Embedding %d clauses (cached at %s)", len(clauses), cache)
        vectors = SentenceTransformerEmbedder(settings.embedding).embed([c.text for c in clauses])
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.save(cache, vectors, allow_pickle=False)
    if len(vectors) != len(clauses):
        raise SystemExit(f"{cache} holds {len(vectors)} vectors for {len(clauses)} clauses: delete it.")
    dense = faiss.IndexFlatIP(vectors.shape[1])
    dense.add(vectors)
    bm25 = BM25Index.build([c.text for c in clauses], settings.bm25)
    index = ClauseIndex(Path("acord-in-memory"), {"embedding_model": settings.embedding.model},
                        clauses, {"acord": {"kind": "beir"}}, vectors, dense, bm25)
    return EmbeddedBackend(index)


def rank(backend: EmbeddedBackend, episode: Episode, k: int, combination: Combination,
         depth: int, rrf_k: int, retrievers: Sequence[str] = ("dense", "bm25")) -> list[str]:
    """The corpus ranked from the first ``k`` examples, all 3 examples left out."""
    ids = list(episode.examples[:k])
    clauses = backend.get(ids)
    texts = [c.text for c in clauses if c is not None]
    vectors = backend.index.embeddings[[backend.index.position[i] for i in ids]]
    runs = example_runs(backend, None, texts, depth + 3, (), combination, retrievers,  # type: ignore[arg-type]
                        vectors=vectors)
    ranks = {name: {cid: r for r, (cid, _) in enumerate(run, 1)} for name, run in runs.items()}
    fused = reciprocal_rank_fusion({n: dict(run) for n, run in runs.items()}, k=rrf_k, ranks=ranks)
    ordered = sorted(fused, key=lambda cid: (-fused[cid], cid))
    left_out = set(episode.examples)
    return [cid for cid in ordered if cid not in left_out]


def score(backend: EmbeddedBackend, items: list[Episode], k: int, combination: Combination,
          depth: int, rrf_k: int, retrievers: Sequence[str] = ("dense", "bm25")) -> dict[str, float]:
    rows = [score_ranking(rank(backend, e, k, combination, depth, rrf_k, retrievers), e.judged)
            for e in items]
    return {"ndcg@5": round(statistics.fmean(r["ndcg@5"] for r in rows), 2),
            "ndcg@10": round(statistics.fmean(r["ndcg@10"] for r in rows), 2),
            "episodes": len(rows), "queries": len({e.query_id for e in items})}


class CorpusVectors:
    """The model's vectors for corpus texts, looked up (the examples are corpus clauses)."""

    def __init__(self, backend: EmbeddedBackend, model_id: str) -> None:
        self.model_id = model_id
        self.dimension = int(backend.index.embeddings.shape[1])
        self._rows = {c.text: i for i, c in enumerate(backend.index.clauses)}
        self._vectors = backend.index.embeddings

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        missing = [t for t in texts if t not in self._rows]
        if missing:
            raise ValueError(f"{len(missing)} text(s) are not corpus clauses; this benchmark "
                             f"only embeds examples taken from the corpus.")
        return self._vectors[[self._rows[t] for t in texts]]


def served(pipeline: SearchPipeline, items: list[Episode], k: int, depth: int) -> dict[str, float]:
    """The same episodes through the API's own path: SearchPipeline with examples, folded
    copies scored where the lawyer sees them (served_list), the other drawn examples removed."""
    rows = []
    for e in items:
        request = SearchRequest(examples=tuple(Example(clause_id=c) for c in e.examples[:k]),
                                top_k=depth, depth=depth, rerank=False, spans=False)
        ranking = [h.clause.clause_id for h in served_list(pipeline.search(request))]
        rows.append(score_ranking([c for c in ranking if c not in e.examples], e.judged))
    return {"ndcg@5": round(statistics.fmean(r["ndcg@5"] for r in rows), 2),
            "ndcg@10": round(statistics.fmean(r["ndcg@10"] for r in rows), 2),
            "episodes": len(rows), "queries": len({e.query_id for e in items})}


def paired_gain(backend: EmbeddedBackend, items: list[Episode], combination: Combination,
                depth: int, rrf_k: int) -> dict[str, float]:
    """Mean and a 95% bootstrap interval (over queries) of NDCG@5(3 examples) - NDCG@5(1)."""
    by_query: dict[str, list[float]] = {}
    for e in items:
        one = score_ranking(rank(backend, e, 1, combination, depth, rrf_k), e.judged)["ndcg@5"]
        three = score_ranking(rank(backend, e, 3, combination, depth, rrf_k), e.judged)["ndcg@5"]
        by_query.setdefault(e.query_id, []).append(three - one)
    gains = [statistics.fmean(v) for v in by_query.values()]
    rng = random.Random(12)
    boots = sorted(statistics.fmean(rng.choices(gains, k=len(gains))) for _ in range(2000))
    return {"gain_ndcg@5": round(statistics.fmean(gains), 2),
            "ci95": [round(boots[50], 2), round(boots[1949], 2)],
            "queries_improved": sum(g > 0 for g in gains), "queries": len(gains)}


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--data", type=Path, default=ACORD)
    parser.add_argument("--cache", type=Path, default=Path("var/bench/acord-minilm.npy"))
    parser.add_argument("--draws", type=int, default=3)
    parser.add_argument("--min-high", type=int, default=4)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=RESULTS / "explore" / "few_shot.json")
    parser.add_argument("--served-check", action="store_true",
                        help="only add the served-path rows (first draw of each test query) to --out")


def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    for noisy in ("sentence_transformers", "faiss", "bm25s", "index_builder"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    started = time.perf_counter()
    settings = load_settings(overrides={"acord_dir": args.data})
    acord = load_acord(settings.acord_dir)
    backend = acord_backend(settings.acord_dir, settings, args.cache)
    rrf_k = settings.retrieval.rrf_k
    if args.served_check:
        first_draws = episodes(acord, "test", args.draws, args.min_high)[::args.draws]
        pipeline = SearchPipeline(backend, CorpusVectors(backend, settings.embedding.model), settings)
        result = json.loads(args.out.read_text())
        result["test_served_path"] = {
            "combination": f"{settings.retrieval.examples_dense}/{settings.retrieval.examples_lexical}",
            **{f"{k} example{'s' if k > 1 else ''}": served(pipeline, first_draws, k, args.depth)
               for k in (1, 3)},
            "same episodes, direct ranking, 1 example": score(
                backend, first_draws, 1, Combination(settings.retrieval.examples_dense,
                                                     settings.retrieval.examples_lexical), args.depth, rrf_k),
            "same episodes, direct ranking, 3 examples": score(
                backend, first_draws, 3, Combination(settings.retrieval.examples_dense,
                                                     settings.retrieval.examples_lexical), args.depth, rrf_k)}
        args.out.write_text(json.dumps(result, indent=2) + "\n")
        log.info("Served path: %s", result["test_served_path"])
        return
    dev = [e for split in ("train", "valid") for e in
           episodes(acord, split, args.draws, args.min_high)]
    test = episodes(acord, "test", args.draws, args.min_high)
    log.info("Episodes: %d train+valid, %d test", len(dev), len(test))

    tuning = {}
    for dense, lexical in itertools.product(DENSE_MODES, LEXICAL_MODES):
        combo = Combination(dense, lexical)
        tuning[f"{dense}/{lexical}"] = {k: score(backend, dev, k, combo, args.depth, rrf_k)
                                        for k in (2, 3)}
        log.info("train+valid %s/%s: %s", dense, lexical, tuning[f"{dense}/{lexical}"][3])
    best_name = max(tuning, key=lambda n: (tuning[n][3]["ndcg@5"], n))
    best = Combination(*best_name.split("/"))
    dev_one = score(backend, dev, 1, best, args.depth, rrf_k)
    log.info("Chosen on train+valid: %s", best_name)

    # Test, once, with the chosen combination; the averaged vector alone as the naive baseline.
    table = {f"{k} example{'s' if k > 1 else ''}": score(backend, test, k, best, args.depth, rrf_k)
             for k in (1, 2, 3)}
    averaged = Combination("mean", best.lexical)
    table["3 examples, averaged vector only (no BM25)"] = score(
        backend, test, 3, averaged, args.depth, rrf_k, retrievers=("dense",))
    table["1 example, dense only"] = score(backend, test, 1, averaged, args.depth, rrf_k,
                                           retrievers=("dense",))
    result = {
        "protocol": {"draws": args.draws, "min_high_rated": args.min_high, "depth": args.depth,
                     "rrf_k": rrf_k, "model": settings.embedding.model,
                     "bm25": asdict(settings.bm25)},
        "tuning_train_valid": {"1 example": dev_one, **{n: {f"{k} examples": v for k, v in r.items()}
                                                        for n, r in tuning.items()}},
        "chosen": best_name,
        "test": table,
        "test_gain_3_vs_1": paired_gain(backend, test, best, args.depth, rrf_k),
        "seconds": round(time.perf_counter() - started, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    log.info("Wrote %s", args.out)
