"""Segmented versions: a large library as immutable segments shared between versions.

Layout (beside the classic ``v-*`` folders of store.py, under the same CURRENT pointer)::

    INDEX/segments/<s-name>/   segment.json (written last), clauses.sqlite (packed rows),
                               columns/, text_keys.npy, vectors.npy (float32), lexical/,
                               dense.ivf (IVF-PQ codes of vectors.npy)
    INDEX/codebooks/<c-name>.faiss   the trained IVF-PQ quantiser the segments are encoded with
    INDEX/v-<time>-<rand>/     a version: params.json (format 5: its segments in order and
                               their sizes), documents.json, alive.npy

A version's positions run through its segments in order. A build writes each segment
completely into ``segments/.staging-*`` and renames it in place, so a build's segments are
durable as it goes, but none is served until the build publishes a version naming it (the
CURRENT switch of store.py): a crash at any point leaves the previous version live. An
incremental build appends segments for the documents it read and marks the old positions of
those documents dead in the new version's ``alive.npy``; unchanged documents stay where they
are, untouched. A segment left with no live position is dropped from the next version, and
segments and codebooks no version names are removed when a version is published.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import shutil
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, Sequence

import faiss
import numpy as np

from index_builder.errors import IndexFormatError
from index_builder.index.clausedb import (CLAUSE_DB, COLUMNS, Columns, PackedClauseTable,
                                          write_packed_clause_db)
from index_builder.index.dense_files import write_faiss
from index_builder.index.ivf import encode
from index_builder.index.postings import write_postings
from index_builder.index.segment_files import CODEBOOKS, SEGMENTS, named
from index_builder.index.store import ALIVE, TEXT_KEYS, text_digests
from index_builder.index.versions import _publish, _sync_dir, _sync_tree
from index_builder.model import Clause
from index_builder.settings import BM25Settings

log = logging.getLogger(__name__)

SEGMENTED_FORMAT = 5
LAYOUT = "segmented"
SEGMENT_META = "segment.json"
VECTORS = "vectors.npy"
CODES = "dense.ivf"


def _name(prefix: str) -> str:
    return f"{prefix}-{time.strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(3)}"


def is_segmented(params: dict[str, Any]) -> bool:
    return params.get("layout") == LAYOUT


# -- codebooks --------------------------------------------------------------------------------
def save_codebook(root: Path, index: faiss.Index) -> str:
    """Store a trained, empty IVF-PQ index under ``codebooks/``; its name."""
    folder = Path(root) / CODEBOOKS
    folder.mkdir(parents=True, exist_ok=True)
    name = _name("c")
    staging = folder / f".staging-{name}.faiss"
    write_faiss(index, staging)
    with open(staging, "rb") as data:
        os.fsync(data.fileno())
    staging.rename(folder / f"{name}.faiss")
    _sync_dir(folder)
    return name


def codebook_path(root: Path, name: str) -> Path:
    return Path(root) / CODEBOOKS / f"{name}.faiss"


# -- segments ---------------------------------------------------------------------------------
def write_segment(root: Path, clauses: Sequence[Clause], vectors: np.ndarray, bm25: BM25Settings,
                  codebook: str, model_id: str) -> str:
    """Write one segment (clauses in order, their vectors) and return its name."""
    if len(clauses) != len(vectors) or not len(clauses):
        raise ValueError("a segment needs one vector per clause, and at least one clause")
    folder = Path(root) / SEGMENTS
    folder.mkdir(parents=True, exist_ok=True)
    name = _name("s")
    staging = folder / f".staging-{name}"
    staging.mkdir()
    try:
        started = time.perf_counter()
        stages: dict[str, float] = {}  # seconds per stage, logged: where a build's time goes

        def lap(stage: str) -> None:
            stages[stage] = time.perf_counter() - started - sum(stages.values())

        write_packed_clause_db(staging / CLAUSE_DB, clauses)
        Columns.from_clauses(clauses).save(staging / COLUMNS)
        np.save(staging / TEXT_KEYS, text_digests(c.text for c in clauses), allow_pickle=False)
        lap("rows")
        np.save(staging / VECTORS, np.ascontiguousarray(vectors, dtype=np.float32),
                allow_pickle=False)
        lap("vectors")
        write_postings(staging, (c.text for c in clauses), bm25)
        lap("bm25")
        codes = encode(faiss.read_index(str(codebook_path(root, codebook))), vectors)
        write_faiss(codes, staging / CODES)
        del codes
        lap("codes")
        meta = {"name": name, "size": len(clauses), "codebook": codebook, "model": model_id,
                "dimension": int(vectors.shape[1]), "bm25": asdict(bm25),
                "written_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        (staging / SEGMENT_META).write_text(json.dumps(meta, indent=2))
        _sync_tree(staging)
        staging.rename(folder / name)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _sync_dir(folder)
    lap("sync")
    log.info("Segment %s written: %d clauses in %.0f s (%s)", name, len(clauses),
             time.perf_counter() - started, ", ".join(f"{k} {v:.0f} s" for k, v in stages.items()))
    return name


def segment_folder(root: Path, name: str) -> Path:
    return Path(root) / SEGMENTS / name


def read_meta(folder: Path) -> dict[str, Any]:
    try:
        return json.loads((Path(folder) / SEGMENT_META).read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise IndexFormatError(f"Segment {folder} is damaged ({exc}): rebuild the index "
                               f"(index-builder build with PRECEDENT_APPEND_LIMIT=0).") from exc


class SegmentFiles:
    """One segment open for reading: its clause rows, filter columns and text keys."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.meta = read_meta(self.folder)
        self.name = str(self.meta["name"])
        self.size = int(self.meta["size"])
        self.table = PackedClauseTable(self.folder / CLAUSE_DB)
        self.columns = Columns.load(self.folder / COLUMNS)
        if len(self.table) != self.size or self.columns.size != self.size:
            raise IndexFormatError(f"Segment {self.folder} has mismatched parts: rebuild it.")

    def keys(self) -> np.ndarray:
        """sha256 of each position's text (memory-mapped)."""
        return np.load(self.folder / TEXT_KEYS, mmap_mode="r")

    def vectors(self) -> np.ndarray:
        return np.load(self.folder / VECTORS, mmap_mode="r")

    def close(self) -> None:
        self.table.close()


def complete_segments(root: Path) -> list[str]:
    """Names of every complete segment under ``root`` (in use or left by a crashed build)."""
    folder = Path(root) / SEGMENTS
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir()
                  if p.is_dir() and not p.name.startswith(".") and (p / SEGMENT_META).is_file())


# -- versions ---------------------------------------------------------------------------------
def publish(root: Path, params: dict[str, Any], segments: Sequence[tuple[str, int]],
            alive: np.ndarray, documents: dict[str, dict[str, Any]],
            prune_segments: bool = True) -> Path:
    """Make a version of ``segments`` ((name, size), in position order) live; without
    ``prune_segments`` unnamed segments stay (workers of the build may be writing them)."""
    if len(alive) != sum(size for _, size in segments):
        raise ValueError("alive must hold one flag per position of the segments")

    def fill(folder: Path) -> None:
        (folder / "documents.json").write_text(json.dumps(documents, indent=1, ensure_ascii=False))
        if not alive.all():
            np.save(folder / ALIVE, alive, allow_pickle=False)
        out = {**params, "format_version": SEGMENTED_FORMAT, "layout": LAYOUT,
               "segments": [{"name": n, "size": s} for n, s in segments]}
        (folder / "params.json").write_text(json.dumps(out, indent=2))  # last: complete

    # its pruning calls segment_files.prune_segments
    return _publish(Path(root), fill, prune_segments=prune_segments)


def unpublished(root: Path) -> list[str]:
    """Complete segments no version names: what a build that crashed had finished."""
    used, _ = named(root)
    return [name for name in complete_segments(root) if name not in used]
