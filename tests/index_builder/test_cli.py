"""`index-builder` as a user runs it: build, search, eval, and clear failures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index_builder import cli

CAP = ("In no event shall either party's aggregate liability exceed the fees paid by Customer "
       "in the twelve months before the claim.")


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = tmp_path / "library"
    folder.mkdir()
    rows = {"ny": CAP, "ca": "9.2 " + CAP, "law": "This Agreement is governed by the laws of New York.",
            "ins": "Each party's liability is limited to the amount recoverable under its insurance."}
    (folder / "corpus.jsonl").write_text("\n".join(json.dumps({"_id": k, "text": v})
                                                   for k, v in rows.items()) + "\n")
    return folder


@pytest.mark.slow
def test_build_then_search_with_the_packaged_model(tmp_path, library, capsys):
    index = str(tmp_path / "index")
    assert cli.main(["build", "--index", index, "--no-progress", str(library)]) == 0
    assert "4 clauses" in capsys.readouterr().out
    assert cli.main(["search", "--index", index, "--json", "--top-k", "3", "cap on liability"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert len(hits) == 3
    cap = next(h for h in hits if h["clause_id"] in ("ny", "ca"))
    assert cap["variants"] == [{"ny": "ca", "ca": "ny"}[cap["clause_id"]]]
    assert {h["clause_id"] for h in hits} >= {"law", "ins"}  # the copy was folded, not listed
    assert cli.main(["search", "--index", index, "--variations", "0", "--top-k", "4", "cap on liability"]) == 0
    assert "[ny]" in (out := capsys.readouterr().out) and "[ca]" in out


def test_eval_writes_the_documented_json(tmp_path, mini_acord, monkeypatch, embedder_factory):
    monkeypatch.setattr(cli, "_embedder", lambda settings: embedder_factory())
    out = tmp_path / "out.json"
    assert cli.main(["eval", "--data", str(mini_acord), "--index", str(tmp_path / "ix"),
                     "--split", "test", "--retriever", "hybrid", "--no-progress", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert {"ndcg@5", "ndcg@10", "p@5_3star", "p@5_4star", "p@5_5star"} <= set(result["overall"])
    assert result["categories"] and all("ndcg@5" in m for m in result["categories"].values())


@pytest.mark.parametrize("argv, message", [
    (["search", "--index", "{tmp}/none", "x"], "No index at"),
    (["eval", "--data", "{tmp}/nothing", "--index", "{tmp}/ix"], "download-acord"),
    (["build", "--index", "{tmp}/ix", "{tmp}/missing-folder"], "does not exist"),
])
def test_failures_exit_2_and_say_what_to_do(tmp_path, caplog, argv, message, monkeypatch, embedder_factory):
    monkeypatch.setattr(cli, "_embedder", lambda settings: embedder_factory())
    assert cli.main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    assert message in caplog.text
