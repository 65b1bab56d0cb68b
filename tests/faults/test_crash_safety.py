"""Crash and disk faults: what a kill -9, a full disk or a torn write leaves behind is a
complete live index, a build that runs again, and an audit trail that parses.

The long randomised suite is `precedent-bench crash-faults` (precedent_bench/serving/
crash_faults.py); these are its invariants on a few fixed kill points, fast (a forked child
per build, the hashing embedder).
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import numpy as np
import pytest

from precedent_bench.serving.crash_builds import (
    KillPoint,
    Library,
    acord_rows,
    build_in_child,
    check_live,
)
from index_builder.index.lock import LOCK_NAME, build_lock
from index_builder.index.parallel import EmbeddingCache
from tests.conftest import HashingEmbedder

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the kills run builds in forked children")


@pytest.fixture
def library(tmp_path: Path, acord_dir: Path) -> Library:
    lib = Library(tmp_path / "library", acord_rows(acord_dir, 120, 7), random.Random(7), corpus_size=20)
    lib.create(contracts=4)
    return lib


# One kill per phase, part way in (a phase with fewer calls dies at its end); the
# benchmark draws the point at random over many trials.
KILLS = [("reading", 2000), ("embedding", 300), ("indexing", 3000), ("writing", 3000),
         ("switching", 100), ("switching", 250)]  # 250: while pruning the old version


@pytest.mark.parametrize("phase,event", KILLS)
def test_a_build_killed_in_any_phase_leaves_a_complete_index_and_the_next_build_works(
        settings, library: Library, phase: str, event: int) -> None:
    embedder = HashingEmbedder()
    for _ in range(2 if phase == "switching" else 1):  # two: the kill's build prunes the first
        assert build_in_child(settings, library.sources, embedder).outcome == "ok"
        library.change()
    before = check_live(settings.index_dir)
    killed = build_in_child(settings, library.sources, embedder, kill=KillPoint(phase, event))
    assert killed.outcome == "killed", killed.detail
    after_kill = check_live(settings.index_dir)
    nxt = build_in_child(settings, library.sources, embedder)
    assert nxt.outcome == "ok", nxt.detail
    after = check_live(settings.index_dir, embedder, sample=50)
    assert after_kill.clauses in (before.clauses, after.clauses)
    assert after.clauses != before.clauses  # the change did land
    assert not [p for p in settings.index_dir.iterdir()
                if p.name.startswith((".staging-", ".CURRENT.", ".trash-", ".embedding-cache", LOCK_NAME))]


def test_a_build_that_runs_out_of_space_says_so_and_leaves_the_live_index(
        settings, library: Library) -> None:
    embedder = HashingEmbedder()
    assert build_in_child(settings, library.sources, embedder).outcome == "ok"
    before = check_live(settings.index_dir)
    library.change()
    # Files may not grow past 2 KB: the clause database is the first write to fail (EFBIG).
    full = build_in_child(settings, library.sources, embedder, file_size_limit=2048)
    assert full.outcome == "disk_full", full.detail
    assert "ran out of space" in full.detail and "live index is unchanged" in full.detail
    assert check_live(settings.index_dir).clauses == before.clauses
    assert build_in_child(settings, library.sources, embedder).outcome == "ok"
    assert check_live(settings.index_dir, embedder, sample=50).clauses != before.clauses


def test_a_lock_left_by_a_killed_builder_never_blocks_the_next(settings) -> None:
    settings.index_dir.mkdir(parents=True)
    pid = os.fork()
    if pid == 0:
        with build_lock(settings.index_dir):
            os.kill(os.getpid(), 9)
    os.waitpid(pid, 0)
    lock = settings.index_dir / LOCK_NAME
    assert lock.read_text() == f"pid {pid}"  # written whole before it was visible
    with build_lock(settings.index_dir):  # its process is gone: taken over
        pass
    lock.write_text("")  # an empty lock, as the old create-then-write left after a kill
    old = time.time() - 60
    os.utime(lock, (old, old))
    with build_lock(settings.index_dir):
        pass
    assert not lock.exists()


def test_a_torn_cache_line_is_never_paired_with_another_rows_vector(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path, "m", 4)
    cache.append(["a" * 64, "b" * 64], np.array([[1.0] * 4, [2.0] * 4], dtype=np.float32))
    # Killed (or out of space) part way through the next append: its vectors are written,
    # the first key only half.
    with open(cache.folder / "vectors.f32", "ab") as out:
        out.write(np.array([[3.0] * 4, [4.0] * 4], dtype=np.float32).tobytes())
    with open(cache.folder / "keys.txt", "a") as out:
        out.write("c" * 20)
    assert sorted(cache.load()) == ["a" * 64, "b" * 64]
    cache.append(["c" * 64, "d" * 64], np.array([[3.0] * 4, [4.0] * 4], dtype=np.float32))
    loaded = cache.load()
    assert {k[0]: float(v[0]) for k, v in loaded.items()} == {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}


def test_cache_keys_past_the_last_whole_vector_are_cut(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path, "m", 4)
    cache.append(["a" * 64, "b" * 64], np.array([[1.0] * 4, [2.0] * 4], dtype=np.float32))
    with open(cache.folder / "vectors.f32", "r+b") as data:  # the last vector never reached disk
        data.truncate(4 * 4 + 6)
    cache.append(["c" * 64], np.array([[3.0] * 4], dtype=np.float32))
    loaded = cache.load()
    assert {k[0]: float(v[0]) for k, v in loaded.items()} == {"a": 1.0, "c": 3.0}


def test_an_audit_line_torn_by_a_kill_does_not_swallow_the_next(tmp_path: Path) -> None:
    from addin_server.web.audit import AuditLog
    from index_builder.settings import AuditSettings

    path = tmp_path / "audit.jsonl"
    path.write_text('{"route":"/api/v1/precedents","status":200}\n{"route":"/api/v1/prec')
    trail = AuditLog(path, AuditSettings())
    trail.write({"route": "/api/v1/health", "status": 200})
    trail.close()
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["status"] == 200 and json.loads(lines[2])["route"] == "/api/v1/health"
    assert len(lines) == 3  # the torn line stays alone, unparseable, as evidence


def test_an_audit_write_that_fails_part_way_does_not_swallow_the_next(tmp_path: Path, monkeypatch) -> None:
    from addin_server.web.audit import AuditLog
    from index_builder.settings import AuditSettings

    path = tmp_path / "audit.jsonl"
    trail = AuditLog(path, AuditSettings())
    trail.write({"n": 1})
    emit = trail._handler.emit

    def disk_full(record):  # type: ignore[no-untyped-def]
        with open(path, "a") as out:
            out.write('{"n": 2, "half')  # some bytes landed before ENOSPC
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(trail._handler, "emit", disk_full)
    with pytest.raises(OSError):
        trail.write({"n": 2})
    monkeypatch.setattr(trail._handler, "emit", emit)
    trail.write({"n": 3})
    trail.close()
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"n": 1} and json.loads(lines[-1]) == {"n": 3}
    assert len(lines) == 3


@pytest.mark.parametrize("error", [
    OSError(28, "No space left on device"),
    OSError(27, "File too large"),
    OSError("9428 requested and 7136 written"),  # numpy's tofile on a full disk: no errno
])
def test_every_form_of_a_full_disk_is_recognised(error: OSError) -> None:
    from index_builder.index.build import _write_failure

    assert _write_failure(error) is not None
    assert _write_failure(OSError(13, "Permission denied")) is None
