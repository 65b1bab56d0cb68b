"""The source contract, continued: the shapes a real tenant has that a first emulation left
out (issue 40). Each scenario runs the real client against the Graph stand-in
(index_builder/sources/standins/graph.py): folders that keep their ids when renamed,
permissions set on a folder and inherited below it, a folder deleted with its files, the
tenant-wide "Everyone" grants, a download redirected on the same host, a proxy that blocks
``$batch``, an expired delta link, and the three ways to name a library."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from addin_server.web.auth import tenant_groups
from index_builder.sources.standins import EVERYONE, EVERYONE_EXCEPT_EXTERNAL, Library

from source_drivers import GraphDriver
from test_source_contract import ACME, FORM, NDA, SPA, _library

MATTER = "Matters/Acme"
DRAFT, SIGNED = f"{MATTER}/draft.txt", f"{MATTER}/Signed/spa.txt"


@pytest.fixture
def graph(tmp_path: Path, embedder: Any, tls: tuple[Path, Path]) -> Any:
    driver = GraphDriver(tmp_path, embedder, tls)
    yield driver
    driver.server.stop()


def _matter(graph: GraphDriver, form: bool = True) -> None:
    """A matter folder whose own permissions its files inherit (beside a standard form)."""
    graph.library.add(DRAFT, SPA.encode(), None)
    graph.library.add(SIGNED, SPA.replace("Seller", "Vendor").encode(), None)
    graph.library.set_folder_access(MATTER, ["g-acme", "g-bob"])
    if form:
        graph.add(FORM, NDA, ["g-acme", "g-bob"])


def test_a_folder_permission_change_reaches_every_file_below_it(graph: GraphDriver) -> None:
    _matter(graph)
    graph.sync()
    assert set(graph.visible(["g-bob"])) == {graph.doc_id(DRAFT), graph.doc_id(SIGNED), graph.doc_id(FORM)}
    calls = list(graph.embedder.calls)
    graph.library.set_folder_access(MATTER, ["g-acme"])  # bob walled off the whole matter
    report = graph.sync()
    assert set(graph.visible(["g-bob"])) == {graph.doc_id(FORM)}
    assert set(graph.visible(["g-acme"])) == {graph.doc_id(DRAFT), graph.doc_id(SIGNED), graph.doc_id(FORM)}
    assert sorted(report.build.relabelled) == sorted([graph.doc_id(DRAFT), graph.doc_id(SIGNED)])
    assert report.build.parsed == [] and graph.embedder.calls == calls  # metadata only


def test_deleting_a_folder_deletes_every_file_in_it(graph: GraphDriver) -> None:
    _matter(graph)
    graph.sync()
    graph.library.delete_folder(MATTER)  # delta reports the folder alone
    report = graph.sync()
    assert sorted(report.build.removed) == sorted([graph.doc_id(DRAFT), graph.doc_id(SIGNED)])
    assert {c.doc_id for c in graph.clauses().values()} == {graph.doc_id(FORM)}
    assert graph.state_count() == 1


def test_a_renamed_folder_keeps_every_link_right(graph: GraphDriver) -> None:
    _matter(graph)
    graph.sync()
    graph.library.rename_folder(MATTER, "Matters/Acme Holdings")  # one change: the folder
    graph.sync()
    links = {c.doc_id: c.metadata["source_url"] for c in graph.clauses().values()}
    base = "https://contoso.sharepoint.com/sites/Legal/Precedents"
    assert links == {"Precedents/Matters/Acme Holdings/draft": f"{base}/Matters/Acme%20Holdings/draft.txt",
                     "Precedents/Matters/Acme Holdings/Signed/spa":
                         f"{base}/Matters/Acme%20Holdings/Signed/spa.txt",
                     graph.doc_id(FORM): f"{base}/{FORM}"}


def test_everyone_grants_become_tenant_claims_guests_kept_out_where_the_grant_says(
        graph: GraphDriver) -> None:
    # PRECEDENT_GRAPH_TENANT_ID as the Entra admin center shows it: the directory id.
    graph.server.tenant = graph.values["sources.graph_tenant_id"] = graph.server.tenant_guid
    graph.add("Knowhow/checklist.txt", NDA, [EVERYONE_EXCEPT_EXTERNAL])
    graph.add("Knowhow/welcome.txt", SPA, [EVERYONE])
    graph.add(ACME, SPA.replace("Buyer", "Purchaser"), ["g-acme"])
    graph.sync()
    tenant = graph.server.tenant_guid
    issuer = f"https://login.microsoftonline.com/{tenant}/v2.0"
    lawyer = tenant_groups({"tid": tenant, "iss": issuer, "acct": 0})
    guest = tenant_groups({"tid": tenant, "iss": issuer, "acct": 1,
                           "idp": "https://sts.windows.net/9188040d-6c67-4c5b-b112-36a304b66dad/"})
    unknown = tenant_groups({"tid": tenant, "iss": issuer})  # no acct claim configured
    assert set(graph.visible(list(lawyer))) == {"Precedents/Knowhow/checklist", "Precedents/Knowhow/welcome"}
    assert set(graph.visible(list(guest))) == {"Precedents/Knowhow/welcome"}
    assert set(graph.visible(list(unknown))) == {"Precedents/Knowhow/welcome"}  # fails closed
    assert graph.visible(["g-acme"]).keys() == {graph.doc_id(ACME)}  # no one else gains
    other_tenant = tenant_groups({"tid": "0000aaaa-1111-2222-3333-444455556666", "acct": 0,
                                  "iss": "https://login.microsoftonline.com/0000aaaa-1111-2222-3333-444455556666/v2.0"})
    assert graph.visible(list(other_tenant)) == {}


def test_the_token_never_reaches_a_download_url_even_on_the_same_host(graph: GraphDriver) -> None:
    _library(graph)
    report = graph.sync()
    assert len(report.build.parsed) == 2  # both downloaded through the 302
    assert graph.server.download_auth == []


def test_a_proxy_blocking_batch_falls_back_to_one_read_per_item(
        graph: GraphDriver, caplog: pytest.LogCaptureFixture) -> None:
    _library(graph)
    graph.server.faults.block_batch = True
    with caplog.at_level(logging.WARNING):
        report = graph.sync()
    assert report.build.documents == 2
    assert set(graph.visible(["g-litigation"])) == {graph.doc_id(FORM)}  # walls as without a proxy
    single = [p for m, p in graph.server.requests if m == "GET" and p.endswith("/permissions")]
    assert sum("/items/D" in p for p in single) == 2  # each file's (its folders' too)
    assert [(m, p) for m, p in graph.server.requests if p.endswith("$batch")] == [("POST", "/v1.0/$batch")]
    (warning,) = [r.getMessage() for r in caplog.records if "$batch" in r.getMessage()]  # once
    assert "proxy" in warning and "allow POST" in warning


def test_an_expired_delta_link_resyncs_cleanly_and_loses_nothing(graph: GraphDriver) -> None:
    _matter(graph, form=False)
    _library(graph)
    graph.sync()
    calls = list(graph.embedder.calls)
    # While the link is expired, the library moves on in every way at once.
    graph.library.delete_folder(f"{MATTER}/Signed")
    graph.library.set_folder_access(MATTER, ["g-acme"])
    graph.move(FORM, "Forms/Standard/nda.txt")
    graph.add("Forms/loan.txt", NDA.replace("two years", "five years"), ["g-bob"])
    graph.server.faults.expire_delta = True
    report = graph.sync()
    assert report.resynced
    expected = {"Precedents/Matters/Acme/draft", graph.doc_id(ACME), "Precedents/Forms/Standard/nda",
                "Precedents/Forms/loan"}
    assert {c.doc_id for c in graph.clauses().values()} == expected
    assert set(graph.visible(["g-bob"])) == {graph.doc_id(ACME), "Precedents/Forms/Standard/nda",
                                             "Precedents/Forms/loan"}
    assert graph.state_count() == 4  # nothing listed twice, nothing gone kept
    assert sorted(report.build.parsed) == ["Precedents/Forms/Standard/nda", "Precedents/Forms/loan"]
    assert sum(graph.embedder.calls) - sum(calls) == 1  # only the new loan's changed clause


def test_a_410_anywhere_but_delta_is_no_resync(graph: GraphDriver) -> None:
    """Only a delta link can expire: a download answering 410 Gone is a document gone since
    the listing (skipped, as a 404), not a reason to list the library again or to crash."""
    _library(graph)
    graph.server.gone.add(graph.library.find(ACME).id)
    report = graph.sync()
    assert not report.resynced and report.build.documents == 1
    (path, reason), = report.build.skipped
    assert path == "Precedents/Acme/spa.txt" and "no longer in Microsoft Graph" in reason


@pytest.mark.parametrize("form", ["drives/b!drive-precedents", "sites/contoso.sharepoint.com:/sites/Legal",
                                  "users/alice@contoso.com"])
def test_every_way_to_name_a_library_works(graph: GraphDriver, form: str) -> None:
    onedrive = Library()
    graph.server.add_onedrive("Alice@contoso.com", "b!onedrive-alice", onedrive)
    onedrive.add("Drafts/nda.txt", NDA.encode(), ["user:7c1f-alice"])
    _library(graph)
    graph.spec = lambda: f"sharepoint:{form}"  # type: ignore[method-assign]
    graph.sync()
    seen = {c.doc_id: c.metadata["source_url"] for c in graph.clauses().values()}
    if form.startswith("users/"):
        assert seen == {"OneDrive/Drafts/nda": "https://contoso.sharepoint.com/sites/Legal/OneDrive/Drafts/nda.txt"}
        assert graph.visible(["user:7c1f-alice"]).keys() == {"OneDrive/Drafts/nda"}
    else:
        assert set(seen) == {graph.doc_id(ACME), graph.doc_id(FORM)}


@pytest.fixture
def imanage(tmp_path: Path, embedder: Any, tls: tuple[Path, Path]) -> Any:
    from source_drivers import IManageDriver

    driver = IManageDriver(tmp_path, embedder, tls)
    yield driver
    driver.server.stop()


def test_imanage_deletions_and_document_security_reach_the_index_within_one_sync(imanage: Any) -> None:
    """Neither shows in the edit-date feed; by default every sync lists the workspaces whole."""
    _library(imanage)
    imanage.add("Acme/board-minutes.txt", NDA.replace("two years", "ten years"), ["g-acme", "g-bob"])
    minutes = imanage.library.find("Acme/board-minutes.txt")
    imanage.server.private.add(minutes.id)  # its own security, not the workspace's
    imanage.sync()
    own = imanage.doc_id("Acme/board-minutes.txt")
    assert own in imanage.visible(["g-bob"])
    imanage.library.set_access("Acme/board-minutes.txt", ["g-acme"])  # edit date unchanged
    imanage.delete(FORM)
    imanage.sync()
    assert set(imanage.visible(["g-bob"])) == {imanage.doc_id(ACME)}
    assert set(imanage.visible(["g-acme"])) == {imanage.doc_id(ACME), own}


def test_imanage_spaced_full_listings_show_their_lag_on_health(imanage: Any) -> None:
    from index_builder.sources.state import source_health

    imanage.values["sources.imanage_full_every"] = 3
    _library(imanage)
    imanage.sync()  # the first sync lists whole
    (first,) = source_health(imanage.settings().index_dir)
    assert first["access_lag_s"] <= first["lag_s"] + 0.1
    imanage.edit(ACME, SPA + "\n3. Costs. Each party bears its own costs.\n")
    imanage.sync()  # the edit-date feed alone: deletions and security not seen
    (second,) = source_health(imanage.settings().index_dir)
    assert second["access_lag_s"] > second["lag_s"]  # still dated from the first sync
