"""Follow the cursor end to end (issue 31): the real pane from the real server over two real
agreements, in headless Chromium with only office.js replaced by the shim. The cursor moves into
a clause copied from the library: suggestions appear without a click; strict mode says
"Identical wording"; the third cursor search passes the server's per-user limit (2/minute here)
and the real 429 with Retry-After puts the pane into back-off. The audit trail has all three.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from addin_server.service import build_service
from addin_server.web.app import create_app
from addin_server.web.wsgi import make_server
from index_builder.index.build import build_index
from index_builder.ingest import read_clauses
from index_builder.settings import load_settings

REPO = Path(__file__).resolve().parents[2]
FLOW = REPO / "tests/js/e2e/follow-flow.mjs"
ARTIFACTS = REPO / "test-artifacts"
AGREEMENTS = ("common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx",
              "bonterms-cc0-1.0/bonterms-professional-services-agreement.docx")


def _ready() -> str | None:
    if shutil.which("node") is None or not (REPO / "node_modules/playwright-core").is_dir():
        return "node and the npm packages are needed (npm ci)"
    if not any(Path(p).exists() for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser")):
        return "Chromium is not installed (apt-get install chromium)"
    return None


pytestmark = pytest.mark.skipif(_ready() is not None, reason=str(_ready()))


@pytest.fixture
def served(tmp_path: Path, contracts_dir: Path, embedder_factory: Any) -> Iterator[dict[str, Any]]:
    library = tmp_path / "library"
    for name in AGREEMENTS:
        (library / Path(name).parent).mkdir(parents=True, exist_ok=True)
        shutil.copy(contracts_dir / name, library / name)
    settings = load_settings({}, {"index_dir": tmp_path / "index", "rerank.cross_encoder": "",
                                  "follow.rate_limit": "2/minute", "follow.pause_ms": 300,
                                  "audit.file": tmp_path / "audit.jsonl"})
    embedder = embedder_factory()
    build_index(settings, [library], embedder, progress=False)
    service = build_service(settings, embedder=embedder)
    server = make_server(create_app(settings, service), "127.0.0.1", 0, threads=4)
    server.prepare()
    threading.Thread(target=server.serve, daemon=True).start()
    clauses = [c.text for c in read_clauses(library / AGREEMENTS[0], "csa", AGREEMENTS[0])
               if len(c.text.split()) >= 30]
    try:
        yield {"url": f"http://127.0.0.1:{server.bind_addr[1]}", "clauses": clauses,
               "audit": tmp_path / "audit.jsonl"}
    finally:
        server.stop()
        service.close()


def test_suggestions_strict_and_a_real_429_in_a_real_browser(served: dict[str, Any]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    scenario = {"paragraphs": ["8. LIMITATION OF LIABILITY", served["clauses"][3], served["clauses"][7]]}
    run = subprocess.run(["node", str(FLOW), served["url"], str(ARTIFACTS / "e2e-follow.png")],
                         input=json.dumps(scenario), capture_output=True, text=True, timeout=150,
                         cwd=REPO)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert "error" not in report, report
    assert report["pageErrors"] == [] and report["strayText"] == []
    assert report["toggleOn"] is True and report["rankedCards"] >= 1
    assert report["rankedStatus"].endswith("for the paragraph at the cursor.")
    assert report["strictLines"][0] == "Identical wording"  # the clause is in the library
    assert report["strictNote"].startswith("Same wording only: precedents with at least 90%")
    assert report["backoffState"] == "backoff" and "slow down" in report["backoffLine"]
    lines = [json.loads(line) for line in served["audit"].read_text().splitlines()]
    searches = [(e["route"], e["status"]) for e in lines if e["route"].endswith("/precedents")]
    assert searches == [("/api/v1/precedents", 200)] * 2 + [("/api/v1/precedents", 429)]
