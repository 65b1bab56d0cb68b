"""Clauses on disk for the embedded backend: a SQLite table, and filter columns as arrays.

At a million clauses the ``Clause`` objects alone would take several GB of the server's
memory, yet a search needs only the few dozen it returns. So a version keeps

* ``clauses.sqlite``: one row per clause (position, clause id, the clause as JSON), read a
  handful of rows per request through a read-only connection per thread;
* ``columns/``: per filterable field, an int32 code per clause (-1 = the clause has no such
  field) and the list of distinct raw values. Filters, facets and counts are numpy over these
  codes, so they stay data applied inside the engine without touching a clause.

``MemoryClauses`` offers the same reads over a plain list (old format versions, tests and
benchmarks that build an index in memory).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
import zlib
from array import array
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence, overload

import numpy as np
from tqdm import tqdm

from index_builder.index.backend import CORE_FIELDS, LIST_FIELDS, STORED_ONLY, normalise
from index_builder.model import Clause

CLAUSE_DB = "clauses.sqlite"
COLUMNS = "columns"
_BATCH = 500  # ids per SQL statement (far below SQLite's parameter limit)
# Clauses (and positions) a version keeps after reading them: every search reads its ~100
# candidates, mostly clauses earlier searches read too, and the SQLite read plus JSON decoding
# was 13% of a search's CPU (issue 29). A version's rows never change, so nothing goes stale;
# bounded (emptied when full) so a million-clause library does not end up all in memory.
CACHED_CLAUSES = 20_000
# Fields kept as columns: every core field but the clause id (unique per clause: looked up in
# SQLite instead), plus every metadata key found at build time.
COLUMN_CORE = tuple(f for f in CORE_FIELDS if f != "clause_id")


class MemoryClauses(list):  # type: ignore[type-arg]
    """A list of clauses with the look-ups ``ClauseTable`` offers."""

    def __init__(self, clauses: Iterable[Clause]) -> None:
        super().__init__(clauses)
        self.position = {c.clause_id: i for i, c in enumerate(self)}

    def at(self, positions: Sequence[int]) -> list[Clause]:
        return [self[int(p)] for p in positions]

    def ids_at(self, positions: Sequence[int]) -> list[str]:
        return [self[int(p)].clause_id for p in positions]

    def by_ids(self, clause_ids: Sequence[str]) -> list[Clause | None]:
        found = (self.position.get(cid) for cid in clause_ids)
        return [None if pos is None else self[pos] for pos in found]

    def positions_of(self, clause_ids: Sequence[str]) -> list[int | None]:
        return [self.position.get(cid) for cid in clause_ids]

    def all_ids(self) -> Iterator[str]:
        return (c.clause_id for c in self)

    def id_positions(self) -> Iterator[tuple[int, str]]:
        return ((p, c.clause_id) for p, c in enumerate(self))

    def close(self) -> None:
        """Nothing to release."""


class ClauseTable(Sequence[Clause]):
    """The clauses of one version in ``clauses.sqlite``, read on demand (read-only)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise FileNotFoundError(f"{self.path} is missing")
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        (self._size,) = self._connection().execute("SELECT count(*) FROM clauses").fetchone()
        self.position = _Positions(self)
        self._clauses: dict[str, Clause] = {}
        self._positions: dict[str, int] = {}
        self._ids: dict[int, str] = {}

    def _connection(self) -> sqlite3.Connection:
        # One connection per thread: the server answers on several; immutable=1 because a
        # version is never written after it goes live (no locking, no journal look-ups).
        connection = getattr(self._local, "connection", None)
        if connection is None:
            uri = f"{self.path.resolve().as_uri()}?mode=ro&immutable=1"
            connection = sqlite3.connect(uri, uri=True, check_same_thread=False)
            self._local.connection = connection
            with self._lock:
                self._connections.append(connection)
        return connection

    def __len__(self) -> int:
        return int(self._size)

    def _decode(self, data: Any) -> Clause:
        return Clause.from_dict(json.loads(data))

    @overload
    def __getitem__(self, item: int) -> Clause: ...
    @overload
    def __getitem__(self, item: slice) -> list[Clause]: ...

    def __getitem__(self, item: int | slice) -> Clause | list[Clause]:
        if isinstance(item, slice):
            return self.at(range(*item.indices(len(self))))
        pos = int(item) + len(self) if int(item) < 0 else int(item)
        if not 0 <= pos < len(self):
            raise IndexError(item)
        return self.at([pos])[0]

    def __iter__(self) -> Iterator[Clause]:
        cursor = self._connection().execute("SELECT data FROM clauses ORDER BY pos")
        for (data,) in cursor:
            yield self._decode(data)

    def at(self, positions: Sequence[int]) -> list[Clause]:
        rows = dict(self._select("pos, data", "pos", [int(p) for p in positions]))
        return [self._decode(rows[int(p)]) for p in positions]

    def ids_at(self, positions: Sequence[int]) -> list[str]:
        # Every retrieval run names its hits by position: kept, so a warm server asks SQLite
        # only for positions it has not seen (17% of a search's CPU before, issue 29).
        keys = [int(p) for p in positions]
        found, missing = _cached(self._ids, keys)
        if missing:
            fresh = dict(self._select("pos, clause_id", "pos", missing))
            _remember(self._ids, fresh)
            found.update(fresh)
        return [found[p] for p in keys]

    def by_ids(self, clause_ids: Sequence[str]) -> list[Clause | None]:
        found, missing = _cached(self._clauses, clause_ids)
        if missing:
            fresh = {cid: self._decode(data)
                     for cid, data in self._select("clause_id, data", "clause_id", missing)}
            _remember(self._clauses, fresh)
            found.update(fresh)
        return [found.get(cid) for cid in clause_ids]

    def positions_of(self, clause_ids: Sequence[str]) -> list[int | None]:
        found, missing = _cached(self._positions, clause_ids)
        if missing:
            fresh = dict(self._select("clause_id, pos", "clause_id", missing))
            _remember(self._positions, fresh)
            found.update(fresh)
        return [found.get(cid) for cid in clause_ids]

    def all_ids(self) -> Iterator[str]:
        """Every clause id in position order (streamed)."""
        cursor = self._connection().execute("SELECT clause_id FROM clauses ORDER BY pos")
        return (cid for (cid,) in cursor)

    def id_positions(self) -> Iterator[tuple[int, str]]:
        """(position, clause id) of every clause in position order (an appended version's
        positions have gaps where its dead clauses were)."""
        return iter(self._connection().execute("SELECT pos, clause_id FROM clauses ORDER BY pos"))

    def _select(self, what: str, key: str, values: list[Any]) -> list[tuple[Any, Any]]:
        out: list[tuple[Any, Any]] = []
        connection = self._connection()
        unique = list(dict.fromkeys(values))
        for start in range(0, len(unique), _BATCH):
            part = unique[start:start + _BATCH]
            marks = ",".join("?" * len(part))
            out.extend(connection.execute(
                f"SELECT {what} FROM clauses WHERE {key} IN ({marks})", part).fetchall())
        return out

    def close(self) -> None:
        with self._lock:
            for connection in self._connections:
                connection.close()
            self._connections.clear()
        self._local = threading.local()
        self._clauses, self._positions, self._ids = {}, {}, {}


def _cached(cache: dict[Any, Any], keys: Sequence[Any]) -> tuple[dict[Any, Any], list[Any]]:
    """What ``cache`` holds of ``keys``, and the keys it lacks (another thread may empty it
    meanwhile: what was found is kept locally, so an answer never loses a clause)."""
    found: dict[Any, Any] = {}
    missing = []
    for key in keys:
        value = cache.get(key)
        if value is None:
            missing.append(key)
        else:
            found[key] = value
    return found, missing


def _remember(cache: dict[Any, Any], fresh: Mapping[Any, Any]) -> None:
    if len(cache) + len(fresh) > CACHED_CLAUSES:
        cache.clear()
    cache.update(fresh)


class _Positions(Mapping[str, int]):
    """clause id -> position, looked up in SQLite (what ``ClauseIndex.position`` was)."""

    def __init__(self, table: ClauseTable) -> None:
        self._table = table

    def __getitem__(self, clause_id: str) -> int:
        pos = self._table.positions_of([clause_id])[0]
        if pos is None:
            raise KeyError(clause_id)
        return pos

    def __iter__(self) -> Iterator[str]:
        return self._table.all_ids()

    def __len__(self) -> int:
        return len(self._table)


def write_clause_db(path: Path, clauses: Sequence[Clause], progress: bool = False) -> None:
    """Write every clause, in order, to a new SQLite file."""
    connection = _staging_connection(path)
    try:
        connection.execute("CREATE TABLE clauses (pos INTEGER PRIMARY KEY, "
                           "clause_id TEXT NOT NULL, data TEXT NOT NULL)")
        connection.executemany("INSERT INTO clauses VALUES (?, ?, ?)", _rows(
            0, tqdm(clauses, desc="Writing clauses", unit="clause", disable=not progress,
                    mininterval=1.0)))
        connection.execute("CREATE UNIQUE INDEX clause_ids ON clauses (clause_id)")
        connection.commit()
    finally:
        connection.close()


def append_clause_db(source: Path, path: Path, retired: Sequence[int], first: int,
                     clauses: Sequence[Clause]) -> None:
    """A copy of ``source`` without the ``retired`` positions and with ``clauses`` appended
    from position ``first``: what an incremental build writes instead of every clause."""
    shutil.copyfile(source, path)
    connection = _staging_connection(path)
    try:
        retired = [int(p) for p in retired]
        for start in range(0, len(retired), _BATCH):
            part = retired[start:start + _BATCH]
            connection.execute(f"DELETE FROM clauses WHERE pos IN ({','.join('?' * len(part))})",
                               part)
        connection.executemany("INSERT INTO clauses VALUES (?, ?, ?)", _rows(first, clauses))
        connection.commit()
    finally:
        connection.close()


def _staging_connection(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path)
    # A staging folder: nothing reads it until the version is complete, so no journal.
    connection.execute("PRAGMA journal_mode=OFF")
    connection.execute("PRAGMA synchronous=OFF")
    return connection


def _rows(first: int, clauses: Iterable[Clause]) -> Iterator[tuple[int, str, str]]:
    return ((pos, c.clause_id, json.dumps(c.to_dict(), ensure_ascii=False))
            for pos, c in enumerate(clauses, first))


class Columns:
    """Per field, a code per clause into the list of distinct raw values (-1 = none)."""

    def __init__(self, codes: dict[str, np.ndarray], values: dict[str, list[str]], size: int) -> None:
        self.codes = codes
        self.values = values
        self.size = size
        self._matches: dict[str, list[tuple[str, ...]]] = {}
        self._lock = threading.Lock()

    @property
    def metadata_fields(self) -> set[str]:
        return set(self.codes) - set(COLUMN_CORE)

    @classmethod
    def from_clauses(cls, clauses: Iterable[Clause]) -> "Columns":
        """One pass over the clauses (a list or a stream)."""
        return cls({}, {}, 0).extend(clauses)

    def extend(self, clauses: Iterable[Clause]) -> "Columns":
        """New columns: these, then ``clauses`` (codes of values already seen are kept)."""
        lookup = {n: {v: i for i, v in enumerate(vals)} for n, vals in self.values.items()}
        lists = {n: array("i", np.asarray(c, dtype=np.int32).tobytes()) for n, c in self.codes.items()}
        size = self.size
        for pos, clause in enumerate(clauses, self.size):
            size = pos + 1
            row = {name: str(getattr(clause, name)) for name in COLUMN_CORE}
            row.update((k, v) for k, v in clause.metadata.items()
                       if k not in CORE_FIELDS and k not in STORED_ONLY)
            for name, value in row.items():
                if name not in lists:
                    lookup[name], lists[name] = {}, array("i", [-1]) * pos
                codes = lookup[name]
                lists[name].append(codes.setdefault(value, len(codes)))
            for name, column in lists.items():
                if len(column) < size:  # this clause lacks the field
                    column.append(-1)
        for name, column in lists.items():
            column.extend([-1] * (size - len(column)))  # fields no new clause has
        for name in COLUMN_CORE:
            lookup.setdefault(name, {})
            lists.setdefault(name, array("i", [-1]) * size)
        return Columns({n: np.frombuffer(c, dtype=np.int32).copy() for n, c in lists.items()},
                       {n: list(lookup[n]) for n in lists}, size)

    def save(self, folder: Path) -> None:
        folder.mkdir()
        names = sorted(self.codes)
        for number, name in enumerate(names):
            np.save(folder / f"{number}.npy", self.codes[name], allow_pickle=False)
        meta = {"size": self.size,
                "fields": [{"name": n, "file": f"{i}.npy", "values": self.values[n]}
                           for i, n in enumerate(names)]}
        (folder / "columns.json").write_text(json.dumps(meta, ensure_ascii=False))

    @classmethod
    def load(cls, folder: Path) -> "Columns":
        meta = json.loads((folder / "columns.json").read_text("utf-8"))
        codes = {f["name"]: np.load(folder / f["file"], mmap_mode="r", allow_pickle=False)
                 for f in meta["fields"]}
        if any(len(c) != meta["size"] for c in codes.values()):
            raise ValueError("a column has the wrong length")
        return cls(codes, {f["name"]: list(f["values"]) for f in meta["fields"]}, int(meta["size"]))

    def hits(self, name: str, wanted: set[str]) -> np.ndarray:
        """Clauses whose ``name`` holds one of the normalised ``wanted`` values (filter semantics
        of backend.clause_field_values: list fields match any of their comma-separated parts)."""
        codes = self.codes.get(name)
        if codes is None:
            return np.zeros(self.size, dtype=bool)
        good = [bool(wanted.intersection(parts)) for parts in self._normalised(name)]
        # Code -1 (no value) indexes the appended False.
        return np.asarray(good + [False], dtype=bool)[codes]

    def _normalised(self, name: str) -> list[tuple[str, ...]]:
        with self._lock:
            cached = self._matches.get(name)
            if cached is None:
                if name in LIST_FIELDS:
                    cached = [tuple(normalise(v) for v in raw.split(",") if v.strip())
                              for raw in self.values[name]]
                else:
                    cached = [(normalise(raw),) for raw in self.values[name]]
                self._matches[name] = cached
            return cached

    def document_counts(self, name: str, rows: np.ndarray | None) -> dict[str, int]:
        """value -> number of documents holding it among ``rows`` (None = all); empty values skipped."""
        codes, docs = self.codes.get(name), self.codes["doc_id"]
        if codes is None:
            return {}
        if rows is not None:
            codes, docs = codes[rows], docs[rows]
        keep = codes >= 0
        pairs = np.unique((codes[keep].astype(np.int64) << 32) | docs[keep].astype(np.int64))
        per_value = np.bincount(pairs >> 32, minlength=len(self.values[name]))
        values = self.values[name]
        return {values[i]: int(per_value[i]) for i in np.flatnonzero(per_value) if values[i]}


# -- packed rows (segmented versions) ---------------------------------------------------------
# A clause's JSON is ~1.5 kB, most of it keys and metadata its document's other clauses
# repeat: at ten million clauses, 14 GB. Segments store each row deflated against a preset
# dictionary made of the segment's first rows (zlib's zdict): ~0.4 kB a row, still one row
# read per clause asked for.
ZDICT_BYTES = 32_768


def zdict_for(clauses: Sequence[Clause]) -> bytes:
    """A preset dictionary: the last 32 kB of the first rows (deflate favours near matches)."""
    sample = "".join(json.dumps(c.to_dict(), ensure_ascii=False) for c in clauses[:64])
    return sample.encode("utf-8")[-ZDICT_BYTES:]


class Packer:
    """Deflates rows against one preset dictionary.

    Each row is compressed on its own (one row read per clause asked for), but a fresh
    compressor per row re-hashed the 32 kB dictionary and, at memLevel 9, took buffers large
    enough that malloc mapped and faulted them in anew every row: 0.14 ms a row, half a
    segment's row writing. A copy of one primed compressor skips the hashing, and memLevel 8
    keeps its buffers under malloc's mapping threshold: 0.02 ms. memLevel only sizes the
    compressor's hash table, so rows still inflate with ``unpack`` as before (a row's bytes
    may differ by a few: equal matches found in another order).
    """

    def __init__(self, zdict: bytes) -> None:
        self._primed = zlib.compressobj(6, zlib.DEFLATED, 15, 8, zlib.Z_DEFAULT_STRATEGY, zdict)

    def __call__(self, data: str) -> bytes:
        packer = self._primed.copy()
        return packer.compress(data.encode("utf-8")) + packer.flush()


def pack(data: str, zdict: bytes) -> bytes:
    """One row deflated against ``zdict`` (a ``Packer`` when there are many)."""
    return Packer(zdict)(data)


def unpack(data: bytes, zdict: bytes) -> str:
    unpacker = zlib.decompressobj(15, zdict)
    return (unpacker.decompress(data) + unpacker.flush()).decode("utf-8")


def write_packed_clause_db(path: Path, clauses: Sequence[Clause]) -> None:
    """Every clause, in order, to a new SQLite file of packed rows (``PackedClauseTable``)."""
    zdict = zdict_for(clauses)
    packer = Packer(zdict)
    connection = _staging_connection(path)
    try:
        connection.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB)")
        connection.execute("INSERT INTO meta VALUES ('zdict', ?)", (zdict,))
        connection.execute("CREATE TABLE clauses (pos INTEGER PRIMARY KEY, "
                           "clause_id TEXT NOT NULL, data BLOB NOT NULL)")
        connection.executemany("INSERT INTO clauses VALUES (?, ?, ?)", (
            (pos, c.clause_id, packer(json.dumps(c.to_dict(), ensure_ascii=False)))
            for pos, c in enumerate(clauses)))
        connection.execute("CREATE UNIQUE INDEX clause_ids ON clauses (clause_id)")
        connection.commit()
    finally:
        connection.close()


class PackedClauseTable(ClauseTable):
    """A ``ClauseTable`` whose rows ``write_packed_clause_db`` deflated."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        (self._zdict,) = self._connection().execute(
            "SELECT value FROM meta WHERE key = 'zdict'").fetchone()

    def _decode(self, data: Any) -> Clause:
        return Clause.from_dict(json.loads(unpack(data, self._zdict)))
