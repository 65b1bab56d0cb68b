"""The source contract: every source (folder, SharePoint through Graph, iManage) passes the
same scenarios, synced into a real index and read back through the wall filters.

The HTTP sources talk to loopback TLS emulations of the documented APIs (emulators.py
names the reference page of every endpoint emulated) with the same client code that
would talk to the real services; only the URLs differ.
"""

from __future__ import annotations

from typing import Any

import pytest

from source_drivers import Driver

ACME = "Acme/spa.txt"
FORM = "Forms/nda.txt"
SPA = ("1. Definitions. Purchase Price means the sum payable by the Buyer at Completion.\n\n"
       "2. Indemnity. The Seller shall indemnify the Buyer against all Losses arising from any "
       "breach of the Warranties.\n")
NDA = ("1. Confidentiality. Each party shall keep the Confidential Information of the other "
       "confidential.\n\n2. Term. This agreement lasts for two years from the date hereof.\n")
EDITED = SPA.replace("all Losses", "all Losses and Liabilities")


def _library(driver: Driver) -> None:
    driver.add(ACME, SPA, ["g-acme", "g-bob"])
    driver.add(FORM, NDA, ["g-acme", "g-bob", "g-litigation"])


def test_first_sync_indexes_every_document_with_its_access_and_link(driver: Driver) -> None:
    _library(driver)
    report = driver.sync()
    assert report.build.documents == 2 and len(report.build.parsed) == 2
    seen = driver.visible(["g-litigation"])
    assert set(seen) == {driver.doc_id(FORM)}  # walled off Acme, as the source says
    assert set(driver.visible(["g-bob"])) == {driver.doc_id(ACME), driver.doc_id(FORM)}
    assert driver.visible(["someone-else"]) == {}
    links = {c.doc_id: c.metadata.get("source_url", "") for c in driver.clauses().values()}
    assert all(link.startswith(("https://", "file://")) for link in links.values()), links


def test_an_edit_rereads_that_document_only(driver: Driver) -> None:
    _library(driver)
    driver.sync()
    embedded_before = sum(driver.embedder.calls)
    driver.edit(ACME, EDITED)
    report = driver.sync()
    assert report.build.parsed == [driver.doc_id(ACME)]
    assert driver.doc_id(FORM) in report.build.reused
    assert report.build.embedded == 1  # only the changed clause's text
    assert sum(driver.embedder.calls) - embedded_before == 1
    assert any("Liabilities" in c.text for c in driver.clauses().values())


def test_a_rename_or_move_follows_the_document_without_re_embedding(driver: Driver) -> None:
    _library(driver)
    driver.sync()
    moved = driver.move_to
    driver.move(ACME, moved)
    report = driver.sync()
    ids = {c.doc_id for c in driver.clauses().values()}
    assert driver.doc_id(moved) in ids and driver.doc_id(FORM) in ids and len(ids) == 2
    assert report.build.embedded == 0  # same text, vectors reused
    assert set(driver.visible(["g-bob"])) == {driver.doc_id(moved), driver.doc_id(FORM)}


def test_a_delete_removes_the_document(driver: Driver) -> None:
    _library(driver)
    driver.sync()
    driver.delete(ACME)
    report = driver.sync()
    assert report.build.removed == [driver.doc_id(ACME)]
    assert {c.doc_id for c in driver.clauses().values()} == {driver.doc_id(FORM)}


def test_a_permission_change_hides_the_clause_on_the_next_sync_without_re_embedding(driver: Driver) -> None:
    _library(driver)
    driver.sync()
    assert driver.doc_id(ACME) in driver.visible(["g-bob"])
    calls = list(driver.embedder.calls)
    driver.revoke(ACME, "g-bob")
    report = driver.sync()
    assert driver.doc_id(ACME) not in driver.visible(["g-bob"])  # bob lost access
    assert driver.doc_id(ACME) in driver.visible(["g-acme"])  # the team keeps it
    assert driver.doc_id(FORM) in driver.visible(["g-bob"])
    assert report.build.embedded == 0 and driver.embedder.calls == calls  # nothing re-embedded
    assert report.build.parsed == []  # and nothing downloaded or read again


class Crash(Exception):
    pass


def test_a_crash_mid_sync_resumes_from_the_saved_cursor(driver: Driver) -> None:
    for n in range(7):
        driver.add(f"Forms/form-{n}.txt", NDA.replace("two years", f"{n + 2} years"), ["g-acme"])
    _shrink_pages(driver, 2)

    def crash(pages: int) -> None:
        if pages == 2:
            raise Crash()

    with pytest.raises(Crash):
        driver.sync(after_page=crash)
    saved = driver.state_count()
    assert 0 < saved < 7
    report = driver.sync()
    assert report.build.documents == 7
    assert report.changed == 7 - saved  # resumed after the pages saved, not listed again
    assert len(driver.visible(["g-acme"])) == 7


def _shrink_pages(driver: Driver, size: int) -> None:
    import index_builder.sources.folder as folder
    import index_builder.sources.imanage as imanage

    if driver.kind == "sharepoint":
        driver.server.page_size = size
    elif driver.kind == "imanage":
        imanage.PAGE = size  # restored by the fixture below
    else:
        folder.PAGE = size


@pytest.fixture(autouse=True)
def _restore_pages() -> Any:
    import index_builder.sources.folder as folder
    import index_builder.sources.imanage as imanage

    saved = folder.PAGE, imanage.PAGE
    yield
    folder.PAGE, imanage.PAGE = saved


def test_throttling_with_retry_after_is_waited_out(http_driver: Driver) -> None:
    _library(http_driver)
    http_driver.throttle(3, retry_after="7")
    report = http_driver.sync()
    assert report.build.documents == 2
    assert http_driver.waits == [7.0, 7.0, 7.0]  # exactly what the service asked, no more


def test_an_expired_token_is_renewed_and_the_sync_goes_on(http_driver: Driver) -> None:
    _library(http_driver)
    http_driver.sync()
    first = http_driver.server.token_requests
    http_driver.edit(ACME, EDITED)
    http_driver.server.expire_tokens()
    source_report = http_driver.sync()
    assert source_report.build.parsed == [http_driver.doc_id(ACME)]
    assert http_driver.server.token_requests > first
