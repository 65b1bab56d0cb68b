"""Appended versions (format 4): a build that changed a few documents appends them to the live
version instead of rewriting it, and serves exactly what a whole build would, bar BM25's
statistics, which lag until the next whole build."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from index_builder.index.backend import Condition
from index_builder.index.build import build_index
from index_builder.index.embedded import EmbeddedStore
from index_builder.index.lexical import BM25Index
from index_builder.index.store import ALIVE, BM25_TAIL, load_index
from index_builder.model import Clause
from index_builder.settings import BM25Settings, updated

WORDS = ("indemnify liability confidential notice assignment termination payment audit warranty "
         "licence territory exclusivity insurance renewal governing law arbitration supplier "
         "customer fees invoice breach cure remedy").split()


def _read_txt(path: Path, doc_id: str, source_path: str) -> list[Clause]:
    """One clause per paragraph; the document's first line names its type (a facet)."""
    kind, *parts = [p.strip() for p in path.read_text().split("\n\n") if p.strip()]
    return [Clause(f"{doc_id}#{i}", p, doc_id, doc_title=doc_id.upper(), source_path=source_path,
                   section=str(i + 1), metadata={"document_type": kind})
            for i, p in enumerate(parts)]


def _document(rng: np.random.Generator, n: int, kind: str) -> str:
    clauses = [" ".join(rng.choice(WORDS, size=8 + i % 7)).capitalize() + "." for i in range(n)]
    return "\n\n".join([kind, *clauses])


@pytest.fixture
def settings(settings):  # type: ignore[no-untyped-def]
    """A limit these small libraries' changes stay under (the default is 10%)."""
    return updated(settings, {"append_limit": 0.2})


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = tmp_path / "library"
    folder.mkdir()
    rng = np.random.default_rng(5)
    for d in range(60):
        kind = ("nda", "msa", "lease")[d % 3]
        (folder / f"doc{d:02d}.txt").write_text(_document(rng, 5, kind))
    return folder


def _change(library: Path) -> None:
    """Reword one clause of doc03, rewrite doc10 whole, remove doc20, add doc99."""
    doc = library / "doc03.txt"
    parts = doc.read_text().split("\n\n")
    parts[2] = "Supplier shall maintain insurance against cyber breach of customer data."
    doc.write_text("\n\n".join(parts))
    (library / "doc10.txt").write_text(_document(np.random.default_rng(99), 3, "nda"))
    (library / "doc20.txt").unlink()
    (library / "doc99.txt").write_text(_document(np.random.default_rng(98), 4, "lease"))


def _build(settings, embedder, library):  # type: ignore[no-untyped-def]
    return build_index(settings, [library], embedder, read_document=_read_txt, progress=False)


def _open(settings):  # type: ignore[no-untyped-def]
    return EmbeddedStore(settings.index_dir).open()


def test_a_small_change_is_appended_and_serves_what_a_whole_build_serves(
        settings, embedder, library, tmp_path) -> None:
    _build(settings, embedder, library)
    first = load_index(settings.index_dir)
    _change(library)
    embedder.calls.clear()
    report = _build(settings, embedder, library)
    assert sorted(report.parsed) == ["doc03", "doc10", "doc99"] and report.removed == ["doc20"]
    # Only texts no version held were embedded: the reworded clause, doc10's and doc99's.
    assert report.embedded == sum(embedder.calls) == 1 + 3 + 4
    appended = load_index(settings.index_dir)
    assert appended.params["appended"] == {"base": 300, "tail": 5 + 3 + 4, "dead": 15}
    assert (appended.path / ALIVE).is_file() and (appended.path / BM25_TAIL).is_dir()
    # The last full build's BM25 matrix is shared by hard link, not copied.
    matrix = appended.path / "bm25" / "data.csc.index.npy"
    assert matrix.stat().st_ino == (first.path / "bm25" / "data.csc.index.npy").stat().st_ino

    whole_settings = updated(settings, {"index_dir": tmp_path / "whole", "append_limit": 0.0})
    _build(whole_settings, embedder, library)
    assert not (load_index(whole_settings.index_dir).path / ALIVE).exists()
    got, want = _open(settings), _open(whole_settings)
    assert got.stats() == want.stats() == {"clauses": 300 - 15 + 12, "documents": 60}
    ids = sorted(cid for cid, _ in want.dense(np.ones(64, dtype=np.float32), 1000))
    assert sorted(cid for cid, _ in got.dense(np.ones(64, dtype=np.float32), 1000)) == ids
    assert [c.to_dict() for c in got.get(ids)] == [c.to_dict() for c in want.get(ids)]
    assert got.get(["doc20#0"]) == [None]
    for text in ("cyber breach of customer data insurance", "audit warranty renewal notice"):
        vector = embedder.embed([text])[0]
        mine, theirs = got.dense(vector, 10), want.dense(vector, 10)
        assert [s for _, s in mine] == pytest.approx([s for _, s in theirs], rel=1e-6)
        cut = theirs[-1][1] + 1e-6  # equal scores may come in another order (earlier position first)
        assert {c for c, s in mine if s > cut} == {c for c, s in theirs if s > cut}
        # BM25's statistics are the last full build's: scores move a little, near-ties swap.
        mine, theirs = got.lexical([text], 10), want.lexical([text], 10)
        assert [s for _, s in mine] == pytest.approx([s for _, s in theirs], rel=0.1)
        assert len({c for c, _ in mine} & {c for c, _ in theirs}) >= 7
    assert got.lexical(["cyber"], 10)[0][0] == "doc03#1"
    assert not [c for c, _ in got.lexical(["cyber"], 10) if c.startswith("doc20")]
    # Filters, facets and neighbours see the appended clauses and never the dead ones.
    nda = (Condition("document_type", ("nda",)),)
    assert got.stats(nda) == want.stats(nda)
    assert got.facets(["document_type", "doc_id"]) == want.facets(["document_type", "doc_id"])
    assert got.facets(["document_type"], nda) == want.facets(["document_type"], nda)
    assert got.neighbours("doc10#0", 2) == want.neighbours("doc10#0", 2)
    assert got.neighbours("doc03#1", 1) == want.neighbours("doc03#1", 1)


def test_appends_chain_until_the_limit_then_the_index_is_rewritten_whole(
        settings, embedder, library) -> None:
    _build(settings, embedder, library)
    _change(library)
    _build(settings, embedder, library)
    (library / "doc10.txt").write_text(_document(np.random.default_rng(7), 2, "msa"))
    report = _build(settings, embedder, library)
    assert report.parsed == ["doc10"]
    index = load_index(settings.index_dir)
    # The earlier tail is kept (doc10's first appended run now dead), the new run appended.
    assert index.params["appended"] == {"base": 300, "tail": 12 + 2, "dead": 15 + 3}
    backend = _open(settings)
    assert backend.stats() == {"clauses": 300 - 15 + 12 - 3 + 2, "documents": 60}
    assert {cid for cid, _ in backend.lexical(["liability"], 500)
            if cid.startswith("doc10")} <= {"doc10#0", "doc10#1"}
    assert backend.neighbours("doc10#0", 3) == ([], [backend.get(["doc10#1"])[0]])

    tight = updated(settings, {"append_limit": 0.05})  # 32 dead + appended > 15
    (library / "doc11.txt").write_text(_document(np.random.default_rng(8), 2, "msa"))
    _build(tight, embedder, library)
    whole = load_index(settings.index_dir)
    assert "appended" not in whole.params and whole.alive is None
    assert len(whole.clauses) == whole.dense.ntotal == 300 - 15 + 12 - 3 + 2 - 5 + 2


def test_nothing_changed_writes_no_version_and_a_new_setting_rewrites_whole(
        settings, embedder, library) -> None:
    _build(settings, embedder, library)
    _change(library)
    first = _build(settings, embedder, library)
    again = _build(settings, embedder, library)
    assert again.version == first.version and again.parsed == [] and again.embedded == 0
    bigger = updated(settings, {"bm25.k1": 1.5})
    third = _build(bigger, embedder, library)
    index = load_index(settings.index_dir)
    assert third.version != first.version and third.embedded == 0
    assert "appended" not in index.params and index.params["bm25"]["k1"] == 1.5


def _corpora(tmp_path: Path, b_ids: range, text: str) -> Path:
    """BEIR corpora a (ids c0-c199) and b (``b_ids``); ``text`` formats with i and name."""
    corpora = tmp_path / "corpora"
    for name, ids in (("a", range(0, 200)), ("b", b_ids)):
        (corpora / name).mkdir(parents=True)
        rows = [{"_id": f"c{i}", "text": text.format(i=i, name=name)} for i in ids]
        (corpora / name / "corpus.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    return corpora


def test_a_changed_document_reusing_a_kept_clause_id_builds_whole(settings, embedder, tmp_path) -> None:
    corpora = _corpora(tmp_path, range(200, 210), "Clause {i}: the party shall give notice {i}.")
    sources = [corpora / "a", corpora / "b"]
    build_index(settings, sources, embedder, progress=False)
    # Corpus b now also holds c5, which corpus a (unchanged, earlier in order) keeps.
    rows = (corpora / "b" / "corpus.jsonl").read_text() + "\n" + json.dumps(
        {"_id": "c5", "text": "A different clause under a taken id."})
    (corpora / "b" / "corpus.jsonl").write_text(rows)
    report = build_index(settings, sources, embedder, progress=False)
    index = load_index(settings.index_dir)
    assert "appended" not in index.params and report.clauses == 210
    assert _open(settings).get(["c5"])[0].text == "Clause 5: the party shall give notice 5."


def test_a_tail_scores_a_text_as_its_base_scores_the_same_text() -> None:
    settings = BM25Settings()
    base_texts = ["Supplier shall indemnify Customer against third-party claims.",
                  "Either party may terminate on thirty days notice.",
                  "Fees are payable within thirty days of invoice."] * 3
    base = BM25Index.build(base_texts, settings)
    tail = BM25Index.build(["Fees are payable within thirty days of invoice.",
                            "A brand new arbitration clause."], settings, stats=base.stats())
    for query in ("fees payable thirty days", "terminate notice", "arbitration invoice"):
        np.testing.assert_allclose(tail.term_scores(base.tokenizer(query))[0],
                                   base.scores(query)[2], rtol=1e-6)
    assert tail.scores("arbitration")[1] > 0 and tail.scores("arbitration")[0] == 0


def test_settings_refuse_a_limit_outside_zero_to_one(settings) -> None:
    from index_builder.errors import ConfigError

    with pytest.raises(ConfigError, match="PRECEDENT_APPEND_LIMIT"):
        replace(settings, append_limit=1.5)


def test_limit_zero_rewrites_an_appended_version_even_with_nothing_changed(
        settings, embedder, library) -> None:
    _build(settings, embedder, library)
    _change(library)
    appended = _build(settings, embedder, library)
    assert "appended" in load_index(settings.index_dir).params
    whole = _build(updated(settings, {"append_limit": 0.0}), embedder, library)
    index = load_index(settings.index_dir)
    assert whole.version != appended.version and whole.embedded == 0
    assert "appended" not in index.params and index.alive is None
    assert _open(settings).stats() == {"clauses": 297, "documents": 60}


def test_a_clause_dropped_for_its_id_returns_when_the_holder_goes(settings, embedder, tmp_path) -> None:
    corpora = _corpora(tmp_path, range(199, 210), "Clause {i} of {name}: notice {i}.")
    sources = [corpora / "a", corpora / "b"]
    build_index(settings, sources, embedder, progress=False)
    assert _open(settings).get(["c199"])[0].text == "Clause 199 of a: notice 199."
    # a drops c199; b, unchanged, held it too and must now provide it.
    rows = (corpora / "a" / "corpus.jsonl").read_text().splitlines()[:-1]
    (corpora / "a" / "corpus.jsonl").write_text("\n".join(rows))
    report = build_index(settings, sources, embedder, progress=False)
    assert sorted(report.parsed) == ["a", "b"] and report.clauses == 210
    assert _open(settings).get(["c199"])[0].text == "Clause 199 of b: notice 199."


def test_files_with_their_recorded_size_and_time_are_not_hashed_again(
        settings, embedder, library, monkeypatch) -> None:
    import os
    import time

    from index_builder.index import incremental

    past = time.time() - 60
    for path in library.iterdir():
        os.utime(path, (past, past))
    (library / "doc01.txt").write_text((library / "doc01.txt").read_text())  # written just now
    _build(settings, embedder, library)
    hashed: list[str] = []
    real = incremental._file_digest
    monkeypatch.setattr(incremental, "_file_digest", lambda path: hashed.append(path.name) or real(path))
    assert _build(settings, embedder, library).parsed == []
    # Only the file written within two seconds of its hashing is hashed again (it could have
    # changed since without its time showing it).
    assert hashed == ["doc01.txt"]
    hashed.clear()
    _change(library)
    report = _build(settings, embedder, library)
    assert sorted(hashed) == ["doc01.txt", "doc03.txt", "doc10.txt", "doc99.txt"]
    assert sorted(report.parsed) == ["doc03", "doc10", "doc99"]


def test_an_extended_tail_scores_as_a_tail_built_at_once(tmp_path) -> None:
    settings = BM25Settings()
    base = BM25Index.build(["Supplier shall indemnify Customer.", "Fees are payable monthly.",
                            "Either party may terminate on notice."] * 2, settings)
    first = ["Fees are payable within thirty days.", "A new arbitration clause."]
    second = ["Arbitration seated in London.", "Supplier shall indemnify Customer."]
    (tmp_path / "tail").mkdir()
    BM25Index.build(first, settings, stats=base.stats()).save(tmp_path / "tail")
    extended = BM25Index.load(tmp_path / "tail").extend(second, base.stats())
    at_once = BM25Index.build(first + second, settings, stats=base.stats())
    assert extended.size == 4
    for query in ("indemnify customer fees", "payable monthly terminate", "nothing"):
        np.testing.assert_allclose(extended.scores(query), at_once.scores(query), rtol=1e-6)
    # A term the base never saw takes its frequency from the append that brought it, so
    # only where it scores, not how much, is the same until the next whole build.
    for query in ("arbitration London", "thirty days"):
        assert (extended.scores(query) > 0).tolist() == (at_once.scores(query) > 0).tolist()
