"""The embedding model through OpenVINO: the fastest CPU path measured here (issue 9).

``PRECEDENT_EMBEDDING_BACKEND``:

- ``openvino``: the sentence-transformers model converted once to OpenVINO IR, run in float32
  (the same vectors as torch to about 1e-6).
- ``openvino-int8``: that IR with int8 *weights* (per-channel, asymmetric; NNCF's data-free
  weight compression). Activations stay float, so no calibration texts are needed, the file
  is the same on every machine, and the vectors stay within 0.999 cosine of the original
  (ONNX Runtime's dynamic int8, which also quantises activations, gives 0.994).
- ``openvino-int8-static``: int8 weights *and* activations (NNCF post-training quantisation,
  ModelType.TRANSFORMER), calibrated once on ACORD's clauses and train queries
  (``calibration.py``). On a CPU with AVX-512 VNNI or AMX the matrix products run in int8:
  the cheapest query model measured (benchmarks/results/throughput/README.md). Without those
  instructions OpenVINO falls back to a generic int8 kernel slower than float
  (benchmarks/results/embedding-throughput/README.md).

Both run several inference requests at once (OpenVINO's throughput mode: one stream per
thread), which on two cores is what lifts throughput over one request using two threads.
Conversions are cached under ``PRECEDENT_EMBEDDING_ONNX_DIR`` next to the ONNX exports, keyed
by a hash of the weights, so every process (build workers, the server) loads the same file.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from tqdm import tqdm

from index_builder.errors import ModelLoadError
from index_builder.index.embedder import (TokenizedEmbedder, _encoder_module, _quiet, cache_slug,
                                          length_batches, mean_pool, padded)
from index_builder.settings import EmbeddingSettings

log = logging.getLogger(__name__)

_IR = "model.xml"  # OpenVINO IR: the graph; the weights sit beside it in model.bin
_IR_INT8 = "model-int8w.xml"
# Named after its recipe and its calibration texts; bump the recipe when _quantize changes.
_STATIC_RECIPE = "1"
_IR_STATIC = "model-int8s{recipe}-{calibration}.xml"
_CALIBRATION_BATCH = 8  # texts of similar length per calibration batch: little padding


class OpenVinoEmbedder(TokenizedEmbedder):
    """A BERT-style mean-pooling sentence-transformers model run by OpenVINO on CPU."""

    def _open(self, folder: Path, settings: EmbeddingSettings) -> None:
        target = Path(settings.onnx_dir) / f"{cache_slug(folder, settings.model)}-openvino"
        path = openvino_model_file(folder, target, settings.backend, settings.calibration_dir,
                                   self._tokenizer)
        try:
            self._compiled = _compile(path, settings.threads)
        except RuntimeError as exc:  # a damaged cached file: name it, so it can be deleted
            raise ModelLoadError(f"OpenVINO cannot load {path} ({exc}): delete it to convert "
                                 f"the model again.") from exc
        self._jobs = int(self._compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS"))
        self._path = path
        self._fixed: _FixedShapes | None = None
        log.info("Loaded embedding model %s through OpenVINO from %s (%d parallel requests)",
                 self.model_id, path, self._jobs)

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if self._fixed is not None and len(texts) <= _FIXED_MOST_TEXTS:
            return self._fixed.embed(self, texts)
        return self._embed_dynamic(texts, show_progress)

    def use_fixed_shapes(self, shapes: dict[int, list[int]], calls: int,
                         compile_now: bool = False) -> None:
        """Also run calls on compiles of these fixed input shapes (batch size -> lengths), for
        up to ``calls`` model calls at once (query_embedder: the batcher's workers); each
        compiled on first use, or all of them now (a server: ~1 s of CPU each, which would
        otherwise fall on its first searches)."""
        self._fixed = _FixedShapes(self._path, shapes, calls) if shapes else None
        if self._fixed is not None and compile_now:
            try:
                self._fixed.compile_all()
            except RuntimeError as exc:  # e.g. out of memory: serve on the dynamic model alone
                log.warning("The query model's fixed-shape compiles failed (%s); queries use the "
                            "dynamic-shape model only (PRECEDENT_QUERY_SHAPES=off says so)", exc)
                self._fixed = None

    def _embed_dynamic(self, texts: Sequence[str], show_progress: bool = False) -> np.ndarray:
        """Every text on the dynamic-shape model, in batches of similar length."""
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        batches = length_batches(self._tokenizer, texts, self._settings.batch_size)
        # Plain requests waited on from this thread, not AsyncInferQueue with a Python callback:
        # a callback runs on OpenVINO's executor threads and must take the GIL there, and a
        # compiled model freed while one of them still waits for it deadlocks in its destructor
        # (seen in a test run; openvinotoolkit/openvino#24722 is the same family). Here no
        # Python code ever runs on OpenVINO's threads.
        requests = [self._compiled.create_infer_request() for _ in range(self._jobs)]
        pending: list[tuple[np.ndarray, np.ndarray] | None] = [None] * len(requests)

        def harvest(slot: int) -> None:
            job = pending[slot]
            if job is not None:
                requests[slot].wait()
                rows, mask = job
                out[rows] = mean_pool(requests[slot].get_output_tensor(0).data, mask)
                pending[slot] = None
                bar.update(1)

        with tqdm(total=len(batches), desc="Embedding", unit="batch",
                  disable=not show_progress) as bar:
            try:
                for number, (rows, ids) in enumerate(batches):
                    slot = number % len(requests)
                    harvest(slot)
                    input_ids, mask = padded(ids)
                    requests[slot].start_async({"input_ids": input_ids, "attention_mask": mask})
                    pending[slot] = (rows, mask)
                for slot in range(len(requests)):
                    harvest(slot)
            finally:
                for slot, job in enumerate(pending):
                    if job is not None:  # an error above: let running requests end first
                        requests[slot].wait()
        return out


# A call of more texts than this is a build's or an eval's batch, not queries: dynamic path.
_FIXED_MOST_TEXTS = 16
# One stream of one thread, run synchronously: OpenVINO's CPU plugin then infers on the
# calling thread, so the fixed compiles start no executor threads of their own (session 7's
# compiles of two streams each brought ~20 busy native threads into a worker and no gain).
_FIXED_CONFIG = {"PERFORMANCE_HINT": "LATENCY", "NUM_STREAMS": 1, "INFERENCE_NUM_THREADS": 1,
                 "ENABLE_CPU_PINNING": False}


class _FixedShapes:
    """The query model compiled for fixed [batch, length] input shapes.

    Why: the dynamic-shape model pays ~1.6 ms of CPU a call whenever its input shape differs
    from its previous call's (shape inference and buffers for every node), more than the int8
    arithmetic of a short query, and in a server consecutive calls almost never share a shape
    (benchmarks/results/throughput/README.md, session 8). A fixed-shape compile skips that.
    A compile serves one call at a time (one stream: the plugin locks its graph), so there is
    a set of compiles per concurrent call ("slots"), each compiled on first use; a call takes
    a free slot, runs its chunks there on its own thread, and gives it back.
    """

    def __init__(self, path: Path, shapes: dict[int, list[int]], calls: int) -> None:
        self._path = path
        self.shapes = shapes
        self._chunk = max(shapes)
        self._slots: queue.LifoQueue[dict[tuple[int, int], Any]] = queue.LifoQueue()
        for _ in range(max(1, calls)):
            self._slots.put({})
        self.compiled = 0  # how many compiles exist (tests, logs)
        self._lock = threading.Lock()

    def embed(self, model: OpenVinoEmbedder, texts: Sequence[str]) -> np.ndarray:
        """Rows for ``texts``: by length, in chunks of the largest listed batch size; a chunk
        whose size is listed and whose longest text fits a listed length runs on that shape
        (padded; the mask hides the padding), every other text on the dynamic-shape model."""
        ids = [e.ids for e in model._tokenizer.encode_batch(list(texts))]
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        out = np.zeros((len(texts), model.dimension), dtype=np.float32)
        rest: list[int] = []
        slot = self._slots.get()
        try:
            for start in range(0, len(order), self._chunk):
                rows = order[start:start + self._chunk]
                longest = len(ids[rows[-1]])
                length = next((n for n in self.shapes.get(len(rows), ()) if n >= longest), None)
                if length is None:
                    rest.extend(rows)
                    continue
                input_ids = np.zeros((len(rows), length), dtype=np.int64)
                mask = np.zeros_like(input_ids)
                for j, row in enumerate(rows):
                    input_ids[j, :len(ids[row])] = ids[row]
                    mask[j, :len(ids[row])] = 1
                try:
                    request = slot.get((len(rows), length)) or self._add(slot, len(rows), length)
                    request.infer({"input_ids": input_ids, "attention_mask": mask})
                except RuntimeError as exc:  # OpenVINO's errors: the dynamic model still answers
                    log.warning("The query model's %d x %d fixed-shape compile failed (%s); those "
                                "texts use the dynamic-shape model", len(rows), length, exc)
                    rest.extend(rows)
                    continue
                out[rows] = mean_pool(request.get_output_tensor(0).data, mask)
        finally:
            self._slots.put(slot)
        if rest:
            out[rest] = model._embed_dynamic([texts[i] for i in rest])
        return out

    def compile_all(self) -> None:
        slots = [self._slots.get() for _ in range(self._slots.qsize())]
        try:
            for slot in slots:
                for batch, lengths in self.shapes.items():
                    for length in lengths:
                        if (batch, length) not in slot:
                            self._add(slot, batch, length)
        finally:
            for slot in slots:
                self._slots.put(slot)

    def _add(self, slot: dict[tuple[int, int], Any], batch: int, length: int) -> Any:
        ov = _openvino()
        graph = ov.Core().read_model(str(self._path))
        graph.reshape({"input_ids": [batch, length], "attention_mask": [batch, length]})
        with _quiet():
            request = ov.Core().compile_model(graph, "CPU", _FIXED_CONFIG).create_infer_request()
        slot[batch, length] = request  # this slot is this thread's until it is given back
        with self._lock:
            self.compiled += 1
        log.info("Compiled the query model for %d x %d tokens (%d fixed-shape compiles)", batch,
                 length, self.compiled)
        return request


def openvino_model_file(folder: Path, target: Path, backend: str,
                        calibration_dir: Path | None = None, tokenizer: Any = None) -> Path:
    """The model's IR for ``backend`` (float32, int8 weights, or static int8), converted into
    ``target`` on first use. The static model is calibrated on ``calibration_dir`` (an ACORD
    folder) tokenised by ``tokenizer``."""
    fp32, int8 = target / _IR, target / _IR_INT8
    if not fp32.is_file():
        log.info("Converting %s to OpenVINO under %s (once)", folder, target)
        _atomic_ir(fp32, lambda ov: _convert(folder, ov))
    if backend == "openvino-int8":
        if not int8.is_file():
            log.info("Compressing %s to int8 weights (once)", fp32)
            _atomic_ir(int8, lambda ov: _compress(ov.Core().read_model(str(fp32))))
        return int8
    if backend == "openvino-int8-static":
        if calibration_dir is None or tokenizer is None:
            raise ModelLoadError("The static int8 model needs calibration texts (an ACORD folder).")
        from index_builder.index.calibration import calibration_texts, digest

        texts = calibration_texts(calibration_dir)
        static = target / _IR_STATIC.format(recipe=_STATIC_RECIPE,
                                            calibration=digest(texts, _max_length(tokenizer)))
        if not static.is_file():
            log.info("Quantising %s to int8 weights and activations on %d calibration texts "
                     "(once; a minute or two)", fp32, len(texts))
            try:
                _atomic_ir(static, lambda ov: _quantize(ov.Core().read_model(str(fp32)),
                                                        _calibration_batches(tokenizer, texts)))
            except ModelLoadError:
                raise
            except Exception as exc:  # NNCF's own errors: the twin's fallback takes over
                raise ModelLoadError(f"Quantising the query model to static int8 failed "
                                     f"({type(exc).__name__}: {exc}).") from exc
        return static
    return fp32


def _max_length(tokenizer: Any) -> int:
    truncation = getattr(tokenizer, "truncation", None) or {}
    return int(truncation.get("max_length", 0))


def _calibration_batches(tokenizer: Any, texts: list[str]) -> list[dict[str, np.ndarray]]:
    batches = length_batches(tokenizer, texts, _CALIBRATION_BATCH)
    return [dict(zip(("input_ids", "attention_mask"), padded(ids))) for _, ids in batches]


def _atomic_ir(path: Path, make: Any) -> None:
    """Write the .xml/.bin pair in a scratch folder, then move .bin before .xml.

    Readers test for the .xml, so they never see a graph without its weights; two processes
    converting at once both write complete files and the last rename wins.
    """
    ov = _openvino()
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=path.parent, prefix=".partial-"))
    try:
        with _quiet():
            ov.save_model(make(ov), str(scratch / path.name), compress_to_fp16=False)
        (scratch / path.name).with_suffix(".bin").replace(path.with_suffix(".bin"))
        (scratch / path.name).replace(path)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _convert(folder: Path, ov: Any) -> Any:
    try:
        import torch
    except ImportError:
        raise ModelLoadError("Converting the model to OpenVINO needs torch: run "
                             "`pip install sentence-transformers`.") from None
    module = _encoder_module(folder)
    sample = torch.ones((2, 8), dtype=torch.int64)
    shape = ov.PartialShape([-1, -1])
    with torch.no_grad():
        return ov.convert_model(module, example_input=(sample, sample),
                                input=[("input_ids", shape, ov.Type.i64),
                                       ("attention_mask", shape, ov.Type.i64)])


def _compress(model: Any) -> Any:
    nncf = _nncf()
    # Its "Applying Weight Compression" bar is printed to stdout whatever the log level; on a
    # machine's first int8 query model that bar would land in front of `search --json`'s JSON.
    with contextlib.redirect_stdout(sys.stderr):
        return nncf.compress_weights(model, mode=nncf.CompressWeightsMode.INT8_ASYM)


def _quantize(model: Any, batches: list[dict[str, np.ndarray]]) -> Any:
    """NNCF's post-training static quantisation, transformer preset (SmoothQuant, bias
    correction). Deterministic: two builds from the same model and calibration texts gave
    byte-identical files (benchmarks/results/throughput/README.md)."""
    nncf = _nncf()
    with contextlib.redirect_stdout(sys.stderr):  # its progress bars, as in _compress
        return nncf.quantize(model, nncf.Dataset(batches), model_type=nncf.ModelType.TRANSFORMER,
                             subset_size=len(batches))


def _nncf() -> Any:
    try:
        import nncf
    except ImportError:
        raise ModelLoadError("The int8 OpenVINO models need NNCF: run "
                             "`pip install 'precedent[openvino]'`.") from None
    nncf.set_log_level(logging.ERROR)  # its progress tables go to stdout otherwise
    return nncf


def _compile(path: Path, threads: int) -> Any:
    ov = _openvino()
    config: dict[str, Any] = {"PERFORMANCE_HINT": "THROUGHPUT"}
    if threads:
        config["INFERENCE_NUM_THREADS"] = threads
    return ov.Core().compile_model(str(path), "CPU", config)


def _openvino() -> Any:
    try:
        import openvino as ov
    except ImportError:
        raise ModelLoadError("The openvino embedding backends need OpenVINO: run "
                             "`pip install 'precedent[openvino]'`, or set "
                             "PRECEDENT_EMBEDDING_BACKEND=torch.") from None
    return ov
