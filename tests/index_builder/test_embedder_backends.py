"""Embedding backends: variant ids, settings, ONNX pooling and order, and the throughput helpers."""

from __future__ import annotations

import importlib
import json
import logging
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from index_builder.errors import ConfigError, ModelLoadError
from index_builder.index import embedder as emb
from index_builder.index import load_embedder
from index_builder.settings import EmbeddingSettings, load_settings
from index_builder.settings.search import parse_query_shapes

def _benchmark(name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"precedent_bench.embedding.{name}")


def test_each_variant_has_its_own_model_id() -> None:
    base = EmbeddingSettings()
    ids = {emb.model_id_for(replace(base, backend=b)) for b in emb.EMBEDDING_BACKENDS}
    assert len(ids) == len(emb.EMBEDDING_BACKENDS) == 6
    assert emb.model_id_for(base) == "all-MiniLM-L6-v2"  # indexes built before backends stay valid
    assert emb.model_id_for(replace(base, backend="onnx-int8")) == "all-MiniLM-L6-v2+onnx-int8"
    # Reading fewer tokens changes long clauses' vectors: an index records the length too.
    short = replace(base, backend="openvino-int8", max_seq_length=128)
    assert emb.model_id_for(short) == "all-MiniLM-L6-v2+openvino-int8@128"
    assert emb.model_id_for(replace(base, max_seq_length=128)) == "all-MiniLM-L6-v2@128"


def test_a_mismatch_names_every_setting_that_reproduces_the_index_model() -> None:
    """The hint a model mismatch prints, read back as settings, gives the index's own model id."""
    base = EmbeddingSettings()
    for variant in (base, replace(base, backend="onnx", model="all-MiniLM-L3-precedent"),
                    replace(base, backend="openvino-int8", max_seq_length=128)):
        hint = emb.settings_for_model_id(emb.model_id_for(variant))
        env = dict(pair.split("=", 1) for pair in hint.split())
        assert emb.model_id_for(load_settings(env).embedding) == emb.model_id_for(variant)


def test_backend_setting_from_environment_and_refused_when_unknown() -> None:
    settings = load_settings({"PRECEDENT_EMBEDDING_BACKEND": "onnx-int8",
                              "PRECEDENT_EMBEDDING_THREADS": "2"})
    assert settings.embedding.backend == "onnx-int8" and settings.embedding.threads == 2
    with pytest.raises(ConfigError, match="PRECEDENT_EMBEDDING_BACKEND"):
        load_settings({"PRECEDENT_EMBEDDING_BACKEND": "tensorflow"})
    with pytest.raises(ConfigError, match="PRECEDENT_EMBEDDING_THREADS"):
        load_settings({"PRECEDENT_EMBEDDING_THREADS": "-1"})


def _st_folder(tmp_path: Path, pooling: dict) -> Path:
    (tmp_path / "1_Pooling").mkdir(parents=True)
    (tmp_path / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]))
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    return tmp_path


def test_only_mean_pooling_models_run_through_onnx(tmp_path: Path) -> None:
    mean = _st_folder(tmp_path / "mean", {"word_embedding_dimension": 4, "pooling_mode_mean_tokens": True})
    assert emb._mean_pooling_config(mean, "m")["word_embedding_dimension"] == 4
    cls = _st_folder(tmp_path / "cls", {"word_embedding_dimension": 4, "pooling_mode_cls_token": True,
                                        "pooling_mode_mean_tokens": False})
    with pytest.raises(ModelLoadError, match="PRECEDENT_EMBEDDING_BACKEND=torch"):
        emb._mean_pooling_config(cls, "m")
    # the format sentence-transformers 5 saves (a model distilled here, say)
    saved = _st_folder(tmp_path / "st5", {"embedding_dimension": 4, "pooling_mode": "mean"})
    assert emb._mean_pooling_config(saved, "m")["word_embedding_dimension"] == 4
    lasttoken = _st_folder(tmp_path / "st5-last", {"embedding_dimension": 4, "pooling_mode": "lasttoken"})
    with pytest.raises(ModelLoadError, match="PRECEDENT_EMBEDDING_BACKEND=torch"):
        emb._mean_pooling_config(lasttoken, "m")
    with pytest.raises(ModelLoadError, match="transformers model folder"):
        emb._model_digest(tmp_path / "mean")


class _Encoding:
    def __init__(self, ids: list[int]) -> None:
        self.ids = ids


class _Tokenizer:
    """One token per word; the id is the word's length, so outputs identify their text."""

    def encode_batch(self, texts: list[str]) -> list[_Encoding]:
        return [_Encoding([len(w) for w in t.split()] or [1]) for t in texts]


class _Session:
    """Hidden state of each token = [id, 1, 0, ...]; records the padded widths it saw."""

    def __init__(self) -> None:
        self.widths: list[int] = []

    def run(self, _outputs: object, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        ids = feed["input_ids"]
        self.widths.append(ids.shape[1])
        hidden = np.zeros(ids.shape + (3,), dtype=np.float32)
        hidden[..., 0] = ids
        hidden[..., 1] = 1.0
        hidden[..., 2] = 99.0 * (feed["attention_mask"] == 0)  # padding must not count
        return [hidden]


def _fake_onnx(batch_size: int) -> tuple[emb.OnnxEmbedder, _Session]:
    embedder = object.__new__(emb.OnnxEmbedder)
    session = _Session()
    embedder._settings = EmbeddingSettings(batch_size=batch_size)
    embedder._tokenizer = _Tokenizer()
    embedder._session = session
    embedder._inputs = {"input_ids", "attention_mask", "token_type_ids"}
    embedder.dimension = 3
    return embedder, session


def test_onnx_embed_mean_pools_without_padding_and_keeps_input_order() -> None:
    embedder, session = _fake_onnx(batch_size=2)
    texts = ["aaaa bb", "c", "dddddd eeeeee ffffff", "gg"]
    vectors = embedder.embed(texts)
    expected = []
    for text in texts:
        mean_id = np.mean([len(w) for w in text.split()])
        v = np.array([mean_id, 1.0, 0.0])
        expected.append(v / np.linalg.norm(v))
    np.testing.assert_allclose(vectors, np.array(expected), rtol=1e-6)
    assert session.widths == [1, 3]  # sorted by length: "c" with "gg", then the 2- and 3-word texts
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert embedder.embed([]).shape == (0, 3)


def test_throughput_variants_name_a_runtime_its_options_and_a_model() -> None:
    bench = _benchmark("embedding_throughput")
    base = EmbeddingSettings()
    variant = bench.variant_settings(base, "onnx-int8:threads=2:batch=16:model=var/models/student", 1)
    assert (variant.backend, variant.threads, variant.batch_size, variant.model,
            variant.max_seq_length) == ("onnx-int8", 2, 16, "var/models/student", 256)
    assert bench.variant_settings(base, "torch", 1).model == base.model
    with pytest.raises(SystemExit, match="unknown variant option 'layers'"):
        bench.variant_settings(base, "torch:layers=3", 1)


def test_throughput_helpers_interleave_and_rank() -> None:
    bench = _benchmark("embedding_throughput")
    calls: list[tuple[str, int]] = []

    class Fake:
        def __init__(self, name: str) -> None:
            self.name = name

        def embed(self, texts, show_progress=False):  # type: ignore[no-untyped-def]
            calls.append((self.name, len(texts)))
            return np.ones((len(texts), 2), dtype=np.float32)

    seconds, vectors = bench.interleaved_timing({"a": Fake("a"), "b": Fake("b")}, ["t"] * 5, chunk=2)
    assert [c[0] for c in calls] == ["a", "b", "b", "a", "a", "b"]  # rotating order per chunk
    assert vectors["a"].shape == (5, 2) and set(seconds) == {"a", "b"}
    docs = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]], dtype=np.float32)
    runs = bench.dense_runs(["x", "y", "z"], docs, ["q"], np.array([[0.0, 1.0]], dtype=np.float32), 2)
    assert runs == {"q": ["y", "z"]}
    assert bench.agreement(docs, docs)["min"] == pytest.approx(1.0)


def test_throughput_scores_every_query_shape_and_judges_the_drop() -> None:
    from index_builder.evaluate.acord import Acord, Query

    bench = _benchmark("embedding_throughput")
    docs = ["a", "b", "c"]
    vectors = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]], dtype=np.float32)
    wordings = {"short": "s", "medium": "m", "long": "l"}
    acord = Acord(Path("."), {"q1": Query("q1", "s", "cat", "train", wordings)},
                  {"train": {"q1": {"a": 1, "b": 4, "c": 4}}})

    class Fixed:  # every wording embeds next to clause b
        def embed(self, texts, show_progress=False):  # type: ignore[no-untyped-def]
            return np.tile(np.array([[0.0, 1.0]], dtype=np.float32), (len(texts), 1))

    scores = bench.shape_ndcg(acord, "train", ["short", "long", "clause"], Fixed(), docs, vectors, 3)
    assert scores["short"]["ndcg@5"] == pytest.approx(scores["long"]["ndcg@5"])
    # Clause as query: b and c (5-star) each query with their own vector; themselves unjudged.
    assert 0 < scores["clause"]["ndcg@5"] <= 100

    reference = {"speedup": 1.0, "ndcg@5_by_split": {"train": {"short": 50.0, "clause": 40.0}}}
    close = {"speedup": 3.2, "ndcg@5_by_split": {"train": {"short": 49.6, "clause": 40.5}}}
    lossy = {"speedup": 3.2, "ndcg@5_by_split": {"train": {"short": 50.0, "clause": 39.0}}}
    slow = {"speedup": 2.0, "ndcg@5_by_split": {"train": {"short": 50.0, "clause": 40.0}}}
    assert bench.verdict(close, reference, 3.0, 0.5)["holds"]
    assert bench.verdict(lossy, reference, 3.0, 0.5) == {
        "ndcg@5_drop": {"train/short": 0.0, "train/clause": 1.0}, "worst_drop": 1.0, "holds": False}
    assert not bench.verdict(slow, reference, 3.0, 0.5)["holds"]
    timing_only = {"speedup": 3.2, "ndcg@5_by_split": {}}
    assert bench.verdict(timing_only, reference, 3.0, 0.5)["holds"] is None  # quality unmeasured


@pytest.mark.slow
def test_onnx_int8_matches_the_torch_model_closely(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    texts = ["The Supplier shall indemnify the Customer against all losses.",
             "This Agreement is governed by the laws of England and Wales.", "Notices."]
    base = EmbeddingSettings(onnx_dir=tmp_path)
    reference = load_embedder(base).embed(texts)
    fp32 = load_embedder(replace(base, backend="onnx"))
    int8 = load_embedder(replace(base, backend="onnx-int8"))
    assert int8.model_id != fp32.model_id != reference.__class__.__name__
    assert np.min((fp32.embed(texts) * reference).sum(1)) > 0.9999
    assert np.min((int8.embed(texts) * reference).sum(1)) > 0.97


@pytest.mark.slow
def test_openvino_backends_match_the_torch_model_and_keep_input_order(tmp_path: Path) -> None:
    pytest.importorskip("openvino")
    pytest.importorskip("nncf")
    texts = ["The Supplier shall indemnify the Customer against all losses, damages and costs "
             "arising out of any breach of this Agreement by the Supplier.",
             "Notices.", "This Agreement is governed by the laws of England and Wales.",
             "Neither party may assign this Agreement without the other's prior written consent."]
    base = EmbeddingSettings(onnx_dir=tmp_path, batch_size=2, threads=2)
    reference = load_embedder(base).embed(texts)
    fp32 = load_embedder(replace(base, backend="openvino"))
    int8 = load_embedder(replace(base, backend="openvino-int8"))
    assert (fp32.model_id, int8.model_id) == ("all-MiniLM-L6-v2+openvino",
                                              "all-MiniLM-L6-v2+openvino-int8")
    # Batches run concurrently and finish in any order: each row must still be its own text's.
    assert np.min((fp32.embed(texts) * reference).sum(1)) > 0.9999
    assert np.min((int8.embed(texts) * reference).sum(1)) > 0.995
    assert int8.embed([]).shape == (0, 384)
    # The conversion is cached: a second load (a build worker, the server) converts nothing.
    cached = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert cached == ["model-int8w.bin", "model-int8w.xml", "model.bin", "model.xml"]
    again = load_embedder(replace(base, backend="openvino-int8"))
    assert np.allclose(again.embed(texts[:1]), int8.embed(texts[:1]), atol=1e-6)


@pytest.mark.slow
def test_fixed_query_shapes_run_the_chunks_that_fit_and_keep_each_row_its_own(tmp_path: Path) -> None:
    """PRECEDENT_QUERY_SHAPES: a call's texts, by length, in chunks of the largest listed batch
    size; a chunk of a listed size whose longest text fits a listed length runs on that shape's
    own compile (padded, masked), any other text on the dynamic-shape model."""
    pytest.importorskip("openvino")
    texts = ["Notices.", "The Supplier shall indemnify the Customer against all losses.",
             "This Agreement is governed by the laws of England and Wales.",
             " ".join(["The Customer shall pay every invoice within thirty days of receipt."] * 4)]
    base = EmbeddingSettings(onnx_dir=tmp_path, backend="openvino", threads=1)
    dynamic = load_embedder(base)
    want = np.vstack([dynamic.embed([t]) for t in texts])
    fixed = load_embedder(base)
    fixed.use_fixed_shapes(parse_query_shapes("1x8,1x32,2x32"), calls=2)
    assert fixed._fixed.compiled == 0  # compiled on first use only
    alone = np.vstack([fixed.embed([t]) for t in texts])
    assert fixed._fixed.compiled == 2  # "Notices." fits 8 tokens, two fit 32, the last fits none
    assert np.min((alone * want).sum(1)) > 0.9999
    assert np.array_equal(alone[3], want[3])  # too long for any shape: the very same model
    # Four texts in one call: by length, in pairs; the shortest two run as 2x32, the next pair
    # holds the long text, so both of its texts run on the dynamic model; rows keep their order.
    mixed = fixed.embed([texts[3], texts[1], texts[0], texts[2]])
    assert fixed._fixed.compiled == 3
    assert np.min((mixed * want[[3, 1, 0, 2]]).sum(1)) > 0.9999
    assert fixed.embed([]).shape == (0, dynamic.dimension)
    # A build's batch (more texts than queries come in) never takes the fixed shapes.
    many = fixed.embed(texts * 5)
    # Padded to the longest text of the batch, a row may differ from its text alone by more than
    # 1e-4 on some CPUs (the same model, another summation order): the row is still its own text's.
    assert fixed._fixed.compiled == 3 and np.min((many[:4] * want).sum(1)) > 0.9999
    eager = load_embedder(base)
    eager.use_fixed_shapes(parse_query_shapes("1x8,2x32"), calls=2, compile_now=True)
    assert eager._fixed.compiled == 4  # every shape for each of two calls at once
    assert np.array_equal(eager.embed(texts[:1]), alone[:1])


def test_query_shapes_are_read_as_batch_by_length_and_a_wrong_one_is_named() -> None:
    assert parse_query_shapes("") == {}
    assert parse_query_shapes("1x32, 1x16,2X16") == {1: [16, 32], 2: [16]}
    assert EmbeddingSettings().query_shapes  # on by default (measured, throughput README)
    with pytest.raises(ConfigError, match="PRECEDENT_QUERY_SHAPES"):
        EmbeddingSettings(query_shapes="16")
    off = load_settings({"PRECEDENT_QUERY_SHAPES": "off"}).embedding.query_shapes
    assert parse_query_shapes(off) == {}


def test_a_fixed_shape_that_cannot_be_compiled_leaves_its_texts_to_the_dynamic_model(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """No search fails because a fixed-shape compile does: those texts take the dynamic model."""
    from types import SimpleNamespace

    from index_builder.index import embedder_openvino as ovemb

    class Tokens:
        def encode_batch(self, texts):  # type: ignore[no-untyped-def]
            return [SimpleNamespace(ids=[1] * len(t.split())) for t in texts]

    dynamic_calls: list[list[str]] = []

    def dynamic(texts):  # type: ignore[no-untyped-def]
        dynamic_calls.append(list(texts))
        return np.full((len(texts), 3), float(len(dynamic_calls)), dtype=np.float32)

    model = SimpleNamespace(_tokenizer=Tokens(), dimension=3, _embed_dynamic=dynamic)
    fixed = ovemb._FixedShapes(Path("unused.xml"), {1: [8], 2: [8]}, calls=1)

    def broken(*_args):  # type: ignore[no-untyped-def]
        raise RuntimeError("Exception from src/inference: out of memory")

    monkeypatch.setattr(fixed, "_add", broken)
    caplog.set_level(logging.WARNING, logger="index_builder.index.embedder_openvino")
    rows = fixed.embed(model, ["a b", "c d e", "f " * 20])  # a pair that fits 8, one too long
    assert dynamic_calls == [["a b", "c d e", "f " * 20]]  # all three, in one dynamic call
    assert rows.shape == (3, 3) and "fixed-shape compile failed" in caplog.text
    assert fixed._slots.qsize() == 1  # the slot was given back
