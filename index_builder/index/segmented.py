"""Reading a segmented version (segments.py): the ``SearchBackend`` for large libraries.

Everything is keyed by version position (segments in order), and what a server holds per
clause is small: ~56 bytes of IVF-PQ code and id, a float32 of BM25 length normalisation,
the alive flag, and the int32 filter columns (memory-mapped). The float32 vectors, the BM25
postings and the packed clause rows are memory-mapped files read as queries need them.

Filters are the backend protocol's data, turned into one boolean mask over positions (the
segments' columns, concatenated) that goes into both searches: the IVF-PQ scan's ID
selector and the BM25 accumulation. A walled user's mask is the same for every search they
make, and at ten million positions it costs tens of milliseconds to compute, so the last
few masks are kept per version.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from index_builder.errors import IndexFormatError
from index_builder.index.backend import (ALIASES, CORE_FIELDS, LIST_FIELDS, Condition, Filters,
                                         Scored, check_fields, normalise)
from index_builder.index.ivf import CompressedDense, Part
from index_builder.index.postings import SegmentedBM25
from index_builder.index.segments import (CODES, VECTORS, SegmentFiles, codebook_path,
                                          segment_folder)
from index_builder.index.store import ALIVE
from index_builder.model import Clause

MASKS_KEPT = 16


class SegmentTables:
    """The clause rows of a version's segments, addressed by version position."""

    def __init__(self, segments: Sequence[SegmentFiles], alive: np.ndarray | None) -> None:
        self.segments = list(segments)
        self.starts = np.cumsum([0] + [s.size for s in self.segments])
        self.size = int(self.starts[-1])
        self.alive = alive
        self._live = self.size if alive is None else int(np.count_nonzero(alive))

    def __len__(self) -> int:
        return self._live

    def _split(self, positions: Sequence[int]) -> Iterator[tuple[int, list[int], list[int]]]:
        """(segment number, indexes into ``positions``, local positions) per segment touched."""
        where = np.searchsorted(self.starts, np.asarray(positions, dtype=np.int64), side="right") - 1
        for number in np.unique(where):
            rows = np.flatnonzero(where == number)
            local = [int(positions[r]) - int(self.starts[number]) for r in rows]
            yield int(number), rows.tolist(), local

    def at(self, positions: Sequence[int]) -> list[Clause]:
        out: list[Any] = [None] * len(positions)
        for number, rows, local in self._split(positions):
            for row, clause in zip(rows, self.segments[number].table.at(local)):
                out[row] = clause
        return out

    def ids_at(self, positions: Sequence[int]) -> list[str]:
        out: list[Any] = [None] * len(positions)
        for number, rows, local in self._split(positions):
            for row, cid in zip(rows, self.segments[number].table.ids_at(local)):
                out[row] = cid
        return out

    def positions_of(self, clause_ids: Sequence[str]) -> list[int | None]:
        """The live position holding each id (an id reused by a changed document has a dead
        older row too: the newest live one wins)."""
        found: dict[str, int] = {}
        wanted = list(dict.fromkeys(clause_ids))
        for number in range(len(self.segments) - 1, -1, -1):
            missing = [cid for cid in wanted if cid not in found]
            if not missing:
                break
            start = int(self.starts[number])
            for cid, local in zip(missing, self.segments[number].table.positions_of(missing)):
                if local is not None and (self.alive is None or self.alive[start + local]):
                    found[cid] = start + local
        return [found.get(cid) for cid in clause_ids]

    def by_ids(self, clause_ids: Sequence[str]) -> list[Clause | None]:
        positions = self.positions_of(clause_ids)
        out: list[Clause | None] = [None] * len(clause_ids)
        known = [(i, p) for i, p in enumerate(positions) if p is not None]
        for number, rows, _ in self._split([p for _, p in known]):
            ids = [clause_ids[known[r][0]] for r in rows]
            for r, clause in zip(rows, self.segments[number].table.by_ids(ids)):
                out[known[r][0]] = clause
        return out

    def id_positions(self) -> Iterator[tuple[int, str]]:
        """(position, clause id) of every live clause, in position order."""
        for number, segment in enumerate(self.segments):
            start = int(self.starts[number])
            for local, cid in segment.table.id_positions():
                if self.alive is None or self.alive[start + local]:
                    yield start + int(local), cid

    def all_ids(self) -> Iterator[str]:
        return (cid for _, cid in self.id_positions())

    def __iter__(self) -> Iterator[Clause]:
        for number, segment in enumerate(self.segments):
            start = int(self.starts[number])
            for local, clause in enumerate(segment.table):
                if self.alive is None or self.alive[start + local]:
                    yield clause

    def close(self) -> None:
        for segment in self.segments:
            segment.close()


class SegmentedBackend:
    """One segmented version open for searching (implements ``SearchBackend``)."""

    def __init__(self, folder: Path, nprobe: int = 0, refine: int = 0) -> None:
        import faiss

        faiss.omp_set_num_threads(1)  # one query, one thread (see EmbeddedBackend)
        self.path = Path(folder)
        root = self.path.parent
        try:
            self.params = json.loads((self.path / "params.json").read_text("utf-8"))
            documents = json.loads((self.path / "documents.json").read_text("utf-8"))
            names = [s["name"] for s in self.params["segments"]]
            self.segments = [SegmentFiles(segment_folder(root, n)) for n in names]
            alive = np.load(self.path / ALIVE) if (self.path / ALIVE).is_file() else None
            self.table = SegmentTables(self.segments, alive)
            dense = self.params["dense"]
            parts = [Part(s.folder / CODES, s.folder / VECTORS, int(start), s.size)
                     for s, start in zip(self.segments, self.table.starts)]
            self.dense_index = CompressedDense(codebook_path(root, dense["codebook"]), parts,
                                               nprobe or dense["nprobe"], refine or dense["refine"])
            self.bm25 = SegmentedBM25([s.folder for s in self.segments])
        except (OSError, ValueError, KeyError, RuntimeError) as exc:
            raise IndexFormatError(f"Index at {self.path} is damaged ({exc}): rebuild it.") from exc
        self.version = self.path.name
        self.model_id = str(self.params["embedding_model"])
        self.dimension = self.dense_index.d
        self.size = self.table.size
        if alive is not None:
            alive.flags.writeable = False
        self._alive = alive
        self._live = self.size if alive is None else int(np.count_nonzero(alive))
        self._fields = set(CORE_FIELDS) | set(ALIASES) | set().union(
            *(s.columns.metadata_fields for s in self.segments))
        # What searches need of documents.json (250k documents' details at 10M clauses would
        # hold ~200 MB for nothing): how many, and which are BEIR corpora (no document order).
        self._documents = len(documents)
        self._unstructured = {doc for doc, info in documents.items() if info.get("kind") == "beir"}
        del documents
        self._masks: OrderedDict[Filters, tuple[np.ndarray, int, np.ndarray]] = OrderedDict()
        self._alive_bits = None if alive is None else np.packbits(alive, bitorder="little")
        self._lock = threading.Lock()

    # -- searches ---------------------------------------------------------------------------
    def dense(self, vectors: np.ndarray, k: int, filters: Filters = ()) -> Scored:
        mask, allowed, bits = self._filter(filters)
        if allowed == 0 or k <= 0:
            return []
        scores, positions = self.dense_index.search(np.atleast_2d(vectors), k, mask, allowed, bits)
        best: dict[int, float] = {}
        for row_scores, row_positions in zip(scores, positions):
            for pos, score in zip(row_positions, row_scores):
                if pos >= 0 and score > best.get(int(pos), -np.inf):
                    best[int(pos)] = float(score)
        return self._ranked(best, k)

    def lexical(self, texts: Sequence[str], k: int, filters: Filters = ()) -> Scored:
        mask, allowed = self.allowed(filters)
        if allowed == 0 or k <= 0:
            return []
        return self._ranked(dict(self.bm25.top(texts, k, mask)), k)

    def _ranked(self, scored: dict[int, float], k: int) -> Scored:
        ordered = sorted(scored.items(), key=lambda item: (-item[1], item[0]))[:k]
        ids = self.table.ids_at([pos for pos, _ in ordered])
        return [(cid, score) for cid, (_, score) in zip(ids, ordered)]

    def positions(self, clause_ids: Sequence[str]) -> list[int]:
        return [self.size if p is None else p for p in self.table.positions_of(clause_ids)]

    # -- clause store -----------------------------------------------------------------------
    def get(self, clause_ids: Sequence[str]) -> list[Clause | None]:
        return self.table.by_ids(clause_ids)

    def neighbours(self, clause_id: str, window: int) -> tuple[list[Clause], list[Clause]]:
        pos = self.table.positions_of([clause_id])[0]
        if pos is None or window <= 0:
            return [], []
        number = int(np.searchsorted(self.table.starts, pos, side="right") - 1)
        start, segment = int(self.table.starts[number]), self.segments[number]
        docs = segment.columns.codes["doc_id"]
        local = pos - start
        if segment.columns.values["doc_id"][int(docs[local])] in self._unstructured:
            return [], []  # a BEIR corpus is a bag of clauses: its order is not a document
        near = [p for p in range(max(0, local - window), min(segment.size, local + window + 1))
                if p != local and docs[p] == docs[local]
                and (self._alive is None or self._alive[start + p])]
        found = segment.table.at(near)
        return ([c for p, c in zip(near, found) if p < local],
                [c for p, c in zip(near, found) if p > local])

    def fields(self) -> set[str]:
        return set(self._fields)

    def facets(self, names: Sequence[str], filters: Filters = ()) -> dict[str, dict[str, int]]:
        mask, _ = self.allowed(filters)
        out: dict[str, dict[str, int]] = {}
        for name in names:
            counts: dict[str, int] = {}
            for number, segment in enumerate(self.segments):
                start = int(self.table.starts[number])
                rows = None if mask is None else np.flatnonzero(mask[start:start + segment.size])
                if name == "clause_id":
                    local = range(segment.size) if rows is None else rows
                    part = {cid: 1 for cid in segment.table.ids_at(list(local))}
                else:
                    # A document lies in one segment, so per-segment document counts add up.
                    part = segment.columns.document_counts(name, rows)
                for value, count in part.items():
                    counts[value] = counts.get(value, 0) + count
            out[name] = counts
        return out

    def stats(self, filters: Filters = ()) -> dict[str, int]:
        if not filters:
            return {"clauses": self._live, "documents": self._documents}
        mask, allowed = self.allowed(filters)
        assert mask is not None
        documents = 0
        for number, segment in enumerate(self.segments):
            start = int(self.table.starts[number])
            part = mask[start:start + segment.size]
            documents += len(np.unique(segment.columns.codes["doc_id"][part]))
        return {"clauses": allowed, "documents": documents}

    def close(self) -> None:
        self.table.close()

    # -- filters ----------------------------------------------------------------------------
    def allowed(self, filters: Filters) -> tuple[np.ndarray | None, int]:
        """The positions a search may return (None: all of them) and how many they are."""
        mask, count, _ = self._filter(filters)
        return mask, count

    def _filter(self, filters: Filters) -> tuple[np.ndarray | None, int, np.ndarray | None]:
        """``allowed``, and the mask packed as FAISS's ID selector reads it."""
        if not filters:
            return self._alive, self._live, self._alive_bits
        check_fields(filters, self._fields | set(LIST_FIELDS))
        with self._lock:
            kept = self._masks.get(filters)
            if kept is not None:
                self._masks.move_to_end(filters)
                return kept
        mask = np.ones(self.size, dtype=bool) if self._alive is None else self._alive.copy()
        for condition in filters:
            hit = self._hits(condition)
            mask &= ~hit if condition.negate else hit
        mask.flags.writeable = False  # shared by the threads that search with these filters
        bits = np.packbits(mask, bitorder="little")
        bits.flags.writeable = False
        entry = (mask, int(np.count_nonzero(mask)), bits)
        with self._lock:
            self._masks[filters] = entry
            while len(self._masks) > MASKS_KEPT:
                self._masks.popitem(last=False)
        return entry

    def _hits(self, condition: Condition) -> np.ndarray:
        wanted = {normalise(v) for v in condition.values}
        if condition.field == "clause_id":
            hit = np.zeros(self.size, dtype=bool)
            found = [p for p in self.table.positions_of(sorted(condition.values)) if p is not None]
            hit[found] = True
            if len(found) < len(set(condition.values)):  # an id given in another case
                for pos, cid in self.table.id_positions():
                    if normalise(cid) in wanted:
                        hit[pos] = True
            return hit
        names = ("doc_id", "doc_title") if condition.field == "document" else (condition.field,)
        parts = []
        for segment in self.segments:
            part = np.zeros(segment.size, dtype=bool)
            for name in names:
                part |= segment.columns.hits(name, wanted)
            parts.append(part)
        return np.concatenate(parts)
