"""Redraft with run-time checks and drafting operations, end to end in a real browser.

The real server over a real index of three real agreements, a scripted model on loopback
that does what the issue saw the embedded model do ("make this mutual" answered with the
same one-sided sentence), and the real pane in headless Chromium. Screenshots are written
to test-artifacts/redraft-checks/ (look at them: check passed, check failed with its
message, operation used, model used, Apply asking once).
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest

from addin_server.llm.scripted import Reply, ScriptedLLMServer
from addin_server.service import build_service
from addin_server.web.app import create_app
from addin_server.web.wsgi import make_server
from index_builder.index.build import build_index
from index_builder.settings import LLMSettings, load_settings, updated
from tests.e2e.test_addin_e2e import _browser_ready

REPO = Path(__file__).resolve().parents[2]
FLOW = REPO / "tests/js/e2e/redraft-checks.mjs"
OUT = REPO / "test-artifacts" / "redraft-checks"
AGREEMENTS = ("common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx",
              "openagreements-cc-by-4.0/openagreements-restrictive-covenant-alaska.docx",
              "common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx")
ISSUE = "The Supplier shall not be liable to the Customer for any indirect or consequential loss."
INDEMNITY = ("Provider will indemnify, defend, and hold harmless Customer from and against all "
             "Provider Covered Claims made by someone other than Customer, Customer’s Affiliates, "
             "or Users, and all out-of-pocket damages, awards, settlements, costs, and expenses, "
             "including reasonable attorneys’ fees and other legal expenses, that arise from the "
             "Provider Covered Claims.")
SHORT = "Provider will defend and indemnify Customer against Provider Covered Claims by third parties [1]."

pytestmark = pytest.mark.skipif(_browser_ready() is not None, reason=str(_browser_ready()))


def _responder(body: dict[str, Any]) -> Reply:
    prompt = body["messages"][-1]["content"]
    if body.get("logprobs") or (body.get("max_tokens") or 99) <= 2:
        return Reply(content="3", logprobs={"3": math.log(0.9), "2": math.log(0.1)})
    if "Make this mutual" in prompt:
        return Reply(content=ISSUE + " [1]")  # what the embedded model did in the issue
    return Reply(content=SHORT)


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
        settings = replace(updated(core, {"rerank.default": "off"}), llm=endpoint)
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


def scenario(name: str, clause: str, instructions: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "paragraphs": ["1. Heading", clause, "2. Next"],
            "selection": {"paragraph": 1, "start": 0, "end": len(clause)},
            "instructions": instructions, **extra}


SCENARIOS = [
    scenario("01-mutual-operation-passed", ISSUE, "Make this mutual", askOther=True, apply=True),
    scenario("02-period-operation", "Either party may terminate this Agreement if the other party "
             "fails to cure a material breach within thirty (30) days after receiving notice of "
             "the breach.", "Shorten the cure period to 15 days"),
    # (A clause naming a party in what it owns, "Customer's name and logo", is no longer flipped by the
    # operation: draft/gates.py leaves whether it changes hands to the drafting assistant.)
    scenario("03-flip-operation", "Provider may identify Customer as a customer in marketing.",
             "Give this right to Customer instead of Provider"),
    scenario("04-carve-out-operation", "During the Restricted Period, Employee must not Solicit, "
             "recruit, hire, or attempt to hire any Covered Employee.",
             "Add the carve-out for professional references from precedent [1]",
             pickText=["professional reference"], apply=True),
    scenario("05-amount-operation", "The Non-Competition covenant does not apply unless "
             "Employee's compensation equals or exceeds $162,164.", "Lower the threshold to $150,000"),
    scenario("06-model-shorten-passed", INDEMNITY, "Shorten this clause"),
]


def test_redraft_checks_and_operations_in_the_pane(server_url: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    run = subprocess.run(["node", str(FLOW), server_url, str(OUT)], input=json.dumps(SCENARIOS),
                         capture_output=True, text=True, timeout=300, cwd=REPO)
    assert run.returncode == 0, run.stderr
    reports = {r["name"]: r for r in map(json.loads, run.stdout.strip().splitlines())}
    (OUT / "report.json").write_text(json.dumps(reports, indent=1, ensure_ascii=False))
    for report in reports.values():
        assert "error" not in report, report
        assert report["pageErrors"] == [] and report["strayText"] == []

    mutual = reports["01-mutual-operation-passed"]
    assert "Drafting operation" in mutual["first"]["producer"]
    assert mutual["first"]["redraft"].startswith("Neither party shall be liable to the other party")
    assert mutual["first"]["failed"] == [] and "Passed" in mutual["first"]["passed"]
    assert mutual["first"]["other"] == "Ask the drafting assistant instead"
    # The model's one-sided answer: the failure the issue reported is now said before Apply.
    assert "Drafting assistant" in mutual["other"]["producer"]
    assert any("still binds only the Supplier" in f for f in mutual["other"]["failed"])
    assert mutual["other"]["other"] == "Use the drafting operation instead"
    # Apply asks once, then applies.
    assert mutual["afterFirstApply"]["apply"] == "Apply anyway"
    assert "applied" in mutual["applyStatus"]
    assert sum(c["op"] == "insertText" for c in mutual["wordCalls"]) == 1

    period = reports["02-period-operation"]["first"]
    assert "fifteen (15) days" in period["redraft"] and period["failed"] == []
    assert any("thirty (30) days" in c and "fifteen (15) days" in c for c in period["changes"])
    assert "Customer may identify Provider" in reports["03-flip-operation"]["first"]["redraft"]
    assert "$150,000" in reports["05-amount-operation"]["first"]["redraft"]

    carve = reports["04-carve-out-operation"]
    assert "professional reference" in carve["first"]["redraft"] and carve["first"]["failed"] == []
    insert = next(c for c in carve["wordCalls"] if c["op"] == "insertText")
    assert insert["trackingMode"] == "TrackAll" and "[1]" not in insert["text"]
    comments = [c["text"] for c in carve["wordCalls"] if c["op"] == "insertComment"]
    assert any("drafting operation" in c and "word for word from precedent" in c for c in comments)

    model = reports["06-model-shorten-passed"]["first"]
    assert "Drafting assistant" in model["producer"] and model["failed"] == []
    assert model["other"] is None  # no operation shortens a clause
