"""The on-disk index: versioned folders under one root, switched atomically.

Layout::

    INDEX/CURRENT            name of the live version (replaced atomically)
    INDEX/v-<time>-<rand>/   params.json, clauses.sqlite, columns/, documents.json,
                             dense.faiss, bm25/, text_keys.npy
                             [alive.npy, bm25-tail/: a version appended to its predecessor]

The vectors are stored once, inside dense.faiss: an exact IndexFlatIP, or an HNSW graph over
a flat store (``params["dense"]``); ``ClauseIndex.embeddings`` is a read-only view of that
store, not a copy. Clauses stay on disk (format 3, ``clausedb.py``): a reader holds the
vectors, the memory-mapped BM25 matrix and int32 filter columns, and fetches the clauses a
request returns. Format 1 and 2 versions (clauses.jsonl, read whole into memory) still load.

A build writes a new version folder completely, then replaces CURRENT; a crash at any
point leaves the previous version live (versions.py: publish, switch, prune). Readers that
hold an old version keep working because it is pruned only after the next successful build.
The FAISS file of a version is written and read by dense_files.py.

Format 4 lets a build that changed a few documents *append* instead of rewriting a million
clauses (``append_version``): the changed documents' old positions are marked dead in
``alive.npy`` (every search masks them, as it masks a wall), their new clauses take positions
after the last one, the HNSW graph gains only the new vectors, and BM25 keeps the last full
build's matrix (hard-linked, not copied) plus a small ``bm25-tail`` scored with the same
statistics. Once appended and dead clauses pass a share of the index, the next build
rewrites it whole, which also refreshes the BM25 statistics and drops dead graph nodes.

Libraries past ``PRECEDENT_COMPRESSED_ABOVE`` clauses use the *segmented* layout instead
(format 5, ``segments.py``): the same CURRENT pointer and version folders, but a version names
immutable segments shared between versions, with compressed vectors and BM25 postings per
segment, so neither a build nor a server ever holds the whole library in memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Collection, Iterable, Mapping, Sequence

import faiss
import numpy as np

from index_builder.errors import IndexFormatError
from index_builder.index.clausedb import (
    CLAUSE_DB,
    COLUMNS,
    ClauseTable,
    Columns,
    MemoryClauses,
    append_clause_db,
    write_clause_db,
)
from index_builder.index.dense_files import dense_index, stored_vectors, write_faiss
from index_builder.index.lexical import BM25Index, TailedBM25
# write_version calls _publish through this module's name: crash_builds.py patches store._publish.
from index_builder.index.versions import _publish, resolve_version
from index_builder.model import Clause

FORMAT_VERSION = 4
READABLE_FORMATS = (1, 2, 3, 4)
ALIVE = "alive.npy"  # bool per position; absent = every position holds a clause
TEXT_KEYS = "text_keys.npy"  # sha256 of each position's text: vectors reused by text
BM25_TAIL = "bm25-tail"


@dataclass
class ClauseIndex:
    """Everything retrieval needs from one version folder (or built in memory).

    ``clauses`` is a ``ClauseTable`` (format 3: rows read from disk on demand) or, given a
    plain list, a ``MemoryClauses``; both index, iterate and look up by id or position.
    ``columns`` (filter codes) are computed from the clauses when not given.
    """

    path: Path
    params: dict[str, Any]
    clauses: Sequence[Clause]
    documents: dict[str, dict[str, Any]]
    embeddings: np.ndarray
    dense: faiss.Index
    bm25: BM25Index | TailedBM25
    columns: Columns | None = None
    alive: np.ndarray | None = None  # positions still holding a clause; None = all of them

    def __post_init__(self) -> None:
        if not isinstance(self.clauses, (ClauseTable, MemoryClauses)):
            self.clauses = MemoryClauses(self.clauses)
        if self.columns is None:
            self.columns = Columns.from_clauses(self.clauses)

    @property
    def table(self) -> ClauseTable | MemoryClauses:
        return self.clauses  # type: ignore[return-value]

    @property
    def position(self) -> Mapping[str, int]:
        """clause id -> position (a dict in memory, a SQLite look-up on disk)."""
        return self.table.position

    @property
    def model_id(self) -> str:
        return str(self.params["embedding_model"])

    @property
    def size(self) -> int:
        """Positions, dead ones included: the length of every per-clause array."""
        return int(self.columns.size)  # type: ignore[union-attr]

    def get(self, clause_id: str) -> Clause | None:
        return self.table.by_ids([clause_id])[0]

    def neighbours(self, clause_id: str, window: int = 1) -> tuple[list[Clause], list[Clause]]:
        """Clauses just before and after this one in the same document."""
        pos = self.table.positions_of([clause_id])[0]
        if pos is None:
            raise KeyError(clause_id)
        docs = self.columns.codes["doc_id"]  # type: ignore[union-attr]
        near = [p for p in range(max(0, pos - window), min(len(docs), pos + window + 1))
                if p != pos and docs[p] == docs[pos] and (self.alive is None or self.alive[p])]
        found = self.table.at(near)
        return [c for p, c in zip(near, found) if p < pos], [c for p, c in zip(near, found) if p > pos]

    def close(self) -> None:
        self.table.close()


def load_index(index_dir: Path) -> ClauseIndex:
    """Load the live version of an index; raises IndexNotFoundError / IndexFormatError."""
    version = resolve_version(Path(index_dir))
    params = _read_json(version / "params.json")
    if params.get("format_version") not in READABLE_FORMATS:
        raise IndexFormatError(
            f"{version} has index format {params.get('format_version')}, this program reads "
            f"{FORMAT_VERSION}: rebuild it with `index-builder build`."
        )
    try:
        if params["format_version"] >= 3:
            clauses: Sequence[Clause] = ClauseTable(version / CLAUSE_DB)
            columns: Columns | None = Columns.load(version / COLUMNS)
        else:  # formats 1-2: every clause in memory, as those versions were read
            clauses = [Clause.from_dict(json.loads(line))
                       for line in (version / "clauses.jsonl").read_text("utf-8").splitlines() if line]
            columns = None
        dense = faiss.read_index(str(version / "dense.faiss"))
        # Memory-mapped: a query reads only its terms' postings (~0.9 GB of matrix at 1M).
        bm25: BM25Index | TailedBM25 = BM25Index.load(version / "bm25",
                                                       mmap=params["format_version"] >= 3)
        if (version / BM25_TAIL).is_dir():
            bm25 = TailedBM25(bm25, BM25Index.load(version / BM25_TAIL))
        alive = np.load(version / ALIVE) if (version / ALIVE).is_file() else None
        index = ClauseIndex(
            path=version,
            params=params,
            clauses=clauses,
            documents=_read_json(version / "documents.json"),
            embeddings=stored_vectors(dense),
            dense=dense,
            bm25=bm25,
            columns=columns,
            alive=alive,
        )
    except (OSError, ValueError, KeyError, RuntimeError, sqlite3.Error) as exc:
        raise IndexFormatError(f"Index at {version} is damaged ({exc}): rebuild it.") from exc
    if alive is not None:
        alive.flags.writeable = False  # shared by every request thread
    live = index.size if alive is None else int(alive.sum())
    positions = index.size if alive is None else len(alive)
    if not (live == len(index.clauses) and positions == index.dense.ntotal == index.bm25.size
            == index.size):
        raise IndexFormatError(f"Index at {version} has mismatched parts: rebuild it.")
    return index


def write_version(
    index_dir: Path,
    params: dict[str, Any],
    clauses: list[Clause],
    documents: dict[str, dict[str, Any]],
    embeddings: np.ndarray,
    bm25: BM25Index,
    progress: bool = False,
) -> Path:
    """Write a complete new version, make it live, prune all but the previous one."""
    return _publish(index_dir, lambda staging: _write_parts(
        staging, params, clauses, documents, embeddings, bm25, progress))


def _write_parts(folder: Path, params: dict[str, Any], clauses: list[Clause],
                 documents: dict[str, dict[str, Any]], embeddings: np.ndarray,
                 bm25: BM25Index, progress: bool = False) -> None:
    write_clause_db(folder / CLAUSE_DB, clauses, progress)
    Columns.from_clauses(clauses).save(folder / COLUMNS)
    np.save(folder / TEXT_KEYS, text_digests(c.text for c in clauses), allow_pickle=False)
    (folder / "documents.json").write_text(json.dumps(documents, indent=1, ensure_ascii=False))
    params = {**params, "format_version": FORMAT_VERSION}
    dense = dense_index(embeddings, params.get("dense") or {}, progress)
    write_faiss(dense, folder / "dense.faiss")
    (folder / "bm25").mkdir()
    bm25.save(folder / "bm25")
    # params.json last: its presence marks a complete version.
    (folder / "params.json").write_text(json.dumps(params, indent=2))


def text_digests(texts: Iterable[str]) -> np.ndarray:
    """sha256 of each text, 32 raw bytes a row (what ``backend.text_key`` spells in hex)."""
    return np.array([hashlib.sha256(t.encode("utf-8")).digest() for t in texts], dtype="S32")


def append_version(index_dir: Path, previous: Path, params: dict[str, Any], kept: Collection[str],
                   clauses: list[Clause], documents: dict[str, dict[str, Any]],
                   embeddings: np.ndarray, limit: float, progress: bool = False,
                   dense: faiss.Index | None = None) -> Path | None:
    """A new version made from ``previous`` by keeping the documents in ``kept``, retiring
    the rest of its clauses and appending ``clauses``; None when the appended and retired
    clauses would pass ``limit`` of the last full build (the caller then writes it whole).
    ``dense``: ``previous``'s dense index if already in memory (it is extended, not copied).
    """
    old = _read_json(previous / "params.json")
    if old.get("format_version") != FORMAT_VERSION or not (previous / TEXT_KEYS).is_file():
        return None
    columns = Columns.load(previous / COLUMNS)
    was_alive = (np.load(previous / ALIVE) if (previous / ALIVE).is_file()
                 else np.ones(columns.size, dtype=bool))
    kept_code = np.array([v in kept for v in columns.values["doc_id"]] + [False], dtype=bool)
    alive = was_alive & kept_code[columns.codes["doc_id"]]
    base = int(_read_json(previous / "bm25" / "tokenizer.json")["size"])
    retired = np.flatnonzero(was_alive & ~alive)
    dead = int(len(alive) - alive.sum())
    grown = columns.size + len(clauses) - base
    if dead + grown > limit * base:
        return None
    first = columns.size

    def fill(folder: Path) -> None:
        append_clause_db(previous / CLAUSE_DB, folder / CLAUSE_DB, retired, first, clauses)
        columns.extend(clauses).save(folder / COLUMNS)
        np.save(folder / ALIVE, np.concatenate([alive, np.ones(len(clauses), dtype=bool)]))
        np.save(folder / TEXT_KEYS, np.concatenate(
            [np.load(previous / TEXT_KEYS), text_digests(c.text for c in clauses)]))
        (folder / "documents.json").write_text(json.dumps(documents, indent=1, ensure_ascii=False))
        index = dense if dense is not None else faiss.read_index(str(previous / "dense.faiss"))
        index.add(np.ascontiguousarray(embeddings, dtype=np.float32))
        write_faiss(index, folder / "dense.faiss")
        del index
        _link_folder(previous / "bm25", folder / "bm25")
        _write_tail(previous, folder, base, first, clauses, progress)
        info = {"base": base, "tail": grown, "dead": dead}
        (folder / "params.json").write_text(json.dumps(
            {**params, "format_version": FORMAT_VERSION, "appended": info}, indent=2))

    return _publish(index_dir, fill)


def _write_tail(previous: Path, folder: Path, base: int, first: int,
                clauses: list[Clause], progress: bool) -> None:
    """BM25 over every position after the base, scored with the base's statistics: the
    previous tail extended by the appended clauses (its rows keep their scores; those now dead
    are masked like every dead position), or, after a whole build, a tail of these alone."""
    base_index = BM25Index.load(folder / "bm25", mmap=True)
    texts = [c.text for c in clauses]
    if (previous / BM25_TAIL).is_dir():
        earlier = BM25Index.load(previous / BM25_TAIL)
        if earlier.size != first - base:
            raise IndexFormatError(f"{previous} has a BM25 tail of the wrong length: rebuild "
                                   f"with PRECEDENT_APPEND_LIMIT=0.")
        tail = earlier.extend(texts, base_index.stats(), progress)
    else:
        tail = BM25Index.build(texts, base_index.tokenizer.settings, progress, total=len(texts),
                               stats=base_index.stats())
    (folder / BM25_TAIL).mkdir()
    tail.save(folder / BM25_TAIL)


def _link_folder(source: Path, target: Path) -> None:
    """Hard links to an immutable folder's files (a copy where the file system has none)."""
    target.mkdir()
    for path in source.iterdir():
        try:
            os.link(path, target / path.name)
        except OSError:
            shutil.copy2(path, target / path.name)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise IndexFormatError(f"Cannot read {path} ({exc}): rebuild the index.") from exc
