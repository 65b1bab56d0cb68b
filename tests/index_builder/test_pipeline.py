"""The one pipeline: eval measures exactly what the server serves, and the build's guards."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from addin_server.service import build_service
from index_builder.errors import NothingIndexableError
from index_builder.evaluate.acord import load_acord
from index_builder.evaluate.evaluation import eval_queries
from index_builder.evaluate.runner import EvalConfig, eval_pipeline, eval_search
from index_builder.index.build import build_index
from index_builder.index.embedded import EmbeddedStore
from index_builder.retrieve.pipeline import served_list
from index_builder.settings import LLMSettings, Settings, updated


def test_eval_ranks_exactly_what_the_api_returns(settings: Settings, embedder: Any,
                                                  mini_acord: Path) -> None:
    settings = updated(settings, {"acord_dir": mini_acord, "rerank.default": "off",
                                  "retrieval.variation_threshold": 0.5})
    build_index(settings, [mini_acord], embedder, progress=False)
    depth = settings.retrieval.candidate_depth
    config = EvalConfig(split="test", depth=depth)
    ranked = eval_search(eval_pipeline(settings, config, embedder), config)
    service = build_service(settings, embedder=embedder, llm=LLMSettings())
    corpus = {}
    for line in (mini_acord / "corpus.jsonl").read_text().splitlines():
        corpus[json.loads(line)["_id"]] = json.loads(line)["text"]
    queries = eval_queries(load_acord(mini_acord), "test", "short", "query", corpus)
    folded = 0
    try:
        for query in queries:
            served = service.search(query.text, top_k=10)
            folded += sum(len(r.variants) for r in served.results)
            shown = [h.clause.clause_id for h in served_list(served)]
            assert [h.clause.clause_id for h in ranked(query.text)[:len(shown)]] == shown
    finally:
        service.close()
    assert folded > 0  # the comparison covers variation folding, which eval once skipped


def test_a_source_with_nothing_indexable_keeps_the_live_version(
        settings: Settings, embedder: Any, tmp_path: Path) -> None:
    good = tmp_path / "good"
    good.mkdir()
    (good / "nda.txt").write_text("Each party shall keep the other's information confidential.")
    first = build_index(settings, [good], embedder, progress=False)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "empty.txt").write_text("")
    (bad / "broken.docx").write_bytes(b"PK\x03\x04 not really a zip")
    (bad / "notes.pdf").write_bytes(b"%PDF-1.4")
    with pytest.raises(NothingIndexableError, match="broken.docx") as error:
        build_index(settings, [bad], embedder, progress=False)
    assert "live index is unchanged" in error.value.message
    assert EmbeddedStore(settings.index_dir).live_version() == first.version


def test_links_that_leave_the_library_are_not_followed(settings: Settings, embedder: Any,
                                                        tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("A secret file elsewhere on the server that must never be indexed.")
    library = tmp_path / "library"
    library.mkdir()
    (library / "nda.txt").write_text("Each party shall keep the other's information confidential.")
    os.symlink(outside, library / "secret.txt")
    (library / "inside.txt").symlink_to(library / "nda.txt")  # inside the library: fine
    report = build_index(settings, [library], embedder, progress=False)
    assert [Path(p).name for p, _ in report.skipped] == ["secret.txt"]
    assert "outside the library" in report.skipped[0][1]
    texts = [c.text for c in EmbeddedStore(settings.index_dir).open().index.clauses]
    assert not any("secret file" in t for t in texts) and len(texts) == 2
    allowed = build_index(updated(settings, {"follow_links": True}), [library], embedder,
                          progress=False)
    assert allowed.skipped == [] and allowed.clauses == 3


def test_a_new_wall_policy_applies_on_rebuild_without_re_embedding(
        settings: Settings, embedder: Any, tmp_path: Path) -> None:
    library = tmp_path / "library"
    (library / "Matters" / "Acme").mkdir(parents=True)
    (library / "Matters" / "Acme" / "spa.txt").write_text("The purchase price is ten million.")
    (library / "forms.txt").write_text("This Agreement is governed by the laws of Delaware.")
    build_index(settings, [library], embedder, progress=False)
    policy = tmp_path / "walls.csv"
    policy.write_text("pattern,allow,deny\nMatters/Acme/**,matter-acme,\n")
    walled = updated(settings, {"walls.policy_file": policy})
    embedder.calls.clear()
    report = build_index(walled, [library], embedder, progress=False)
    assert report.embedded == 0 and sum(embedder.calls) == 0
    clauses = {c.source_path.rsplit("/", 1)[-1]: c
               for c in EmbeddedStore(settings.index_dir).open().index.clauses}
    assert clauses["spa.txt"].metadata["access_groups"] == "matter-acme"
    assert "access_groups" not in clauses["forms.txt"].metadata or \
        clauses["forms.txt"].metadata["access_groups"] != "matter-acme"
    # The policy removed again: the groups leave the reused clauses too.
    build_index(settings, [library], embedder, progress=False)
    spa = [c for c in EmbeddedStore(settings.index_dir).open().index.clauses
           if c.source_path.endswith("spa.txt")][0]
    assert "access_groups" not in spa.metadata


def test_document_fields_are_extracted_for_contracts_only(settings: Settings, embedder: Any,
                                                          tmp_path: Path, mini_acord: Path) -> None:
    library = tmp_path / "library"
    library.mkdir()
    (library / "nda.txt").write_text(
        "MUTUAL NON-DISCLOSURE AGREEMENT\n\nThis Agreement is entered into between Acme Inc. "
        "and Globex LLC.\n\nThis Agreement is governed by the laws of the State of New York.")
    build_index(settings, [library, mini_acord], embedder, progress=False)
    backend = EmbeddedStore(settings.index_dir).open()
    nda = [c for c in backend.index.clauses if c.doc_id == "nda"]
    assert nda and all(c.metadata.get("governing_law") == "New York" for c in nda)
    acord = [c for c in backend.index.clauses if c.doc_id != "nda"]
    assert acord and not any("governing_law" in c.metadata for c in acord)
    assert "governing_law" in backend.fields()
    # A firm's metadata file wins, and taking a row out of it undoes the override.
    overrides = tmp_path / "metadata.csv"
    overrides.write_text("file,governing_law\nnda.txt,Delaware\n")
    with_file = updated(settings, {"metadata_file": overrides})
    build_index(with_file, [library, mini_acord], embedder, progress=False)
    laws = {c.metadata.get("governing_law") for c in EmbeddedStore(settings.index_dir).open()
            .index.clauses if c.doc_id == "nda"}
    assert laws == {"Delaware"}
    overrides.write_text("file,governing_law\n")
    embedder.calls.clear()
    build_index(with_file, [library, mini_acord], embedder, progress=False)
    laws = {c.metadata.get("governing_law") for c in EmbeddedStore(settings.index_dir).open()
            .index.clauses if c.doc_id == "nda"}
    assert laws == {"New York"} and sum(embedder.calls) == 0


def test_the_index_builder_never_imports_the_server() -> None:
    # The pipeline takes its LLM reranker by injection; the dependency runs one way only.
    import subprocess
    import sys

    code = ("import sys, pkgutil, importlib, index_builder\n"
            "for m in pkgutil.walk_packages(index_builder.__path__, 'index_builder.'):\n"
            "    if not m.name.endswith(('milvus', 'training')):\n"
            "        importlib.import_module(m.name)\n"
            "print(sorted(n for n in sys.modules if n.startswith('addin_server')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    sources = Path(__file__).resolve().parents[2] / "index_builder"
    assert not [p for p in sources.rglob("*.py")
                if "from addin_server" in p.read_text() or "import addin_server" in p.read_text()]


def test_new_facet_rules_reread_unchanged_documents(settings: Settings, embedder: Any,
                                                    tmp_path: Path, monkeypatch: Any) -> None:
    # An index built by older facet rules must not keep their fields on documents that did
    # not change: the next build re-reads them (reusing their texts' vectors).
    from index_builder.ingest import metadata

    library = tmp_path / "library"
    library.mkdir()
    (library / "nda.txt").write_text(
        "MUTUAL NON-DISCLOSURE AGREEMENT\n\nThis Agreement is entered into between Acme Inc. "
        "and Globex LLC.\n\nThis Agreement is governed by the laws of the State of New York.")
    build_index(settings, [library], embedder, progress=False)
    real = metadata.extract

    def older_rules(*args: Any, **kwargs: Any) -> Any:
        return {**real(*args, **kwargs), "governing_law": "Delaware"}

    monkeypatch.setattr(metadata, "extract", older_rules)
    monkeypatch.setattr(metadata, "VERSION", "facets-older")
    build_index(settings, [library], embedder, progress=False)
    laws = {c.metadata.get("governing_law")
            for c in EmbeddedStore(settings.index_dir).open().index.clauses}
    assert laws == {"Delaware"}
    # The same rules again: the document is unchanged, nothing is re-read.
    monkeypatch.setattr(metadata, "extract", real)
    build_index(settings, [library], embedder, progress=False)
    laws = {c.metadata.get("governing_law")
            for c in EmbeddedStore(settings.index_dir).open().index.clauses}
    assert laws == {"Delaware"}
    # New rules (a new version): re-read, the stale field is gone; no text embedded again.
    monkeypatch.setattr(metadata, "VERSION", "facets-newer")
    embedder.calls.clear()
    build_index(settings, [library], embedder, progress=False)
    laws = {c.metadata.get("governing_law")
            for c in EmbeddedStore(settings.index_dir).open().index.clauses}
    assert laws == {"New York"} and sum(embedder.calls) == 0
