"""State the server's worker processes share (web/prefork.py): rate-limit windows.

A limit is the firm's ("120 requests a minute per user"), not a process's: with N workers
each counting in its own memory a user would get N times it, by whichever worker their
connections landed on. So with more than one worker the moving windows are counted in one
SQLite file in the workers' shared folder (a tmpfs where there is one), each hit a short
``BEGIN IMMEDIATE`` transaction that also drops the user's entries past the window. With one
process the ``limits`` library's memory store stays (no file, no lock).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from limits.storage import MovingWindowSupport, Storage

BUSY_TIMEOUT_S = 5.0


class SharedWindows(Storage, MovingWindowSupport):
    """A ``limits`` storage for the moving-window strategy, in a SQLite file every worker opens."""

    STORAGE_SCHEME = ["precedent-shared-sqlite"]

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)
        self._lock = threading.Lock()  # one connection per process; its threads take turns
        self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                   check_same_thread=False)
        with self._lock:
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS hits (key TEXT NOT NULL, at REAL NOT NULL)")
            self._db.execute("CREATE INDEX IF NOT EXISTS hits_key_at ON hits (key, at)")

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")  # the count and the insert, one writer at a time
            try:
                self._db.execute("DELETE FROM hits WHERE key = ? AND at < ?", (key, now - expiry))
                (count,) = self._db.execute("SELECT COUNT(*) FROM hits WHERE key = ?", (key,)).fetchone()
                allowed = count + amount <= limit
                if allowed:
                    self._db.executemany("INSERT INTO hits (key, at) VALUES (?, ?)", [(key, now)] * amount)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return allowed

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        with self._lock:
            oldest, count = self._db.execute(
                "SELECT MIN(at), COUNT(*) FROM hits WHERE key = ? AND at >= ?",
                (key, now - expiry)).fetchone()
        return (oldest if oldest is not None else now), int(count)

    # The fixed-window methods ``Storage`` asks for: this store serves the moving window only.
    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        raise NotImplementedError("SharedWindows counts moving windows only")

    def get(self, key: str) -> int:
        raise NotImplementedError("SharedWindows counts moving windows only")

    def get_expiry(self, key: str) -> float:
        raise NotImplementedError("SharedWindows counts moving windows only")

    def check(self) -> bool:
        try:
            with self._lock:
                self._db.execute("SELECT 1").fetchone()
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        with self._lock:
            return self._db.execute("DELETE FROM hits").rowcount

    def clear(self, key: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM hits WHERE key = ?", (key,))
