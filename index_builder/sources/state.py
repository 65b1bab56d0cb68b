"""A source's sync state on disk: the library as last listed, and the cursor to resume from.

One SQLite file per source under INDEX/sources/ (``<slug>.sqlite``). Each page of changes
is applied together with its cursor in one transaction, so a crash leaves either the page
and its cursor or neither: the next sync resumes from the last page it finished, and
replaying a page is harmless (upserts by id). Items are read back in id order, page by page,
so a library of any size is never held in memory by the state itself.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path
from dataclasses import replace
from typing import Any, Iterable, Iterator
from urllib.parse import quote

from index_builder.sources.base import ChangePage, SourceItem

STATE_DIR = "sources"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    item_id TEXT PRIMARY KEY, path TEXT NOT NULL, version TEXT NOT NULL, size INTEGER NOT NULL,
    allowed TEXT, denied TEXT NOT NULL, web_url TEXT NOT NULL, extra TEXT NOT NULL,
    seen INTEGER NOT NULL DEFAULT 0, parent TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS folders (item_id TEXT PRIMARY KEY, name TEXT NOT NULL, parent TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
# Columns added after the first release (issue 40), added to older state files on opening:
# the document id each item had in the last two builds (what a revocation names to the
# servers still answering from them), and a digest of each folder's own permissions.
_ADDED = {"items": [("doc_id", "TEXT NOT NULL DEFAULT ''"), ("doc_prev", "TEXT NOT NULL DEFAULT ''")],
          "folders": [("access", "TEXT NOT NULL DEFAULT ''")]}
_ITEM_COLUMNS = ("item_id, path, version, size, allowed, denied, web_url, extra, seen, parent")


def state_path(index_dir: Path, source_name: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", source_name).strip("-")[:120]
    return Path(index_dir) / STATE_DIR / f"{slug}.sqlite"


class SyncState:
    """The items a source has listed and where to resume; one writer at a time (build lock)."""

    def __init__(self, path: Path, source_name: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.db = sqlite3.connect(path)
        # WAL with NORMAL sync: a page's commit survives the process crashing (what resuming
        # relies on) without an fsync per page; after a power cut an older cursor replays.
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)
        for table, columns in _ADDED.items():
            have = {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}
            for name, kind in columns:
                if name not in have:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
        if self.get("source") is None:
            self.put({"source": source_name})

    def close(self) -> None:
        self.db.close()

    # --- cursor and sync record -------------------------------------------------------
    def get(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def put(self, values: dict[str, Any]) -> None:
        with self.db:
            self.db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                                [(k, str(v)) for k, v in values.items()])

    def apply(self, page: ChangePage) -> int:
        """The page's changes and its cursor, atomically; how many items went beyond the
        page's own deletes (the files of a deleted folder, and what a full round retired)."""
        removed = 0
        with self.db:
            round_no = int(self.get("round") or 0)
            if page.full and self.get("round_open") != "1":
                round_no += 1
                self._set({"round": round_no, "round_open": 1})
            below_items, below_folders = self._below(page.deletes)
            removed += self.db.execute(
                "DELETE FROM items WHERE item_id IN (SELECT value FROM json_each(?))",
                (json.dumps(below_items),)).rowcount
            gone = [(i,) for i in page.deletes]
            self.db.executemany("DELETE FROM items WHERE item_id = ?", gone)
            self.db.executemany("DELETE FROM folders WHERE item_id = ?",
                                gone + [(i,) for i in below_folders])
            self.db.executemany(
                "INSERT INTO folders (item_id, name, parent, access) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(item_id) DO UPDATE SET name = excluded.name, parent = excluded.parent, "
                "access = CASE WHEN excluded.access != '' THEN excluded.access ELSE folders.access END",
                [(f[0], f[1], f[2], page.folder_access.get(f[0], "")) for f in page.folders])
            self.db.executemany(
                f"INSERT INTO items ({_ITEM_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(item_id) DO UPDATE SET path = excluded.path, version = excluded.version, "
                "size = excluded.size, allowed = excluded.allowed, denied = excluded.denied, "
                "web_url = excluded.web_url, extra = excluded.extra, seen = excluded.seen, "
                "parent = excluded.parent",
                [(i.item_id, i.path, i.version, i.size,
                  None if i.allowed is None else json.dumps(list(i.allowed)),
                  json.dumps(list(i.denied)), i.web_url, json.dumps(i.extra),
                  round_no if page.full else 0, i.parent) for i in page.upserts])
            if page.full and page.final:
                removed += self.db.execute("DELETE FROM items WHERE seen < ?", (round_no,)).rowcount
                self._set({"round_open": 0})
            self._set({"cursor": page.cursor})
        return removed

    def removals(self, page: ChangePage) -> list[SourceItem]:
        """The items applying ``page`` will remove, as listed before it (a revocation for each
        must reach the servers first): its deletes, the files below a deleted folder, and at
        the end of a full round whatever the round did not list."""
        below, _ = self._below(page.deletes)
        ids = set(page.deletes) | set(below)
        if page.full and page.final:
            round_no = int(self.get("round") or 0) + (0 if self.get("round_open") == "1" else 1)
            listed = {i.item_id for i in page.upserts}
            ids |= {row[0] for row in self.db.execute("SELECT item_id FROM items WHERE seen < ?",
                                                      (round_no,)) if row[0] not in listed}
        return self.lookup(ids)

    def lookup(self, item_ids: Iterable[str]) -> list[SourceItem]:
        """The stored items among ``item_ids``, paths in full, with ``extra["doc_ids"]``: the
        document ids the last two builds gave them."""
        wanted = json.dumps(sorted(set(item_ids)))
        rows = self.db.execute(f"SELECT {_ITEM_COLUMNS}, doc_id, doc_prev FROM items WHERE item_id "
                               f"IN (SELECT value FROM json_each(?))", (wanted,)).fetchall()
        if not rows:
            return []
        folders = self._folders()
        paths: dict[str, str] = {}
        out = []
        for row in rows:
            item = self._full(_item(row[:10]), folders, paths)
            out.append(replace(item, extra={**item.extra, "doc_ids": [d for d in row[10:] if d]}))
        return out

    def folder_changes(self, folder_access: dict[str, str]) -> list[str]:
        """Known folders whose own permissions differ from those listed before."""
        if not folder_access:
            return []
        rows = self.db.execute("SELECT item_id, access FROM folders WHERE item_id IN "
                               "(SELECT value FROM json_each(?))",
                               (json.dumps(sorted(folder_access)),)).fetchall()
        return sorted(fid for fid, access in rows if access != folder_access[fid])

    def below(self, folder_ids: list[str]) -> list[SourceItem]:
        """The files anywhere below these folders, as stored (name and parent, not full path)."""
        ids, _ = self._below(folder_ids)
        rows = self.db.execute(f"SELECT {_ITEM_COLUMNS} FROM items WHERE item_id IN "
                               f"(SELECT value FROM json_each(?)) ORDER BY item_id",
                               (json.dumps(ids),)).fetchall()
        return [_item(row) for row in rows]

    def _below(self, ids: Iterable[str]) -> tuple[list[str], list[str]]:
        """(files, folders) anywhere below the folders among ``ids``."""
        items: list[str] = []
        folders: list[str] = []
        frontier = [i for i in ids]
        seen = set(frontier)
        while frontier:
            batch = json.dumps(frontier)
            items += [r[0] for r in self.db.execute(
                "SELECT item_id FROM items WHERE parent IN (SELECT value FROM json_each(?))", (batch,))]
            children = [r[0] for r in self.db.execute(
                "SELECT item_id FROM folders WHERE parent IN (SELECT value FROM json_each(?))", (batch,))
                if r[0] not in seen]
            seen.update(children)
            folders += children
            frontier = children
        return items, folders

    def record_doc_ids(self, assigned: list[tuple[str, str]]) -> None:
        """After a build: the document id each item now has (the one before kept beside it,
        for servers still answering from the previous version)."""
        with self.db:
            self.db.executemany("UPDATE items SET doc_prev = doc_id, doc_id = ? WHERE item_id = ? "
                                "AND doc_id != ?", [(d, i, d) for i, d in assigned])

    def _set(self, values: dict[str, Any]) -> None:
        self.db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                            [(k, str(v)) for k, v in values.items()])

    def reset(self) -> None:
        """Start again from nothing (the source said the cursor expired): the next round lists
        everything, and items it does not list are retired when it ends."""
        with self.db:
            self.db.execute("DELETE FROM meta WHERE key IN ('cursor', 'round_open')")

    # --- the library as listed ---------------------------------------------------------
    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM items").fetchone()[0])

    def items(self, batch: int = 1000, doc_ids: bool = False) -> Iterator[Any]:
        """Every item, in id order, read ``batch`` rows at a time, its path in full (and its
        link rebuilt from that path where the link is made of it); with ``doc_ids``, pairs
        (item, the document id the last build gave it)."""
        folders = self._folders()
        paths: dict[str, str] = {}
        last = ""
        while True:
            rows = self.db.execute(f"SELECT {_ITEM_COLUMNS}, doc_id FROM items WHERE item_id > ? "
                                   f"ORDER BY item_id LIMIT ?", (last, batch)).fetchall()
            if not rows:
                return
            for row in rows:
                item = self._full(_item(row[:10]), folders, paths)
                yield (item, row[10]) if doc_ids else item
            last = rows[-1][0]

    def _folders(self) -> dict[str, tuple[str, str]]:
        return {row[0]: (row[1], row[2]) for row in
                self.db.execute("SELECT item_id, name, parent FROM folders")}

    @staticmethod
    def _full(item: SourceItem, folders: dict[str, tuple[str, str]], paths: dict[str, str]) -> SourceItem:
        if not item.parent:
            return item
        folder = _folder_path(item.parent, folders, paths)
        path = f"{folder}/{item.path}" if folder else item.path
        base = item.extra.get("web_base")
        if base and "/" in path:  # the first folder is the library, which ``base`` opens
            return replace(item, path=path, web_url=f"{base}/{quote(path.split('/', 1)[1])}")
        return replace(item, path=path)

    def record(self) -> dict[str, Any]:
        """What /health shows: when the last sync finished, its lag, its error (no secrets)."""
        meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        out: dict[str, Any] = {"source": meta.get("source", ""), "documents": self.count()}
        if "last_ok" in meta:
            out["last_sync"] = meta["last_ok"]
            out["lag_s"] = round(time.time() - float(meta["last_ok_epoch"]), 1)
        if "access_ok_epoch" in meta:
            # How old a deletion or access change in the index may be: since the start of the
            # last sync that saw them all (iManage: its last full listing).
            out["access_lag_s"] = round(time.time() - float(meta["access_ok_epoch"]), 1)
        if meta.get("last_error"):
            out["last_error"] = meta["last_error"]
            out["last_error_at"] = meta.get("last_error_at", "")
        return out


def _item(row: tuple[Any, ...]) -> SourceItem:
    item_id, path, version, size, allowed, denied, web_url, extra, _seen, parent = row
    return SourceItem(item_id, path, version, int(size),
                      None if allowed is None else tuple(json.loads(allowed)),
                      tuple(json.loads(denied)), web_url, parent, json.loads(extra))


def _folder_path(folder_id: str, folders: dict[str, tuple[str, str]], memo: dict[str, str]) -> str:
    """A folder's path from the library root, by its parents (memoised; cycles cut)."""
    if folder_id in memo:
        return memo[folder_id]
    names, seen, current = [], set(), folder_id
    while current in folders and current not in seen:
        seen.add(current)
        name, current = folders[current]
        names.append(name)
    memo[folder_id] = "/".join(n for n in reversed(names) if n)
    return memo[folder_id]


def source_health(index_dir: Path) -> list[dict[str, Any]]:
    """For /health: each source's kind, last sync and lag, and its last error (no counts, no
    paths: a walled user may read /health, and a library's size is the firm's business)."""
    return [{k: v for k, v in record.items() if k != "documents"}
            for record in all_records(index_dir)]


def all_records(index_dir: Path) -> list[dict[str, Any]]:
    """Every source's sync record under INDEX/sources/ (read-only; for /health)."""
    folder = Path(index_dir) / STATE_DIR
    out = []
    for path in sorted(folder.glob("*.sqlite")) if folder.is_dir() else []:
        try:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                state = SyncState.__new__(SyncState)
                state.db, state.path = db, path
                out.append(state.record())
            finally:
                db.close()
        except sqlite3.Error as exc:
            out.append({"source": path.stem, "last_error": f"sync state unreadable ({exc})"})
    return out
