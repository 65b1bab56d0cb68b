"""Writing segmented versions (segments.py) during a build, and reading the live one back.

``SegmentedWriter`` is what ``EmbeddedStore`` hands a build that writes segments: the
builder flushes its buffer of read, labelled, embedded clauses every ``segment_clauses``
(``flush``), so a build holds one segment's clauses at a time however large the library;
``finish`` writes what is left and publishes a version made of the live version's segments
(unchanged documents alive where they are, changed ones marked dead) plus the new ones.
Segments mostly dead, or too many small ones, are rewritten into the new segments as they
go (``compact``), so their number and their dead share stay bounded.

``SegmentedLive`` answers the build's look-ups on the live segmented version (documents,
a document's clauses, a text's vector, which document holds a clause id) from its files,
without reading it whole; it also offers the vectors of segments a crashed build finished
but never published, so a build resumed after a crash embeds nothing twice.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import numpy as np

from index_builder.errors import IndexFormatError
from index_builder.index.backend import PreviousVersion, VersionData
from index_builder.index.ivf import build_threads, lists_for, train
from index_builder.index.segments import (SegmentFiles, publish, read_meta, save_codebook,
                                          segment_folder, unpublished, write_segment)
from index_builder.index.store import ALIVE
from index_builder.model import Clause
from index_builder.settings import BM25Settings

log = logging.getLogger(__name__)

SMALL_SHARE = 0.25  # a segment under this share of segment_clauses is small
SMALL_KEPT = 4  # more small segments than this are merged
DEAD_SHARE = 0.5  # a segment with more dead positions than this is rewritten


@dataclass(frozen=True)
class SegmentSettings:
    """How segmented versions are written and searched (from EmbeddingSettings)."""

    segment_clauses: int = 500_000
    lists: int = 0  # 0: from the library's size at the first segment (ivf.lists_for)
    nprobe: int = 32
    refine: int = 1024  # as EmbeddingSettings.ivf_refine (measured there)
    build_threads: int = 1  # FAISS threads while training and encoding (ivf.build_threads)


class SegmentedLive:
    """The live segmented version (if any) and unpublished segments, for a build's look-ups."""

    def __init__(self, root: Path, folder: Path | None) -> None:
        self.root = Path(root)
        self.folder = folder
        self.params: dict[str, Any] = {}
        self.documents: dict[str, dict[str, Any]] = {}
        self.segments: list[SegmentFiles] = []
        self.alive: list[np.ndarray] = []
        if folder is not None:
            self.params = json.loads((folder / "params.json").read_text("utf-8"))
            self.documents = json.loads((folder / "documents.json").read_text("utf-8"))
            self.segments = [SegmentFiles(segment_folder(root, s["name"]))
                             for s in self.params["segments"]]
            alive = np.load(folder / ALIVE) if (folder / ALIVE).is_file() else None
            start = 0
            for segment in self.segments:
                self.alive.append(np.ones(segment.size, dtype=bool) if alive is None
                                  else np.array(alive[start:start + segment.size]))
                start += segment.size
        self._where = self._documents_index()
        self._keys: tuple[np.ndarray, np.ndarray, list[np.ndarray]] | None = None

    def _documents_index(self) -> dict[str, tuple[int, np.ndarray]]:
        """doc id -> (segment number, its live local positions in order)."""
        out: dict[str, tuple[int, np.ndarray]] = {}
        for number, (segment, alive) in enumerate(zip(self.segments, self.alive)):
            codes = np.asarray(segment.columns.codes["doc_id"])
            live = np.flatnonzero(alive)
            order = np.argsort(codes[live], kind="stable")
            sorted_codes = codes[live][order]
            bounds = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1], True]) \
                if len(order) else np.zeros(1, dtype=np.int64)
            values = segment.columns.values["doc_id"]
            for a, b in zip(bounds[:-1], bounds[1:]):
                out[values[int(sorted_codes[a])]] = (number, live[order[a:b]])
        return out

    @property
    def version(self) -> str:
        return self.folder.name if self.folder is not None else ""

    def previous(self, model_id: str) -> PreviousVersion:
        vectors: Mapping[str, np.ndarray] = _Vectors(self, model_id)
        return PreviousVersion(self.version, self.params, self.documents, _Clauses(self),
                               vectors, holders=self.holders if self.folder else None)

    def clauses(self, doc_id: str) -> list[Clause]:
        number, local = self._where[doc_id]
        return self.segments[number].table.at([int(p) for p in local])

    def holders(self, clause_ids: Sequence[str]) -> list[str | None]:
        """The live document holding each clause id (None: no live clause has it)."""
        found: dict[str, str] = {}
        for number in range(len(self.segments) - 1, -1, -1):
            segment, alive = self.segments[number], self.alive[number]
            missing = [c for c in clause_ids if c not in found]
            for cid, local in zip(missing, segment.table.positions_of(missing)):
                if local is not None and alive[local]:
                    code = int(segment.columns.codes["doc_id"][local])
                    found[cid] = segment.columns.values["doc_id"][code]
        return [found.get(cid) for cid in clause_ids]

    def vector(self, key: str, model_id: str) -> np.ndarray | None:
        """The stored vector of a text (sha256 hex), from a live position or an unpublished
        segment embedded by ``model_id``; None when none holds it."""
        keys, where, vectors = self._key_index(model_id)
        raw = np.frombuffer(bytes.fromhex(key), dtype="S32")
        at = int(np.searchsorted(keys, raw[0]))
        if at >= len(keys) or keys[at] != raw[0]:
            return None
        source, local = divmod(int(where[at]), 1 << 32)
        return np.asarray(vectors[source][local])

    def _key_index(self, model_id: str) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """Sorted text keys, where each lies (source << 32 | local), and the sources' vectors;
        a sorted array, not a dict: ten million keys as Python objects would take GBs."""
        if self._keys is None:
            keys, where, vectors = [], [], []
            # Each source: its text keys, their local positions, its vectors.
            sources: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
            if self.params.get("embedding_model") == model_id:
                for segment, alive in zip(self.segments, self.alive):
                    live = np.flatnonzero(alive)
                    sources.append((np.asarray(segment.keys())[live], live, segment.vectors()))
            for name in unpublished(self.root):  # left by a build that crashed
                orphan = _unpublished_vectors(self.root, name, model_id)
                if orphan is not None:
                    sources.append(orphan)
            for number, (segment_keys, live, segment_vectors) in enumerate(sources):
                keys.append(segment_keys)
                where.append((np.int64(number) << 32) | live.astype(np.int64))
                vectors.append(segment_vectors)
            all_keys = np.concatenate(keys) if keys else np.zeros(0, dtype="S32")
            order = np.argsort(all_keys, kind="stable")
            self._keys = (all_keys[order], np.concatenate(where)[order] if where
                          else np.zeros(0, np.int64), vectors)
        return self._keys

    def close(self) -> None:
        for segment in self.segments:
            segment.close()


def _unpublished_vectors(root: Path, name: str, model_id: str
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """An unpublished segment's text keys, positions and vectors, if ``model_id`` embedded it.

    None too when it is gone by the time it is read. A sharded build removes the segments it
    has replaced as it publishes its checkpoints (segment_workers.Checkpoints.add) while its
    workers look up vectors here: a worker that lists the segments no version names just
    after a checkpoint pruned the last version naming a replaced one, and before the build
    removed it, sees it as unpublished, and it goes before it is read. It was no crashed
    build's segment (those are kept to the end of a build), so nothing is lost by skipping
    it; a segment still there that cannot be read is damaged, and says so."""
    folder = segment_folder(root, name)
    try:
        if read_meta(folder).get("model") != model_id:
            return None
        segment = SegmentFiles(folder)
        try:  # memory-mapped: readable after the folder is removed
            keys, vectors = np.asarray(segment.keys()), segment.vectors()
        finally:
            segment.close()
    except (IndexFormatError, FileNotFoundError):
        if folder.is_dir():
            raise
        log.info("Segment %s was removed as it was read (replaced by this build)", name)
        return None
    return keys, np.arange(len(keys), dtype=np.int64), vectors


class _Clauses(Mapping[str, list[Clause]]):
    def __init__(self, live: SegmentedLive) -> None:
        self._live = live

    def __getitem__(self, doc_id: str) -> list[Clause]:
        if doc_id not in self._live._where:
            raise KeyError(doc_id)
        return self._live.clauses(doc_id)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._live._where

    def __iter__(self) -> Iterator[str]:
        return iter(self._live._where)

    def __len__(self) -> int:
        return len(self._live._where)


class _Vectors(Mapping[str, np.ndarray]):
    def __init__(self, live: SegmentedLive, model_id: str) -> None:
        self._live, self._model = live, model_id

    def __getitem__(self, key: str) -> np.ndarray:
        vector = self._live.vector(key, self._model)
        if vector is None:
            raise KeyError(key)
        return vector

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._live.vector(key, self._model) is not None

    def __iter__(self) -> Iterator[str]:
        keys, _, _ = self._live._key_index(self._model)
        return (bytes(k).ljust(32, b"\0").hex() for k in keys)

    def __len__(self) -> int:
        return len(self._live._key_index(self._model)[0])


class SegmentedWriter:
    """One build's segments: flushed as the build reads, published by ``finish``."""

    def __init__(self, root: Path, bm25: BM25Settings, settings: SegmentSettings,
                 live: SegmentedLive | None) -> None:
        self.root = Path(root)
        self.bm25 = bm25
        self.settings = settings
        self.live = live if live is not None and live.folder is not None else None
        self.flushed: list[tuple[str, int]] = []
        self.codebook = self._live_codebook()
        self.lists = 0

    def _live_codebook(self) -> str:
        """Keep encoding with the live version's quantiser when it is compatible."""
        if self.live is None:
            return ""
        dense = self.live.params.get("dense", {})
        same = self.live.params.get("bm25") == _asdict(self.bm25) and \
            (not self.settings.lists or dense.get("lists") == self.settings.lists)
        return str(dense.get("codebook", "")) if same else ""

    def flush(self, clauses: Sequence[Clause], vectors: np.ndarray, model_id: str,
              expected: int = 0) -> None:
        """Write ``clauses`` as a segment (training the quantiser first if there is none;
        ``expected``: the library's likely size, which sets how many lists it has)."""
        if not len(clauses):
            return
        if not self.codebook:
            self.lists = self.settings.lists or lists_for(max(expected, len(clauses)))
            log.info("Training the IVF-PQ quantiser: %d lists on %d vectors", self.lists,
                     min(len(vectors), self.lists * 256))
            started = time.perf_counter()
            with build_threads(self.settings.build_threads):
                index = train(vectors, self.lists)
            self.lists = int(index.nlist)
            self.codebook = save_codebook(self.root, index)
            log.info("Quantiser %s trained in %.0f s", self.codebook, time.perf_counter() - started)
        with build_threads(self.settings.build_threads):  # the segment's codes
            name = write_segment(self.root, clauses, vectors, self.bm25, self.codebook, model_id)
        self.flushed.append((name, len(clauses)))

    def finish(self, data: VersionData, model_id: str) -> Path:
        """Write what is left, then publish the new version (see the module docstring)."""
        kept, rewrite = self._plan(data.kept)
        size = self.settings.segment_clauses
        buffer: list[Clause] = list(data.clauses)
        vectors: list[np.ndarray] = [np.asarray(data.embeddings, dtype=np.float32)]

        def drain(final: bool = False) -> None:
            nonlocal buffer, vectors
            while len(buffer) >= size or (final and buffer):
                stacked = np.concatenate(vectors)
                expected = len(buffer) + sum(n for _, n in self.flushed)
                self.flush(buffer[:size], stacked[:size], model_id, expected)
                buffer, vectors = buffer[size:], [stacked[size:]]

        drain()
        for segment, still in rewrite:  # their live clauses join the new segments
            local = np.flatnonzero(still)
            for start in range(0, len(local), size):
                part = local[start:start + size]
                buffer += segment.table.at([int(p) for p in part])
                vectors.append(np.asarray(segment.vectors()[part], dtype=np.float32))
                drain()
        drain(final=True)
        segments = [(s.name, s.size) for s, _ in kept] + self.flushed
        if not segments:
            raise ValueError("a segmented version needs at least one clause")
        alive = np.concatenate([a for _, a in kept]
                               + [np.ones(n, dtype=bool) for _, n in self.flushed])
        live_dense = self.live.params.get("dense", {}) if self.live else {}
        params = {**data.params, "clauses": int(alive.sum()), "dense": {
            "kind": "ivfpq", "codebook": self.codebook, "code_bytes": self._code_bytes(),
            "lists": self.lists or live_dense.get("lists"),
            "nprobe": self.settings.nprobe, "refine": self.settings.refine,
            "segment_clauses": size}}
        return publish(self.root, params, segments, alive, data.documents)

    def _code_bytes(self) -> int:
        import faiss

        from index_builder.index.segments import codebook_path

        return int(faiss.read_index(str(codebook_path(self.root, self.codebook))).code_size)

    def _plan(self, carried: frozenset[str]
              ) -> tuple[list[tuple[SegmentFiles, np.ndarray]], list[tuple[SegmentFiles, np.ndarray]]]:
        """(live segments kept as they are, live segments whose carried clauses are rewritten),
        each with its positions that stay alive. Rewritten: every one when the quantiser or
        the BM25 settings changed; else those mostly dead, and the small ones once there are
        more than SMALL_KEPT of them."""
        if self.live is None:
            return [], []
        live: list[tuple[SegmentFiles, np.ndarray]] = []
        for segment, alive in zip(self.live.segments, self.live.alive):
            doc_ids = segment.columns.values["doc_id"]
            keeps = np.array([d in carried for d in doc_ids] + [False], dtype=bool)
            still = alive & keeps[np.asarray(segment.columns.codes["doc_id"])]
            if still.any():
                live.append((segment, still))
        if not self.codebook or self.codebook != self._live_codebook():
            return [], live
        small = [i for i, (s, _) in enumerate(live)
                 if s.size < SMALL_SHARE * self.settings.segment_clauses]
        rewrite = {i for i, (_, still) in enumerate(live) if still.mean() < 1 - DEAD_SHARE}
        if len(small) > SMALL_KEPT:
            rewrite.update(small)
        return ([k for i, k in enumerate(live) if i not in rewrite],
                [k for i, k in enumerate(live) if i in rewrite])


def _asdict(settings: BM25Settings) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(settings)
