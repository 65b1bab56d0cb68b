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
from typing import Any, Iterator

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
        """The page's changes and its cursor, atomically; how many items a full round retired."""
        retired = 0
        with self.db:
            round_no = int(self.get("round") or 0)
            if page.full and self.get("round_open") != "1":
                round_no += 1
                self._set({"round": round_no, "round_open": 1})
            gone = [(i,) for i in page.deletes]
            self.db.executemany("DELETE FROM items WHERE item_id = ?", gone)
            self.db.executemany("DELETE FROM folders WHERE item_id = ?", gone)
            self.db.executemany("INSERT OR REPLACE INTO folders VALUES (?, ?, ?)", page.folders)
            self.db.executemany(
                "INSERT OR REPLACE INTO items VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(i.item_id, i.path, i.version, i.size,
                  None if i.allowed is None else json.dumps(list(i.allowed)),
                  json.dumps(list(i.denied)), i.web_url, json.dumps(i.extra),
                  round_no if page.full else 0, i.parent) for i in page.upserts])
            if page.full and page.final:
                retired = self.db.execute("DELETE FROM items WHERE seen < ?", (round_no,)).rowcount
                self._set({"round_open": 0})
            self._set({"cursor": page.cursor})
        return retired

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

    def items(self, batch: int = 1000) -> Iterator[SourceItem]:
        """Every item, in id order, read ``batch`` rows at a time, its path in full."""
        folders = {row[0]: (row[1], row[2]) for row in self.db.execute("SELECT * FROM folders")}
        paths: dict[str, str] = {}
        last = ""
        while True:
            rows = self.db.execute("SELECT * FROM items WHERE item_id > ? ORDER BY item_id LIMIT ?",
                                   (last, batch)).fetchall()
            if not rows:
                return
            for row in rows:
                item = _item(row)
                if item.parent:
                    folder = _folder_path(item.parent, folders, paths)
                    item = replace(item, path=f"{folder}/{item.path}" if folder else item.path)
                yield item
            last = rows[-1][0]

    def record(self) -> dict[str, Any]:
        """What /health shows: when the last sync finished, its lag, its error (no secrets)."""
        meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        out: dict[str, Any] = {"source": meta.get("source", ""), "documents": self.count()}
        if "last_ok" in meta:
            out["last_sync"] = meta["last_ok"]
            out["lag_s"] = round(time.time() - float(meta["last_ok_epoch"]), 1)
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
