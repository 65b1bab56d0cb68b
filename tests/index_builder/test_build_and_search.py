"""Index build, atomic versions, incremental rebuilds and hybrid search on real ACORD clauses."""

import json
from pathlib import Path

import pytest

from index_builder.index import store
from index_builder.index.build import build_index
from index_builder.errors import DocumentError, IndexNotFoundError, InvalidRequestError
from index_builder.model import Clause
from search_helpers import searcher
from index_builder.index.embedded import EmbeddedStore
from index_builder.index.store import load_index


def _read_txt(path: Path, doc_id: str, source_path: str) -> list[Clause]:
    """A tiny stand-in for the contract reader: one clause per blank-line paragraph."""
    text = path.read_text()
    if text.startswith("CORRUPT"):
        raise DocumentError(f"{path.name} is corrupt")
    parts = [p.strip() for p in text.split("\n\n") if p.strip()]
    return [Clause(f"{doc_id}#{i}", p, doc_id, doc_title=doc_id, source_path=source_path,
                   section=str(i + 1), metadata={"type": "contract"}) for i, p in enumerate(parts)]


@pytest.fixture
def contracts(tmp_path):
    folder = tmp_path / "contracts"
    folder.mkdir()
    (folder / "nda.txt").write_text(
        "Each party shall keep the Confidential Information of the other party secret.\n\n"
        "This Agreement is governed by the laws of the State of New York.")
    (folder / "msa.txt").write_text(
        "In no event shall either party's aggregate liability exceed the fees paid.\n\n"
        "Supplier shall indemnify Customer against third-party claims.")
    return folder


def test_acord_corpus_build_and_search(settings, embedder, mini_acord):
    report = build_index(settings, [mini_acord], embedder, read_document=_read_txt, progress=False)
    index = load_index(settings.index_dir)
    assert report.clauses == len(index.clauses) == index.dense.ntotal
    params = json.loads((index.path / "params.json").read_text())
    assert params["embedding_model"] == "test-hashing" and params["dimension"] == 64
    assert params["format_version"] == store.FORMAT_VERSION and params["clauses"] == report.clauses
    hits = searcher(settings, embedder)("limitation of liability cap", top_k=5)
    assert [h.rank for h in hits] == [1, 2, 3, 4, 5]
    assert all(h.retriever_ranks for h in hits)
    assert all(h.clause.doc_id == mini_acord.name for h in hits)


def test_incremental_rebuild_reuses_unchanged_and_drops_removed(settings, embedder, contracts):
    first = build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    assert sorted(first.parsed) == ["msa", "nda"] and first.embedded == 4
    (contracts / "msa.txt").unlink()
    (contracts / "nda.txt").write_text((contracts / "nda.txt").read_text() +
                                       "\n\nNotices shall be given in writing.")
    (contracts / "dpa.txt").write_text("Processor shall process Personal Data only on instructions.")
    second = build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    assert second.removed == ["msa"]
    assert sorted(second.parsed) == ["dpa", "nda"]
    assert second.embedded == 2 and second.embeddings_reused == 2  # only the new texts
    index = load_index(settings.index_dir)
    assert {c.doc_id for c in index.clauses} == {"nda", "dpa"}
    third = build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    assert third.parsed == [] and third.embedded == 0 and sorted(third.reused) == ["dpa", "nda"]


def test_corrupt_document_is_skipped_and_reported(settings, embedder, contracts):
    (contracts / "broken.txt").write_text("CORRUPT bytes")
    report = build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    assert [Path(p).name for p, _ in report.skipped] == ["broken.txt"]
    assert "corrupt" in report.skipped[0][1]
    assert report.documents == 2


def test_crash_mid_build_leaves_previous_index_live(settings, embedder, contracts, monkeypatch):
    build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    before = load_index(settings.index_dir)
    (contracts / "extra.txt").write_text("Extra clause about audit rights.")

    def explode(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(store.np, "save", explode)
    with pytest.raises(OSError):
        build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    after = load_index(settings.index_dir)
    assert after.path == before.path and len(after.clauses) == len(before.clauses)
    assert not list(settings.index_dir.glob(".staging-*"))


def test_old_versions_are_pruned_but_previous_is_kept(settings, embedder, contracts):
    for n in range(3):
        (contracts / f"extra{n}.txt").write_text(f"Clause number {n} about audit rights.")
        build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    versions = sorted(p.name for p in settings.index_dir.glob("v-*"))
    assert len(versions) == 2
    assert (settings.index_dir / "CURRENT").read_text().strip() in versions


def test_missing_index_names_the_fix(tmp_path):
    with pytest.raises(IndexNotFoundError, match="index-builder build"):
        load_index(tmp_path / "nothing")


def test_filters_by_document_and_metadata(settings, embedder, contracts):
    build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    search = searcher(settings, embedder)
    hits = search("liability", filters={"document": "nda"})
    assert hits and {h.clause.doc_id for h in hits} == {"nda"}
    hits = search("liability", filters={"doc_id": ["nda", "msa"], "type": "contract"})
    assert {h.clause.doc_id for h in hits} == {"nda", "msa"}
    assert search("liability", filters={"type": "statute"}) == []
    with pytest.raises(InvalidRequestError, match="Unknown filter field"):
        search("liability", filters={"colour": "red"})
    with pytest.raises(InvalidRequestError, match="empty"):
        search("   ")


def test_whole_clause_query_finds_its_neighbour(settings, embedder, contracts):
    build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    load_index(settings.index_dir)
    search = searcher(settings, embedder)
    query = ("Under no circumstances will the aggregate liability of either party exceed "
             "the total fees paid under this Agreement in the twelve months before the claim.")
    assert search(query, top_k=1)[0].clause.clause_id == "msa#0"
    before, after = EmbeddedStore(settings.index_dir).open().neighbours("msa#1", 1)
    assert [c.clause_id for c in before] == ["msa#0"] and after == []


@pytest.mark.parametrize("retrievers", [("dense",), ("bm25",), ("dense", "bm25")])
def test_each_retriever_alone(settings, embedder, contracts, retrievers):
    build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    hit = searcher(settings, embedder, retrievers)("indemnify third-party claims", top_k=1)[0]
    assert hit.clause.clause_id == "msa#1"
    assert set(hit.retriever_ranks) == set(retrievers)


def test_weighted_fusion_option(settings, embedder, contracts):
    build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    hits = searcher(settings, embedder, fusion="weighted", dense_weight=0.3)("governed laws New York")
    assert hits[0].clause.clause_id == "nda#1"
    assert 0 < hits[0].score <= 1.0


def test_duplicate_ids_within_one_corpus_are_indexed_once(settings, embedder, tmp_path):
    corpus = tmp_path / "dup"
    corpus.mkdir()
    (corpus / "corpus.jsonl").write_text('{"_id": "x", "text": "first text"}\n'
                                         '{"_id": "x", "text": "second text"}\n'
                                         '{"_id": "y", "text": "third text"}\n')
    report = build_index(settings, [corpus], embedder, read_document=_read_txt, progress=False)
    index = load_index(settings.index_dir)
    assert report.clauses == 2 and [c.clause_id for c in index.clauses] == ["x", "y"]
    assert index.get("x").text == "first text"


def test_same_file_name_in_two_folders_or_suffixes_never_shadows(settings, embedder, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "nda.txt").write_text("Liability is capped at the fees paid.")
    (b / "nda.txt").write_text("This Agreement is governed by Delaware law.")
    (b / "nda.md").write_text("Notices must be in writing.")
    build_index(settings, [a, b], embedder, read_document=_read_txt, progress=False)
    index = load_index(settings.index_dir)
    assert sorted(index.documents) == ["nda", "nda.md", "nda.txt"]
    assert len(index.clauses) == 3
    (a / "nda.txt").unlink()
    build_index(settings, [b], embedder, read_document=_read_txt, progress=False)
    texts = sorted(c.text for c in load_index(settings.index_dir).clauses)
    assert texts == ["Notices must be in writing.", "This Agreement is governed by Delaware law."]


def test_a_second_build_while_one_runs_is_refused(settings, embedder, contracts):
    import os

    from index_builder.errors import BuildInProgressError
    from index_builder.index.lock import LOCK_NAME

    settings.index_dir.mkdir(parents=True)
    lock = settings.index_dir / LOCK_NAME
    lock.write_text(f"pid {os.getpid()}")  # this process is alive: a build in progress
    with pytest.raises(BuildInProgressError, match="Another build"):
        build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    lock.write_text("pid 999999999")  # no such process: left by a crash, taken over
    build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    assert not lock.exists() and load_index(settings.index_dir).clauses


def test_rebuild_with_nothing_changed_keeps_the_live_version(settings, embedder, contracts):
    from dataclasses import replace

    first = build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    again = build_index(settings, [contracts], embedder, read_document=_read_txt, progress=False)
    assert again.version == first.version and again.clauses == first.clauses
    assert (settings.index_dir / "CURRENT").read_text().strip() == first.version
    retuned = replace(settings, bm25=replace(settings.bm25, k1=0.9))
    changed = build_index(retuned, [contracts], embedder, read_document=_read_txt, progress=False)
    assert changed.version != first.version and changed.embedded == 0
