"""The add-in end to end in a real browser.

Headless Chromium loads the task pane from the real server (cheroot + Flask) over a real
index built from real .docx agreements, with a scripted OpenAI-compatible LLM on loopback.
Only office.js is replaced, by the host shim that records Word calls. The flow clicks Find
precedent, picks two results, redrafts, applies, and we check what Word was asked to do.
The screenshot is saved to test-artifacts/e2e-pane.png.
"""

from __future__ import annotations

import json
from dataclasses import replace
import math
import re
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from addin_server.web.app import create_app
from addin_server.llm.scripted import Reply, ScriptedLLMServer
from addin_server.service import build_service
from index_builder.settings import LLMSettings, updated
from addin_server.web.wsgi import make_server
from index_builder.index.build import build_index
from index_builder.settings import load_settings

REPO = Path(__file__).resolve().parents[2]
FLOW = REPO / "tests/js/e2e/flow.mjs"
ARTIFACTS = REPO / "test-artifacts"
AGREEMENTS = ("common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx",
              "bonterms-cc0-1.0/bonterms-professional-services-agreement.docx")
CLAUSE = ("The Supplier's liability under this Agreement is unlimited, and the Supplier is "
          "liable for all lost profits and indirect damages.")
REDRAFT = ("Each party's total liability under this Agreement is limited to the fees paid in the "
           "twelve months before the claim [1]. Neither party is liable for lost profits or "
           "indirect damages [2]. Nothing limits liability for fraud [7].")


def _browser_ready() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not (REPO / "node_modules/playwright-core").is_dir():
        return "npm packages are not installed (npm ci)"
    if not any(Path(p).exists() for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser")):
        return "Chromium is not installed (apt-get install chromium)"
    return None


pytestmark = pytest.mark.skipif(_browser_ready() is not None, reason=str(_browser_ready()))


def _responder(body: dict[str, Any]) -> Reply:
    """Rerank calls (one token, logprobs) get a rating by word overlap; redrafts get REDRAFT."""
    if body.get("logprobs") or (body.get("max_tokens") or 99) <= 2:
        prompt = body["messages"][-1]["content"].lower()
        rating = 4 if "liab" in prompt.split("<clause>")[-1] else 1
        return Reply(content=str(rating), logprobs={str(rating): math.log(0.9),
                                                    str(max(rating - 1, 0)): math.log(0.1)})
    return Reply(content=REDRAFT)


@pytest.fixture
def server_url(tmp_path: Path, contracts_dir: Path, embedder_factory: Any) -> Iterator[str]:
    library = tmp_path / "library"
    for name in AGREEMENTS:
        (library / Path(name).parent).mkdir(parents=True, exist_ok=True)
        shutil.copy(contracts_dir / name, library / name)
    core = load_settings({}, {"index_dir": tmp_path / "index", "rerank.cross_encoder": ""})
    embedder = embedder_factory()
    build_index(core, [library], embedder, progress=False)
    with ScriptedLLMServer(_responder) as llm:
        endpoint = LLMSettings(base_url=llm.url, api_key="k", rerank_model="m", redraft_model="m",
                               request_timeout_s=5, deadline_s=10, max_attempts=2)
        settings = replace(updated(core, {"rerank.default": "on"}), llm=endpoint)
        service = build_service(settings, embedder=embedder)
        server = make_server(create_app(settings, service), "127.0.0.1", 0, threads=4)
        server.prepare()
        thread = threading.Thread(target=server.serve, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.bind_addr[1]}"
        finally:
            server.stop()
            service.close()


def test_find_redraft_apply_in_a_real_browser(server_url: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    scenario = {"paragraphs": ["Limitation of liability", CLAUSE, "Governing law"],
                "selection": {"paragraph": 1, "start": 0, "end": len(CLAUSE)},
                "pick": 2, "instructions": "Make it mutual."}
    run = subprocess.run(["node", str(FLOW), server_url, str(ARTIFACTS / "e2e-pane.png")],
                         input=json.dumps(scenario), capture_output=True, text=True, timeout=120,
                         cwd=REPO)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert "error" not in report, report
    assert report["pageErrors"] == []

    # Find: real precedents from the real agreements, rated by the (scripted) LLM.
    assert len(report["cards"]) >= 2
    assert any("Cloud Service Agreement" in card["source"] for card in report["cards"])
    assert all(re.match(r"AI fit rating \d\.\d out of 5", card["score"] or "") for card in report["cards"])
    assert [card["n"] for card in report["cards"]] == [f"[{i}]" for i in range(1, len(report["cards"]) + 1)]
    assert report["strayText"] == [], "no null/undefined/NaN/[object Object] in the pane"
    assert report["wordCallsBeforeApply"] == 0 and report["wordCallsAfterRedraft"] == 0

    # Redraft: two verified citations; the invented [7] was removed by the server, and the pane says so.
    assert len(report["citations"]) == 2
    assert any("[7] was removed" in p for p in report["problems"]), report["problems"]

    # Apply: one tracked replacement without markers, one comment per citation on its sentence.
    calls = report["wordCalls"]
    insert = next(c for c in calls if c["op"] == "insertText")
    assert insert["location"] == "Replace" and insert["trackingMode"] == "TrackAll"
    assert insert["replaced"] == CLAUSE
    assert "[1]" not in insert["text"] and "[7]" not in insert["text"]
    assert insert["text"].startswith("Each party's total liability")
    comments = [c for c in calls if c["op"] == "insertComment" and c["text"].startswith("Source: ")]
    assert len(comments) == 2
    # Issue 23: the draft was conformed to the open document before Apply; what that left or
    # changed is one more comment, on the whole clause, naming the precedents it came from.
    conformed = [c for c in calls if c["op"] == "insertComment" and not c["text"].startswith("Source: ")]
    assert len(conformed) <= 1, conformed
    assert all(c["text"].startswith("Redraft from ") and c["anchorText"] == insert["text"] for c in conformed), conformed
    assert comments[0]["anchorText"].startswith("Each party's total liability")
    assert comments[1]["anchorText"].startswith("Neither party is liable")
    # The comment names the source, not a [n] marker the inserted text no longer carries.
    assert all(c["text"].startswith("Source: ") and not re.search(r"\[\d+\]", c["text"]) for c in comments)
    assert [c for c in calls if c["op"] == "setChangeTrackingMode"][-1]["value"] == "Off"
    assert (ARTIFACTS / "e2e-pane.png").stat().st_size > 10_000
