"""The audit trail keeps its file open between lines (issue 39) and still follows the name: a
trail moved away by a log shipper, or deleted, is created again on the next line."""

from __future__ import annotations

import json
from pathlib import Path

from addin_server.web.audit import AuditLog
from index_builder.settings import AuditSettings


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_moved_or_deleted_trail_is_created_again(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    trail = AuditLog(path, AuditSettings())
    trail.write({"n": 1})
    trail.write({"n": 2})
    path.rename(tmp_path / "shipped.jsonl")
    trail.write({"n": 3})
    path.unlink()
    trail.write({"n": 4})
    trail.close()
    assert lines(tmp_path / "shipped.jsonl") == [{"n": 1}, {"n": 2}]
    assert lines(path) == [{"n": 4}]
    assert (path.stat().st_mode & 0o777) == 0o640


def test_each_line_is_on_disk_when_write_returns(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    trail = AuditLog(path, AuditSettings())
    for n in range(3):
        trail.write({"n": n})
        assert lines(path)[-1] == {"n": n}  # flushed, though the file stays open
    trail.close()
