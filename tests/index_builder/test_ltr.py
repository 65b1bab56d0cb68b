"""Learned fusion (retrieve/ltr.py), the LLM score combination (retrieve/combine.py), glossary provenance."""

import json
import math

import numpy as np
import pytest

from index_builder.errors import ConfigError, ModelLoadError
from index_builder.evaluate.acord import load_acord
from index_builder.retrieve.ltr_fit import RankerConfig, fit_ranker, fused_candidates
from index_builder.index.build import build_index
from index_builder.index.store import load_index
from index_builder.model import Clause, SearchHit
from index_builder.retrieve.combine import CombineWeights, combine, combined_order
from index_builder.retrieve.glossary import GLOSSARY
from index_builder.retrieve.ltr import BUILTIN, FEATURES, FeatureExtractor, load_ranker, save_ranker
from index_builder.retrieve.query_expansion import QueryExpander


def hit(cid: str, text: str, rank: int, **scores: float) -> SearchHit:
    return SearchHit(Clause(cid, text, "doc"), score=1.0 / rank, rank=rank,
                     retriever_ranks={n: rank for n in scores}, retriever_scores=dict(scores))


def test_features_see_word_order_and_missing_retrievers():
    hits = [hit("a", "The total liability cap shall not exceed the fees.", 1, bm25=8.0, dense=0.6),
            hit("b", "Liability of either party; a cap applies to fees.", 2, dense=0.5)]
    x = FeatureExtractor()("liability cap", hits)
    col = {name: x[:, i] for i, name in enumerate(FEATURES)}
    assert x.shape == (2, len(FEATURES))
    assert col["term_cover"][0] == col["term_cover"][1] == 1.0
    assert col["bigram_cover"][0] == 1.0 and col["bigram_cover"][1] == 0.0  # in order only in a
    assert math.isnan(col["bm25"][1]) and math.isnan(col["bm25_logrank"][1])
    assert col["bm25_rel"][0] == 1.0 and col["dense_gap"][1] == pytest.approx(0.1)


def test_features_of_a_subset_use_the_whole_pool_for_maxima():
    hits = [hit("a", "cap", 1, bm25=10.0), hit("b", "cap on liability", 2, bm25=5.0)]
    only_b = FeatureExtractor()("cap on liability", hits, subset=[1])
    assert only_b.shape == (1, len(FEATURES))
    assert only_b[0, FEATURES.index("bm25_rel")] == pytest.approx(0.5)


def test_expansion_cover_counts_the_glossary_definition():
    expander = QueryExpander({"cap on liability": "aggregate liability shall not exceed"})
    hits = [hit("a", "Aggregate liability shall not exceed the fees paid.", 1, bm25=1.0),
            hit("b", "Governed by the laws of New York.", 2, bm25=0.5)]
    x = FeatureExtractor(expander)("cap on liability", hits)
    j = FEATURES.index("expansion_cover")
    assert x[0, j] == 1.0 and x[1, j] == 0.0


@pytest.fixture(scope="module")
def mini_pool(tmp_path_factory, mini_acord, embedder_factory):
    from index_builder.settings import load_settings

    settings = load_settings({}, {"index_dir": tmp_path_factory.mktemp("ltr") / "index",
                                  "acord_dir": mini_acord})
    embedder = embedder_factory()
    build_index(settings, [mini_acord], embedder, progress=False)
    index, acord = load_index(settings.index_dir), load_acord(mini_acord)
    extractor, groups = FeatureExtractor(QueryExpander()), []
    for query in acord.split_queries("test"):
        hits = fused_candidates(query.text, index.clauses, index.embeddings, index.bm25,
                                embedder.embed([query.text])[0], depth=50)
        grades = acord.qrels["test"][query.query_id]
        judged = [i for i, h in enumerate(hits) if h.clause.clause_id in grades]
        groups.append((query.text, hits, extractor(query.text, hits, judged),
                       np.array([grades[hits[i].clause.clause_id] for i in judged], dtype=float)))
    return groups


def test_fused_candidates_carry_both_retrievers_in_rrf_order(mini_pool):
    _, hits, _, _ = mini_pool[0]
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    assert all(a.score >= b.score for a, b in zip(hits, hits[1:]))
    assert all("dense" in h.retriever_ranks for h in hits)
    assert any("bm25" in h.retriever_ranks for h in hits)


def test_ranker_round_trip_and_rescore(tmp_path, mini_pool):
    config = RankerConfig(trees=20, leaves=3, min_data_in_leaf=2)
    model = fit_ranker([(x, y) for _, _, x, y in mini_pool], config)
    save_ranker(model, tmp_path / "ranker", {"note": "test"})
    meta = json.loads((tmp_path / "ranker" / "ranker.json").read_text())
    assert meta["features"] == list(FEATURES) and meta["note"] == "test"
    ranker = load_ranker(tmp_path / "ranker", QueryExpander())
    query, hits, x, _ = mini_pool[0]
    assert np.allclose(ranker.booster.predict(x), model.predict(x))  # same model after reload
    rescored = ranker.rescore(query, hits)
    assert sorted(h.clause.clause_id for h in rescored) == sorted(h.clause.clause_id for h in hits)
    assert [h.rank for h in rescored] == list(range(1, len(hits) + 1))
    assert all(a.score >= b.score for a, b in zip(rescored, rescored[1:]))
    assert rescored[0].retriever_scores  # provenance kept for the API
    assert ranker.rescore(query, hits) == rescored  # deterministic


def test_a_ranker_served_with_another_glossary_warns_how_to_retrain(tmp_path, mini_pool, caplog):
    model = fit_ranker([(x, y) for _, _, x, y in mini_pool], RankerConfig(trees=5, leaves=3,
                                                                          min_data_in_leaf=2))
    served = QueryExpander()
    save_ranker(model, tmp_path / "r", {"glossary_fingerprint": served.fingerprint})
    with caplog.at_level("WARNING", logger="index_builder.retrieve.ltr"):
        load_ranker(tmp_path / "r", QueryExpander())
        assert not caplog.records
        load_ranker(tmp_path / "r", QueryExpander({"tupe": "transfer of employees"}))
        load_ranker(tmp_path / "r", None)  # PRECEDENT_QUERY_EXPANSION=none
    assert len(caplog.records) == 2
    assert "another glossary" in caplog.text and "precedent-bench ltr train" in caplog.text
    assert QueryExpander(max_words=5).fingerprint != served.fingerprint


def test_the_shipped_ranker_was_trained_with_the_served_glossary():
    meta = json.loads((BUILTIN / "ranker.json").read_text())
    assert meta["glossary_fingerprint"] == QueryExpander().fingerprint and meta["rows"] == "loo"


def test_ranker_files_missing_or_stale_name_the_fix(tmp_path, mini_pool):
    with pytest.raises(ModelLoadError, match="precedent-bench ltr train"):
        load_ranker(tmp_path / "nothing")
    model = fit_ranker([(x, y) for _, _, x, y in mini_pool], RankerConfig(trees=5, leaves=3,
                                                                          min_data_in_leaf=2))
    save_ranker(model, tmp_path / "r", {})
    meta = json.loads((tmp_path / "r" / "ranker.json").read_text())
    meta["features"] = meta["features"][:-1]
    (tmp_path / "r" / "ranker.json").write_text(json.dumps(meta))
    with pytest.raises(ConfigError, match="retrain"):
        load_ranker(tmp_path / "r")


def test_the_pipeline_uses_the_builtin_ranker_only_with_both_retrievers(tmp_path, embedder, mini_acord):
    from index_builder.retrieve.ltr import LearnedFusion
    from index_builder.retrieve.pipeline import SearchRequest, build_pipeline
    from index_builder.settings import load_settings

    settings = load_settings({}, {"index_dir": tmp_path / "index"})
    build_index(settings, [mini_acord], embedder, progress=False)
    pipeline = build_pipeline(settings, embedder)
    assert isinstance(pipeline.rescorer, LearnedFusion)
    assert pipeline.rescorer.extractor.expander is pipeline.expander
    outcome = pipeline.search(SearchRequest(text="cap on liability", top_k=3))
    assert len(outcome.results) == 3
    assert build_pipeline(settings, embedder, retrievers=("dense",)).rescorer is None  # paper row
    off = load_settings({"PRECEDENT_RANKER": "none"}, {"index_dir": tmp_path / "index"})
    assert build_pipeline(off, embedder).rescorer is None


def _opposed_groups():
    """Two queries that disagree: grade rises with column 0 in the first, falls in the second."""
    x = np.zeros((8, len(FEATURES)), dtype=np.float32)
    x[:, 0] = np.arange(8)
    rising, falling = np.array([0, 0, 1, 1, 2, 3, 4, 4.0]), np.array([4, 4, 3, 2, 1, 1, 0, 0.0])
    return [(x, rising), (x.copy(), falling)]


@pytest.mark.parametrize("weights, rises", [((10.0, 1.0), True), ((1.0, 10.0), False)])
def test_group_weights_decide_which_query_the_ranker_follows(weights, rises):
    config = RankerConfig(trees=20, leaves=3, min_data_in_leaf=1, feature_fraction=1.0)
    groups = _opposed_groups()
    scores = fit_ranker(groups, config, weights).predict(groups[0][0])
    assert bool(scores[-1] > scores[0]) is rises


def test_ranker_config_names_form_weights_and_the_gain_of_each_grade():
    from index_builder.retrieve.ltr_fit import ranker_params

    config = RankerConfig(form_weights=(("short", 2.0),), label_gain=(0, 1, 2, 3, 4))
    assert config.weight("short") == 2.0 and config.weight("clause") == 1.0
    assert ranker_params(config)["label_gain"] == [0, 1, 2, 3, 4]
    assert "label_gain" not in ranker_params(RankerConfig())  # LightGBM's 2^grade - 1


def test_no_relevant_judgment_is_refused():
    with pytest.raises(ValueError, match="nothing to learn"):
        fit_ranker([(np.zeros((3, len(FEATURES))), np.zeros(3))], RankerConfig())


def test_combine_without_llm_weight_keeps_retrieval_order():
    assert combined_order([0.9, 0.5, 0.1], [0.0, 4.0, 2.0], CombineWeights(llm=0.0)) == [0, 1, 2]


def test_combine_moves_a_hit_only_when_the_model_is_sure():
    weights = CombineWeights(llm=0.5, retrieval=0.5)
    # Second place, rated 4 against 1: climbs. Rated 2.2 against 2: stays.
    assert combined_order([3, 2, 1], [1.0, 4.0, 0.0], weights) == [1, 0, 2]
    assert combined_order([3, 2, 1], [2.0, 2.2, 0.0], weights) == [0, 1, 2]


def test_unrated_hits_keep_their_place():
    scores = combine([3, 2, 1], [None, None, None], CombineWeights(llm=0.7, retrieval=0.3))
    assert scores == pytest.approx([1.0, 0.5, 0.0])
    assert combined_order([3, 2, 1], [0.0, None, 4.0], CombineWeights(0.7, 0.3)) == [2, 1, 0]


def test_minmax_uses_the_score_gaps():
    weights = CombineWeights(llm=0.5, retrieval=0.5, normalise="minmax")
    assert combine([10.0, 9.9, 0.0], [0.0, 0.0, 0.0], weights) == pytest.approx([0.5, 0.495, 0.0])


@pytest.mark.parametrize("kwargs", [{"llm": -1.0}, {"llm": 0.0, "retrieval": 0.0},
                                    {"normalise": "zscore"}])
def test_bad_weights_are_refused(kwargs):
    with pytest.raises(ValueError):
        CombineWeights(**kwargs)


def test_combine_needs_one_rating_per_hit():
    with pytest.raises(ValueError, match="one LLM score"):
        combine([1.0, 0.5], [2.0], CombineWeights())


def test_no_glossary_term_exists_only_for_acord_test_queries(acord_dir):
    # quality.md step 8: every entry is used by a train/valid query, no alias only by test ones.
    acord = load_acord(acord_dir)
    seen = [q.text for q in acord.queries.values() if q.split in ("train", "valid")]
    test = [q.text for q in acord.queries.values() if q.split == "test"]
    for aliases, definition in GLOSSARY.items():
        used = {a: [q for q in seen + test if QueryExpander({a: definition}).definitions(q)]
                for a in aliases.split("|")}
        assert any(set(qs) & set(seen) for qs in used.values()), aliases
        for alias, queries in used.items():
            assert not queries or set(queries) & set(seen), alias


def test_relative_scale_spreads_a_narrow_band_of_ratings():
    absolute = CombineWeights(llm=0.5, retrieval=0.5)
    relative = CombineWeights(llm=0.5, retrieval=0.5, llm_scale="relative")
    ratings = [3.0, 3.4, 2.9]  # a small model's crowded ratings
    assert combined_order([3, 2, 1], ratings, absolute) == [0, 1, 2]
    assert combined_order([3, 2, 1], ratings, relative) == [1, 0, 2]
    assert combine([3, 2, 1], [2.0, 2.0, None], relative) == combine([3, 2, 1], [2.0, 2.0, None], absolute)


class _RateOne:
    """A reranker double: rates one clause 4 and the rest 1, as the LLM reranker reports."""

    def __init__(self, favourite: str) -> None:
        self.favourite = favourite

    def rerank_detailed(self, query, hits):
        from types import SimpleNamespace

        rating = lambda h: SimpleNamespace(score=4.0 if h.clause.clause_id == self.favourite else 1.0)  # noqa: E731
        ranked = sorted(((h, rating(h)) for h in hits), key=lambda p: -p[1].score)
        return SimpleNamespace(ranked=ranked, status="applied", reason="")


@pytest.mark.parametrize("weight, climbs", [(0.5, True), (0.8, True), (1.0, True), (0.0, False)])
def test_pipeline_combines_llm_ratings_with_retrieval_position(tmp_path, embedder, mini_acord,
                                                               weight, climbs):
    from index_builder.retrieve.pipeline import SearchRequest, build_pipeline
    from index_builder.settings import load_settings

    settings = load_settings({}, {"index_dir": tmp_path / "index", "rerank.depth": 4,
                                  "rerank.llm_weight": weight})
    build_index(settings, [mini_acord], embedder, progress=False)
    plain = build_pipeline(settings, embedder).search(SearchRequest(text="cap on liability", top_k=4))
    third = plain.results[2].hit.clause.clause_id
    pipeline = build_pipeline(settings, embedder, reranker=_RateOne(third), rerank_default=True)
    outcome = pipeline.search(SearchRequest(text="cap on liability", top_k=4))
    order = [r.hit.clause.clause_id for r in outcome.results]
    assert outcome.rerank_status == "applied" and sorted(order) == sorted(
        r.hit.clause.clause_id for r in plain.results)
    assert (order[0] == third) is climbs
