"""The dense part of a whole version: a FAISS index (exact or HNSW) written and read safely.

Kept apart from store.py because the vectors are stored once, inside dense.faiss, and
``stored_vectors`` lends that memory to numpy without a copy; the segmented layout
(segments.py) writes its own files through ``write_faiss`` too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import faiss
import numpy as np
from tqdm import tqdm

from index_builder.errors import IndexFormatError

DENSE_KINDS = ("flat", "hnsw")  # of whole versions; "auto" writes flat, segments.py "ivfpq"


def write_faiss(index: faiss.Index, path: Path) -> None:
    """Write a FAISS index through a Python file, so a full disk raises OSError.

    ``faiss.write_index(index, filename)`` reports a failure of its final flush only as
    a printed "close error" and returns: a disk that fills at that moment left a short
    dense.faiss that would have gone live (seen while writing `precedent-bench crash-faults`).
    """
    with open(path, "wb") as out:
        faiss.write_index(index, faiss.PyCallbackIOWriter(out.write))


def same_dense(old: dict[str, Any] | None, new: dict[str, Any]) -> bool:
    """Whether a version built with dense configuration ``old`` is what ``new`` asks for;
    ef_search, nprobe and refine are read at query time, so a change of them alone needs no
    new version. "auto" is met by the flat and IVF-PQ indexes it chooses between."""
    old = old or {"kind": "flat"}
    if new.get("kind") == "auto":
        return old.get("kind") in ("flat", "auto", "ivfpq")
    if new.get("kind") == "ivfpq":
        return old.get("kind") == "ivfpq" and (not new.get("lists")
                                                or new.get("lists") == old.get("lists"))
    strip = lambda d: {k: v for k, v in d.items() if k != "ef_search"}  # noqa: E731
    return strip(old) == strip(new)


def dense_index(vectors: np.ndarray, config: dict[str, Any], progress: bool = False) -> faiss.Index:
    """The FAISS index for ``config`` ({"kind": "flat"} or {"kind": "hnsw", "m", "ef_construction"})."""
    dimension = int(vectors.shape[1])
    kind = config.get("kind", "flat")
    if kind in ("flat", "auto"):  # auto: a whole version is a small library's, searched exactly
        index = faiss.IndexFlatIP(dimension)
    elif kind == "hnsw":
        index = faiss.IndexHNSWFlat(dimension, int(config.get("m", 32)), faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = int(config.get("ef_construction", 100))
    else:
        raise IndexFormatError(f"Unknown dense index kind {kind!r}: use one of {DENSE_KINDS}.")
    step = 20_000  # HNSW inserts are the slow part of a large build: show their rate
    with tqdm(total=len(vectors), desc=f"Dense index ({kind})", unit="vec",
              disable=not progress or kind == "flat") as bar:
        for start in range(0, len(vectors), step):
            index.add(np.ascontiguousarray(vectors[start:start + step], dtype=np.float32))
            bar.update(min(step, len(vectors) - start))
    return index


def stored_vectors(index: faiss.Index) -> np.ndarray:
    """A read-only (n, d) view of the vectors inside a flat or HNSW index (no copy)."""
    flat = faiss.downcast_index(index.storage) if isinstance(index, faiss.IndexHNSW) else index
    if not isinstance(flat, faiss.IndexFlat):
        raise IndexFormatError(f"dense.faiss holds a {type(flat).__name__}, which this program "
                               f"cannot read vectors from: rebuild the index.")
    if flat.ntotal == 0:
        return np.zeros((0, flat.d), dtype=np.float32)
    raw = faiss.rev_swig_ptr(flat.get_xb(), flat.ntotal * flat.d)
    view = np.asarray(_Keeper(index, raw.__array_interface__["data"][0], (flat.ntotal, flat.d)))
    view.flags.writeable = False
    return view


class _Keeper:
    """Lends FAISS's vector memory to numpy and keeps the index alive while any view exists."""

    def __init__(self, index: faiss.Index, address: int, shape: tuple[int, int]) -> None:
        self.index = index
        self.__array_interface__ = {"data": (address, False), "shape": shape, "typestr": "<f4",
                                    "version": 3}
