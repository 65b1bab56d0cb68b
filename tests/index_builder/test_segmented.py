"""The segmented layout for large libraries: BM25 postings scored with every segment's
statistics, IVF-PQ with exact re-scoring and filters inside, builds that flush segments,
append changed documents, compact, survive a crash and pick the layout by size."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index_builder.index.backend import Condition
from index_builder.index.build import build_index
from index_builder.index.clausedb import PackedClauseTable, write_packed_clause_db
from index_builder.index.embedded import EmbeddedStore
from index_builder.index.ivf import CompressedDense, Part, encode, lists_for, train
from index_builder.index.lexical import BM25Index
from index_builder.index.postings import SegmentedBM25, write_postings
from index_builder.index.segmented import SegmentedBackend
from index_builder.index.segmented_build import SegmentSettings
from index_builder.index.segments import SEGMENTS, unpublished
from index_builder.index.versions import resolve_version
from index_builder.model import Clause
from index_builder.settings import BM25Settings, updated

WORDS = ("indemnify liability confidential notice assignment termination payment audit warranty "
         "licence territory exclusivity insurance renewal governing law arbitration supplier "
         "customer fees days written consent breach cure").split()


def _texts(n: int, seed: int = 3) -> list[str]:
    rng = np.random.default_rng(seed)
    return [f"Clause {i}: the party shall " + " ".join(rng.choice(WORDS, size=5 + i % 11)) + "."
            for i in range(n)]


def _unit(n: int, d: int = 64, seed: int = 5, clusters: int = 40) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((clusters, d))
    x = centres[rng.integers(0, clusters, n)] + 0.6 * rng.standard_normal((n, d))
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


# -- BM25 over segments --------------------------------------------------------------------
def test_one_segment_scores_as_the_whole_index_and_two_segments_as_one(tmp_path: Path) -> None:
    texts = _texts(600)
    settings = BM25Settings()
    whole = BM25Index.build(texts, settings)
    write_postings(tmp_path / "one", texts, settings)
    write_postings(tmp_path / "a", texts[:250], settings)
    write_postings(tmp_path / "b", texts[250:], settings)
    one = SegmentedBM25([tmp_path / "one"])
    two = SegmentedBM25([tmp_path / "a", tmp_path / "b"])
    for query in ("indemnify the customer for breach", "written consent of the supplier fees",
                  "liability liability cap", "nothing matches zebra"):
        expected = whole.scores(query)
        np.testing.assert_allclose(one.scores(query), expected, rtol=1e-5, atol=1e-6)
        # Statistics are the version's, not each segment's: a split changes no score.
        np.testing.assert_allclose(two.scores(query), expected, rtol=1e-5, atol=1e-6)
        top = two.top([query], 10)
        order = np.lexsort((np.arange(len(expected)), -expected))
        want = [int(p) for p in order[:10] if expected[p] > 0]
        assert [p for p, _ in top] == want


@pytest.mark.parametrize("compiled", [False, True], ids=["numpy", "numba"])
def test_pruned_top_k_is_the_exact_top_k(tmp_path: Path, compiled: bool) -> None:
    """MaxScore skips reading the frequent terms' postings whole; the top k must not change,
    ties (verbatim repeats) included, on the numpy path and the compiled one alike."""
    if compiled:
        pytest.importorskip("numba")
    texts = _texts(2000) + _texts(40)  # the first 40 texts twice: equal scores
    write_postings(tmp_path / "a", texts[:900], BM25Settings())
    write_postings(tmp_path / "b", texts[900:], BM25Settings())
    bm25 = SegmentedBM25([tmp_path / "a", tmp_path / "b"], compiled=compiled)
    mask = np.random.default_rng(2).random(len(texts)) < 0.3
    for query in texts[:30] + ["fees days", "the party shall indemnify"]:
        expected = bm25.scores(query)
        for allowed in (None, mask):
            scored = expected if allowed is None else np.where(allowed, expected, 0)
            order = np.lexsort((np.arange(len(scored)), -scored))
            want = [int(p) for p in order[:10] if scored[p] > 0]
            got = bm25.top([query], 10, allowed)
            assert [p for p, _ in got] == want
            np.testing.assert_allclose([x for _, x in got], scored[want], rtol=1e-5)


def test_numpy_and_numba_paths_return_the_same_top_k_as_exhaustive_scoring(tmp_path: Path) -> None:
    """The compiled loop is a speed-up only: over three unequal segments, every k from one to
    past the matches, masks from none to a handful of positions, several texts at once and
    repeated terms, it returns the numpy path's positions and scores exactly, and both are the
    exhaustive ranking of every position's score (ties to the earlier position), which are the
    whole index's scores."""
    pytest.importorskip("numba")
    texts = _texts(1500, seed=11) + _texts(30, seed=11) + ["liability liability liability cap"]
    bounds = (0, 200, 1100, len(texts))
    folders = [tmp_path / f"s{n}" for n in range(3)]
    for folder, start, stop in zip(folders, bounds, bounds[1:]):
        write_postings(folder, texts[start:stop], BM25Settings())
    numpy_path = SegmentedBM25(folders, compiled=False)
    numba_path = SegmentedBM25(folders, compiled=True)
    whole = BM25Index.build(texts, BM25Settings())
    rng = np.random.default_rng(4)
    narrow = np.zeros(len(texts), dtype=bool)
    narrow[rng.choice(len(texts), 5, replace=False)] = True
    masks = (None, rng.random(len(texts)) < 0.5, rng.random(len(texts)) < 0.02, narrow,
             np.zeros(len(texts), dtype=bool))
    queries = [[t] for t in texts[:12]] + [["liability liability cap"], ["fees days", "audit"],
                                          ["the party shall"], ["zebra"]]
    for query in queries:
        # Several texts score as the sum of their scores; the version's scores are the whole
        # index's (to float rounding, which decides near-ties: the exact order checked is that of
        # the version's own scores, for one text).
        exhaustive = sum(numpy_path.scores(t) for t in query)
        np.testing.assert_allclose(exhaustive, sum(whole.scores(t) for t in query), rtol=1e-5,
                                   atol=1e-6)
        for mask in masks:
            scored = exhaustive if mask is None else np.where(mask, exhaustive, 0)
            order = np.lexsort((np.arange(len(scored)), -scored))
            for k in (1, 10, 100, 2000):
                fast = numba_path.top(query, k, mask)
                assert fast == numpy_path.top(query, k, mask)
                want = [int(p) for p in order[:k] if scored[p] > 0]
                got = [p for p, _ in fast]
                np.testing.assert_allclose([x for _, x in fast], scored[got], rtol=1e-5)
                if len(query) == 1:
                    assert got == want
                else:  # summed in another order: the same top k up to rounding at the cut
                    assert len(got) == len(want)
                    assert not want or min(scored[got]) >= scored[want[-1]] - 1e-5


def test_bm25_mask_applies_before_the_cut(tmp_path: Path) -> None:
    texts = _texts(400) + ["Payment of the fees is due in thirty days."]
    write_postings(tmp_path / "s", texts, BM25Settings())
    bm25 = SegmentedBM25([tmp_path / "s"])
    mask = np.zeros(len(texts), dtype=bool)
    mask[-1] = True
    assert [p for p, _ in bm25.top(["payment fees days"], 5, mask)] == [len(texts) - 1]
    assert bm25.top(["payment fees"], 5, np.zeros(len(texts), dtype=bool)) == []


# -- IVF-PQ with exact re-scoring ----------------------------------------------------------
def _dense(tmp_path: Path, vectors: np.ndarray, split: int, nprobe: int, refine: int
           ) -> CompressedDense:
    codebook = train(vectors, 32)
    import faiss

    faiss.write_index(codebook, str(tmp_path / "book.faiss"))
    parts = []
    for number, (start, stop) in enumerate(((0, split), (split, len(vectors)))):
        faiss.write_index(encode(codebook, vectors[start:stop]), str(tmp_path / f"{number}.ivf"))
        np.save(tmp_path / f"{number}.npy", vectors[start:stop])
        parts.append(Part(tmp_path / f"{number}.ivf", tmp_path / f"{number}.npy", start, stop - start))
    return CompressedDense(tmp_path / "book.faiss", parts, nprobe, refine)


def test_ivfpq_rescored_finds_what_exact_search_finds(tmp_path: Path) -> None:
    vectors = _unit(3000)
    dense = _dense(tmp_path, vectors, 1800, nprobe=8, refine=100)
    rng = np.random.default_rng(9)  # queries near the library's clauses, as real ones are
    queries = vectors[rng.choice(3000, 40)] + 0.3 * rng.standard_normal((40, 64)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    hits = 0
    for query in queries:
        scores, positions = dense.search(query, 10)
        exact = np.argsort(-(vectors @ query))[:10]
        hits += len(set(positions[0]) & set(exact))
        # Returned scores are exact inner products, best first.
        np.testing.assert_allclose(scores[0], vectors[positions[0]] @ query, rtol=1e-5)
        assert list(scores[0]) == sorted(scores[0], reverse=True)
    assert hits / (10 * len(queries)) >= 0.9


def test_a_narrow_filter_is_searched_exhaustively_and_exactly(tmp_path: Path) -> None:
    vectors = _unit(3000)
    dense = _dense(tmp_path, vectors, 1000, nprobe=1, refine=64)
    mask = np.zeros(len(vectors), dtype=bool)
    allowed = np.random.default_rng(1).choice(len(vectors), 50, replace=False)
    mask[allowed] = True
    query = _unit(1, seed=11)[0]
    _, positions = dense.search(query, 10, mask)
    exact = allowed[np.argsort(-(vectors[allowed] @ query))[:10]]
    assert list(positions[0]) == list(exact)  # 50 allowed <= refine: every one re-scored
    assert set(dense.search(query, 10, np.zeros(len(vectors), bool))[1].ravel()) <= {-1}


def test_lists_grow_with_the_library() -> None:
    assert lists_for(1_000) == 64 and lists_for(1_000_000) == 2048
    assert lists_for(10_000_000) == 8192


# -- packed clause rows --------------------------------------------------------------------
def test_packed_rows_read_back_as_written(tmp_path: Path) -> None:
    clauses = [Clause(f"d#{i}", text, "d", doc_title="D", section=str(i),
                      metadata={"type": "msa", "access_groups": "a,b"})
               for i, text in enumerate(_texts(120))]
    write_packed_clause_db(tmp_path / "c.sqlite", clauses)
    table = PackedClauseTable(tmp_path / "c.sqlite")
    assert table.by_ids(["d#7", "missing"]) == [clauses[7], None]
    assert table.at([3, 0]) == [clauses[3], clauses[0]] and list(table) == clauses
    import sqlite3

    (packed,) = sqlite3.connect(tmp_path / "c.sqlite").execute(
        "SELECT sum(length(data)) FROM clauses").fetchone()
    assert packed < 0.5 * sum(len(json.dumps(c.to_dict())) for c in clauses)


# -- builds --------------------------------------------------------------------------------
def _library(folder: Path, docs: dict[str, int], edition: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for doc, count in docs.items():
        (folder / f"{doc}.txt").write_text(f"{doc} {count} {edition}")
    return folder


def _reader(texts: dict[str, list[str]]) -> Any:
    def read(path: Path, doc_id: str, source_path: str) -> list[Clause]:
        access = "everyone" if doc_id != "d3" else "matter-x"
        return [Clause(f"{doc_id}#{i}", t, doc_id, doc_title=doc_id.upper(), section=str(i),
                       metadata={"type": "nda" if doc_id == "d1" else "msa",
                                 "access_groups": access})
                for i, t in enumerate(texts[Path(path).stem])]
    return read


def _store(settings: Any, segment: int = 150) -> EmbeddedStore:
    return EmbeddedStore(settings.index_dir, settings.bm25, dense="ivfpq",
                         segments=SegmentSettings(segment_clauses=segment))


def _docs(n_docs: int = 8, per_doc: int = 60) -> dict[str, list[str]]:
    texts = _texts(n_docs * per_doc)
    return {f"d{i}": texts[i * per_doc:(i + 1) * per_doc] for i in range(n_docs)}


def test_a_build_flushes_segments_and_searches_them_as_one(settings, embedder, tmp_path: Path) -> None:
    texts = _docs()
    store = _store(settings)
    report = build_index(settings, [_library(tmp_path / "lib", {d: 1 for d in texts})], embedder,
                         read_document=_reader(texts), progress=False, store=store)
    backend = store.open()
    assert isinstance(backend, SegmentedBackend) and report.clauses == 480
    assert [s["size"] for s in backend.params["segments"]] == [180, 180, 120]
    assert backend.stats() == {"clauses": 480, "documents": 8}
    query = "indemnify the customer for breach of confidential notice"
    dense = backend.dense(embedder.embed([query]), 10)
    vectors = embedder.embed([t for d in texts.values() for t in d])
    exact = np.argsort(-(vectors @ embedder.embed([query])[0]), kind="stable")[:10]
    ids = [f"d{p // 60}#{p % 60}" for p in exact]
    assert len(set(c for c, _ in dense) & set(ids)) >= 9
    # Filters and walls: inside both searches, across segments.
    walled = (Condition("access_groups", ("matter-x",)),)
    assert {c.split("#")[0] for c, _ in backend.dense(embedder.embed([query]), 10, walled)} == {"d3"}
    assert {c.split("#")[0] for c, _ in backend.lexical([query], 10, walled)} == {"d3"}
    assert backend.facets(["type"]) == {"type": {"msa": 7, "nda": 1}}
    assert backend.get(["d7#59"])[0].text == texts["d7"][59]
    before, after = backend.neighbours("d3#0", 2)
    assert before == [] and [c.clause_id for c in after] == ["d3#1", "d3#2"]


def test_an_incremental_build_appends_a_segment_and_retires_the_old_clauses(
        settings, embedder, tmp_path: Path) -> None:
    texts = _docs()
    lib = _library(tmp_path / "lib", {d: 1 for d in texts})
    store = _store(settings)
    build_index(settings, [lib], embedder, read_document=_reader(texts), progress=False, store=store)
    old = store.open()
    texts["d2"] = texts["d2"][:59] + ["Notices may be sent by email to the supplier."]
    _library(lib, {"d2": 1}, edition="second")
    embedder.calls.clear()
    report = build_index(settings, [lib], embedder, read_document=_reader(texts), progress=False,
                         store=store)
    assert sum(embedder.calls) == 1 and report.embedded == 1  # one new text embedded
    backend = store.open()
    sizes = [s["size"] for s in backend.params["segments"]]
    assert sizes == [180, 180, 120, 60]  # unchanged segments kept, d2 appended
    assert backend.stats()["clauses"] == 480
    assert backend.get(["d2#59"])[0].text.startswith("Notices may")
    assert old.get(["d2#59"])[0].text == _docs()["d2"][59]  # the old version still reads
    assert backend.lexical(["notices email"], 3)[0][0] == "d2#59"
    assert backend.positions(["d2#0"])[0] >= 480  # the new copy, not the retired one


def test_mostly_dead_and_many_small_segments_are_compacted(settings, embedder, tmp_path: Path) -> None:
    texts = _docs()
    lib = _library(tmp_path / "lib", {d: 1 for d in texts})
    store = _store(settings, segment=300)  # a 60-clause segment is small (< 75)
    build_index(settings, [lib], embedder, read_document=_reader(texts), progress=False, store=store)
    for edition, doc in enumerate(["d0", "d1", "d2", "d4", "d5", "d6"], 1):
        texts[doc] = texts[doc][:-1] + [f"Edition {edition} of clause sixty."]
        _library(lib, {doc: 1}, edition=str(edition))
        build_index(settings, [lib], embedder, read_document=_reader(texts), progress=False,
                    store=store)
    backend = store.open()
    sizes = [s["size"] for s in backend.params["segments"]]
    alive = backend.table.alive if backend.table.alive is not None else np.ones(480, bool)
    starts = backend.table.starts
    shares = [alive[a:b].mean() for a, b in zip(starts[:-1], starts[1:])]
    assert min(shares) >= 0.5 and sum(1 for n in sizes if n < 75) <= 5  # bounded
    assert backend.stats()["clauses"] == 480
    assert backend.get(["d6#59"])[0].text == "Edition 6 of clause sixty."
    assert sorted(c for c, _ in backend.lexical(["edition clause sixty"], 10)) == sorted(
        f"{d}#59" for d in ["d0", "d1", "d2", "d4", "d5", "d6"])
    # Old versions' segments are pruned once no version names them.
    named = {s["name"] for s in backend.params["segments"]}
    on_disk = {p.name for p in (settings.index_dir / SEGMENTS).iterdir()}
    previous = json.loads((resolve_version(settings.index_dir).parent / _previous(settings)
                           / "params.json").read_text())
    assert on_disk == named | {s["name"] for s in previous["segments"]}


def _previous(settings: Any) -> str:
    live = resolve_version(settings.index_dir).name
    return next(p.name for p in settings.index_dir.glob("v-*") if p.name != live)


class _Failing:
    """An embedder that fails after ``after`` calls, as a killed build stops mid-way."""

    model_id = "test-hashing"
    dimension = 64

    def __init__(self, inner: Any, after: int) -> None:
        self.inner, self.after, self.calls = inner, after, 0

    def embed(self, texts, *, show_progress=False):  # type: ignore[no-untyped-def]
        self.calls += 1
        if self.calls > self.after:
            raise KeyboardInterrupt("killed")
        return self.inner.embed(texts)


def test_a_build_killed_mid_way_leaves_the_live_version_and_resumes(settings, embedder,
                                                                    tmp_path: Path) -> None:
    texts = _docs(n_docs=9)
    lib = _library(tmp_path / "lib", {d: 1 for d in list(texts)[:2]})
    store = _store(settings)
    first = build_index(settings, [lib], embedder, read_document=_reader(texts), progress=False,
                        store=store)
    _library(lib, {d: 1 for d in texts})
    with pytest.raises(KeyboardInterrupt):  # killed after two segments were written
        build_index(settings, [lib], _Failing(embedder, after=2), read_document=_reader(texts),
                    progress=False, store=store)
    assert store.live_version() == first.version and store.open().stats()["clauses"] == 120
    assert len(unpublished(settings.index_dir)) == 2
    embedder.calls.clear()
    report = build_index(settings, [lib], embedder, read_document=_reader(texts), progress=False,
                         store=store)
    assert store.open().stats()["clauses"] == 540
    assert sum(embedder.calls) == 60  # only what the killed build had not written
    assert report.embedded == sum(embedder.calls) and unpublished(settings.index_dir) == []


def test_auto_chooses_the_layout_by_size(settings, embedder, tmp_path: Path) -> None:
    texts = _docs()
    lib = _library(tmp_path / "lib", {d: 1 for d in list(texts)[:3]})
    store = EmbeddedStore(settings.index_dir, settings.bm25, dense="auto", compressed_above=300,
                          segments=SegmentSettings(segment_clauses=150))
    small = replace(settings, embedding=replace(settings.embedding, dense_index="auto",
                                                compressed_above=300))
    build_index(small, [lib], embedder, read_document=_reader(texts), progress=False, store=store)
    whole = store.open()
    assert not isinstance(whole, SegmentedBackend) and whole.index.params["dense"] == {"kind": "flat"}
    again = build_index(small, [lib], embedder, read_document=_reader(texts), progress=False,
                        store=store)
    assert again.version == store.live_version()  # unchanged: no new version
    _library(lib, {d: 1 for d in texts})  # grows past the threshold
    embedder.calls.clear()
    build_index(small, [lib], embedder, read_document=_reader(texts), progress=False, store=store)
    grown = store.open()
    assert isinstance(grown, SegmentedBackend) and grown.stats()["clauses"] == 480
    assert sum(embedder.calls) == 300  # the carried 180 clauses moved, not re-embedded
    assert grown.get(["d0#0"])[0].text == texts["d0"][0]


def test_settings_choose_the_store(settings) -> None:
    from index_builder.index import open_store

    store = open_store(updated(settings, {"embedding.dense_index": "ivfpq",
                                          "embedding.ivf_nprobe": 7, "embedding.segment_clauses": 9}))
    assert isinstance(store, EmbeddedStore) and store.dense == "ivfpq"
    assert store.segments.nprobe == 7 and store.segments.segment_clauses == 9


def test_a_larger_library_re_scores_more_candidates_than_the_setting(tmp_path: Path, monkeypatch) -> None:
    # The setting is a floor; a library re-scores one candidate per CLAUSES_PER_RESCORED clauses
    # (at 11.5M, 1024 candidates lost neighbours: recall@10 0.850; ~8,200 gave 0.973).
    import index_builder.index.ivf as ivf

    monkeypatch.setattr(ivf, "CLAUSES_PER_RESCORED", 100)
    vectors = _unit(3000)
    assert _dense(tmp_path, vectors, 1800, nprobe=8, refine=10).refine == 30
    assert _dense(tmp_path, vectors, 1800, nprobe=8, refine=64).refine == 64
