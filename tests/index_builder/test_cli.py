"""`index-builder` as a user runs it: build, search, eval, and clear failures."""

from __future__ import annotations

import json
import logging
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
    # A bare build indexed the ACORD benchmark without a word (session 8): now it asks.
    (["build", "--index", "{tmp}/ix"], "Name what to index"),
])
def test_failures_exit_2_and_say_what_to_do(tmp_path, caplog, argv, message, monkeypatch, embedder_factory):
    monkeypatch.setattr(cli, "_embedder", lambda settings: embedder_factory())
    assert cli.main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    assert message in caplog.text


def test_a_build_that_skipped_a_corrupt_file_exits_4_naming_it(tmp_path, contracts_dir, caplog, capsys,
                                                              monkeypatch, embedder_factory):
    # Firm IT's scheduler saw exit 0 from a build that had left a corrupt .docx out.
    import shutil

    monkeypatch.setattr(cli, "_embedder", lambda settings: embedder_factory())
    caplog.set_level(logging.INFO)
    library = tmp_path / "library"
    library.mkdir()
    shutil.copy(contracts_dir / "common-paper-cc-by-4.0/common-paper-term-sheet.docx", library / "term-sheet.docx")
    (library / "broken.docx").write_bytes(b"PK\x03\x04 not a whole zip")
    index = str(tmp_path / "index")
    assert cli.main(["build", "--index", index, "--no-progress", str(library)]) == cli.EXIT_SKIPPED == 4
    assert "skipped " in capsys.readouterr().out
    # The first thing the build says is what it indexes, and where.
    assert caplog.records[0].getMessage() == f"Indexing {library} into {index}"
    warning = next(r.getMessage() for r in caplog.records if "left out of the index" in r.getMessage())
    assert warning.startswith("1 source file(s) could not be read") and "broken.docx" in warning
    assert "term-sheet" not in warning and "--allow-skipped" in warning
    recorded = [json.loads(p.read_text()).get("skipped") for p in Path(index).rglob("params.json")]
    assert any(s and "broken.docx" in s[0]["path"] for s in recorded)  # the version's notes name it
    # Built again, unchanged: still said, still 4, until IT fixes the file or accepts skips.
    assert cli.main(["build", "--index", index, "--no-progress", str(library)]) == 4
    assert cli.main(["build", "--index", index, "--no-progress", "--allow-skipped", str(library)]) == 0
    (library / "broken.docx").unlink()
    assert cli.main(["build", "--index", index, "--no-progress", str(library)]) == 0


def test_build_help_documents_the_exit_statuses(capsys):
    with pytest.raises(SystemExit):
        cli.main(["build", "--help"])
    out = capsys.readouterr().out
    assert "--allow-skipped" in out and "exit status:" in out and "  4    built, but some source files" in out
    assert "what to index" in out and "Required" in out and "default: the ACORD" not in out


def test_a_command_search_waits_past_the_servers_query_deadline(tmp_path, monkeypatch, embedder_factory):
    # The quickstart's example search failed at load 8: its first fixed-shape compile took longer
    # than the server's 10 s query deadline. A command waits; the server keeps its deadline.
    import time

    from index_builder.settings import load_settings

    class Slow(embedder_factory):
        def embed(self, texts, *, show_progress=False):
            time.sleep(0.3)
            return super().embed(texts, show_progress=show_progress)

    monkeypatch.setattr(cli, "_embedder", lambda settings: Slow())
    settings = load_settings({"PRECEDENT_QUERY_DEADLINE_S": "0.05", "PRECEDENT_QUERY_EMBEDDING": "index"},
                             {"index_dir": tmp_path / "ix"})
    assert settings.embedding.query_deadline_s == 0.05
    vectors = cli._query_embedder(settings).embed(["cap on liability"])
    assert vectors.shape == (1, Slow.dimension)


def test_a_missing_source_is_named_before_the_model_loads(tmp_path, library, caplog, monkeypatch):
    # It loaded the embedding model (tens of seconds) before saying the path was missing.
    def no_model(settings):
        raise AssertionError("the model loaded before the paths were checked")
    monkeypatch.setattr(cli, "_embedder", no_model)
    with caplog.at_level(logging.ERROR):
        status = cli.main(["build", "--index", str(tmp_path / "index"), str(library),
                           str(tmp_path / "nonexistent")])
    assert status == 2
    assert f"The source {tmp_path / 'nonexistent'} does not exist: check the path" in caplog.text
