"""Deferred writes (issue 39): a record handed off is in its store after the answer, and one
handed off by a server that dies before storing it is stored, once, by the next to start."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any, Sequence

import pytest

from addin_server.web import deferred
from addin_server.web.deferred import Deferred, recover


class Store:
    """An applier that keeps records by id, can be held shut, and counts duplicates."""

    def __init__(self) -> None:
        self.rows: dict[str, Any] = {}
        self.writes: list[str] = []
        self.open = threading.Event()
        self.open.set()
        self.fail = False

    def apply(self, records: Sequence[Any], replay: bool) -> None:
        assert self.open.wait(10)
        if self.fail:
            raise OSError(28, "No space left on device")
        for record in records:
            if replay and record["id"] in self.rows:
                continue
            self.writes.append(record["id"])
            self.rows[record["id"]] = record


def journals(folder: Path) -> list[Path]:
    return sorted(folder.glob("journal-*.jsonl"))


def kill(writes: Deferred) -> None:
    """What kill -9 leaves: the journal as written, its lock released, nothing flushed (the
    object's thread writes on into /dev/null)."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, writes._fd)  # closes the journal's descriptor, so its lock goes
    os.close(null)


def test_records_reach_the_store_after_the_hand_off_and_the_journal_goes(tmp_path: Path) -> None:
    store = Store()
    writes = Deferred(tmp_path, {"usage": store.apply})
    for i in range(50):
        writes.submit("usage", {"id": f"r{i}"})
    assert writes.drain(5)
    assert store.writes == [f"r{i}" for i in range(50)]
    assert writes.health() == {"waiting": 0, "failing": "", "recovered": 0}
    writes.close()
    assert journals(tmp_path) == []


def test_a_server_killed_before_storing_leaves_records_the_next_one_stores_once(tmp_path: Path) -> None:
    store = Store()
    store.open.clear()  # the flusher is stuck in the store when the kill comes
    dead = Deferred(tmp_path, {"usage": store.apply})
    for i in range(5):
        dead.submit("usage", {"id": f"r{i}"})
    kill(dead)
    assert len(journals(tmp_path)) == 1
    fresh = Store()
    writes = Deferred(tmp_path, {"usage": fresh.apply})
    assert writes.recovered == 5 and fresh.writes == [f"r{i}" for i in range(5)]
    assert journals(tmp_path) == [writes.path]  # the dead one replayed and removed
    writes.close()
    store.open.set()


def test_a_batch_stored_just_before_the_kill_is_not_stored_twice(tmp_path: Path) -> None:
    store = Store()
    dead = Deferred(tmp_path, {"usage": store.apply})
    dead.submit("usage", {"id": "a"})
    assert dead.drain(5)
    dead.submit("usage", {"id": "b"})
    assert dead.drain(5)
    # Killed after "b" was stored but before its done mark reached the journal:
    lines = dead.path.read_text().splitlines()
    dead.path.write_text("\n".join(line for line in lines if line != '{"done": 2}') + "\n")
    kill(dead)
    assert recover(tmp_path, {"usage": store.apply}) == 1  # "b" again, skipped as known
    assert store.writes == ["a", "b"]


def test_a_line_cut_short_by_the_kill_is_skipped_and_the_rest_replayed(tmp_path: Path) -> None:
    good = json.dumps({"n": 1, "k": "usage", "v": {"id": "whole"}})
    (tmp_path / "journal-1-1.jsonl").write_text(good + '\n{"n": 2, "k": "usage", "v": {"id"')
    store = Store()
    assert recover(tmp_path, {"usage": store.apply}) == 1
    assert store.writes == ["whole"] and journals(tmp_path) == []


def test_a_live_servers_journal_is_never_replayed_by_another(tmp_path: Path) -> None:
    store = Store()
    store.open.clear()
    live = Deferred(tmp_path, {"usage": store.apply})
    live.submit("usage", {"id": "mine"})
    other = Store()
    assert recover(tmp_path, {"usage": other.apply}) == 0 and other.writes == []
    store.open.set()
    live.close()
    assert store.writes == ["mine"]


def test_a_failing_store_keeps_the_records_and_says_so_until_it_recovers(tmp_path: Path,
                                                                       monkeypatch: Any) -> None:
    monkeypatch.setattr(deferred, "RETRY_S", (0.01, 0.02))
    store = Store()
    store.fail = True
    writes = Deferred(tmp_path, {"usage": store.apply})
    writes.submit("usage", {"id": "kept"})
    assert not writes.drain(0.3)
    assert "No space left" in writes.health()["failing"] and writes.health()["waiting"] == 1
    store.fail = False
    assert writes.drain(5) and store.writes == ["kept"] and writes.health()["failing"] == ""
    writes.close()


def test_a_journal_that_cannot_be_written_refuses_the_hand_off(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    writes = Deferred(tmp_path, {"usage": Store().apply})
    full = os.open("/dev/full", os.O_WRONLY)
    os.dup2(full, writes._fd)  # every write now fails: "No space left on device"
    os.close(full)
    with pytest.raises(OSError):
        writes.submit("usage", {"id": "x"})
    assert writes.health()["waiting"] == 0  # nothing was promised
