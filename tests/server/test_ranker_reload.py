"""A ranker `index-builder learn` installs is served without a restart: the running server
sees the ``current`` link move, loads the new ranker and swaps it in; /health and the audit
trail name the new version. A ranker that cannot be loaded leaves the old one serving."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index_builder.cli import main as builder_main
from index_builder.learn.command import _point
from index_builder.learn.relearn import save_rows
from index_builder.retrieve.ltr import BUILTIN, FEATURES, META_FILE, MODEL_FILE, save_ranker

QUERIES = ("aggregate liability cap on fees paid", "governing law of the agreement",
           "confidential information disclosure", "termination for convenience notice",
           "assignment without consent", "indemnification for third-party claims")


def _first_ranker(learned: Path) -> Path:
    """The shipped model under a learned-ranker folder, as if installed by an earlier learn."""
    import lightgbm

    meta = json.loads((BUILTIN / META_FILE).read_text())
    meta = {k: v for k, v in meta.items() if k not in ("format", "features")}
    folder = save_ranker(lightgbm.Booster(model_file=str(BUILTIN / MODEL_FILE)),
                         learned / "versions" / "learn-first",
                         {**meta, "version": "learn-first",
                          "config": {**meta["config"], "trees": 20, "min_data_in_leaf": 20}})
    _point(learned / "current", folder)
    return folder


def _rows(path: Path) -> None:
    """Judged rows whose first feature tells the grade: what learn adds the events to."""
    rng = np.random.default_rng(5)
    groups = []
    for _ in range(20):
        y = rng.choice(5, size=30, p=[0.6, 0.1, 0.1, 0.1, 0.1]).astype(np.float32)
        x = rng.normal(size=(30, len(FEATURES))).astype(np.float32)
        x[:, 0] = y + rng.normal(scale=0.5, size=30)
        groups.append((x, y))
    save_rows(path, groups, ["train"] * 20, ["short"] * 20, [f"q{i}" for i in range(20)])


def _version(client: Any, other_than: str, service: Any) -> str:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        version = client.get("/api/v1/health").get_json()["ranker"]["version"]
        if version != other_than:
            return version
        service.live.wait_for_reload(1.0)
        time.sleep(0.02)
    return other_than


@pytest.fixture
def served(make_app: Any, tmp_path: Path, monkeypatch: Any) -> Any:
    learned = tmp_path / "learned"
    _first_ranker(learned)
    audit = tmp_path / "audit.jsonl"
    app = make_app(llm=False, retrieval__ranker=str(learned / "current"),
                   learning__learned_ranker=learned, server__index_reload_s=0.01,
                   audit__file=str(audit))
    # `index-builder learn` reads the environment, as firm IT would run it beside the server.
    monkeypatch.setenv("PRECEDENT_RANKER", str(learned / "current"))
    monkeypatch.setenv("PRECEDENT_LEARNED_RANKER", str(learned))
    monkeypatch.setenv("PRECEDENT_CROSS_ENCODER", "")
    return app, learned, audit


def test_a_ranker_installed_by_learn_is_served_without_restart(served: Any, tmp_path: Path,
                                                               monkeypatch: Any, capsys: Any) -> None:
    app, learned, audit = served
    client, service = app.test_client(), app.extensions["precedent"]
    assert client.get("/api/v1/health").get_json()["ranker"]["version"] == "learn-first"
    for query in QUERIES * 3:  # lawyers search and insert the second result
        found = client.post("/api/v1/precedents", json={"text": query, "top_k": 5,
                                                        "rerank": False}).get_json()
        item = found["results"][1]
        assert client.post("/api/v1/feedback", json={"list_id": found["list_id"], "events": [
            {"kind": "insert", "clause_id": item["clause_id"], "rank": item["rank"],
             "position": 2}]}).status_code == 200

    _rows(tmp_path / "rows.npz")
    monkeypatch.setattr("index_builder.learn.command.ROWS_FILE", tmp_path / "rows.npz")
    # A wide margin: this test is about serving what was installed, not about the guard.
    monkeypatch.setenv("PRECEDENT_LEARN_GUARD_TOLERANCE", "100")
    index = str(app.config["PRECEDENT_SETTINGS"].index_dir)
    assert builder_main(["learn", "--index", index, "--propensity", "assumed"]) == 0, capsys.readouterr()
    installed = json.loads((learned / "current" / META_FILE).read_text())["version"]
    assert installed.startswith("learn-2")

    assert _version(client, "learn-first", service) == installed  # no restart
    client.post("/api/v1/precedents", json={"text": QUERIES[0], "rerank": False})
    lines = [json.loads(x) for x in audit.read_text().splitlines()]
    assert lines[0]["ranker"] == "learn-first" and lines[-1]["ranker"] == installed


def test_a_ranker_that_cannot_be_loaded_leaves_the_old_one_serving(served: Any) -> None:
    app, learned, _ = served
    client, service = app.test_client(), app.extensions["precedent"]
    broken = learned / "versions" / "learn-broken"
    broken.mkdir(parents=True)
    (broken / MODEL_FILE).write_text("not a model\n")
    (broken / META_FILE).write_text((learned / "current" / META_FILE).read_text())
    _point(learned / "current", broken)
    for _ in range(5):
        time.sleep(0.02)
        assert client.post("/api/v1/precedents", json={"text": QUERIES[1], "rerank": False}).status_code == 200
        service.live.wait_for_reload(2.0)
    assert client.get("/api/v1/health").get_json()["ranker"]["version"] == "learn-first"
