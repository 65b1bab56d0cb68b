"""The static int8 query twin (issue 39): calibrated on ACORD clauses and train queries only,
cached under its calibration's digest, and when it cannot be made or loaded the queries fall
back to the weight-only twin, then to the index's own model. No real quantisation here (NNCF
alone takes ~20 s to import on these cores); the quantiser is swapped for one that copies."""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index_builder.errors import ModelLoadError
from index_builder.index import batcher
from index_builder.index import embedder_openvino as ovemb
from index_builder.index.calibration import calibration_texts, digest
from index_builder.index.embedder import (QUERY_TWINS, _load_tokenizer, query_candidates,
                                          query_settings, resolve_model_path)
from index_builder.settings import EmbeddingSettings, load_settings


@pytest.fixture()
def small_acord(tmp_path: Path, acord_dir: Path) -> Path:
    """40 real ACORD clauses and every query with its split; no qrels folder at all."""
    out = tmp_path / "acord"
    out.mkdir()
    corpus = (acord_dir / "corpus.jsonl").read_text("utf-8").splitlines()[:40]
    (out / "corpus.jsonl").write_text("\n".join(corpus) + "\n", "utf-8")
    (out / "queries.jsonl").write_text((acord_dir / "queries.jsonl").read_text("utf-8"), "utf-8")
    return out


def test_calibration_is_clauses_runs_and_train_queries_only(small_acord: Path) -> None:
    texts = calibration_texts(small_acord, clauses=10, runs=5)
    queries = [json.loads(line) for line in (small_acord / "queries.jsonl").read_text().splitlines()]
    by_split: dict[str, set[str]] = {}
    for q in queries:
        by_split.setdefault(q["metadata"]["split"], set()).add(" ".join(q["text"].split()))
    clauses = {" ".join(json.loads(line)["text"].split())
               for line in (small_acord / "corpus.jsonl").read_text().splitlines()}
    assert texts[:10] and set(texts[:10]) <= clauses
    assert all(6 <= len(run.split()) <= 12 and any(run in c for c in clauses) for run in texts[10:15])
    assert set(texts[15:]) == by_split["train"]
    assert not (set(texts) & (by_split["test"] | by_split["valid"]) - by_split["train"])
    assert texts == calibration_texts(small_acord, clauses=10, runs=5)  # fixed: same file every machine
    assert digest(texts, 256) == digest(list(texts), 256) != digest(texts, 128)
    assert digest(texts, 256) != digest(texts[1:], 256)


def test_no_calibration_folder_names_the_setting(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="PRECEDENT_QUERY_CALIBRATION_DIR"):
        calibration_texts(tmp_path / "nowhere")
    settings = load_settings({"PRECEDENT_QUERY_CALIBRATION_DIR": str(tmp_path / "x")})
    assert settings.embedding.calibration_dir == tmp_path / "x"


def test_candidates_run_static_then_weight_only_then_the_index_model() -> None:
    torch = EmbeddingSettings(backend="torch", query_backend="openvino-int8-static")
    assert [c.backend for c in query_candidates(torch)] == ["openvino-int8-static", "openvino-int8",
                                                           "torch"]
    assert query_settings(torch).backend == "openvino-int8-static"
    assert [c.backend for c in query_candidates(replace(torch, query_backend="openvino-int8"))] == [
        "openvino-int8", "torch"]
    assert [c.backend for c in query_candidates(replace(torch, query_backend="index"))] == ["torch"]
    onnx = replace(torch, backend="onnx")  # no twin recorded for an onnx index
    assert [c.backend for c in query_candidates(onnx)] == ["onnx"]
    assert ("torch", "openvino-int8-static") in QUERY_TWINS


class Fake:
    def __init__(self, model_id: str) -> None:
        self.model_id, self.dimension = model_id, 3

    def embed(self, texts, *, show_progress=False):  # type: ignore[no-untyped-def]
        return np.ones((len(texts), 3), dtype=np.float32)


@pytest.mark.parametrize("broken, expected", [
    ({"openvino-int8-static"}, "all-MiniLM-L6-v2+openvino-int8"),
    ({"openvino-int8-static", "openvino-int8"}, "all-MiniLM-L6-v2"),
])
def test_a_twin_that_cannot_be_made_falls_back_in_turn(broken: set[str], expected: str,
                                                       caplog: Any) -> None:
    tried: list[str] = []

    def load(settings: EmbeddingSettings) -> Any:
        tried.append(settings.backend)
        if settings.backend in broken:
            raise ModelLoadError(f"cannot make {settings.backend}")
        suffix = "" if settings.backend == "torch" else f"+{settings.backend}"
        return Fake(f"all-MiniLM-L6-v2{suffix}")

    caplog.set_level(logging.WARNING, logger="index_builder.index.batcher")
    made = batcher.query_embedder(EmbeddingSettings(query_backend="openvino-int8-static",
                                                    query_batch=0, cache_size=0), load)
    assert made.model_id == expected
    assert tried == ["openvino-int8-static", "openvino-int8", "torch"][:len(broken) + 1]
    assert "cannot be embedded with openvino-int8-static" in caplog.text


def test_the_index_model_failing_too_is_an_error() -> None:
    def load(settings: EmbeddingSettings) -> Any:
        raise ModelLoadError("no model at all")

    with pytest.raises(ModelLoadError, match="no model at all"):
        batcher.query_embedder(EmbeddingSettings(query_backend="openvino-int8-static",
                                                 query_batch=0, cache_size=0), load)


@pytest.fixture()
def tiny_ir(tmp_path: Path) -> Path:
    """A real (tiny) OpenVINO float model where the converted MiniLM would be."""
    ov = pytest.importorskip("openvino")
    from openvino import opset13 as ops

    ids = ops.parameter([-1, -1], ov.Type.i64, name="input_ids")
    mask = ops.parameter([-1, -1], ov.Type.i64, name="attention_mask")
    x = ops.unsqueeze(ops.convert(ops.add(ids, mask), ov.Type.f32), ops.constant(np.array([2])))
    out = ops.matmul(x, ops.constant(np.ones((1, 4), dtype=np.float32)), False, False)
    target = tmp_path / "model-openvino"
    target.mkdir()
    ov.save_model(ov.Model([out], [ids, mask]), str(target / "model.xml"), compress_to_fp16=False)
    return target


def test_the_static_model_is_made_once_and_named_by_its_calibration(
        tiny_ir: Path, small_acord: Path, monkeypatch: Any) -> None:
    calls: list[int] = []

    def quantize(model: Any, batches: list[dict[str, np.ndarray]]) -> Any:
        calls.append(len(batches))
        assert all(set(b) == {"input_ids", "attention_mask"} for b in batches)
        return model  # stands in for NNCF: the file handling is what is tested

    monkeypatch.setattr(ovemb, "_quantize", quantize)
    monkeypatch.setattr("index_builder.index.calibration.CLAUSES", 10)
    monkeypatch.setattr("index_builder.index.calibration.RUNS", 5)
    folder = Path(resolve_model_path("all-MiniLM-L6-v2"))
    tokenizer = _load_tokenizer(folder, 256)
    texts = calibration_texts(small_acord)
    path = ovemb.openvino_model_file(folder, tiny_ir, "openvino-int8-static", small_acord, tokenizer)
    assert path.name == f"model-int8s{ovemb._STATIC_RECIPE}-{digest(texts, 256)}.xml"
    assert path.is_file()
    assert path.with_suffix(".bin").is_file()
    assert calls == [-(-len(texts) // 8)]  # length-sorted batches of 8
    again = ovemb.openvino_model_file(folder, tiny_ir, "openvino-int8-static", small_acord, tokenizer)
    assert again == path and len(calls) == 1  # cached: not quantised again
    short = _load_tokenizer(folder, 128)  # another length: another calibration, another file
    assert ovemb.openvino_model_file(folder, tiny_ir, "openvino-int8-static", small_acord,
                                     short) != path


def test_a_quantiser_failure_is_a_model_load_error_and_leaves_no_file(
        tiny_ir: Path, small_acord: Path, monkeypatch: Any) -> None:
    def quantize(model: Any, batches: Any) -> Any:
        raise RuntimeError("nncf could not collect statistics")

    monkeypatch.setattr(ovemb, "_quantize", quantize)
    monkeypatch.setattr("index_builder.index.calibration.CLAUSES", 10)
    monkeypatch.setattr("index_builder.index.calibration.RUNS", 5)
    folder = Path(resolve_model_path("all-MiniLM-L6-v2"))
    with pytest.raises(ModelLoadError, match="nncf could not collect statistics"):
        ovemb.openvino_model_file(folder, tiny_ir, "openvino-int8-static", small_acord,
                                  _load_tokenizer(folder, 256))
    assert sorted(p.name for p in tiny_ir.iterdir()) == ["model.bin", "model.xml"]
    with pytest.raises(ModelLoadError, match="PRECEDENT_QUERY_CALIBRATION_DIR"):
        ovemb.openvino_model_file(folder, tiny_ir, "openvino-int8-static", tiny_ir / "none",
                                  _load_tokenizer(folder, 256))


class Shaped(Fake):
    """A model that can also run fixed input shapes (as OpenVinoEmbedder can)."""

    def use_fixed_shapes(self, shapes, calls, compile_now=False):  # type: ignore[no-untyped-def]
        self.shapes = (shapes, calls, compile_now)


def test_fixed_shapes_go_to_a_model_that_runs_them_once_per_concurrent_call() -> None:
    made: list[Any] = []

    def load(settings: EmbeddingSettings) -> Any:
        made.append(Shaped("all-MiniLM-L6-v2+openvino-int8-static"))
        return made[-1]

    settings = EmbeddingSettings(query_backend="openvino-int8-static", query_batch=0,
                                 cache_size=0, query_workers=3, query_shapes="1x16,2x32")
    batcher.query_embedder(settings, load)
    assert made[-1].shapes == ({1: [16], 2: [32]}, 3, False)
    batcher.query_embedder(settings, load, compile_now=True)  # the server compiles them at start
    assert made[-1].shapes == ({1: [16], 2: [32]}, 3, True)
    batcher.query_embedder(replace(settings, query_shapes="off"), load)
    assert not hasattr(made[-1], "shapes")  # off: the dynamic-shape model only
    plain = batcher.query_embedder(settings, lambda s: Fake("all-MiniLM-L6-v2+openvino-int8-static"))
    assert plain.embed(["a"]).shape == (1, 3)  # a model without fixed shapes is used as it is
