"""Serving in several processes (``PRECEDENT_WORKERS``): one interpreter lock per core.

A never-seen search spends ~10 ms of its ~18 ms of server CPU in Python (ranker, folding,
fusion, spans, Flask), all under one process's interpreter lock: one process cannot use both
cores of a small server for that part (benchmarks/results/throughput/README.md). So the
parent here binds the listening socket once, forks ``workers`` processes that each build
their own app (index opened read-only and memory-mapped, query model, batcher) and serve
that one socket with cheroot, and supervises them:

- a worker that dies (kill -9, the OOM killer) is started again; connections waiting in the
  listen queue are not lost with it (the parent holds the socket; SO_REUSEPORT would have
  given each worker a queue of its own, and the kernel resets what a dead worker's held);
- SIGTERM / SIGINT to the parent stops every worker the way one process stops (in-flight
  requests finish, deferred writes are applied), then the parent;
- a worker whose parent is killed with SIGKILL gets SIGTERM from the kernel (Linux), so no
  orphan keeps serving;
- a start-up failure before any worker served (no index, bad settings) ends the parent with
  the worker's exit status instead of restarting in a loop.

Why not gunicorn: it would replace cheroot, whose connection handling (lingering close of
unread bodies, keep-alive room for every pane, TLS in process) was measured and fixed for
the pane (benchmarks/results/connection-faults/); this supervisor is the part gunicorn adds,
around the same server. Platforms without ``fork`` (Windows) serve in one process and say so.

What must hold across workers is kept outside any one of them: the audit trail is appended
under a file lock, shown lists go through per-process journals into one SQLite file, rate
limits count in one SQLite file in the shared folder, the lawyer's read documents are
kept there too (a tmpfs where there is one), revocations are read from the access ledger on
every request, and each worker looks for a rebuilt index on its own (``PRECEDENT_INDEX_RELOAD_S``).
"""

from __future__ import annotations

import ctypes
import logging
import mmap
import os
import shutil
import signal
import socket
import struct
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from index_builder.errors import PrecedentError

log = logging.getLogger(__name__)

STOP_GRACE_S = 30.0  # a worker's in-flight requests and deferred writes, before SIGKILL
RESTART_DELAYS_S = (0.0, 1.0, 2.0, 5.0, 10.0, 30.0)  # after quick deaths in a row
QUICK_DEATH_S = 10.0  # a worker that lived less than this counts towards the next delay
POLL_S = 0.1
YIELD_MAX_S = 0.05  # ... and takes it itself if none has after this (a sibling stuck or gone)
NOT_SERVING = -1


class Balance:
    """Open connections per worker, in memory every worker shares (an anonymous shared map
    made before the fork). A pane keeps its connection for minutes, so where a connection
    lands is where its searches run: left to the kernel, the worker whose selector happened to
    wake first took nearly every connection (all 10 of 10 in a smoke run) and the other
    process, with its own core's worth of interpreter, sat idle. So a worker holding more
    connections than the least loaded serving sibling leaves a new one to the others (the
    listening socket stays readable until one of them accepts it), for at most
    ``YIELD_MAX_S``."""

    def __init__(self, shared: mmap.mmap, slot: int, count: int) -> None:
        self.shared, self.slot, self.count = shared, slot, count
        self._mine = 0
        self._lock = threading.Lock()
        self._yielding_since: float | None = None

    def serving(self) -> None:
        self._write(self._mine)

    def opened(self) -> None:
        with self._lock:
            self._mine += 1
            self._write(self._mine)

    def closed(self) -> None:
        with self._lock:
            self._mine -= 1
            self._write(self._mine)

    def should_yield(self) -> bool:
        """Whether to leave the connection waiting now to a less loaded worker."""
        others = [held for slot, held in enumerate(self.counts()) if slot != self.slot and held >= 0]
        if not others or self._mine <= min(others):
            self._yielding_since = None
            return False
        now = time.monotonic()
        if self._yielding_since is None:
            self._yielding_since = now
        if now - self._yielding_since > YIELD_MAX_S:
            self._yielding_since = None
            return False
        return True

    def serving_now(self) -> int:
        """How many workers serve now (one being started again does not)."""
        return sum(1 for held in self.counts() if held >= 0)

    def counts(self) -> list[int]:
        return [struct.unpack_from("q", self.shared, 8 * slot)[0] for slot in range(self.count)]

    def _write(self, value: int) -> None:
        struct.pack_into("q", self.shared, 8 * self.slot, value)


def connection_counts(workers: int) -> mmap.mmap:
    """The shared map ``Balance`` counts in: one signed 64-bit count per worker slot."""
    shared = mmap.mmap(-1, 8 * workers)
    for slot in range(workers):
        struct.pack_into("q", shared, 8 * slot, NOT_SERVING)
    return shared


@dataclass
class _Worker:
    slot: int
    pid: int
    started: float
    ready: bool = False


def can_fork() -> bool:
    """Whether this platform can run workers (fork and a socket the children inherit)."""
    return hasattr(os, "fork") and hasattr(os, "waitpid") and hasattr(signal, "SIGKILL")


def shared_folder() -> Path:
    """A private folder for what the workers share (rate-limit counts, read documents): in
    memory (/dev/shm) where there is one, so a document never reaches a disk; owner only."""
    memory = Path("/dev/shm")
    base = memory if memory.is_dir() and os.access(memory, os.W_OK) else None
    return Path(tempfile.mkdtemp(prefix="precedent-shared-", dir=base))


def listen(host: str, port: int, backlog: int) -> socket.socket:
    """The one listening socket every worker accepts from (IPv4 or IPv6, as the host says)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)[0]
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(backlog)
    except OSError:
        listener.close()
        raise
    listener.set_inheritable(True)
    return listener


class Supervisor:
    """Forks ``workers`` processes that each run ``run_worker(listener, slot)``; keeps them up."""

    def __init__(self, run_worker: Callable[[socket.socket, int], None], listener: socket.socket,
                 workers: int) -> None:
        self.run_worker = run_worker
        self.listener = listener
        self.count = workers
        self.connections = connection_counts(workers)
        self.workers: dict[int, _Worker] = {}
        self.restarts = 0
        self._stopping = False
        self._any_ready = False
        self._quick_deaths = 0
        self._ready_r, self._ready_w = os.pipe()
        os.set_blocking(self._ready_r, False)

    def run(self) -> int:
        """Serve until SIGTERM/SIGINT (0) or a start-up failure (that worker's status)."""
        previous = {sig: signal.signal(sig, self._stop) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            for slot in range(self.count):
                self._spawn(slot)
            return self._supervise()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self._stop_all()
            os.close(self._ready_r)
            os.close(self._ready_w)

    def _stop(self, signum: int, frame: Any) -> None:
        self._stopping = True

    def _spawn(self, slot: int) -> None:
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the worker: never returns into the parent's code
            status = 1
            try:
                for sig in (signal.SIGTERM, signal.SIGINT):
                    signal.signal(sig, signal.SIG_DFL)
                _die_with_parent(parent)
                os.close(self._ready_r)
                self.run_worker(self.listener, slot)
                status = 0
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
            except PrecedentError as exc:  # no index, an engine down: said as the CLI says it
                log.error("Worker %d: %s", slot, exc.message)
                status = 2
            except BaseException:  # noqa: BLE001 -- logged; the parent decides what next
                log.exception("Worker %d failed", slot)
            finally:
                logging.shutdown()
                os._exit(status)
        self.workers[pid] = _Worker(slot, pid, time.monotonic())
        log.info("Worker %d started (pid %d)", slot, pid)

    def ready_pipe(self) -> int:
        """The descriptor a worker writes its pid to once it serves (see ``announce_ready``)."""
        return self._ready_w

    def _supervise(self) -> int:
        while not self._stopping:
            self._read_ready()
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                pid, status = 0, 0
            if pid == 0:
                time.sleep(POLL_S)
                continue
            worker = self.workers.pop(pid, None)
            if worker is None:
                continue
            struct.pack_into("q", self.connections, 8 * worker.slot, NOT_SERVING)
            self._read_ready()
            code = os.waitstatus_to_exitcode(status)
            how = f"signal {-code}" if code < 0 else f"status {code}"
            if self._stopping:
                break
            if not worker.ready and not self._any_ready and code > 0:
                log.error("Worker %d stopped before serving (%s): stopping", worker.slot, how)
                return code
            lived = time.monotonic() - worker.started
            self._quick_deaths = self._quick_deaths + 1 if lived < QUICK_DEATH_S else 0
            delay = RESTART_DELAYS_S[min(self._quick_deaths, len(RESTART_DELAYS_S) - 1)]
            log.warning("Worker %d (pid %d) ended (%s) after %.0f s; starting another%s",
                        worker.slot, pid, how, lived, f" in {delay:.0f} s" if delay else "")
            if self._sleep(delay):
                break
            self.restarts += 1
            self._spawn(worker.slot)
        return 0

    def _sleep(self, seconds: float) -> bool:
        """Sleep unless asked to stop; True when asked to stop."""
        until = time.monotonic() + seconds
        while time.monotonic() < until and not self._stopping:
            time.sleep(POLL_S)
        return self._stopping

    def _read_ready(self) -> None:
        try:
            data = os.read(self._ready_r, 4096)
        except BlockingIOError:
            return
        for word in data.split():
            worker = self.workers.get(int(word))
            if worker is not None and not worker.ready:
                worker.ready = self._any_ready = True
                log.info("Worker %d (pid %d) serving", worker.slot, worker.pid)

    def _stop_all(self) -> None:
        """SIGTERM every worker, wait for them (their requests finish), SIGKILL stragglers."""
        for pid in list(self.workers):
            _signal(pid, signal.SIGTERM)
        until = time.monotonic() + STOP_GRACE_S
        while self.workers and time.monotonic() < until:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid:
                self.workers.pop(pid, None)
            else:
                time.sleep(POLL_S)
        for pid in list(self.workers):
            log.warning("Worker pid %d did not stop in %.0f s: killed", pid, STOP_GRACE_S)
            _signal(pid, signal.SIGKILL)
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        self.workers.clear()


def announce_ready(fd: int) -> None:
    """A worker tells the parent it serves (a pid and a space: one atomic pipe write)."""
    try:
        os.write(fd, f"{os.getpid()} ".encode())
    except OSError:
        pass


def serve_processes(build_app: Callable[[Path | None, Balance | None], Any],
                    serve_app: Callable[..., None], host: str, port: int, workers: int,
                    backlog: int) -> int:
    """Serve ``build_app(shared, balance)`` in ``workers`` processes (one when the platform
    cannot; then both are None).

    ``serve_app(app, listener=..., on_ready=...)`` runs one process's server until it is
    told to stop. Returns the exit status for the command."""
    if workers > 1 and not can_fork():
        log.warning("PRECEDENT_WORKERS=%d: this platform cannot start worker processes (no "
                    "fork); serving in one process", workers)
        workers = 1
    if workers <= 1:
        serve_app(build_app(None, None))
        return 0
    shared = shared_folder()
    listener = listen(host, port, backlog)
    log.info("Serving on %s:%d in %d worker processes (shared state in %s)", host,
             listener.getsockname()[1], workers, shared)
    supervisor: Supervisor | None = None

    def run_worker(sock: socket.socket, slot: int) -> None:
        assert supervisor is not None
        balance = Balance(supervisor.connections, slot, workers)
        app = build_app(shared, balance)
        ready = supervisor.ready_pipe()

        def on_ready() -> None:
            balance.serving()
            announce_ready(ready)

        serve_app(app, listener=sock, on_ready=on_ready, balance=balance)

    supervisor = Supervisor(run_worker, listener, workers)
    try:
        return supervisor.run()
    finally:
        listener.close()
        shutil.rmtree(shared, ignore_errors=True)
        log.info("Server stopped (%d worker restarts).", supervisor.restarts)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _die_with_parent(parent: int) -> None:
    """Ask Linux to SIGTERM this worker when the parent dies (even by SIGKILL); elsewhere a
    worker notices its parent is gone only when it is stopped."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os.kill(os.getpid(), signal.SIGTERM)
