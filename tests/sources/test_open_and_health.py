"""What the add-in sees of a DMS source: each result's link to open its document in the DMS,
and /health's last sync and lag per source (no library size, no paths)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from addin_server.service import build_service
from addin_server.web.auth import Identity, access_filters
from addin_server.web.serialize import search_json

from source_drivers import GraphDriver
from test_source_contract import ACME, _library


def test_results_link_to_the_dms_and_health_shows_the_lag(tmp_path: Path, embedder: Any,
                                                          tls: tuple[Path, Path]) -> None:
    driver = GraphDriver(tmp_path, embedder, tls)
    try:
        _library(driver)
        driver.sync()
        driver.server.stop()  # the next sync fails: /health says so, search goes on
        driver.values["sources.max_attempts"] = 1
        try:
            driver.sync()
        except Exception:
            pass
        driver.values.update({"rerank.cross_encoder": "", "rerank.default": "off", "local_llm.mode": "off"})
        settings = driver.settings()
        service = build_service(settings, embedder=embedder)
        try:
            walls = access_filters(Identity("bob", "cli", ("g-bob",)), True)
            answer = search_json(service.search("indemnify the Buyer against Losses", 5, access=walls))
            urls = {r["source"]["doc_id"]: r["source"]["url"] for r in answer["results"]}
            assert urls[driver.doc_id(ACME)] == \
                "https://contoso.sharepoint.com/sites/Legal/Precedents/Acme/spa.txt"
            (record,) = service.health(walls)["sources"]
            assert record["source"] == driver.spec() and record["lag_s"] >= 0
            assert "cannot be reached" in record["last_error"] and record["last_sync"].endswith("Z")
            assert "documents" not in record  # a library's size is not every user's business
        finally:
            service.close()
    finally:
        driver.server.stop()
