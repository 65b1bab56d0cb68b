"""The embedded backend: FAISS (dense) + bm25s (lexical) files in versioned folders.

The default engine for one machine: no service to run. ``EmbeddedStore`` writes and
switches versions (the folder layout is in ``store.py``); ``EmbeddedBackend`` reads one.
Filters become a boolean mask over clause positions computed from the version's int32
field columns (``clausedb.Columns``), and the mask goes *into* both searches: FAISS gets an
ID selector and BM25 zeroes the masked scores before its top-k. Clauses themselves stay on
disk and are read for the ids a request returns.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, Sequence

import faiss
import numpy as np

from index_builder.errors import IndexFormatError, PrecedentError
from index_builder.index.backend import (
    ALIASES,
    CORE_FIELDS,
    LIST_FIELDS,
    Condition,
    Filters,
    PreviousVersion,
    Scored,
    VersionData,
    check_fields,
    completed,
    normalise,
    text_key,
)
from index_builder.index.carried import CarriedVersion
from index_builder.index.dense_files import same_dense
from index_builder.index.lexical import BM25Index
from index_builder.index.segmented import SegmentedBackend
from index_builder.index.segmented_build import SegmentedLive, SegmentSettings, SegmentedWriter
from index_builder.index.segments import complete_segments, is_segmented
from index_builder.index.store import TEXT_KEYS, ClauseIndex, append_version, load_index, write_version
from index_builder.index.versions import remove_leftovers, resolve_version
from index_builder.model import Clause
from index_builder.settings import BM25Settings

log = logging.getLogger(__name__)

# A filter leaving at most this many clauses is searched exactly over those clauses: as fast,
# and a narrow filter would starve an HNSW graph search. A wider one (dead positions of an
# appended version, say) goes to FAISS as a bitmap rather than copying its vectors.
EXACT_BELOW = 50_000


class EmbeddedBackend:
    """One loaded version of an embedded index (implements ``SearchBackend``)."""

    def __init__(self, index: ClauseIndex, ef_search: int = 0) -> None:
        # One OpenMP thread per search: a query is one vector, and on a shared CPU a second
        # thread mostly spins (100k exact: 47 ms with one, 84 ms with two; scale.md).
        faiss.omp_set_num_threads(1)
        self.index = index
        self.version = index.path.name
        self.model_id = index.model_id
        self.dimension = int(index.dense.d)
        dense = index.params.get("dense") or {}
        self._approximate = isinstance(index.dense, faiss.IndexHNSW)
        self.ef_search = int(ef_search or dense.get("ef_search") or 512)
        self._columns = index.columns
        self._fields = set(CORE_FIELDS) | set(ALIASES) | index.columns.metadata_fields
        self._size = index.size  # positions; an appended version has dead ones
        self._alive = index.alive  # None: every position holds a clause
        # What an unfiltered search leaves out, computed once (a million positions a query).
        self._dead = None if self._alive is None else np.flatnonzero(~self._alive)
        self._alive_bits = None if self._alive is None else np.packbits(self._alive, bitorder="little")
        kinds = {doc: info.get("kind", "file") for doc, info in index.documents.items()}
        self._unstructured = {doc for doc, kind in kinds.items() if kind == "beir"}

    # -- searches ---------------------------------------------------------------------------
    def dense(self, vectors: np.ndarray, k: int, filters: Filters = ()) -> Scored:
        vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        mask = self._mask(filters) if filters else None  # dead positions: self._alive_bits
        k = min(k, self.index.dense.ntotal)
        if k <= 0:
            return []
        allowed = None if mask is None else np.flatnonzero(mask)
        if allowed is not None and not len(allowed):
            return []
        if allowed is not None and len(allowed) <= EXACT_BELOW:
            scores, positions = self._exact_subset(vectors, allowed, k)
        else:
            params, _bitmap = self._params(mask, k)  # _bitmap held by this frame for the search
            scores, positions = self.index.dense.search(vectors, k, params=params)
        best: dict[int, float] = {}
        for row_scores, row_positions in zip(scores.tolist(), positions.tolist()):  # Python numbers
            for pos, score in zip(row_positions, row_scores):
                if pos >= 0 and score > best.get(pos, -np.inf):
                    best[pos] = score
        return self._ranked(best, k)

    def _exact_subset(self, vectors: np.ndarray, allowed: np.ndarray, k: int
                      ) -> tuple[np.ndarray, np.ndarray]:
        """Cosine against the allowed clauses only: exact, and cheap when the filter is narrow."""
        scores = vectors @ self.index.embeddings[allowed].T
        k = min(k, len(allowed))
        top = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        return np.take_along_axis(scores, top, axis=1), allowed[top]

    def _params(self, mask: np.ndarray | None, k: int) -> tuple[Any, np.ndarray | None]:
        """Search parameters (the filter as a bitmap selector; HNSW's ef_search), and the bitmap.

        The selector only points at the bitmap, so the caller must hold it for the search. It
        is per call, never on ``self``: server threads search at once, and a bitmap replaced by
        another thread's filter mid-search would apply that user's walls to this search.
        """
        selector, bits = None, None
        if mask is not None:
            bits = np.packbits(mask, bitorder="little")
        elif self._alive_bits is not None:  # unfiltered: only the dead are left out (shared, read-only)
            bits = self._alive_bits
        if bits is not None:
            selector = faiss.IDSelectorBitmap(self._size, faiss.swig_ptr(bits))
        if self._approximate:
            return faiss.SearchParametersHNSW(sel=selector, efSearch=max(self.ef_search, k)), bits
        return (None if selector is None else faiss.SearchParameters(sel=selector)), bits

    def lexical(self, texts: Sequence[str], k: int, filters: Filters = ()) -> Scored:
        scores = np.zeros(self.index.bm25.size, dtype=np.float32)
        for text in texts:
            scores += self.index.bm25.scores(text)
        if filters:
            scores = np.where(self._mask(filters), scores, 0.0)
        elif self._dead is not None:
            scores[self._dead] = 0.0
        k = min(k, len(scores))
        if k <= 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k]
        # Clauses sharing no term with the query are not candidates, however shallow the list.
        return self._ranked({p: s for p, s in zip(top.tolist(), scores[top].tolist()) if s > 0}, k)

    def _ranked(self, scored: dict[int, float], k: int) -> Scored:
        # Ties go to the earlier clause in the index: deterministic, and what eval always did.
        ordered = sorted(scored.items(), key=lambda item: (-item[1], item[0]))[:k]
        ids = self.index.table.ids_at([pos for pos, _ in ordered])
        return [(cid, score) for cid, (_, score) in zip(ids, ordered)]

    def positions(self, clause_ids: Sequence[str]) -> list[int]:
        """Insertion order of clauses in this version: the tie-break for equal fused scores."""
        found = self.index.table.positions_of(clause_ids)  # dead positions are not in the table
        return [self._size if pos is None else pos for pos in found]

    # -- clause store -----------------------------------------------------------------------
    def get(self, clause_ids: Sequence[str]) -> list[Clause | None]:
        return self.index.table.by_ids(clause_ids)

    def neighbours(self, clause_id: str, window: int) -> tuple[list[Clause], list[Clause]]:
        clause = self.index.get(clause_id)
        # A BEIR corpus is a bag of clauses from many contracts: its order is not a document.
        if clause is None or clause.doc_id in self._unstructured or window <= 0:
            return [], []
        return self.index.neighbours(clause_id, window)

    def fields(self) -> set[str]:
        return set(self._fields)

    def facets(self, names: Sequence[str], filters: Filters = ()) -> dict[str, dict[str, int]]:
        mask = self._mask(filters)
        rows = None if mask is None else np.flatnonzero(mask)
        out = {}
        for name in names:
            if name == "clause_id":  # one document per clause id; not a column
                positions = range(self._size) if rows is None else rows  # rows: live ones
                out[name] = {cid: 1 for cid in self.index.table.ids_at(list(positions))}
            else:
                out[name] = self._columns.document_counts(name, rows)
        return out

    def stats(self, filters: Filters = ()) -> dict[str, int]:
        if not filters:  # documents with no clause (an image-only file) count too
            return {"clauses": len(self.index.clauses), "documents": len(self.index.documents)}
        mask = self._mask(filters)
        docs = np.unique(self._columns.codes["doc_id"][mask])
        return {"clauses": int(mask.sum()), "documents": int(len(docs))}

    def close(self) -> None:
        """Close the clause store's connections (the rest is memory and mapped files)."""
        self.index.close()

    # -- filters ----------------------------------------------------------------------------
    def _mask(self, filters: Filters) -> np.ndarray | None:
        """Positions a search may return (None: all); dead positions never are."""
        if not filters:
            return None if self._alive is None else self._alive
        check_fields(filters, self._fields | set(LIST_FIELDS))
        mask = np.ones(self._size, dtype=bool) if self._alive is None else self._alive.copy()
        for condition in filters:
            hit = self._hits(condition)
            mask &= ~hit if condition.negate else hit
        return mask

    def _hits(self, condition: Condition) -> np.ndarray:
        """Clauses holding one of the condition's values (filter semantics of backend.py)."""
        wanted = {normalise(v) for v in condition.values}
        if condition.field == "document":  # the document's id or its title
            return self._columns.hits("doc_id", wanted) | self._columns.hits("doc_title", wanted)
        if condition.field == "clause_id":  # unique per clause: looked up, not a column
            hit = np.zeros(self._size, dtype=bool)
            # Ids compare case-insensitively like every filter value; exact ids are the norm.
            found = [p for p in self.index.table.positions_of(sorted(condition.values))
                     if p is not None]
            hit[found] = True
            if len(found) < len(set(condition.values)):  # some id given in another case
                hit |= self._ids_casefolded(wanted)
            return hit
        return self._columns.hits(condition.field, wanted)

    def _ids_casefolded(self, wanted: set[str]) -> np.ndarray:
        """Rare path: a clause-id filter whose case differs from the stored id."""
        hit = np.zeros(self._size, dtype=bool)
        found = [p for p, cid in self.index.table.id_positions() if normalise(cid) in wanted]
        hit[found] = True
        return hit


class EmbeddedStore:
    """Versions of an embedded index under one folder, switched by the CURRENT pointer.

    Two layouts: whole versions (store.py: an exact or HNSW FAISS index, one BM25 matrix),
    and, for large libraries, segmented versions (segments.py: IVF-PQ codes with exact
    re-scoring, BM25 postings per segment, written a segment at a time). ``dense`` picks:
    "flat" or "hnsw" write whole versions, "ivfpq" segmented ones, and "auto" whole versions
    below ``compressed_above`` clauses and segmented ones from there on (a library that has
    gone segmented stays so under "auto").
    """

    def __init__(self, root: Path, bm25: BM25Settings | None = None, ef_search: int = 0,
                 progress: bool = False, append_limit: float = 0.1, dense: str = "auto",
                 compressed_above: int = 200_000, segments: SegmentSettings | None = None) -> None:
        self.root = Path(root)
        self.bm25 = bm25 or BM25Settings()
        self.ef_search = ef_search  # 0 = what the version recorded at build time
        self.progress = progress  # progress bars while writing (set by the builder)
        self.append_limit = append_limit  # PRECEDENT_APPEND_LIMIT
        self.dense = dense  # PRECEDENT_DENSE_INDEX
        self.compressed_above = compressed_above  # PRECEDENT_COMPRESSED_ABOVE
        self.segments = segments or SegmentSettings()
        self._carried: CarriedVersion | None = None  # the live version as previous() read it
        self._segmented: SegmentedLive | None = None  # the same, for a segmented live version
        self._writer: SegmentedWriter | None = None  # this build's segments so far

    def live_version(self) -> str:
        return resolve_version(self.root).name

    def open(self, version: str | None = None) -> EmbeddedBackend | SegmentedBackend:
        path = self.root / version if version else self.root
        folder = resolve_version(path)
        if is_segmented(_params(folder)):
            return SegmentedBackend(folder, self.segments.nprobe, self.segments.refine)
        return EmbeddedBackend(load_index(path), self.ef_search)

    def previous(self, model_id: str) -> PreviousVersion:
        self._close_live()
        self._writer = None
        try:
            folder = resolve_version(self.root)
            if is_segmented(_params(folder)):
                self._segmented = SegmentedLive(self.root, folder)
                return self._segmented.previous(model_id)
            if (folder / TEXT_KEYS).is_file():  # format 4: look-ups, nothing read whole
                self._carried = CarriedVersion(folder)  # kept for write: its loaded vectors
                return self._carried.previous(model_id)
            index = load_index(self.root)
        except PrecedentError:
            if complete_segments(self.root):  # a segmented build crashed before any version
                self._segmented = SegmentedLive(self.root, None)
                return self._segmented.previous(model_id)
            return PreviousVersion()
        except (OSError, ValueError, KeyError, sqlite3.Error) as exc:
            log.warning("The live version cannot be reused (%s); building afresh", exc)
            return PreviousVersion()
        by_doc: dict[str, list[Clause]] = {}
        vectors: dict[str, np.ndarray] = {}
        reuse = index.model_id == model_id
        for i, clause in enumerate(index.clauses):  # streamed from disk in position order
            by_doc.setdefault(clause.doc_id, []).append(clause)
            if reuse:
                vectors[text_key(clause.text)] = index.embeddings[i]
        index.close()
        return PreviousVersion(index.path.name, index.params, index.documents, by_doc, vectors)

    # -- segmented builds -------------------------------------------------------------------
    def segmenting(self, clauses: int) -> int:
        """Clauses per segment when this build writes a segmented version, given ``clauses``
        so far (carried and read); 0 while it writes a whole version."""
        if self.dense in ("flat", "hnsw"):
            return 0
        live_segmented = self._segmented is not None and self._segmented.folder is not None
        if self.dense == "ivfpq" or live_segmented or clauses >= self.compressed_above:
            return self.segments.segment_clauses
        return 0

    def sharding(self, expected: int) -> SegmentedLive | None:
        """The live segmented version (one with no folder when there is none yet) when this
        build writes segments and may build them in worker processes (segment_workers.py),
        given the library's ``expected`` clauses; None for a whole version, or a whole live
        version growing past the threshold (its clauses move: the serial build does that)."""
        if self.dense in ("flat", "hnsw"):
            return None
        if self._segmented is not None and self._segmented.folder is not None:
            return self._segmented
        try:
            resolve_version(self.root)
            return None  # a whole live version
        except PrecedentError:
            pass
        if self.dense == "ivfpq" or expected >= self.compressed_above:
            return self._segmented or SegmentedLive(self.root, None)
        return None

    def flush(self, clauses: list[Clause], embeddings: np.ndarray, model_id: str,
              expected: int = 0) -> None:
        """Write a segment of this build now (the builder then lets go of these clauses)."""
        if self._writer is None:
            self._writer = SegmentedWriter(self.root, self.bm25, self.segments, self._segmented)
        self._writer.flush(clauses, embeddings, model_id, expected)

    def write(self, data: VersionData) -> str:
        try:
            flushed = self._writer is not None and bool(self._writer.flushed)
            total = len(data.clauses) + sum(int(data.documents.get(d, {}).get("clauses", 0))
                                            for d in data.kept)
            if flushed or self.segmenting(total):
                return self._write_segmented(data).name
            if (data.params.get("dense") or {}).get("kind") == "auto":  # a whole version: exact
                data = replace(data, params={**data.params, "dense": {"kind": "flat"}})
            if self._segmented is not None and self._segmented.folder is not None:
                live = self._live_base(data)  # segmented -> whole (PRECEDENT_DENSE_INDEX changed)
                data = completed(data, self._segmented.clauses,
                                 lambda _, carried: self._segmented_vectors(carried, data))
                log.info("Rewriting the segmented version %s as a whole version", live.name)
            elif data.kept:
                path = self._append(data)
                if path is not None:
                    return path.name
                data = self._whole(data)
        finally:
            self._close_live()
            self._writer = None
        bm25 = BM25Index.build((c.text for c in data.clauses), self.bm25, self.progress,
                               total=len(data.clauses))
        path = write_version(self.root, data.params, data.clauses, data.documents,
                             data.embeddings, bm25, self.progress)
        return path.name

    def _write_segmented(self, data: VersionData) -> Path:
        live_segmented = self._segmented is not None and self._segmented.folder is not None
        if data.kept and not live_segmented:
            data = self._whole(data)  # a whole version growing past the threshold: its clauses move
        elif data.kept:
            self._live_base(data)
        writer = self._writer or SegmentedWriter(self.root, self.bm25, self.segments,
                                                 self._segmented)
        return writer.finish(data, str(data.params["embedding_model"]))

    def _segmented_vectors(self, clauses: list[Clause], data: VersionData) -> np.ndarray:
        model = str(data.params["embedding_model"])
        assert self._segmented is not None
        rows = [self._segmented.vector(text_key(c.text), model) for c in clauses]
        return np.array(rows, dtype=np.float32).reshape(len(clauses), -1)

    def _close_live(self) -> None:
        if self._carried is not None:
            self._carried.close()
            self._carried = None
        if self._segmented is not None:
            self._segmented.close()
            self._segmented = None

    def _live_base(self, data: VersionData) -> Path:
        live = resolve_version(self.root)
        if live.name != data.base:
            raise IndexFormatError(f"The live version changed to {live.name} during this build "
                                   f"(it started from {data.base}); build again.")
        return live

    def _append(self, data: VersionData) -> Path | None:
        """The new version appended to the live one; None when it must be written whole."""
        live = self._live_base(data)
        old = json.loads((live / "params.json").read_text("utf-8"))
        if self.append_limit <= 0 or old.get("bm25") != asdict(self.bm25) \
                or old.get("embedding_model") != data.params.get("embedding_model") \
                or not same_dense(old.get("dense"), data.params.get("dense") or {}):
            return None
        carried = self._carried_at(live)
        path = append_version(self.root, live, data.params, data.kept, data.clauses,
                              data.documents, data.embeddings, self.append_limit, self.progress,
                              dense=carried.take_dense() if carried else None)
        if path is None:
            log.info("Rewriting the index whole: appended and retired clauses pass %.0f%% of "
                     "the last full build (PRECEDENT_APPEND_LIMIT)", 100 * self.append_limit)
        return path

    def _whole(self, data: VersionData) -> VersionData:
        """The complete version: kept documents' clauses and vectors read from the live one."""
        live = self._live_base(data)
        carried = self._carried_at(live) or CarriedVersion(live)
        try:
            return completed(data, carried.clauses,
                             lambda doc_id, _: carried.vectors()[carried.positions(doc_id)])
        finally:
            carried.close()

    def _carried_at(self, live: Path) -> CarriedVersion | None:
        """The live version as ``previous`` opened it (with any vectors it loaded), if still live."""
        return self._carried if self._carried and self._carried.folder == live else None

    def describe(self) -> str:
        return f"embedded index at {self.root}"

    def remove_leftovers(self) -> None:
        """What builds killed part way left in the folder (called under the build lock)."""
        if self.root.is_dir():
            remove_leftovers(self.root)


def _params(folder: Path) -> dict[str, Any]:
    try:
        return json.loads((folder / "params.json").read_text("utf-8"))
    except (OSError, ValueError):
        return {}


def info(backend: Any) -> dict[str, Any]:
    """Version, counts and model of an open backend, for /health and logs."""
    return {"version": backend.version, **backend.stats(), "embedding_model": backend.model_id}
