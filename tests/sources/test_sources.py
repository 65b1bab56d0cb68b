"""What is particular to each source beyond the shared contract: Graph's certificate sign-in,
an expired delta link, sharing links; iManage's edit-date feed; policy overrides on DMS
access; the daemon loop; the command line."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from index_builder.cli import main
from index_builder.errors import SourceUnavailableError
from index_builder.sources.sync import follow

from source_drivers import GraphDriver, IManageDriver
from test_source_contract import ACME, EDITED, FORM, NDA, SPA, _library


@pytest.fixture
def graph(tmp_path: Path, embedder: Any, tls: tuple[Path, Path]) -> Any:
    driver = GraphDriver(tmp_path, embedder, tls)
    yield driver
    driver.server.stop()


def test_graph_signs_in_with_a_certificate(graph: Any, app_certificate: tuple[Path, Any],
                                           tmp_path: Path) -> None:
    pem, public_key = app_certificate
    graph.server.public_key = public_key  # the emulated Entra checks the signed assertion
    graph.values.update({"sources.graph_client_secret": "", "sources.graph_certificate_file": pem})
    _library(graph)
    assert graph.sync().build.documents == 2
    # Another key than the one registered: refused, with the fix named.
    from cryptography.hazmat.primitives.asymmetric import rsa

    graph.server.public_key = rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key()
    graph.server.expire_tokens()
    graph.values["index_dir"] = tmp_path / "other-index"
    with pytest.raises(SourceUnavailableError, match="Entra ID refused the app's sign-in.*certificate"):
        graph.sync()


def test_an_expired_delta_link_lists_the_library_again(graph: Any) -> None:
    _library(graph)
    graph.sync()
    graph.delete(FORM)
    graph.server.faults.expire_delta = True  # 410 resyncRequired on the saved delta link
    report = graph.sync()
    assert report.resynced
    assert report.build.removed == [graph.doc_id(FORM)]  # retired by the full round
    assert set(graph.visible(["g-bob"])) == {graph.doc_id(ACME)}


def test_sharing_links_open_a_document_only_as_configured(graph: Any) -> None:
    graph.add(ACME, SPA, ["g-acme", "user:7c1f-alice"])  # a group, and a link for one person
    report = graph.sync()
    assert report.build.documents == 1
    assert graph.visible(["user:7c1f-alice"]) and not graph.visible(["anyone-in-the-firm"])
    # Firm IT decides that an organisation-wide link opens a document to every lawyer.
    graph.values["sources.sharepoint_link_scopes"] = ("organization",)
    graph.server.library.set_access(ACME, ["g-acme", "user:7c1f-alice"])  # shows in delta again
    graph.sync()
    assert graph.visible(["anyone-in-the-firm"])


def test_a_policy_rule_overrides_the_dms_access(graph: Any, tmp_path: Path) -> None:
    _library(graph)
    policy = tmp_path / "walls.json"
    policy.write_text(json.dumps({"rules": [{"pattern": "Precedents/Forms/", "allow": ["g-forms-team"]}]}))
    graph.values["walls.policy_file"] = policy
    graph.sync()
    assert set(graph.visible(["g-forms-team"])) == {graph.doc_id(FORM)}  # the rule wins there
    assert set(graph.visible(["g-bob"])) == {graph.doc_id(ACME)}  # SharePoint's access elsewhere


def test_imanage_asks_only_for_documents_edited_since_the_last_sync(tmp_path: Path, embedder: Any,
                                                                    tls: tuple[Path, Path]) -> None:
    driver = IManageDriver(tmp_path, embedder, tls)
    try:
        driver.values["sources.imanage_full_every"] = 1000  # no full listing after the first
        _library(driver)
        driver.sync()
        driver.server.requests.clear()
        driver.edit(ACME, EDITED)
        report = driver.sync()
        assert report.build.parsed == [driver.doc_id(ACME)]
        listed = [p for m, p in driver.server.requests if "/documents?" in p]
        assert listed and all("edit_date_from=2026-01-05T09:0" in p for p in listed), listed
        # The edited document, and the last one the previous sync saw: the boundary is
        # inclusive, so an edit in the same second as that sync is never missed.
        assert report.changed == 2
    finally:
        driver.server.stop()


def test_the_daemon_logs_a_failed_sync_and_goes_on(graph: Any, caplog: pytest.LogCaptureFixture) -> None:
    _library(graph)
    graph.throttle(10_000, retry_after="0")  # the daemon's client sleeps for real
    graph.values["sources.max_attempts"] = 2
    calls: list[float] = []

    def sleep(seconds: float) -> None:  # between rounds: the storm passes
        calls.append(seconds)
        graph.throttle(0)

    with caplog.at_level(logging.ERROR):
        follow(graph.settings(), [graph.spec()], graph.embedder, 60, sleep=sleep, rounds=2)
    assert "Sync failed: Microsoft Graph kept answering 429" in caplog.text
    assert len(calls) == 1 and len(graph.visible(["g-bob"])) == 2  # the second round built it


def test_the_command_line_names_the_fix_for_a_bad_source(tmp_path: Path, monkeypatch: Any,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    import index_builder.cli as cli

    monkeypatch.setattr(cli, "_embedder", lambda settings: pytest.fail("model loaded first"))
    assert main(["build", "--index", str(tmp_path / "i"), "--source", "dropbox:stuff"]) == 2
    assert "use folder:<path>, sharepoint:" in caplog.text
    assert main(["build", "--index", str(tmp_path / "i"), "--source", "sharepoint:drives/x"]) == 2
    assert "PRECEDENT_GRAPH_TENANT_ID is not set" in caplog.text
    with pytest.raises(SystemExit):  # secrets have no command-line flag at all
        main(["build", "--source", "sharepoint:drives/x", "--client-secret", "x"])


def test_the_command_line_syncs_a_folder_source(tmp_path: Path, capsys: Any, monkeypatch: Any,
                                                embedder: Any) -> None:
    import index_builder.cli as cli

    monkeypatch.setattr(cli, "_embedder", lambda settings: embedder)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "nda.txt").write_text(NDA)
    assert main(["build", "--index", str(tmp_path / "i"), "--no-progress",
                 "--source", f"folder:{tmp_path / 'lib'}"]) == 0
    out = capsys.readouterr().out
    assert "Synced 1 source(s): 1 listed as changed" in out and "1 documents" in out


@pytest.fixture(scope="module")
def milvus_lite_uri(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = str(tmp_path_factory.mktemp("milvus") / "milvus.db")
    yield path
    from index_builder.index.milvus_connection import stop_lite

    stop_lite(path)


def test_permission_change_edit_and_delete_on_the_milvus_engine(graph: Any, milvus_lite_uri: str) -> None:
    """The same walls on the other engine: re-stamped clauses replace the old ones there too."""
    graph.values.update({"backend": "milvus", "milvus.uri": milvus_lite_uri,
                         "milvus.collection": "sources_walls"})
    _library(graph)
    graph.sync()
    graph.revoke(ACME, "g-bob")
    graph.edit(FORM, NDA.replace("two years", "three years"))
    report = graph.sync()
    assert report.build.relabelled == [graph.doc_id(ACME)] and report.build.embedded == 1
    assert set(graph.visible(["g-bob"])) == {graph.doc_id(FORM)}
    assert set(graph.visible(["g-acme"])) == {graph.doc_id(ACME), graph.doc_id(FORM)}
    graph.delete(ACME)
    graph.sync()
    assert set(graph.visible(["g-acme"])) == {graph.doc_id(FORM)}


def test_every_library_of_a_site_is_followed_and_a_crash_between_them_resumes(graph: Any) -> None:
    from emulators import Library

    forms = Library()
    graph.server.add_drive("b!drive-forms", "Forms", forms)
    _library(graph)
    forms.add("Standard/nda.txt", NDA.replace("two years", "three years").encode(), ["g-bob"])
    forms.add("Standard/loan.txt", SPA.replace("Buyer", "Lender").encode(), ["g-acme"])
    spec = "sharepoint:sites/contoso.sharepoint.com:/sites/Legal"
    graph.spec = lambda: spec
    graph.server.page_size = 2

    class Crash(Exception):
        pass

    def crash(pages: int) -> None:
        if pages == 4:  # Precedents took 3 pages (root, 2 folders, 2 files); Forms's first is saved
            raise Crash()

    with pytest.raises(Crash):
        graph.sync(after_page=crash)
    assert graph.state_count() == 2  # Precedents's two files; Forms's first page held folders only
    report = graph.sync()
    assert report.pages == 1 and report.changed == 2  # Forms's second page, nothing again
    assert report.build.documents == 4
    assert set(graph.visible(["g-bob"])) == {"Precedents/Acme/spa", "Precedents/Forms/nda",
                                             "Forms/Standard/nda"}
    forms.delete("Standard/loan.txt")
    graph.library.edit(ACME, EDITED.encode())
    report = graph.sync()  # both libraries go on from their own delta links
    assert report.build.removed == ["Forms/Standard/loan"]
    assert report.build.parsed == ["Precedents/Acme/spa"]


def test_a_permission_change_reaches_graph_delta_only_through_the_prefer_header(graph: Any,
                                                                                 monkeypatch: Any) -> None:
    """The emulation, like Graph, leaves permission-only changes out of delta unless the
    client asks with ``Prefer: deltashowsharingchanges``: the contract test's pass depends on
    the header, which this shows by leaving it out."""
    import index_builder.sources.graph as graph_source

    _library(graph)
    graph.sync()
    graph.revoke(ACME, "g-bob")
    monkeypatch.setattr(graph_source, "PREFER", "deltashowremovedasdeleted")
    graph.sync()
    assert graph.doc_id(ACME) in graph.visible(["g-bob"])  # missed without the header
    monkeypatch.undo()
    graph.server.library.set_access(ACME, ["g-acme"])  # the same change again, now seen
    graph.sync()
    assert graph.doc_id(ACME) not in graph.visible(["g-bob"])


def test_imanage_private_documents_keep_to_their_own_acl_and_no_access_denies(
        tmp_path: Path, embedder: Any, tls: tuple[Path, Path]) -> None:
    driver = IManageDriver(tmp_path, embedder, tls)
    try:
        _library(driver)  # Acme's workspace: g-acme, g-bob
        driver.add("Acme/board-minutes.txt", NDA.replace("two years", "ten years"), ["g-acme"])
        minutes = driver.library.find("Acme/board-minutes.txt")
        minutes.denied = ["g-conflicted"]
        driver.server.private.add(minutes.id)  # its own security, not the workspace's
        driver.sync()
        own = driver.doc_id("Acme/board-minutes.txt")
        assert own in driver.visible(["g-acme"]) and own not in driver.visible(["g-bob"])
        assert own not in driver.visible(["g-acme", "g-conflicted"])  # no_access wins
        assert driver.doc_id(ACME) in driver.visible(["g-bob"])  # the workspace's ACL elsewhere
        asked = [p for _, p in driver.server.requests if p.endswith("/security")]
        assert sum("/documents/" in p for p in asked) == 1  # one call, for the private one only
    finally:
        driver.server.stop()
