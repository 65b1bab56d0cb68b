"""Bad input for the DMS sources: a 50,000-item library, a 200 MB file, a password-protected
document, a throttling storm, a source that is down at start. Each ends in a clear message
naming the fix, or in a graceful skip; the live index keeps serving throughout."""

from __future__ import annotations

import io
import logging
import tracemalloc
from pathlib import Path
from typing import Any

import docx
import pytest

from index_builder.errors import SourceUnavailableError
from index_builder.index import open_store
from index_builder.sources import open_source
from index_builder.sources.http import ApiClient, make_session
from index_builder.sources.state import SyncState
from index_builder.sources.sync import SyncReport, sync_changes

from source_drivers import GraphDriver, IManageDriver
from test_source_contract import ACME, FORM, NDA, SPA, _library


def _encrypted_docx(text: str, password: str = "secret") -> bytes:
    from msoffcrypto.format.ooxml import OOXMLFile

    document = docx.Document()
    document.add_paragraph(text)
    plain = io.BytesIO()
    document.save(plain)
    plain.seek(0)
    out = io.BytesIO()
    OOXMLFile(plain).encrypt(password, out)
    return out.getvalue()


def test_a_large_library_is_listed_page_by_page_with_flat_memory(tmp_path: Path, embedder: Any,
                                                              tls: tuple[Path, Path]) -> None:
    """iManage: pages of 500 metadata-only documents into the sync state; the listing's
    memory does not grow with the library (the emulation runs in its own process)."""
    from emulators import big_imanage_in_process

    driver = IManageDriver(tmp_path, embedder, tls)  # for its settings (credentials, CA)
    driver.server.stop()
    peaks, pages = {}, {}
    for count in (1_000, 10_000):
        url, process = big_imanage_in_process(tls, count)
        try:
            driver.values["sources.imanage_url"] = url
            source = open_source("imanage:WS-Big", driver.settings())
            state = SyncState(tmp_path / f"state-{count}.sqlite", source.name)
            report = SyncReport()
            tracemalloc.start()
            sync_changes(source, state, report)
            peaks[count] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            assert state.count() == count
            pages[count] = report.pages
            state.close()
        finally:
            process.terminate()
            process.join()
    assert pages == {1_000: 3, 10_000: 21}  # 500 a page, then the empty last one
    # Ten times the documents, well under twice the memory: pages, not the library, held.
    # (`precedent-bench sources-scale` measures 5,000 and 50,000 for Graph and iManage.)
    assert peaks[10_000] < 1.5 * peaks[1_000], peaks


def test_a_200_mb_file_is_streamed_to_disk(tmp_path: Path, tls: tuple[Path, Path]) -> None:
    from emulators import GraphEmulator, Library

    big = tmp_path / "bundle.docx"
    with open(big, "wb") as out:  # 200 MB, sparse: fast to make, real bytes on the wire
        out.truncate(200 << 20)
    library = Library()
    doc = library.add("Scans/bundle.docx", big, ["g-all"])
    with GraphEmulator(tls, library) as server:
        class Tokens:
            def token(self, refresh: bool = False) -> str:
                return server.issue()

        client = ApiClient("Microsoft Graph", Tokens(), make_session(tls[0]))
        dest = tmp_path / "copy.docx"
        tracemalloc.start()
        written = client.download(f"{server.url}/v1.0/drives/{server.drive_id}/items/{doc.id}/content", dest)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert written == dest.stat().st_size == 200 << 20
    assert peak < 16 << 20, f"{peak / 2**20:.1f} MiB held while downloading 200 MiB"


def test_documents_over_the_size_limit_are_reported_not_downloaded(tmp_path: Path, embedder: Any,
                                                                   tls: tuple[Path, Path]) -> None:
    driver = GraphDriver(tmp_path, embedder, tls)
    try:
        big = tmp_path / "bundle.txt"
        with open(big, "wb") as out:
            out.truncate(3 << 20)
        _library(driver)
        driver.library.add("Scans/bundle.txt", big, ["g-acme"])
        driver.values["sources.max_mb"] = 2
        report = driver.sync()
        assert report.build.documents == 2
        (path, reason), = report.build.skipped
        assert path == "Precedents/Scans/bundle.txt" and "PRECEDENT_SOURCE_MAX_MB=2" in reason
        assert not any("/content" in p for _, p in driver.server.requests if "D000003" in p)
    finally:
        driver.server.stop()


def test_a_password_protected_document_is_skipped_with_its_fix(tmp_path: Path, embedder: Any,
                                                              tls: tuple[Path, Path]) -> None:
    driver = GraphDriver(tmp_path, embedder, tls)
    try:
        _library(driver)
        driver.library.add("Acme/locked.docx", _encrypted_docx("1. Secret. Words."), ["g-acme"])
        report = driver.sync()
        assert report.build.documents == 2
        (path, reason), = report.build.skipped
        assert path == "Precedents/Acme/locked.docx"
        assert "password" in reason and "precedent-fetch" not in reason  # the library path, no temp file
        assert driver.visible(["g-acme"]).keys() == {driver.doc_id(ACME), driver.doc_id(FORM)}
    finally:
        driver.server.stop()


@pytest.mark.parametrize("status, retry_after", [(429, "30"), (503, "Wed, 21 Oct 2015 07:28:00 GMT")])
def test_a_throttling_storm_stops_the_sync_and_the_next_one_resumes(
        http_driver: Any, status: int, retry_after: str) -> None:
    _library(http_driver)
    http_driver.sync()
    live = open_store(http_driver.settings()).live_version()
    http_driver.add("Forms/loan.txt", NDA.replace("two years", "five years"), ["g-acme"])
    http_driver.throttle(1_000, retry_after=retry_after, status=status)
    http_driver.values["sources.max_attempts"] = 4
    with pytest.raises(SourceUnavailableError) as caught:
        http_driver.sync()
    assert f"kept answering {status}" in caught.value.message
    assert "PRECEDENT_SOURCE_SYNC_EVERY_S" in caught.value.message  # the fix, in words
    assert open_store(http_driver.settings()).live_version() == live  # still serving
    assert len(http_driver.visible(["g-acme"])) == 2
    http_driver.throttle(0)  # the storm passes
    report = http_driver.sync()
    assert report.build.documents == 3


def test_a_source_down_at_start_leaves_the_live_index_serving(http_driver: Any) -> None:
    _library(http_driver)
    http_driver.sync()
    live = open_store(http_driver.settings()).live_version()
    http_driver.server.stop()
    http_driver.values["sources.max_attempts"] = 2
    with pytest.raises(SourceUnavailableError) as caught:
        http_driver.sync()
    message = caught.value.message
    assert "cannot be reached" in message and "live index keeps serving" in message
    assert open_store(http_driver.settings()).live_version() == live
    assert len(http_driver.visible(["g-bob"])) == 2
    from index_builder.sources.state import all_records

    records = all_records(http_driver.settings().index_dir)
    assert len(records) == 1 and "cannot be reached" in records[0]["last_error"]
    assert records[0]["documents"] == 2 and records[0]["lag_s"] >= 0


def test_secrets_never_reach_the_log(tmp_path: Path, embedder: Any, tls: tuple[Path, Path],
                                     caplog: pytest.LogCaptureFixture) -> None:
    """Sign-in, throttling, a refused token and a re-sync, all logged at DEBUG: no client
    secret, password or access token appears; our own lines carry URL paths, never queries."""
    caplog.set_level(logging.DEBUG)
    (tmp_path / "g").mkdir()
    (tmp_path / "i").mkdir()
    drivers = [GraphDriver(tmp_path / "g", embedder, tls), IManageDriver(tmp_path / "i", embedder, tls)]
    issued: list[str] = []
    try:
        for driver in drivers:
            _library(driver)
            driver.throttle(1)
            driver.sync()
            issued += driver.server.tokens
            driver.server.expire_tokens()
            driver.edit(ACME, SPA + "\n3. Costs. Each party bears its own costs.\n")
            driver.sync()
            issued += driver.server.tokens
    finally:
        for driver in drivers:
            driver.server.stop()
    logged = caplog.text
    assert len(issued) >= 4
    for secret in ("s3cret-Graph-77", "pw-iManage-42", "cs-iManage-13", *issued):
        assert secret not in logged
    ours = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("index_builder"))
    assert "?" not in ours  # delta links and search queries stay out of our lines


def test_a_document_gone_between_listing_and_download_is_skipped(tmp_path: Path, embedder: Any,
                                                                tls: tuple[Path, Path]) -> None:
    driver = GraphDriver(tmp_path, embedder, tls)
    try:
        _library(driver)
        driver.server.missing.add(driver.library.find(ACME).id)  # deleted after the listing
        report = driver.sync()
        assert report.build.documents == 1
        (path, reason), = report.build.skipped
        assert path == "Precedents/Acme/spa.txt" and "no longer in Microsoft Graph" in reason
    finally:
        driver.server.stop()
