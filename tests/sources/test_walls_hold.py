"""Walls that hold the moment a sync learns of a revocation (issue 40), on both engines.

The servers here never load the new index version (``PRECEDENT_INDEX_RELOAD_S=0``): the
longest a large index could take to build and load. What a sync narrowed must still be
withheld from their very next answer, on every server that shares the index: two on one
machine (one index folder), two "machines" on one Milvus (two clients of its catalog).
Requests go through the whole Flask app, signed in as service accounts with groups.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from addin_server.service import build_service
from addin_server.web.app import create_app
from index_builder.errors import AccessChangePendingError, SourceUnavailableError
from index_builder.index import open_store
from index_builder.model import Condition
from index_builder.sources.ledger import FileLedger
from index_builder.sources.watch import AccessWatch

from source_drivers import Driver
from test_source_contract import ACME, EDITED, FORM, _library

QUERY = "The Seller shall indemnify the Buyer against all Losses arising from any breach"
TOKENS = {"bob": "bob-token-0123456789", "acme": "acme-token-0123456789"}


def _servers(driver: Driver, tmp: Path, count: int = 2, reload_s: float = 0) -> list[Any]:
    """``count`` servers on the driver's index, each with its own service (and watch); by
    default they never look for a new version (``reload_s``)."""
    accounts = tmp / "accounts.json"
    accounts.write_text(json.dumps([{"name": "bob", "token": TOKENS["bob"], "groups": ["g-bob"]},
                                    {"name": "acme", "token": TOKENS["acme"], "groups": ["g-acme"]}]))
    driver.values.update({"rerank.cross_encoder": "", "rerank.default": "off", "local_llm.mode": "off",
                          "auth.service_accounts_file": accounts, "audit.enabled": False,
                          "server.index_reload_s": reload_s})
    settings = driver.settings()
    return [create_app(settings, build_service(settings, embedder=driver.embedder)).test_client()
            for _ in range(count)]


def _seen(client: Any, who: str) -> set[str]:
    """The documents of the clauses a search returns to ``who``."""
    answer = client.post("/api/v1/precedents", json={"text": QUERY, "top_k": 10},
                         headers={"Authorization": f"Bearer {TOKENS[who]}"})
    assert answer.status_code == 200, answer.get_json()
    return {r["source"]["doc_id"] for r in answer.get_json()["results"]}


def _clause(client: Any, who: str, clause_id: str) -> int:
    return client.get(f"/api/v1/clauses/{quote(clause_id, safe='')}",
                      headers={"Authorization": f"Bearer {TOKENS[who]}"}).status_code


@pytest.fixture
def graph(tmp_path: Path, embedder: Any, tls: tuple[Path, Path]) -> Any:
    from source_drivers import GraphDriver

    driver = GraphDriver(tmp_path, embedder, tls)
    yield driver
    driver.server.stop()


def test_a_revocation_reaches_every_server_before_its_next_answer(http_driver: Driver,
                                                                   tmp_path: Path) -> None:
    """SharePoint: a permission removed; iManage: a matter's workspace closed to a group."""
    _library(http_driver)
    http_driver.sync()
    servers = _servers(http_driver, tmp_path)
    acme = http_driver.doc_id(ACME)
    walled = next(c.clause_id for c in http_driver.clauses().values() if c.doc_id == acme)
    assert all(acme in _seen(s, "bob") for s in servers)
    http_driver.revoke(ACME, "g-bob")
    http_driver.sync()
    for server in servers:  # still on the old version, which stamps bob on Acme
        assert acme not in _seen(server, "bob")
        assert _clause(server, "bob", walled) == 404
        assert acme in _seen(server, "acme") and _clause(server, "acme", walled) == 200
        assert http_driver.doc_id(FORM) in _seen(server, "bob")  # nothing else withheld


def test_a_revocation_holds_even_when_the_build_after_the_listing_fails(http_driver: Driver,
                                                                        tmp_path: Path) -> None:
    _library(http_driver)
    http_driver.sync()
    servers = _servers(http_driver, tmp_path, 1)
    http_driver.revoke(ACME, "g-bob")
    http_driver.edit(FORM, EDITED.replace("Seller", "Licensor"))  # to download in the build
    http_driver.values["sources.max_attempts"] = 2

    def storm(pages: int) -> None:  # the listing is done; every download is throttled
        http_driver.throttle(10_000, retry_after="0")

    with pytest.raises(SourceUnavailableError):
        http_driver.sync(after_page=storm)
    assert http_driver.doc_id(ACME) not in _seen(servers[0], "bob")


def test_what_a_resync_after_410_retires_is_withheld_before_it_is_saved(
        graph: Any, tmp_path: Path) -> None:
    """Deletions seen only as absences at the end of a full listing reach the servers too."""
    _library(graph)
    graph.sync()
    (server,) = _servers(graph, tmp_path, 1)
    graph.delete(ACME)
    graph.server.faults.expire_delta = True
    assert graph.sync().resynced
    assert graph.doc_id(ACME) not in _seen(server, "acme")


def test_a_deleted_folder_is_withheld_at_once(graph: Any, tmp_path: Path) -> None:
    _library(graph)
    graph.sync()
    (server,) = _servers(graph, tmp_path, 1)
    graph.library.delete_folder("Acme")  # delta reports the folder alone
    graph.sync()
    assert graph.doc_id(ACME) not in _seen(server, "bob") | _seen(server, "acme")


def test_a_quiet_server_left_behind_by_two_syncs_loads_the_newest_version_first(
        http_driver: Driver, tmp_path: Path) -> None:
    """The ledger keeps what the previous version lacks, not more: a server still on an older
    one (nobody asked it anything for two syncs) loads the newest before it answers."""
    _library(http_driver)
    http_driver.sync()
    (quiet,) = _servers(http_driver, tmp_path, 1, reload_s=3600)  # its next look is an hour away
    (never,) = _servers(http_driver, tmp_path, 1, reload_s=0)  # told never to look
    http_driver.revoke(ACME, "g-bob")
    http_driver.sync()
    http_driver.revoke(FORM, "g-bob")
    http_driver.sync()
    assert _seen(quiet, "bob") == set()
    assert _seen(quiet, "acme") == {http_driver.doc_id(ACME), http_driver.doc_id(FORM)}
    live = open_store(http_driver.settings()).live_version()
    assert quiet.get("/api/v1/health", headers={"Authorization": f"Bearer {TOKENS['bob']}"}
                     ).get_json()["index"]["version"] == live
    refused = never.post("/api/v1/precedents", json={"text": QUERY},
                         headers={"Authorization": f"Bearer {TOKENS['bob']}"})
    assert refused.status_code == 503 and refused.get_json()["error"]["code"] == "access_change_pending"


@pytest.fixture(scope="module")
def milvus_uri(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = str(tmp_path_factory.mktemp("milvus") / "milvus.db")
    yield path
    from index_builder.index.milvus_connection import stop_lite

    stop_lite(path)


def test_on_milvus_every_server_sees_the_revocation(graph: Any, tmp_path: Path, milvus_uri: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Two servers, each with its own client of the catalog, as on two machines; the ledger's
    entries written in several chunks."""
    import index_builder.sources.ledger as ledger

    monkeypatch.setattr(ledger, "CHUNK_BYTES", 40)  # one entry a chunk
    graph.values.update({"backend": "milvus", "milvus.uri": milvus_uri,
                         "milvus.collection": "walls_hold"})
    _library(graph)
    graph.sync()
    servers = _servers(graph, tmp_path)
    graph.revoke(ACME, "g-bob")
    graph.sync()
    for server in servers:
        assert graph.doc_id(ACME) not in _seen(server, "bob")
        assert graph.doc_id(ACME) in _seen(server, "acme")


# --- the ledger and the watch, alone ------------------------------------------------------

WALLS = (Condition("access_groups", ("*", "g-bob")), Condition("denied_groups", ("*", "g-bob"), negate=True))


def test_the_watch_withholds_only_what_a_version_predates_and_only_from_those_left_out(
        tmp_path: Path) -> None:
    store = FileLedger(tmp_path)
    watch = AccessWatch(store)
    assert watch.filters(WALLS, {}) == ()  # no ledger yet: nothing withheld
    first = store.publish([(["Acme/spa"], ("g-acme",), ())])
    second = store.publish([(["Forms/old"], (), ())])  # deleted
    withheld = (Condition("doc_id", ("Acme/spa", "Forms/old"), negate=True),)
    assert watch.filters(WALLS, {"access_generation": 0}) == withheld
    assert watch.filters(WALLS, {"access_generation": first}) == (
        Condition("doc_id", ("Forms/old",), True),)
    assert watch.filters(WALLS, {"access_generation": second}) == ()  # the version has both
    acme = (Condition("access_groups", ("*", "g-acme")),)
    assert watch.filters(acme, {"access_generation": 0}) == (Condition("doc_id", ("Forms/old",), True),)
    assert watch.filters((), {}) == withheld  # no walls in the caller's filters: "*" alone


def test_a_version_older_than_the_ledger_keeps_is_refused_until_a_newer_one_loads(
        tmp_path: Path) -> None:
    store = FileLedger(tmp_path)
    watch = AccessWatch(store)
    first = store.publish([(["Acme/spa"], ("g-acme",), ())])
    store.publish([(["Acme/nda"], ("g-acme",), ())])
    store.prune(first)  # a build made the version with `first` the previous one
    with pytest.raises(AccessChangePendingError):
        watch.filters(WALLS, {"access_generation": 0})
    assert watch.filters(WALLS, {"access_generation": first}) == (
        Condition("doc_id", ("Acme/nda",), True),)
    assert store.read().entries.keys() == {"Acme/nda"}


def test_a_build_without_a_sync_keeps_the_access_generation_it_includes(
        graph: Any, tmp_path: Path) -> None:
    """Else a later plain build would look older than the ledger's floor to every server."""
    from index_builder.index.build import build_index
    from index_builder.sources.ledger import live_generation

    _library(graph)
    graph.sync()
    graph.revoke(ACME, "g-bob")
    graph.sync()
    assert live_generation(open_store(graph.settings())) == 1
    (tmp_path / "forms").mkdir()
    (tmp_path / "forms" / "nda.txt").write_text(EDITED)
    build_index(graph.settings(), [tmp_path / "forms"], graph.embedder, progress=False)
    assert live_generation(open_store(graph.settings())) == 1
