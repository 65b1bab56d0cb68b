"""Deferred writes: records handed off before the answer, written to their store after it.

A search's usage record (the shown list, web/usage.py) is a database transaction, and
twenty request threads each committing their own to one SQLite file wait on its lock; none
of that needs to happen before the lawyer sees the results. What does is that the record
cannot be lost once the answer names it (the pane reports feedback by ``list_id``).

So the request thread only hands the record off: one JSON line appended to a write-ahead
journal with a single ``write(2)`` on an ``O_APPEND`` descriptor. When it returns the bytes
are the kernel's, and survive the process being killed (kill -9, the OOM killer); like the
SQLite file under ``synchronous=NORMAL``, a power cut may lose the last of them. A flusher
thread then applies whatever has been handed off, in batches (one transaction for many
lists), and appends a ``done`` mark. A server killed at any moment leaves a journal whose
records after the last mark are applied by the next server to start (``recover``); each
kind's applier skips what its store already holds, so a batch applied just before the kill
is not written twice.

Each process journals to a file of its own, locked (``flock``) while it lives; a journal
whose lock can be taken belongs to a process that is gone, and is replayed and removed.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence

log = logging.getLogger(__name__)

# An applier writes one kind's records to its store; ``replay`` says they may be there already.
Applier = Callable[[Sequence[Any], bool], None]

GATHER_S = 0.05  # once a record arrives, gather others this long: one transaction for many
RETRY_S = (0.5, 30.0)  # a failing store is retried with backoff between these
ROTATE_BYTES = 16 << 20  # a fully applied journal past this size starts a new file


class Deferred:
    """A journal of records handed off by request threads, applied by one flusher thread."""

    def __init__(self, folder: Path, appliers: dict[str, Applier]) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.appliers = appliers
        self._lock = threading.Condition()
        self._pending: list[tuple[int, str, Any]] = []  # (number, kind, record), in order
        self._next = 1
        self._applied = 0  # every record numbered up to this is in its store
        self._failing = ""  # why the last apply failed ("" when it did not)
        self._closed = False
        self.recovered = recover(self.folder, appliers)
        self._fd, self.path = self._open()
        self._thread = threading.Thread(target=self._run, name="deferred-writes", daemon=True)
        self._thread.start()

    # -- request threads --------------------------------------------------------------------
    def submit(self, kind: str, record: Any) -> None:
        """Hand a record off: journaled (durable against a crash) before this returns.

        Raises OSError when the journal cannot be written (a full disk): the caller decides
        what the answer is without the record."""
        if kind not in self.appliers:
            raise ValueError(f"no applier for {kind!r}")
        # Serialised before the lock: the lock is held only to number, write and queue it,
        # in that order, so the journal's numbers and the flusher's order agree.
        body = json.dumps(record, separators=(",", ":"))
        with self._lock:
            if self._closed:
                raise OSError("deferred writes are closed")
            number = self._next
            _write_all(self._fd, f'{{"n":{number},"k":{json.dumps(kind)},"v":{body}}}\n'.encode())
            self._next += 1
            self._pending.append((number, kind, record))
            self._lock.notify_all()

    def drain(self, timeout: float = 5.0) -> bool:
        """Wait until every record handed off so far is in its store; False on timeout."""
        until = time.monotonic() + timeout
        with self._lock:
            target = self._next - 1
            while self._applied < target:
                left = until - time.monotonic()
                if left <= 0 or self._closed:
                    return self._applied >= target
                self._lock.wait(left)
        return True

    def health(self) -> dict[str, Any]:
        with self._lock:
            return {"waiting": self._next - 1 - self._applied, "failing": self._failing,
                    "recovered": self.recovered}

    def close(self, timeout: float = 10.0) -> None:
        """Apply what is waiting, then stop; the journal goes once everything is applied."""
        self.drain(timeout)
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        self._thread.join(timeout)
        with self._lock:
            done = self._applied >= self._next - 1
            os.close(self._fd)  # releases the lock: an unapplied journal is replayed next start
            if done:
                self.path.unlink(missing_ok=True)

    # -- the flusher ----------------------------------------------------------------------
    def _run(self) -> None:
        wait = RETRY_S[0]
        while True:
            with self._lock:
                while not self._pending and not self._closed:
                    self._lock.wait()
                if not self._pending:
                    return
            time.sleep(GATHER_S)
            with self._lock:
                batch = list(self._pending)
            try:
                self._apply(batch)
            except Exception as exc:  # noqa: BLE001 -- the store's error; kept, retried, logged
                with self._lock:
                    first = not self._failing
                    self._failing = f"{type(exc).__name__}: {exc}"[:300]
                    if self._closed:
                        return  # left in the journal: the next start replays it
                (log.error if first else log.debug)(
                    "Deferred writes failing (%s); %d waiting, kept in %s and retried",
                    self._failing, len(batch), self.path)
                time.sleep(wait)
                wait = min(wait * 2, RETRY_S[1])
                continue
            wait = RETRY_S[0]
            last = batch[-1][0]
            with self._lock:
                if self._failing:
                    log.warning("Deferred writes resumed; %d applied", len(batch))
                self._failing = ""
                del self._pending[:len(batch)]
                self._applied = last
                _write_all(self._fd, json.dumps({"done": last}).encode() + b"\n")
                if not self._pending and os.fstat(self._fd).st_size > ROTATE_BYTES:
                    self._rotate()
                self._lock.notify_all()

    def _apply(self, batch: list[tuple[int, str, Any]]) -> None:
        for kind, applier in self.appliers.items():
            records = [record for _, k, record in batch if k == kind]
            if records:
                applier(records, False)

    def _open(self) -> tuple[int, Path]:
        name = f"journal-{os.getpid()}-{time.time_ns()}.jsonl"
        # Locked before it has the name ``recover`` looks for: a sibling worker process
        # starting at the same moment would otherwise find it unlocked, take it for a dead
        # process's journal and remove it under this one (web/prefork.py).
        fresh = self.folder / f".{name}.new"
        fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        path = self.folder / name
        os.replace(fresh, path)
        return fd, path

    def _rotate(self) -> None:
        """Everything applied: start a new file and remove the old (called under the lock)."""
        old_fd, old_path = self._fd, self.path
        self._fd, self.path = self._open()
        os.close(old_fd)
        old_path.unlink(missing_ok=True)


def recover(folder: Path, appliers: dict[str, Applier]) -> int:
    """Apply the records of journals left by processes that are gone; returns how many."""
    replayed = 0
    for path in sorted(Path(folder).glob("journal-*.jsonl")):
        try:
            fd = os.open(path, os.O_RDWR)
        except FileNotFoundError:
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # a live server's journal
            records = _unapplied(path)
            for kind, applier in appliers.items():
                mine = [record for k, record in records if k == kind]
                if mine:
                    applier(mine, True)
            replayed += len(records)
            if records:
                log.warning("Applied %d record(s) a stopped server had handed off (%s)",
                            len(records), path.name)
            path.unlink(missing_ok=True)
        finally:
            os.close(fd)
    return replayed


def handed_off_elsewhere(folder: Path, needle: str) -> bool:
    """Whether a live sibling process's journal holds ``needle`` (a list id) not yet applied:
    feedback on a list another worker process served a moment ago waits for it."""
    encoded = needle.encode()
    for path in Path(folder).glob("journal-*.jsonl"):
        try:
            with open(path, "rb") as journal:
                if encoded in journal.read():
                    return True
        except OSError:
            continue
    return False


def _unapplied(path: Path) -> list[tuple[str, Any]]:
    """The records after the last ``done`` mark. A line the kill cut short belongs to a
    request that was never answered (the hand-off precedes the answer): it is skipped."""
    records: list[tuple[int, str, Any]] = []
    done = 0
    with open(path, "rb") as lines:
        for raw in lines:
            try:
                item = json.loads(raw)
            except ValueError:
                continue
            if "done" in item:
                done = max(done, int(item["done"]))
            else:
                records.append((int(item["n"]), item["k"], item["v"]))
    return [(kind, record) for number, kind, record in records if number > done]


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
