"""Queries through a recorded quantised twin of the index's model (issue 39): accepted for that
pair only, refused for any other model or length, off with PRECEDENT_QUERY_EMBEDDING=index,
and a twin that cannot load falls back to the index's own model."""

from __future__ import annotations

import logging

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from index_builder.errors import ConfigError, ModelLoadError
from index_builder.index import batcher
from index_builder.index.build import build_index
from index_builder.index.embedder import QUERY_TWINS, query_settings, query_twin
from index_builder.retrieve.pipeline import build_pipeline
from index_builder.settings import EmbeddingSettings, load_settings


def test_only_a_recorded_twin_of_the_same_model_and_length_is_accepted() -> None:
    assert query_twin("all-MiniLM-L6-v2", "all-MiniLM-L6-v2") == ""
    assert "int8" in query_twin("all-MiniLM-L6-v2", "all-MiniLM-L6-v2+openvino-int8")
    assert query_twin("all-MiniLM-L6-v2@128", "all-MiniLM-L6-v2+openvino-int8") is None  # length
    assert query_twin("other-model", "all-MiniLM-L6-v2+openvino-int8") is None  # model
    assert query_twin("all-MiniLM-L6-v2", "all-MiniLM-L6-v2+onnx-int8") is None  # not recorded
    assert query_twin("all-MiniLM-L6-v2+openvino-int8", "all-MiniLM-L6-v2") is None  # not that way


def test_the_setting_picks_the_twin_only_where_one_is_recorded() -> None:
    torch = EmbeddingSettings(backend="torch", query_backend="openvino-int8")
    assert query_settings(torch).backend == "openvino-int8"
    assert query_settings(replace(torch, query_backend="index")).backend == "torch"  # turned off
    onnx = EmbeddingSettings(backend="onnx", query_backend="openvino-int8")
    assert query_settings(onnx).backend == "onnx"  # no twin recorded for an onnx index
    assert ("torch", "openvino-int8") in QUERY_TWINS
    with pytest.raises(ConfigError, match="PRECEDENT_QUERY_EMBEDDING"):
        load_settings({"PRECEDENT_QUERY_EMBEDDING": "fp4"})


class Named:
    """An embedder that only claims a model id: the model check reads nothing else."""

    def __init__(self, inner: Any, model_id: str) -> None:
        self.inner, self.model_id, self.dimension = inner, model_id, inner.dimension

    def embed(self, texts, *, show_progress=False):  # type: ignore[no-untyped-def]
        return self.inner.embed(texts)


def test_the_index_refuses_an_unrelated_query_model_and_accepts_its_twin(
        tmp_path: Path, mini_acord: Path, embedder: Any) -> None:
    settings = load_settings({}, {"index_dir": tmp_path / "index"})
    build_index(settings, [mini_acord], Named(embedder, "all-MiniLM-L6-v2"), progress=False)
    twin = build_pipeline(settings, Named(embedder, "all-MiniLM-L6-v2+openvino-int8"),
                          cross_encoder=False)
    assert twin.embedder.model_id.endswith("openvino-int8")
    for unrelated in ("all-MiniLM-L6-v2+onnx-int8", "all-mpnet-base-v2", "all-MiniLM-L6-v2@128"):
        with pytest.raises(ConfigError, match="embedded with all-MiniLM-L6-v2"):
            build_pipeline(settings, Named(embedder, unrelated), cross_encoder=False)


def test_a_twin_that_cannot_load_falls_back_to_the_index_model(monkeypatch: Any, embedder: Any,
                                                               caplog: Any) -> None:
    def load(settings: EmbeddingSettings) -> Any:
        if settings.backend == "openvino-int8":
            raise ModelLoadError("The openvino embedding backends need OpenVINO: run `pip install ...`")
        return Named(embedder, "all-MiniLM-L6-v2")

    monkeypatch.setattr("index_builder.index.load_embedder", load)
    # Its own level: a library loaded earlier in the run (NNCF, OpenVINO) may have raised the
    # root logger's, which would hide the warning from caplog though a server would log it.
    caplog.set_level(logging.WARNING, logger="index_builder.index.batcher")
    made = batcher.query_embedder(EmbeddingSettings(query_backend="openvino-int8", query_batch=0,
                                                    cache_size=0))
    assert made.model_id == "all-MiniLM-L6-v2"
    assert "cannot be embedded with openvino-int8" in caplog.text


def test_query_model_stops_before_searching_when_an_own_draft_file_is_missing(tmp_path, monkeypatch) -> None:
    # The run writes its results only at the end: a missing input must stop it first.
    import argparse
    from precedent_bench import query_model

    loaded = []
    monkeypatch.setattr(query_model, "load_settings", lambda **_: loaded.append(1))

    def queries(_acord, shape):
        if shape == "synth":
            raise FileNotFoundError("synthetic.jsonl: run `precedent-bench owndraft-set make`")
        return []

    monkeypatch.setattr(query_model, "queries", queries)
    args = argparse.Namespace(index=tmp_path, acord=tmp_path, twin="openvino-int8", shapes="short,synth", out=None)
    with pytest.raises(FileNotFoundError, match="owndraft-set make"):
        query_model.run_command(args)
    assert loaded == []


def test_query_model_report_names_each_side_s_input_shapes() -> None:
    """`query-model --baseline X --twin X --input-shapes off 1x16`: the same model with and
    without fixed input shapes; the table says which side ran which."""
    from precedent_bench import query_model

    shape = {"n": 2, "ndcg5_a": 50.0, "ndcg5_b": 50.0, "delta": 0.0, "low": 0.0, "high": 0.0,
             "moved": 0, "cosine_mean": 0.9999, "cosine_min": 0.9998}
    result = {"when": "now", "splits": ["train", "valid"], "index": "i", "shapes": {"short": shape},
              "models": {"A": "m+openvino-int8-static", "B": "m+openvino-int8-static"},
              "input_shapes": {"A": "off", "B": "1x16"}}
    table = query_model.report(result, "openvino-int8-static")
    assert "A = m+openvino-int8-static (input shapes off) vs B = m+openvino-int8-static (input shapes 1x16)" in table
    assert "| short | 2 | 50.0 | 50.0 | +0.00 [+0.00, +0.00] | 0 | 0.9999 (0.9998) | yes |" in table
    del result["input_shapes"]
    assert "(the index's own)" in query_model.report(result, "openvino-int8-static")
