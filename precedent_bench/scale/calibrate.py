"""How far the stand-in vectors are from real ones: `precedent-bench scale-compressed calibrate`.

Real MiniLM vectors of a sample of generated clauses (as the reader gives them to the index,
from documents spread over a 1M library) against their stand-ins (vectors.py) at several
perturbation sizes:

- cosine of each clause's stand-in to its real vector;
- neighbourhoods: overlap of each clause's 10 nearest neighbours within the sample, real vs
  stand-in, and the cosine of the 10th nearest (how crowded a neighbourhood is);
- local intrinsic dimensionality (the maximum-likelihood estimate over 20 neighbours): what
  makes approximate search hard, so the stand-ins should not be easier than real vectors;
- recall@10 of the IVF-PQ search with exact re-scoring (the served code, at the sample's size
  and settings scaled to it) on real vectors and on stand-ins, with the same queries.

The real vectors take a while (hours for 20,000 clauses on two shared cores): they are
embedded in chunks and saved as they go, so the step resumes where it stopped.
"""

from __future__ import annotations

import json
import logging
import tempfile
import time
from pathlib import Path
from typing import Any

import faiss
import numpy as np

from index_builder.index.ivf import CompressedDense, Part, encode, lists_for, train
from precedent_bench import scale_corpus as sc
from precedent_bench.scale import library as lib
from precedent_bench.scale import vectors as sv

log = logging.getLogger(__name__)

SAMPLE = 20_000
NOISES = (0.0, 0.15, 0.25, 0.4, 0.6)


def sample_texts(work: Path, sources: list[sc.SourceClause], count: int = SAMPLE) -> list[str]:
    """Clause texts as the index holds them, from every 50th document of the 1M library."""
    path = work / "calib" / "texts.json"
    if path.is_file():
        return json.loads(path.read_text("utf-8"))[:count]
    from index_builder.ingest import read_clauses

    library = lib.GeneratedLibrary(sc.Generator(sources, 9), 1_000_000)
    texts: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        local = Path(folder) / "doc.md"
        for number in range(0, len(library.sizes), 50):
            local.write_text(library.markdown(number), "utf-8")
            texts += [c.text for c in read_clauses(local, f"d{number}", str(local)) if c.text.strip()]
            if len(texts) >= count:
                break
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(texts[:count]))
    return texts[:count]


def real_vectors(work: Path, texts: list[str], chunk: int = 500) -> np.ndarray:
    """The real model's vectors of ``texts``, resumed from what earlier runs saved."""
    path = work / "calib" / "real.npy"
    done = np.load(path) if path.is_file() else np.zeros((0, sv.DIMENSION), np.float32)
    if len(done) < len(texts):
        model = sv.real_embedder()
        while len(done) < len(texts):
            began = time.perf_counter()
            part = model.embed(texts[len(done):len(done) + chunk])
            done = np.concatenate([done, part])
            np.save(path, done)
            log.info("real vectors: %d of %d (%.1f/s)", len(done), len(texts),
                     len(part) / (time.perf_counter() - began))
    return done[:len(texts)]


def neighbours(vectors: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact top k (inner product) of each query among ``vectors``, itself excluded."""
    index = faiss.IndexFlatIP(vectors.shape[1])
    index.add(np.ascontiguousarray(vectors, dtype=np.float32))
    scores, ids = index.search(np.ascontiguousarray(queries, dtype=np.float32), k + 1)
    return scores[:, 1:], ids[:, 1:]


def lid(scores: np.ndarray) -> float:
    """Mean maximum-likelihood local intrinsic dimensionality from neighbour cosines
    (distances on the unit sphere: sqrt(2 - 2 cos))."""
    distances = np.sqrt(np.maximum(2 - 2 * scores.astype(np.float64), 1e-12))
    far = distances[:, -1:]
    estimates = -1.0 / np.mean(np.log(distances[:, :-1] / far), axis=1)
    return float(np.mean(estimates[np.isfinite(estimates)]))


# (nprobe, refine) at the sample's 256 lists: 2 probes are the share of lists the default
# 32 probes of 8,192 lists are at 10M; refine 10 is the product quantiser's ranking alone.
SEARCHES = ((2, 256), (8, 256), (8, 10))


def ann_recall(vectors: np.ndarray, queries: np.ndarray, folder: Path, k: int = 10
               ) -> dict[str, float]:
    """recall@k of the served IVF-PQ search (two segments) against exact search, for each of
    SEARCHES."""
    codebook = train(vectors, lists_for(len(vectors)))
    faiss.write_index(codebook, str(folder / "book.faiss"))
    half = len(vectors) // 2
    parts = []
    for number, (a, b) in enumerate(((0, half), (half, len(vectors)))):
        faiss.write_index(encode(codebook, vectors[a:b]), str(folder / f"{number}.ivf"))
        np.save(folder / f"{number}.npy", vectors[a:b])
        parts.append(Part(folder / f"{number}.ivf", folder / f"{number}.npy", a, b - a))
    exact = vectors @ queries.T
    out = {}
    for nprobe, refine in SEARCHES:
        dense = CompressedDense(folder / "book.faiss", parts, nprobe, refine)
        hits = 0.0
        for row, query in enumerate(queries):
            tenth = -np.partition(-exact[:, row], k - 1)[k - 1]
            _, got = dense.search(query, k)
            hits += float((exact[got[0], row] >= tenth - 1e-5).sum()) / k
        out[f"nprobe {nprobe}, refine {refine}"] = round(hits / len(queries), 4)
    return out


def calibrate(work: Path, data: Path, count: int = SAMPLE) -> dict[str, Any]:
    sources = lib.load_sources(data / "contracts", data / "acord", work / "sources.pickle")
    texts = sample_texts(work, sources, count)
    real = real_vectors(work, texts)
    table = sv.SentenceTable.load_or_embed(sources, work, sv.real_embedder)
    acord = np.stack(list(sv.load_known(work / "acord-queries").values()))
    rng = np.random.default_rng(3)
    probe = rng.choice(len(texts), min(500, len(texts)), replace=False)
    real_scores, real_ids = neighbours(real, real[probe], 20)
    out: dict[str, Any] = {"clauses": len(texts), "lists": lists_for(len(texts)),
                           "real": {"lid": round(lid(real_scores), 2),
                                    "tenth_cosine": round(float(real_scores[:, 9].mean()), 4)}}
    with tempfile.TemporaryDirectory() as folder:
        queries = np.concatenate([real[probe[:200]], acord[:200]])
        out["real"]["recall_at_10"] = ann_recall(real, queries, Path(folder))
        out["stand_ins"] = []
        for noise in NOISES:
            embedder = sv.RecombinedEmbedder(table, noise)
            stand = embedder.embed(texts)
            scores, ids = neighbours(stand, stand[probe], 20)
            overlap = np.mean([len(set(a[:10]) & set(b[:10])) / 10 for a, b in zip(ids, real_ids)])
            queries = np.concatenate([stand[probe[:200]], acord[:200]])
            out["stand_ins"].append({
                "noise": noise, "cosine_to_real_mean": round(float(np.mean(np.sum(stand * real, 1))), 4),
                "cosine_to_real_p10": round(float(np.percentile(np.sum(stand * real, 1), 10)), 4),
                "neighbour_overlap_at_10": round(float(overlap), 4), "lid": round(lid(scores), 2),
                "tenth_cosine": round(float(scores[:, 9].mean()), 4),
                "recall_at_10": ann_recall(stand, queries, Path(folder)),
                "mapped": embedder.counts()})
            log.info("noise %.2f: %s", noise, out["stand_ins"][-1])
    return out
