"""A fine-tuned cross-encoder that reorders the head of the fused ranking.

The model reads query and clause together, so it sees what a bi-encoder cannot (which party
a cap protects, what a carve-out excludes). It is optional: when the configured weights are
missing, retrieval carries on without it and the log says how to build them.
"""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from pathlib import Path
from typing import Sequence

import numpy as np

from index_builder.errors import ModelLoadError
from index_builder.model import SearchHit
from index_builder.settings import RerankSettings

log = logging.getLogger(__name__)

TRAIN_COMMAND = "index-builder train-reranker --data ../shared/data/acord --out {path}"


class CrossEncoderReranker:
    """Scores (query, clause) pairs and fuses the score's rank with the first-stage rank."""

    def __init__(self, path: Path, settings: RerankSettings) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local folder needs no hub
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        try:
            self._tokenizer = AutoTokenizer.from_pretrained(str(path))
            self._model = AutoModelForSequenceClassification.from_pretrained(str(path)).eval()
        except (OSError, ValueError) as exc:
            raise ModelLoadError(f"Cannot load the reranker at {path} ({exc}): rebuild it with "
                                 f"`{TRAIN_COMMAND.format(path=path)}`.") from exc
        self._torch = torch
        self.path = Path(path)
        self.settings = settings

    def scores(self, query: str, texts: Sequence[str]) -> np.ndarray:
        """One relevance logit per text (higher is better)."""
        out: list[np.ndarray] = []
        size = self.settings.cross_encoder_batch_size
        with self._torch.inference_mode():
            for start in range(0, len(texts), size):
                batch = list(texts[start:start + size])
                inputs = self._tokenizer([query] * len(batch), batch, truncation="longest_first",
                                         max_length=self.settings.cross_encoder_max_length, padding=True,
                                         return_tensors="pt")
                out.append(self._model(**inputs).logits[:, 0].float().numpy())
        return np.concatenate(out) if out else np.zeros(0, dtype=np.float32)

    def applies_to(self, query: str) -> bool:
        """Whole clauses as queries keep the first-stage order (the model is
        trained on short requests; a clause already carries its own wording)."""
        return len(query.split()) <= self.settings.cross_encoder_max_query_words

    def rescore(self, query: str, hits: list[SearchHit]) -> list[SearchHit]:
        """The pipeline's first-stage rescorer: reorders the top ``rerank.depth`` hits."""
        if not self.applies_to(query):
            return hits
        depth = self.settings.depth
        head = self.rerank(query, hits[:depth])
        return head + [replace(h, rank=depth + i) for i, h in enumerate(hits[depth:], 1)]

    def rescore_with_rows(self, query: str, hits: list[SearchHit]
                          ) -> tuple[list[SearchHit], dict[str, np.ndarray]]:
        """``rescore``; the cross-encoder has no feature rows to hand on."""
        return self.rescore(query, hits), {}

    def rerank(self, query: str, hits: Sequence[SearchHit]) -> list[SearchHit]:
        """The hits reordered by RRF of their first-stage rank and their cross-encoder rank."""
        if not hits:
            return []
        logits = self.scores(query, [h.clause.text for h in hits])
        fused = fuse_with_first_stage(logits, self.settings.cross_encoder_weight, self.settings.cross_encoder_rrf_k)
        order = np.lexsort((np.arange(len(hits)), -fused))
        return [replace(hits[i], score=float(fused[i]), rank=rank,
                        retriever_scores={**hits[i].retriever_scores, "cross_encoder": float(logits[i])},
                        retriever_ranks={**hits[i].retriever_ranks,
                                         "cross_encoder": int(np.sum(logits > logits[i])) + 1})
                for rank, i in enumerate(order, 1)]


def fuse_with_first_stage(logits: np.ndarray, weight: float, k: int) -> np.ndarray:
    """weight/(k + cross-encoder rank) + (1 - weight)/(k + first-stage rank), ranks 1-based.

    The inputs are in first-stage order, so position i has first-stage rank i + 1. Keeping
    the first stage in the sum guards against the model's errors on unfamiliar wording.
    """
    n = len(logits)
    ce_rank = np.empty(n)
    ce_rank[np.lexsort((np.arange(n), -logits))] = np.arange(1, n + 1)
    first_rank = np.arange(1, n + 1)
    return weight / (k + ce_rank) + (1 - weight) / (k + first_rank)


def load_reranker(settings: RerankSettings) -> CrossEncoderReranker | None:
    """The configured reranker, or None (with a warning saying how to build it) if absent."""
    if not settings.cross_encoder:
        return None
    path = Path(settings.cross_encoder).expanduser()
    if not (path / "config.json").is_file():
        log.warning("Cross-encoder reranker not found at %s: results are not reranked. Build "
                    "it with `%s` (about 25 min on 2 cores), or set PRECEDENT_CROSS_ENCODER=\"\".",
                    path, TRAIN_COMMAND.format(path=path))
        return None
    reranker = CrossEncoderReranker(path, settings)
    log.info("Loaded cross-encoder reranker from %s (depth %d)", path, settings.depth)
    return reranker
