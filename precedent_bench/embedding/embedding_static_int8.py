"""Does int8 *activations* (static post-training quantisation) speed up the embedder here?

Usage (from the repo root):
    nice -n 19 precedent-bench embedding-int8 [--limit 400]
        [--out benchmarks/results/embedding-throughput/static_int8.json]

NNCF's post-training static quantisation of the OpenVINO model (int8 weights and activations,
ModelType.TRANSFORMER: SmoothQuant and bias correction included), calibrated on clauses of the
shared agreements (--calibration, never ACORD), against the two OpenVINO models the project
ships (float32 ``openvino`` and int8-weights ``openvino-int8``), all at 256 tokens. The ACORD
clauses (a fixed random sample of --limit) are embedded chunk by chunk in rotating order, as in
embedding_throughput.py, so load changes hit every model alike. It prints clauses/s, the
ratio to ``openvino-int8`` and each model's cosine to the float32 model (torch's vectors to
about 1e-6), and the kernel OpenVINO picked for the fully connected layers: without AVX-512
VNNI or AMX, the int8 layers run oneDNN's generic ``jit_gemm_I8``, not the ``brgemm`` kernels
that carry the float and weight-only models.
"""

from __future__ import annotations

import argparse
import collections
import json
import logging
import os
import random
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from index_builder.index.documents import read_beir_corpus
from index_builder.index.embedder import (_load_tokenizer, cache_slug, length_batches, mean_pool,
                                          padded, resolve_model_path)
from index_builder.index.embedder_openvino import openvino_model_file
from index_builder.settings import load_settings

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import ACORD, CONTRACTS, RESULTS, agreement_clauses

log = logging.getLogger("benchmark.static_int8")


def calibration_batches(folder: Path, tokenizer: Any, limit: int) -> list[dict[str, np.ndarray]]:
    """Clauses of the agreements under ``folder`` (a fixed random sample), batched by length."""
    texts = [c.text for c in agreement_clauses(folder)]
    random.Random(0).shuffle(texts)
    batches = length_batches(tokenizer, texts[:limit], 8)
    log.info("calibration: %d clauses of %s", min(limit, len(texts)), folder)
    return [dict(zip(("input_ids", "attention_mask"), padded(ids))) for _, ids in batches]


def embed(compiled: Any, tokenizer: Any, texts: Sequence[str], batch: int) -> np.ndarray:
    """Embed with two requests in flight (OpenVINO's throughput mode on two cores)."""
    out = np.zeros((len(texts), 384), dtype=np.float32)
    requests = [compiled.create_infer_request() for _ in range(2)]
    pending: list[tuple[np.ndarray, np.ndarray] | None] = [None, None]

    def harvest(slot: int) -> None:
        if pending[slot] is not None:
            requests[slot].wait()
            rows, mask = pending[slot]
            out[rows] = mean_pool(requests[slot].get_output_tensor(0).data, mask)
            pending[slot] = None

    for number, (rows, ids) in enumerate(length_batches(tokenizer, texts, batch)):
        slot = number % 2
        harvest(slot)
        input_ids, mask = padded(ids)
        requests[slot].start_async({"input_ids": input_ids, "attention_mask": mask})
        pending[slot] = (rows, mask)
    harvest(0)
    harvest(1)
    return out


def fc_kernels(compiled: Any, tokenizer: Any, text: str) -> dict[str, int]:
    """The kernels (exec types) of the fully connected layers, from one profiled request."""
    request = compiled.create_infer_request()
    input_ids, mask = padded([tokenizer.encode(text).ids])
    request.infer({"input_ids": input_ids, "attention_mask": mask})
    return dict(collections.Counter(p.exec_type for p in request.profiling_info
                                    if "FullyConnected" in p.node_type))


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    import nncf
    import openvino as ov

    settings = load_settings().embedding
    folder = Path(resolve_model_path(settings.model))
    target = Path(settings.onnx_dir) / f"{cache_slug(folder, settings.model)}-openvino"
    tokenizer = _load_tokenizer(folder, settings.max_seq_length)
    core = ov.Core()
    fp32 = openvino_model_file(folder, target, "openvino")
    models = {"openvino-int8": core.read_model(str(openvino_model_file(folder, target, "openvino-int8"))),
              "openvino": core.read_model(str(fp32))}
    began = time.perf_counter()
    nncf.set_log_level(logging.ERROR)
    models["nncf-static-int8"] = nncf.quantize(
        core.read_model(str(fp32)),
        nncf.Dataset(calibration_batches(Path(args.calibration), tokenizer, args.calibration_size)),
        model_type=nncf.ModelType.TRANSFORMER, subset_size=args.calibration_size)
    quantise_s = time.perf_counter() - began
    config = {"PERFORMANCE_HINT": "THROUGHPUT", "INFERENCE_NUM_THREADS": 2, "PERF_COUNT": True}
    compiled = {name: core.compile_model(model, "CPU", config) for name, model in models.items()}

    clauses = read_beir_corpus(Path(args.data) / "corpus.jsonl", "acord")
    texts = [c.text for c in random.Random(1).sample(clauses, args.limit)]
    seconds = dict.fromkeys(compiled, 0.0)
    parts: dict[str, list[np.ndarray]] = {name: [] for name in compiled}
    names = list(compiled)
    load_before = os.getloadavg()
    for n, start in enumerate(range(0, len(texts), args.chunk)):
        for name in names[n % len(names):] + names[:n % len(names)]:
            t = time.perf_counter()
            parts[name].append(embed(compiled[name], tokenizer, texts[start:start + args.chunk], 16))
            seconds[name] += time.perf_counter() - t
    vectors = {name: np.concatenate(p) for name, p in parts.items()}
    rows = []
    for name in names:
        cos = (vectors[name] * vectors["openvino"]).sum(axis=1)
        rows.append({"model": name, "clauses_per_s": round(len(texts) / seconds[name], 1),
                     "ratio_to_openvino_int8": round(seconds["openvino-int8"] / seconds[name], 2),
                     "cosine_to_float": {"mean": round(float(cos.mean()), 5),
                                         "min": round(float(cos.min()), 5)},
                     "fc_kernels": fc_kernels(compiled[name], tokenizer, texts[0])})
        log.info("%s", rows[-1])
    report = {"texts": len(texts), "tokens": settings.max_seq_length, "quantise_s": round(quantise_s, 1),
              "calibration": f"{args.calibration_size} clauses of {args.calibration}",
              "loadavg_before": [round(x, 2) for x in load_before],
              "loadavg_after": [round(x, 2) for x in os.getloadavg()],
              "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "rows": rows}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--data", default=str(ACORD))
    parser.add_argument("--calibration", default=str(CONTRACTS))
    parser.add_argument("--calibration-size", type=int, default=300)
    parser.add_argument("--limit", type=int, default=400)
    parser.add_argument("--chunk", type=int, default=100)
    parser.add_argument("--out", default=str(RESULTS / "embedding-throughput" / "static_int8.json"))
