"""The access ledger: what a sync learned about narrowed access, for every server at once.

An index version carries the walls its build stamped; a new version takes seconds to build
and more to load. So a sync does not wait for it: as each page of changes is listed, before
the page is saved, every document it narrows (access taken from someone, deleted, under a
deleted folder, retired by a full round) is written to the ledger with a new *access
generation*. Each server reads the ledger's generation on every request (``watch.py``), and
withholds, from a version built before that generation, every such document from the users
its new access leaves out. Each version records the generation its build included
(``params["access_generation"]``); once a server answers from it, those entries no longer
apply to it. After a build, entries that even the previous version includes are dropped
(``prune``), and a server still on an older version refuses to answer from it rather than
answer without them (``AccessChangePendingError``).

Where the ledger lives, so that every server sees the same one:

* embedded engine: ``INDEX/access-ledger.json`` beside ``CURRENT``, replaced atomically
  (written to a temporary file, fsynced, renamed). A server checks it with one ``stat``
  (inode, size, modification time): every server on the machine reads the same file.
  Servers on several machines need the index folder on a file system whose attributes are
  not cached (NFS: ``actimeo=0``), or Milvus.
* Milvus: rows in the index's catalog collection (``<collection>_catalog``, where the live
  pointer is): a head row ``access`` (generation, floor), read by every server on every
  request with one Strong-consistency query by primary key, and the entries in chunks
  (``access:<generation>:<n>``, ``seq`` = generation) written before the head. Every server,
  on any machine, reads the same collection.

Entries are keyed by document id as the index holds it: the ids the item had in the last two
builds (the sync state records them) and the ids a first build would give it.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Protocol

from index_builder.errors import IndexFormatError
from index_builder.index.versions import _sync_dir

log = logging.getLogger(__name__)

FILE = "access-ledger.json"
HEAD = "access"  # the Milvus head row's key
CHUNK_BYTES = 32_000  # Milvus JSON values stay well under its 64 KiB field limit


@dataclass(frozen=True)
class Withheld:
    """One narrowed document: from ``generation`` on, only ``allowed`` (minus ``denied``) may
    see it; nobody when ``allowed`` is empty (it was deleted)."""

    doc_id: str
    generation: int
    allowed: tuple[str, ...]
    denied: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ledger:
    generation: int = 0  # the newest access change published
    floor: int = 0  # entries at or below it were dropped: older versions cannot be served
    entries: dict[str, Withheld] = field(default_factory=dict)  # the newest per document


class LedgerStore(Protocol):
    """Where one index's ledger lives (a file beside the embedded index, or Milvus rows)."""

    def stamp(self) -> Any:
        """Changes whenever the ledger does; cheap (called on every request)."""
        ...

    def read(self) -> Ledger: ...

    def publish(self, changes: list[tuple[Iterable[str], tuple[str, ...], tuple[str, ...]]]) -> int:
        """(document ids, allowed, denied) as one new generation; returns it."""
        ...

    def prune(self, floor: int) -> None:
        """Drop the entries every version still kept includes (generation <= ``floor``)."""
        ...


class FileLedger:
    """The embedded engine's ledger: one JSON file in the index folder, replaced atomically."""

    def __init__(self, index_dir: Path) -> None:
        self.path = Path(index_dir) / FILE

    def stamp(self) -> Any:
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            return None
        return stat.st_ino, stat.st_size, stat.st_mtime_ns

    def read(self) -> Ledger:
        try:
            raw = json.loads(self.path.read_text("utf-8"))
        except FileNotFoundError:
            return Ledger()
        except (OSError, ValueError) as exc:
            raise IndexFormatError(f"The access ledger {self.path} cannot be read ({exc}); the "
                                   f"next sync writes it again.") from None
        entries = {doc: Withheld(doc, int(g), tuple(a), tuple(d))
                   for doc, (g, a, d) in raw.get("entries", {}).items()}
        return Ledger(int(raw.get("generation", 0)), int(raw.get("floor", 0)), entries)

    def publish(self, changes: list[tuple[Iterable[str], tuple[str, ...], tuple[str, ...]]]) -> int:
        ledger = self.read()
        generation = ledger.generation + 1
        entries = dict(ledger.entries)
        for docs, allowed, denied in changes:
            for doc in docs:
                entries[doc] = Withheld(doc, generation, tuple(allowed), tuple(denied))
        self._write(Ledger(generation, ledger.floor, entries))
        return generation

    def prune(self, floor: int) -> None:
        ledger = self.read()
        if floor <= ledger.floor:
            return
        kept = {d: e for d, e in ledger.entries.items() if e.generation > floor}
        self._write(Ledger(ledger.generation, floor, kept))

    def _write(self, ledger: Ledger) -> None:
        body = {"generation": ledger.generation, "floor": ledger.floor,
                "entries": {d: [e.generation, list(e.allowed), list(e.denied)]
                            for d, e in sorted(ledger.entries.items())}}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(prefix=f".{FILE}.", dir=self.path.parent)
        except OSError as exc:
            raise IndexFormatError(f"The access ledger cannot be written in {self.path.parent} "
                                   f"({exc.strerror or exc}); the sync stopped before saving "
                                   f"anything, check the index folder's space and rights.") from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(body, out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.path)  # a reader sees the old file or the new, never half
        except OSError as exc:
            Path(temp).unlink(missing_ok=True)
            raise IndexFormatError(f"The access ledger {self.path} cannot be written "
                                   f"({exc.strerror or exc}); the sync stopped before saving "
                                   f"anything, check the index folder's space.") from None
        _sync_dir(self.path.parent)


class MilvusLedger:
    """The Milvus engine's ledger: rows in the index's catalog collection."""

    def __init__(self, store: Any) -> None:
        self.store = store  # a MilvusStore: its client and catalog collection

    def stamp(self) -> Any:
        return self._head()

    def read(self) -> Ledger:
        from index_builder.index.milvus_reader import query

        _, first_floor = self._head() or (0, 0)
        with self.store._errors("read the access ledger"):
            rows = query(self.store._client, self.store.catalog,
                         f'kind == "access" and seq > {int(first_floor)}', ["seq", "payload"], 16_384)
        # The head again: a prune between the two reads raises the floor, and a server on a
        # version below it must see that rather than the entries it may have missed.
        generation, floor = self._head() or (0, 0)
        if len(rows) >= 16_384:  # never answer from a ledger read in part
            raise IndexFormatError("The access ledger holds more chunks than one read returns; "
                                   "run a sync to completion so that it is pruned.")
        entries: dict[str, Withheld] = {}
        for row in sorted(rows, key=lambda r: int(r["seq"])):  # newer generations win
            for doc, allowed, denied in row["payload"]["entries"]:
                entries[doc] = Withheld(doc, int(row["seq"]), tuple(allowed), tuple(denied))
        return Ledger(generation, floor, entries)

    def publish(self, changes: list[tuple[Iterable[str], tuple[str, ...], tuple[str, ...]]]) -> int:
        from index_builder.index.milvus_versions import _catalog_row

        generation, floor = self._head() or (0, 0)
        generation += 1
        rows, chunk, size = [], [], 0
        for docs, allowed, denied in changes:
            for doc in docs:
                entry = [doc, list(allowed), list(denied)]
                chunk.append(entry)
                size += len(json.dumps(entry))
                if size >= CHUNK_BYTES:
                    rows.append(chunk)
                    chunk, size = [], 0
        rows += [chunk] if chunk else []
        with self.store._errors("write the access ledger"):
            if rows:  # the entries first: a server that sees the new head finds them
                self.store._client.upsert(self.store.catalog, [
                    _catalog_row(f"{HEAD}:{generation}:{n}", "access", "", {"entries": entries},
                                 generation) for n, entries in enumerate(rows)])
            self._put_head(generation, floor)
        return generation

    def prune(self, floor: int) -> None:
        generation, old = self._head() or (0, 0)
        if floor <= old:
            return
        with self.store._errors("prune the access ledger"):
            self._put_head(generation, floor)  # first: a reader never misses a kept entry
            self.store._client.delete(self.store.catalog,
                                      filter=f'kind == "access" and seq <= {int(floor)}')

    def _head(self) -> tuple[int, int] | None:
        from index_builder.index.milvus_reader import query

        with self.store._errors("read the access generation"):
            rows = query(self.store._client, self.store.catalog, f'key == "{HEAD}"', ["payload"], 1)
        if not rows:
            return None
        payload = rows[0]["payload"]
        return int(payload["generation"]), int(payload["floor"])

    def _put_head(self, generation: int, floor: int) -> None:
        from index_builder.index.milvus_versions import _catalog_row

        self.store._client.upsert(self.store.catalog, [_catalog_row(
            HEAD, "access_head", "", {"generation": generation, "floor": floor})])


def ledger_for(store: Any) -> LedgerStore | None:
    """The ledger of an index store (``open_store(settings)``); None for a store that has
    none (a test's stand-in engine)."""
    if hasattr(store, "catalog") and hasattr(store, "_client"):  # MilvusStore
        return MilvusLedger(store)
    if hasattr(store, "root"):  # EmbeddedStore
        return FileLedger(store.root)
    return None


def version_generation(params: dict[str, Any] | None) -> int:
    """The access generation a version's build included (0: built before any, or not synced)."""
    return int((params or {}).get("access_generation") or 0)


def live_generation(store: Any) -> int:
    """The access generation of the version live now (0 when there is none yet)."""
    from index_builder.errors import PrecedentError

    try:
        version = store.live_version()
    except PrecedentError:
        return 0
    params = store._params(version) if hasattr(store, "_params") else \
        json.loads((Path(store.root) / version / "params.json").read_text("utf-8"))
    return version_generation(params)
