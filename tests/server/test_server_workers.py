"""Serving in several processes (PRECEDENT_WORKERS, addin_server/web/prefork.py): what must
hold across them does.

One real server, two worker processes forked by a parent that holds the port, over the small
test index with the hashing embedder. Every request below opens a fresh connection, so the
requests of one test land on both workers (the kernel hands each connection to whichever
worker accepts first). Linux only (fork, /proc).
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from addin_server.web.audit import AuditLog, query_hash
from addin_server.web.limits import RateLimiter, parse_limit
from addin_server.conform.documents import DocumentCache, read
from index_builder.errors import RateLimitedError
from index_builder.reading.paragraphs import Paragraph
from index_builder.settings import AuditSettings
from index_builder.sources.ledger import FileLedger

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self").exists(),
                                reason="worker processes need fork (Linux)")

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
QUERY = "aggregate liability under this Agreement shall not exceed the fees paid"

SERVER = textwrap.dedent("""
    import logging, sys
    sys.path.insert(0, {tests!r})
    from conftest import HashingEmbedder
    from addin_server.service import build_service
    from addin_server.web.app import create_app
    from addin_server.web.prefork import serve_processes
    from addin_server.web.wsgi import serve
    from index_builder.settings import load_settings

    logging.basicConfig(level=logging.INFO, format="%(process)d %(name)s: %(message)s")
    settings = load_settings({{}}, {{"index_dir": {index!r}, "rerank.cross_encoder": "",
                                   "local_llm.mode": "off", "rerank.default": "off",
                                   "server.index_reload_s": 0.2, "server.rate_limit": "off"}})

    def build_app(shared, balance):
        return create_app(settings, build_service(settings, embedder=HashingEmbedder()), shared=shared,
                          balance=balance)

    def serve_app(app, **worker):
        try:
            serve(app, "127.0.0.1", {port}, threads=4, **worker)
        finally:
            app.extensions["precedent"].close()

    sys.exit(serve_processes(build_app, serve_app, "127.0.0.1", {port}, 2, 64))
""")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.add(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return found


class Server:
    def __init__(self, index: Path, folder: Path) -> None:
        self.port = _free_port()
        self.log = folder / "server.log"
        script = SERVER.format(tests=str(TESTS), index=str(index), port=self.port)
        env = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"}
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen([sys.executable, "-c", script], env=env, cwd=folder,
                                            stdout=out, stderr=subprocess.STDOUT)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """One request on a connection of its own."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            payload = None if body is None else json.dumps(body)
            connection.request(method, path, payload, {"Content-Type": "application/json"})
            answer = connection.getresponse()
            return answer.status, json.loads(answer.read() or b"null")
        finally:
            connection.close()

    def search(self, text: str = QUERY) -> dict[str, Any]:
        status, body = self.call("POST", "/api/v1/precedents", {"text": text, "rerank": False})
        assert status == 200, body
        return body

    def workers(self) -> set[int]:
        return _children(self.process.pid)

    def wait_serving(self, workers: int = 2, timeout: float = 60) -> set[int]:
        """Until ``workers`` processes have each said they serve; their pids."""
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            pids = self.workers()
            serving = {int(line.split()[0]) for line in self.log.read_text().splitlines()
                       if "addin_server.web.wsgi: Serving on" in line}
            if len(pids) == workers and pids <= serving:
                return pids
            time.sleep(0.1)
        raise AssertionError(f"workers did not come up:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(60)


@pytest.fixture(scope="module")
def corpus_index(tmp_path_factory: pytest.TempPathFactory, embedder_factory: Any) -> Path:
    """The small test index (tests/server/server_data.py), one for this module's server."""
    from index_builder.index.build import build_index
    from server_data import CLAUSES

    root = tmp_path_factory.mktemp("workers")
    corpus = root / "precedents"
    corpus.mkdir()
    (corpus / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": cid, "text": text, "title": "Model Agreement"}) + "\n" for cid, text in CLAUSES.items()))
    build_index(_settings(root / "index"), [corpus], embedder_factory(), progress=False)
    return root / "index"


def _settings(index: Path) -> Any:
    from index_builder.settings import load_settings

    return load_settings({}, {"index_dir": index, "rerank.cross_encoder": ""})


@pytest.fixture(scope="module")
def server(corpus_index: Path) -> Iterator[Server]:
    """One server for the module (starting two workers is most of its time); the tests that
    change what it serves (a rebuild, a revocation) come last."""
    running = Server(corpus_index, corpus_index.parent)
    try:
        running.wait_serving()
        yield running
    finally:
        children = running.workers()
        code = running.stop()
        assert code == 0, running.log.read_text()[-3000:]
        assert not any(Path(f"/proc/{pid}").exists() for pid in children), "a worker outlived the parent"


def test_two_workers_serve_one_port_and_say_so(server: Server) -> None:
    status, health = server.call("GET", "/api/v1/health")
    assert status == 200 and health["server"] == {"processes": 2, "serving": 2}
    assert all(server.search()["results"] for _ in range(10))


def test_a_killed_worker_is_started_again_and_nothing_it_answered_is_lost(
        server: Server, corpus_index: Path) -> None:
    answered = [server.search()["list_id"] for _ in range(12)]
    victim = min(server.workers())
    os.kill(victim, signal.SIGKILL)
    until = time.monotonic() + 10
    while victim in server.workers():  # until the parent has reaped it
        assert time.monotonic() < until
        time.sleep(0.05)
    after = server.wait_serving()
    assert victim not in after and len(after) == 2
    answered += [server.search()["list_id"] for _ in range(12)]
    until = time.monotonic() + 20  # stored after the answer (the killed worker's: by its successor)
    while not set(answered) <= _stored(corpus_index):
        assert time.monotonic() < until, set(answered) - _stored(corpus_index)
        time.sleep(0.1)
    hashes = [entry["query_hmac"] for entry in _audit(corpus_index) if entry["route"] == "/api/v1/precedents"]
    # Every answered search has its line, whole, and every worker (the restarted one too)
    # hashed the query with the one key the first of them made.
    key = bytes.fromhex((corpus_index.parent / "keys" / "audit-query.key").read_text())
    assert hashes.count(query_hash(QUERY, key)) >= 24


def _stored(index: Path) -> set[str]:
    import sqlite3

    with sqlite3.connect(index.parent / "usage" / "usage.sqlite") as db:
        return {row[0] for row in db.execute("SELECT list_id FROM shown_lists")}


def _audit(index: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for trail in (index.parent / "audit").glob("audit.jsonl*")
            for line in trail.read_text().splitlines()]


def test_feedback_on_a_list_another_worker_served_a_moment_ago(server: Server) -> None:
    for _ in range(10):
        shown = server.search()
        first = shown["results"][0]
        status, body = server.call("POST", "/api/v1/feedback", {
            "list_id": shown["list_id"],
            "events": [{"kind": "thumbs_up", "clause_id": first["clause_id"], "rank": first["rank"]}]})
        assert status == 200, body


def test_a_document_read_by_one_worker_is_known_to_the_other(server: Server) -> None:
    paragraphs = [{"index": 0, "text": 'This Agreement is between Acme Inc. ("Supplier") and Beta LLC ("Customer").'},
                  {"index": 1, "text": '"Fees" means the amounts payable under an Order.'},
                  {"index": 2, "text": "The Customer shall pay the Fees within 30 days."}]
    status, profile = server.call("POST", "/api/v1/document", {"paragraphs": paragraphs})
    assert status == 200, profile
    for _ in range(10):
        status, body = server.call("POST", "/api/v1/document/check", {"document": {"id": profile["id"]}})
        assert status == 200, body


def test_a_rebuilt_index_goes_live_in_every_worker(server: Server, corpus_index: Path,
                                                   embedder: Any) -> None:
    from index_builder.index.build import build_index

    corpus = corpus_index.parent / "precedents"
    with open(corpus / "corpus.jsonl", "a") as extra:
        extra.write(json.dumps({"_id": "new-clause", "text": "Escrow of source code with a neutral agent."}) + "\n")
    build_index(_settings(corpus_index), [corpus], embedder, progress=False)
    # Each worker looks for a newer version on its own (every 0.2 s here, on a request) and
    # loads it in the background: within the deadline, 20 answers in a row from both find it.
    until = time.monotonic() + 60
    in_a_row = 0
    while in_a_row < 20:
        assert time.monotonic() < until, "the rebuilt index never went live in every worker"
        in_a_row = in_a_row + 1 if server.call("GET", "/api/v1/clauses/new-clause")[0] == 200 else 0
        time.sleep(0.02)


def test_a_revocation_is_withheld_by_every_worker_at_once(server: Server, corpus_index: Path) -> None:
    """The access ledger is read by each worker on every request: no worker answers from a
    stale copy, even for a moment (the served version never reloads here)."""
    top = server.search()["results"][0]
    walled_doc = top["source"]["doc_id"]
    FileLedger(corpus_index).publish([([walled_doc], ("g-matter-team",), ())])
    for _ in range(20):
        assert walled_doc not in {r["source"]["doc_id"] for r in server.search()["results"]}
        assert server.call("GET", f"/api/v1/clauses/{top['clause_id']}")[0] == 404


def test_a_worker_that_cannot_start_stops_the_parent(tmp_path: Path) -> None:
    broken = Server(tmp_path / "no-index", tmp_path)
    assert broken.process.wait(60) == 2
    # Both workers fail the same way; whichever the parent sees first is named (0 or 1).
    assert re.search(r"Worker [01] stopped before serving \(status 2\): stopping", broken.log.read_text())


# --- the shared pieces, each across real processes ---------------------------------------------

def _hit(path: str, times: int, out: Any) -> None:
    limiter = RateLimiter(parse_limit("10/minute", "PRECEDENT_RATE_LIMIT"), None, Path(path))
    allowed = 0
    for _ in range(times):
        try:
            limiter.check("user:ann")
            allowed += 1
        except RateLimitedError:
            pass
    out.put(allowed)


def test_a_rate_limit_is_the_users_across_processes_not_each_processes(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    hitters = [context.Process(target=_hit, args=(str(tmp_path / "limits.sqlite"), 8, out)) for _ in range(3)]
    for hitter in hitters:
        hitter.start()
    for hitter in hitters:
        hitter.join(60)
    assert sum(out.get(timeout=5) for _ in hitters) == 10  # of 24 tries, the limit's 10
    with pytest.raises(RateLimitedError) as refused:
        RateLimiter(parse_limit("10/minute", "x"), None, tmp_path / "limits.sqlite").check("user:ann")
    assert 1 <= refused.value.retry_after <= 60


def _write_audit(path: str, writer: int, lines: int) -> None:
    trail = AuditLog(Path(path), AuditSettings(rotate="size", max_mb=1, keep=100))
    for number in range(lines):
        # Long lines: more than one write(2) each, the case a lock must keep whole.
        trail.write({"writer": writer, "number": number, "pad": "x" * 20_000})
    trail.close()


def test_audit_lines_from_several_processes_are_whole_and_none_lost_across_roll_overs(
        tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    path = tmp_path / "audit" / "audit.jsonl"
    writers = [context.Process(target=_write_audit, args=(str(path), w, 150)) for w in range(3)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
        assert writer.exitcode == 0
    seen = []
    for trail in path.parent.glob("audit.jsonl*"):
        seen += [json.loads(line) for line in trail.read_text().splitlines()]  # whole lines only
    assert sorted((e["writer"], e["number"]) for e in seen) == [(w, n) for w in range(3) for n in range(150)]


def test_a_daily_roll_over_done_by_another_process_is_not_done_again(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    first, second = (AuditLog(path, AuditSettings(rotate="daily", keep=10)) for _ in range(2))
    first.write({"n": 1})
    second.write({"n": 2})
    for trail in (first, second):  # both processes' clocks pass midnight
        trail._handler.rolloverAt = int(time.time()) - 1
    first.write({"n": 3})  # rolls yesterday's file over
    second.write({"n": 4})  # must not roll over again (that replaced the file `first` made)
    kept = sorted(json.loads(line)["n"] for trail in tmp_path.glob("audit.jsonl*")
                  for line in trail.read_text().splitlines())
    assert kept == [1, 2, 3, 4]
    assert len(list(tmp_path.glob("audit.jsonl.*"))) == 1
    first.close()
    second.close()


def test_a_read_document_is_found_by_another_process_and_only_by_its_reader(tmp_path: Path) -> None:
    one, other = DocumentCache(10, 60, tmp_path), DocumentCache(10, 60, tmp_path)
    reading = read([Paragraph(0, "The Supplier shall deliver the Goods.")])
    one.put("user:ann", reading)
    assert other.get("user:ann", reading.id) == reading
    assert other.get("user:bob", reading.id) is None
    stale = DocumentCache(10, 0.0, tmp_path)
    time.sleep(0.01)
    assert stale.get("user:ann", reading.id) is None


def test_a_worker_holding_more_connections_leaves_the_next_to_a_less_loaded_one() -> None:
    from addin_server.web.prefork import YIELD_MAX_S, Balance, NOT_SERVING, connection_counts

    shared = connection_counts(3)
    first, second = Balance(shared, 0, 3), Balance(shared, 1, 3)
    first.serving()
    assert not first.should_yield()  # alone (slot 2 is not serving): it takes everything
    second.serving()
    first.opened()
    assert first.should_yield() and not second.should_yield()
    second.opened()
    assert not first.should_yield() and first.counts() == [1, 1, NOT_SERVING]
    second.opened()
    first.closed()
    assert second.should_yield()
    time.sleep(YIELD_MAX_S * 2)
    assert not second.should_yield()  # the others took nothing in time: it accepts itself


def _open_usage(folder: str, barrier: Any, out: Any) -> None:
    from index_builder.errors import FeedbackUnavailableError
    from index_builder.learn.store import UsageStore
    from index_builder.settings import load_settings

    barrier.wait()
    try:
        UsageStore.open(load_settings({}, {"index_dir": Path(folder) / "index"}))
        out.put("ok")
    except FeedbackUnavailableError as exc:
        out.put(exc.message)


def test_workers_opening_a_new_usage_database_at_once_both_get_it(tmp_path: Path) -> None:
    """Both saw no table and the second CREATE failed: that worker served without feedback
    (19 of 20 starts before the fix)."""
    context = multiprocessing.get_context("fork")
    for round_ in range(5):
        folder = tmp_path / str(round_)
        barrier, out = context.Barrier(2), context.Queue()
        openers = [context.Process(target=_open_usage, args=(str(folder), barrier, out)) for _ in range(2)]
        for opener in openers:
            opener.start()
        for opener in openers:
            opener.join(60)
        assert [out.get(timeout=5), out.get(timeout=5)] == ["ok", "ok"]
