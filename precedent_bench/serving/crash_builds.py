"""The pieces of `precedent-bench crash-faults` that tests/faults reuse: a scratch library that
changes between trials, a build run in a forked child and SIGKILLed at a chosen call of one
phase, and the invariants the live index must keep afterwards (``check_live``).

Apart from crash_faults.py (the trials, the report, the command) so a test of crash safety
imports the mechanism without the benchmark around it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from precedent_bench.common import data

PHASES = ("reading", "embedding", "indexing", "writing", "switching")
EXIT_OK, EXIT_DISK_FULL, EXIT_ERROR = 0, 3, 4


# --- the library that changes between trials ----------------------------------------------

@dataclass
class Library:
    """A scratch library: one BEIR corpus folder and a folder of .md contracts."""

    root: Path
    rows: list[dict[str, Any]]  # the ACORD rows to draw from
    rng: random.Random
    corpus_size: int = 40
    next_doc: int = 0

    @property
    def sources(self) -> list[Path]:
        return [self.root / "corpus", self.root / "contracts"]

    def create(self, contracts: int = 8) -> None:
        (self.root / "corpus").mkdir(parents=True, exist_ok=True)
        (self.root / "contracts").mkdir(parents=True, exist_ok=True)
        self._write_corpus()
        for _ in range(contracts):
            self._new_contract()

    def change(self) -> str:
        """One change a firm makes between builds; returns what it was."""
        contracts = sorted((self.root / "contracts").glob("*.md"))
        roll = self.rng.random()
        if roll < 0.45 and contracts:
            self._write_contract(self.rng.choice(contracts))
            return "edit"
        if roll < 0.65 or len(contracts) < 4:
            self._new_contract()
            return "add"
        if roll < 0.85:
            self.rng.choice(contracts).unlink()
            return "remove"
        self._write_corpus()
        return "corpus"

    def _write_corpus(self) -> None:
        chosen = self.rng.sample(self.rows, self.corpus_size)
        lines = [json.dumps({"_id": r["_id"], "title": r.get("title", ""), "text": r["text"]})
                 for r in chosen]
        (self.root / "corpus" / "corpus.jsonl").write_text("\n".join(lines) + "\n")

    def _new_contract(self) -> None:
        self.next_doc += 1
        self._write_contract(self.root / "contracts" / f"agreement-{self.next_doc:03d}.md")

    def _write_contract(self, path: Path) -> None:
        clauses = self.rng.sample(self.rows, self.rng.randint(3, 6))
        body = [f"# Agreement {path.stem} (revision {self.rng.randint(1, 10**6)})", ""]
        for n, row in enumerate(clauses, 1):
            text = " ".join(row["text"].split())[:600]
            body += [f"{n}. **{(row.get('title') or 'Clause').strip()[:40]}.** {text}", ""]
        path.write_text("\n".join(body))


def acord_rows(acord: Path, count: int, seed: int) -> list[dict[str, Any]]:
    return random.Random(seed).sample(data.acord_corpus(acord), count)


# --- a build in a forked child, killed at one point -----------------------------------------

@dataclass(frozen=True)
class KillPoint:
    phase: str
    event: int  # the k-th profiled call inside the phase (1-based)


@dataclass
class ChildResult:
    outcome: str  # "killed", "ok", "disk_full", "error"
    seconds: float
    detail: str = ""
    events: dict[str, int] = field(default_factory=dict)  # calibration: calls per phase


def build_in_child(settings: Any, sources: Sequence[Path], embedder: Any,
                   kill: KillPoint | None = None, count: bool = False,
                   file_size_limit: int | None = None, chunk: int = 8) -> ChildResult:
    """Run ``build_index`` in a forked child; SIGKILL it at ``kill``; report how it ended."""
    read_fd, write_fd = os.pipe()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        code, message = EXIT_ERROR, ""
        try:
            code, message = _child(settings, sources, embedder, kill, count, file_size_limit, chunk)
        except BaseException:
            message = traceback.format_exc()[-3000:]
        finally:
            os.write(write_fd, message.encode("utf-8", "replace"))
            os._exit(code)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        detail = pipe.read().decode("utf-8", "replace")
    _, status = os.waitpid(pid, 0)
    seconds = time.monotonic() - started
    if os.WIFSIGNALED(status):
        outcome = "killed" if os.WTERMSIG(status) == signal.SIGKILL else f"signal {os.WTERMSIG(status)}"
        return ChildResult(outcome, seconds, detail)
    code = os.WEXITSTATUS(status)
    outcome = {EXIT_OK: "ok", EXIT_DISK_FULL: "disk_full"}.get(code, "error")
    events = json.loads(detail) if outcome == "ok" and count and detail else {}
    return ChildResult(outcome, seconds, "" if events else detail, events)


def _child(settings: Any, sources: Sequence[Path], embedder: Any, kill: KillPoint | None,
           count: bool, file_size_limit: int | None, chunk: int) -> tuple[int, str]:
    from index_builder.errors import DiskFullError
    from index_builder.index import build, parallel

    if file_size_limit is not None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))
    parallel.CHUNK = chunk  # several cache appends per build, even for a few new texts
    tracker = _PhaseTracker(kill, count)
    tracker.install()
    try:
        build.build_index(settings, list(sources), embedder, progress=False)
    except DiskFullError as exc:
        return EXIT_DISK_FULL, exc.message
    finally:
        sys.setprofile(None)
    tracker.finish()
    if kill is not None:
        return EXIT_ERROR, f"kill point {kill} not reached (the build has no {kill.phase} phase)"
    return EXIT_OK, json.dumps(tracker.events) if count else ""


class _PhaseTracker:
    """Knows the build's phase (by wrapping the functions that start each) and counts every
    call made in it; kills the process at the chosen call."""

    def __init__(self, kill: KillPoint | None, count: bool) -> None:
        self.kill = kill
        self.count = count  # profile every phase (slow), not only the one to kill in
        self.phase = "reading"
        self.events: Counter[str] = Counter()

    def install(self) -> None:
        from index_builder.index import build, store, versions

        # store.write_version calls store._publish; _publish (versions.py) calls _current_name.
        embeddings, publish, current = build._embeddings, store._publish, versions._current_name

        def in_embedding(*args: Any, **kwargs: Any) -> Any:
            self._enter("embedding")
            try:
                return embeddings(*args, **kwargs)
            finally:
                self._enter("indexing")  # BM25, kept clauses: in memory, nothing written yet

        def writing(*args: Any, **kwargs: Any) -> Any:
            self._enter("writing")  # the staging folder is created, filled, synced, renamed
            return publish(*args, **kwargs)

        def switching(*args: Any, **kwargs: Any) -> Any:
            self._enter("switching")  # called right after the staging folder's rename
            return current(*args, **kwargs)

        build._embeddings = in_embedding
        store._publish = writing
        versions._current_name = switching
        self._enter("reading")

    def finish(self) -> None:
        """The build returned: a kill point in its last phase not reached yet happens now."""
        sys.setprofile(None)
        self._enter("done")

    def _enter(self, phase: str) -> None:
        if self.kill is not None and self.phase == self.kill.phase and phase != self.phase:
            os.kill(os.getpid(), signal.SIGKILL)  # the phase is ending short of the k-th call
        self.phase = phase
        watched = self.count or (self.kill is not None and phase == self.kill.phase)
        sys.setprofile(self._profile if watched else None)

    def _profile(self, frame: Any, event: str, arg: Any) -> None:
        if event not in ("call", "c_call"):
            return
        self.events[self.phase] += 1
        if self.kill is not None and self.phase == self.kill.phase \
                and self.events[self.phase] >= self.kill.event:
            os.kill(os.getpid(), signal.SIGKILL)


# --- invariants -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Snapshot:
    version: str
    clauses: frozenset[tuple[str, str]]  # (clause id, sha256 of text)


def check_live(root: Path, embedder: Any | None = None, sample: int = 0,
               rng: random.Random | None = None) -> Snapshot:
    """Raise AssertionError unless the live index is one complete, consistent version."""
    from index_builder.index.backend import text_key
    from index_builder.index.embedded import EmbeddedStore
    from index_builder.index.store import load_index
    from index_builder.index.versions import POINTER

    for folder in root.iterdir():
        if folder.is_dir() and folder.name.startswith("v-"):
            assert (folder / "params.json").is_file(), f"{folder.name}: a version without params.json"
    live = (root / POINTER).read_text().strip()
    index = load_index(root)  # raises on a missing or mismatched part
    try:
        clauses = list(index.clauses)
        snapshot = Snapshot(live, frozenset((c.clause_id, text_key(c.text)) for c in clauses))
        assert index.path.name == live
        positions = ([p for p in range(index.size) if index.alive is None or index.alive[p]])
        assert len(positions) == len(clauses) > 0
        if embedder is not None and sample:
            chosen = (rng or random.Random(0)).sample(range(len(clauses)), min(sample, len(clauses)))
            texts = [clauses[i].text for i in chosen]
            wanted = embedder.embed(texts)
            got = np.stack([index.embeddings[index.position[clauses[i].clause_id]] for i in chosen])
            worst = float(np.max(np.abs(wanted - got)))
            assert worst < 1e-4, f"a clause's stored vector is not its text's (max diff {worst:.3g})"
    finally:
        index.close()
    backend = EmbeddedStore(root).open()
    try:
        first = clauses[0]
        vector = backend.index.embeddings[backend.index.position[first.clause_id]][None, :]
        hits = backend.dense(np.asarray(vector, dtype=np.float32), 3)
        assert first.clause_id in [clause_id for clause_id, _ in hits], \
            "a search does not find a clause by its own vector"
    finally:
        backend.close()
    return snapshot
