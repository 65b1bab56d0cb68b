from pathlib import Path

import pytest

from index_builder.errors import ConfigError
from index_builder.retrieve.fusion import ranks_of, reciprocal_rank_fusion, weighted_fusion
from index_builder.settings import load_settings


def test_environment_then_overrides():
    s = load_settings({"PRECEDENT_RRF_K": "30", "PRECEDENT_INDEX_DIR": "/x"},
                      {"retrieval.rrf_k": None, "embedding.model": "/models/m"})
    assert s.retrieval.rrf_k == 30
    assert s.index_dir == Path("/x")
    assert s.embedding.model == "/models/m"


@pytest.mark.parametrize("env, message", [
    ({"PRECEDENT_RRF_K": "many"}, "PRECEDENT_RRF_K must be a int"),
    ({"PRECEDENT_FUSION": "magic"}, "PRECEDENT_FUSION"),
    ({"PRECEDENT_DENSE_WEIGHT": "2"}, "between 0 and 1"),
])
def test_bad_settings_name_the_fix(env, message):
    with pytest.raises(ConfigError, match=message):
        load_settings(env)


def test_unknown_override_is_refused():
    with pytest.raises(ConfigError, match="Unknown setting"):
        load_settings({}, {"retrieval.nonsense": 1})


def test_ranks_break_ties_by_position():
    assert ranks_of({5: 1.0, 2: 1.0, 9: 3.0}) == {9: 1, 2: 2, 5: 3}


def test_rrf_rewards_agreement():
    fused = reciprocal_rank_fusion({"dense": {1: 0.9, 2: 0.8, 3: 0.1},
                                    "bm25": {2: 12.0, 4: 11.0}}, k=60)
    assert max(fused, key=fused.get) == 2
    assert fused[2] == pytest.approx(1 / 62 + 1 / 61)
    assert fused[4] == pytest.approx(1 / 62)


def test_weighted_fusion_normalises_each_run():
    fused = weighted_fusion({"dense": {1: 0.5, 2: 0.25}, "bm25": {1: 10.0, 3: 30.0}},
                            {"dense": 0.5, "bm25": 0.5})
    assert fused == pytest.approx({1: 0.5, 2: 0.0, 3: 0.5})
