"""The audit trail file (JSON Lines, rotation) and `addin-server audit` questions over it."""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import multiprocessing
import os
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from addin_server import audit_cli
from addin_server.web.audit import AuditLog, entry, query_hash, returned_ids
from addin_server.web.audit_key import key_path, query_key
from addin_server.web.serialize import search_ids
from index_builder.errors import ConfigError, DataNotFoundError, InvalidRequestError
from index_builder.settings import AuditSettings, load_settings

KEY = "k" * 40  # the deployment's PRECEDENT_AUDIT_KEY in these tests


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


def ask(path: Path, *argv: str) -> str:
    parser = argparse.ArgumentParser()
    audit_cli.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["audit", "--file", str(path), *argv])
    out = io.StringIO()
    assert args.handler(args, out) == 0
    return out.getvalue()


@pytest.fixture
def trail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PRECEDENT_AUDIT_KEY", KEY)  # what `addin-server audit` reads it with
    path = tmp_path / "audit" / "audit.jsonl"
    log = AuditLog(path, AuditSettings())
    rows = [
        ("alice@firm.example", "2026-11-20T09:00:00", ["acme-1", "beta-2"], []),
        ("bob@firm.example", "2026-11-21T10:00:00", ["beta-2"], []),
        ("alice@firm.example", "2026-11-22T11:00:00", [], ["acme-1"]),
        ("carol@firm.example", "2026-11-23T12:00:00", ["gamma-3"], []),
    ]
    for user, when, ids, asked in rows:
        log.write(entry(user=user, auth="entra", method="POST", route="/api/v1/precedents",
                        status=200, index_version="v7", clause_ids=ids, requested_ids=asked,
                        query_hmac=query_hash("limitation of liability", KEY.encode()), when=at(when)))
    log.close()
    return path


def test_lines_hold_no_text_and_the_documented_fields(trail: Path) -> None:
    first = json.loads(trail.read_text().splitlines()[0])
    assert list(first) == ["time", "user", "auth", "oid", "tenant", "method", "route", "status",
                           "index_version", "clause_ids", "requested_ids", "llm_model", "query_hmac",
                           "example_hmac", "ranker"]
    assert first["time"] == "2026-11-20T09:00:00.000Z"
    assert "limitation" not in trail.read_text()
    assert trail.stat().st_mode & 0o007 == 0  # never world-readable, whatever the umask
    # A keyed hash: hashing a guessed clause without the key confirms nothing.
    assert first["query_hmac"] != hashlib.sha256(b"limitation of liability").hexdigest()
    assert first["query_hmac"] == query_hash("limitation of liability", KEY.encode())


def test_who_saw_a_clause(trail: Path) -> None:
    text = ask(trail, "clause", "acme-1")
    assert "alice@firm.example" in text and "bob" not in text and "asked (status 200)" in text
    rows = [json.loads(x) for x in ask(trail, "--json", "clause", "beta-2").splitlines()]
    assert [r["user"] for r in rows] == ["alice@firm.example", "bob@firm.example"]
    only_later = ask(trail, "clause", "beta-2", "--since", "2026-11-21")
    assert "bob@firm.example" in only_later and "alice" not in only_later


def test_what_a_user_retrieved_between_two_dates(trail: Path) -> None:
    text = ask(trail, "user", "ALICE@firm.example", "--since", "2026-11-20", "--until", "2026-11-21")
    assert "acme-1" in text and "beta-2" in text and "1 calls; 2 distinct clauses" in text
    assert "No matching" in ask(trail, "user", "alice@firm.example", "--since", "2026-11-23")
    with pytest.raises(InvalidRequestError, match="--since"):
        ask(trail, "user", "alice@firm.example")
    with pytest.raises(InvalidRequestError, match="2026-11-23"):
        ask(trail, "user", "alice@firm.example", "--since", "last week")


def test_who_sent_a_query(trail: Path) -> None:
    assert "4 calls by 3 user(s)" in ask(trail, "query", "limitation of liability")
    assert "No matching" in ask(trail, "query", "something else")


def test_a_trail_written_before_the_key_is_still_read(trail: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    older = {"time": "2026-11-19T08:00:00.000Z", "user": "dave@firm.example", "auth": "entra",
             "method": "POST", "route": "/api/v1/precedents", "status": 200, "clause_ids": [],
             "query_sha256": hashlib.sha256(b"limitation of liability").hexdigest(), "example_sha256": []}
    (trail.parent / "audit.jsonl.2026-11-19").write_text(json.dumps(older) + "\n")
    assert "5 calls by 4 user(s)" in ask(trail, "query", "limitation of liability")
    # Keyed lines cannot be matched without the key: the message names the setting.
    monkeypatch.delenv("PRECEDENT_AUDIT_KEY")
    monkeypatch.setenv("PRECEDENT_AUDIT_KEY_FILE", str(trail.parent / "no-key"))
    with pytest.raises(DataNotFoundError, match="PRECEDENT_AUDIT_KEY"):
        ask(trail, "query", "limitation of liability")


def _key_of(index_dir: str) -> str:
    return query_key(load_settings({"PRECEDENT_INDEX_DIR": index_dir})).hex()


def test_the_key_is_made_once_owner_only_and_shared_by_workers(tmp_path: Path) -> None:
    index_dir = str(tmp_path / "deploy" / "index")
    settings = load_settings({"PRECEDENT_INDEX_DIR": index_dir})
    # Four workers starting at once: one key, the one every later start (a restart) reads.
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        keys = pool.map(_key_of, [index_dir] * 4)
    assert len(set(keys)) == 1 and len(bytes.fromhex(keys[0])) == 32
    path = key_path(settings)
    assert path == tmp_path / "deploy" / "keys" / "audit-query.key"
    assert query_key(settings).hex() == keys[0]
    assert os.stat(path).st_mode & 0o777 == 0o600 and os.stat(path.parent).st_mode & 0o077 == 0
    assert [p.name for p in path.parent.iterdir()] == ["audit-query.key"]  # no temporary left
    # The setting wins; a short one is refused with the fix; a damaged file names its fix.
    assert query_key(load_settings({"PRECEDENT_INDEX_DIR": index_dir, "PRECEDENT_AUDIT_KEY": KEY})) == KEY.encode()
    with pytest.raises(ConfigError, match="at least 32"):
        load_settings({"PRECEDENT_AUDIT_KEY": "short"})
    path.write_text("not hex\n")
    with pytest.raises(ConfigError, match="PRECEDENT_AUDIT_KEY"):
        query_key(settings)


def test_size_rotation_keeps_every_line_readable(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    log = AuditLog(path, AuditSettings(rotate="size", max_mb=1, keep=5))
    ids = [f"clause-{n:04d}" for n in range(40)]
    for n in range(3000):  # ~2.4 MB: two rollovers
        log.write(entry(user=f"user{n}", auth="entra", method="POST", route="/api/v1/precedents",
                        status=200, index_version="v1", clause_ids=ids))
    log.close()
    files = audit_cli.trail_files(path)
    assert [f.name for f in files] == ["audit.jsonl.2", "audit.jsonl.1", "audit.jsonl"]  # oldest first
    assert all(f.stat().st_size <= 1024 * 1024 for f in files)
    assert len(list(audit_cli.read_entries(path))) == 3000


def test_daily_rotation_starts_a_new_file(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    log = AuditLog(path, AuditSettings(rotate="daily"))
    log.write(entry(user="a", auth="entra", method="GET", route="/api/v1/health", status=200,
                    index_version="v1"))
    log._handler.rolloverAt = int(time.time()) - 1  # as if UTC midnight had passed
    log.write(entry(user="b", auth="entra", method="GET", route="/api/v1/health", status=200,
                    index_version="v1"))
    log.close()
    assert len(audit_cli.trail_files(path)) == 2
    assert [e["user"] for e in audit_cli.read_entries(path)] == ["a", "b"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_write_failure_raises_instead_of_passing_silently(tmp_path: Path) -> None:
    (tmp_path / "audit.jsonl").symlink_to("/dev/full")  # every write: "No space left on device"
    log = AuditLog(tmp_path / "audit.jsonl", AuditSettings(rotate="daily"))
    with pytest.raises(OSError):
        log.write(entry(user="a", auth="entra", method="GET", route="/", status=200, index_version=""))
    log.close()


def test_returned_ids_finds_every_clause_id() -> None:
    payload = {"results": [{"clause_id": "a", "variants": [{"clause_id": "b"}]}],
               "context": {"before": [{"clause_id": "c"}], "after": []},
               "citations": [{"clause_id": "a"}], "text": "clause_id"}
    assert returned_ids(payload) == ["a", "b", "c", "a"]


def test_a_search_answers_ids_are_its_results_and_their_copies() -> None:
    card = lambda cid, copies=(), **more: {"clause_id": cid, "rank": 1, "source": {"doc_id": "d"},  # noqa: E731
                                           "reading": {"number": "1."}, "spans": [{"start": 0}],
                                           "variants": [{"clause_id": c, "source": {}} for c in copies],
                                           **more}
    payload = {"results": [card("a", ("b", "c")), card("d"),
                           card("e", ("a",), curation={"status": "deprecated",
                                                       "replacement_clause_id": "z"})],
               "rerank": {"status": "skipped"}, "timings_ms": {"total": 1.0},
               "facets": {"governing_law": [{"value": "Delaware", "count": 2}]}, "list_id": "l1"}
    assert search_ids(payload) == returned_ids(payload) == ["a", "b", "c", "d", "e", "a"]
    assert search_ids({"results": []}) == []


def test_missing_trail_names_the_setting(tmp_path: Path) -> None:
    with pytest.raises(DataNotFoundError, match="PRECEDENT_AUDIT_FILE"):
        ask(tmp_path / "none" / "audit.jsonl", "clause", "x")
