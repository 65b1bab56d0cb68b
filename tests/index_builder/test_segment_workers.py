"""A segmented build over worker processes (index/segment_workers.py): the same version as a
serial build, a checkpoint version per finished segment, and a stopped build that resumes
where it was without reading or counting a segment twice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index_builder.index import segment_workers, segmented_build
from index_builder.index.backend import text_key
from index_builder.index.build import build_index
from index_builder.index.embedded import EmbeddedStore
from index_builder.index.segment_files import remove_unnamed
from index_builder.index.segmented_build import SegmentedLive, SegmentSettings
from index_builder.index.segments import SegmentFiles, publish, unpublished, write_segment
from index_builder.index.versions import resolve_version
from index_builder.model import Clause
from index_builder.settings import updated
from precedent_bench.drafting.drafting_set import HashingEmbedder


class CountingEmbedder(HashingEmbedder):
    """conftest's hashing embedder, defined where a spawned worker can unpickle it: in a full
    run every test folder's conftest.py is imported as "conftest" in turn, so conftest's class
    cannot be found by that name and the build would quietly stay in one process."""

    model_id = "test-hashing"

    def __init__(self) -> None:
        self.calls: list[int] = []

    def embed(self, texts: Any, *, show_progress: bool = False) -> np.ndarray:
        self.calls.append(len(texts))
        return super().embed(texts, show_progress=show_progress)


@pytest.fixture
def embedder() -> CountingEmbedder:
    return CountingEmbedder()

WORDS = ("indemnify liability confidential notice assignment termination payment audit warranty "
         "licence territory exclusivity insurance renewal arbitration supplier customer fees "
         "breach cure").split()


def _library(folder: Path, docs: int, per_doc: int = 12, changed: str = "") -> Path:
    """Plain-text contracts read by the builder's own reader (numbered paragraphs)."""
    rng = np.random.default_rng(7)
    folder.mkdir(parents=True, exist_ok=True)
    for d in range(docs):
        paragraphs = [f"{i}. The party shall " + " ".join(rng.choice(WORDS, size=4 + (d + i) % 9))
                      + f" within {d + i} days." for i in range(1, per_doc + 1)]
        if changed and d == 1:
            paragraphs[0] = f"1. {changed}"
        (folder / f"doc{d:02d}.txt").write_text("\n\n".join(paragraphs))
    return folder


def _store(settings: Any, segment: int = 50) -> EmbeddedStore:
    return EmbeddedStore(settings.index_dir, settings.bm25, dense="ivfpq",
                         segments=SegmentSettings(segment_clauses=segment))


def _served(store: EmbeddedStore) -> dict[str, tuple[str, tuple[tuple[str, str], ...]]]:
    """Every live clause: id -> (text, metadata), read back from the served version."""
    backend = store.open()
    documents = json.loads((resolve_version(store.root) / "documents.json").read_text())
    ids = [f"{d}#{i}" for d in sorted(documents)
           for i in range(1, int(documents[d]["clauses"]) + 1)]
    return {c.clause_id: (c.text, tuple(sorted(c.metadata.items()))) for c in backend.get(ids)}


def _serial(settings: Any, embedder: Any, lib: Path, tmp_path: Path) -> dict[str, Any]:
    one = updated(settings, {"index_dir": tmp_path / "serial"})
    store = _store(one)
    build_index(one, [lib], embedder, progress=False, store=store)
    return _served(store)


def test_workers_write_the_segments_a_serial_build_would_and_publish_each(
        settings, embedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lib = _library(tmp_path / "lib", docs=20)
    published: list[int] = []
    add = segment_workers.Checkpoints.add
    monkeypatch.setattr(segment_workers.Checkpoints, "add",
                        lambda self, result, shards: published.append(result.size)
                        or add(self, result, shards))
    two = updated(settings, {"embedding.workers": 2})
    store = _store(two)
    report = build_index(two, [lib], embedder, progress=False, store=store)
    # 20 documents of 12 clauses, whole documents up to at least 50 clauses a segment, as the
    # serial build cuts them: 4 segments, each published as a checkpoint as it finished (the
    # first built here, training the quantiser, the rest in the workers).
    assert published == [60] * 4
    backend = store.open()
    assert [s["size"] for s in backend.params["segments"]] == [60] * 4
    assert "checkpoint" not in backend.params and backend.stats()["clauses"] == 240
    assert report.clauses == 240 and report.embedded == 240 and len(report.parsed) == 20
    assert report.reused == [] and unpublished(settings.index_dir) == []
    assert _served(store) == _serial(settings, embedder, lib, tmp_path)
    query = embedder.embed(["indemnify the customer for breach within 7 days"])
    assert backend.dense(query, 5) and backend.lexical(["indemnify breach"], 5)


class _Stop(Exception):
    pass


def test_a_stopped_sharded_build_resumes_where_it_was(settings, embedder, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    lib = _library(tmp_path / "lib", docs=8)
    two = updated(settings, {"embedding.workers": 2})
    store = _store(two)
    build_index(settings, [lib], embedder, progress=False, store=store)  # serial: 96 clauses
    _library(lib, docs=24, changed="The supplier may assign this agreement.")
    add = segment_workers.Checkpoints.add
    calls: list[int] = []

    def stop_after_two(self: Any, result: Any, shards: int) -> Any:
        if len(calls) == 2:  # stopped (kill, full disk) after two checkpoints
            raise _Stop()
        calls.append(result.number)
        return add(self, result, shards)

    monkeypatch.setattr(segment_workers.Checkpoints, "add", stop_after_two)
    with pytest.raises(_Stop):
        build_index(two, [lib], embedder, progress=False, store=store)
    checkpoint = store.open()
    assert checkpoint.params["checkpoint"]["segments_published"] == 2
    # doc01 changed: its new clauses are served, its old ones retired; documents not read yet
    # are served as before; nothing twice.
    served = _served(store)
    assert served["doc01#1"][0] == "1. The supplier may assign this agreement."
    assert checkpoint.stats()["clauses"] == len(served) == 96 + 2 * 60 - 12
    monkeypatch.setattr(segment_workers.Checkpoints, "add", add)
    (store.root / "segments" / ".staging-s-killed").mkdir()  # a worker killed mid-segment
    embedder.calls.clear()
    report = build_index(two, [lib], embedder, progress=False, store=store)
    # The rest only: of 24 documents, 7 carried from the first build, 5 + 5 (doc01, doc08 to
    # doc16) from the checkpoints.
    assert sorted(report.parsed) == [f"doc{d}" for d in range(17, 24)]
    assert len(report.reused) == 17
    # At most their texts embedded: those of a segment a worker finished after the stop, never
    # published, are reused from it (then it is pruned).
    assert report.embedded <= 7 * 12
    final = store.open()
    assert "checkpoint" not in final.params and final.stats()["clauses"] == 24 * 12
    assert _served(store) == _serial(settings, embedder, lib, tmp_path)
    assert unpublished(settings.index_dir) == []
    assert not any(p.name.startswith(".") for p in (store.root / "segments").iterdir())


def test_new_facet_rules_are_applied_in_shards_and_a_stopped_reread_resumes(
        settings, embedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """New facet rules re-read every document; a build stopped part way records the new rules
    in its checkpoint, so the documents it had not reached must still be read again."""
    from index_builder.ingest import metadata

    lib = _library(tmp_path / "lib", docs=16)
    two = updated(settings, {"embedding.workers": 2})
    store = _store(two)
    monkeypatch.setattr(metadata, "VERSION", "facets-old")
    build_index(settings, [lib], embedder, progress=False, store=store)  # serial, old rules
    monkeypatch.undo()
    old_segments = [s["name"] for s in store.open().params["segments"]]
    add = segment_workers.Checkpoints.add
    calls: list[int] = []

    def stop_after_one(self: Any, result: Any, shards: int) -> Any:
        if calls:
            raise _Stop()
        calls.append(result.number)
        return add(self, result, shards)

    monkeypatch.setattr(segment_workers.Checkpoints, "add", stop_after_one)
    with pytest.raises(_Stop):
        build_index(two, [lib], embedder, progress=False, store=store)
    documents = json.loads((resolve_version(store.root) / "documents.json").read_text())
    assert store.open().params["facets"] == metadata.VERSION
    assert sorted(d for d, info in documents.items() if not info.get("reread")) == \
        [f"doc{d:02d}" for d in range(5)]  # the first shard: read with the new rules
    named = [s["name"] for s in store.open().params["segments"]]
    assert old_segments[0] not in named and old_segments[1] in named  # dead whole: dropped
    still_there: list[bool] = []

    def watch(self: Any, result: Any, shards: int) -> Any:
        version = add(self, result, shards)
        still_there.append((store.root / "segments" / old_segments[0]).exists())
        return version

    monkeypatch.setattr(segment_workers.Checkpoints, "add", watch)
    report = build_index(two, [lib], embedder, progress=False, store=store)
    # Once no kept version names it (the next checkpoint), the replaced segment is removed
    # then, not at the end of the build.
    assert still_there and not any(still_there)
    assert sorted(report.parsed) == [f"doc{d:02d}" for d in range(5, 16)]
    final = store.open()
    documents = json.loads((resolve_version(store.root) / "documents.json").read_text())
    assert not any(info.get("reread") for info in documents.values())
    assert "checkpoint" not in final.params and final.stats()["clauses"] == 16 * 12
    assert _served(store) == _serial(settings, embedder, lib, tmp_path)


def test_a_replaced_segment_removed_as_a_worker_lists_unpublished_ones_is_skipped(
        settings, embedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The interleaving that once failed the resumed re-read above under load, driven step by
    step. A worker looking up vectors (SegmentedLive, the version live when it started a shard)
    lists the segments no version names; the build publishes checkpoints as it does and
    removes, once no kept version names it, a segment it replaced. Listed just after the
    checkpoint that pruned the last version naming it, and removed just before the worker
    read it, the replaced segment looked like a crashed build's and its missing segment.json
    failed the build as a damaged index. It is skipped; a crashed build's is still reused."""
    store = _store(settings)
    build_index(settings, [_library(tmp_path / "lib", docs=8)], embedder, progress=False,
                store=store)  # 96 clauses: segments of 60 (replaced below) and 36
    root = store.root
    params = json.loads((resolve_version(root) / "params.json").read_text())
    (replaced, _), (kept, size) = [(s["name"], s["size"]) for s in params["segments"]]
    texts = {name: SegmentFiles(root / "segments" / name).table.at([0])[0].text
             for name in (replaced, kept)}
    # A segment a stopped build finished and never published (its vectors are reused).
    crashed_text = "The customer shall pay the supplier's fees within 30 days of invoice."
    crashed = write_segment(root, [Clause("new#1", crashed_text, "new")],
                            embedder.embed([crashed_text]), settings.bm25,
                            params["dense"]["codebook"], embedder.model_id)

    def checkpoint() -> None:  # the replaced segment's documents read anew: not named
        publish(root, params, [(kept, size)], np.ones(size, dtype=bool), {},
                prune_segments=False)

    checkpoint()  # the version a worker opens: the build's first checkpoint
    worker = SegmentedLive(root, resolve_version(root))
    listing = unpublished

    def listed_as_the_build_publishes(at: Path) -> list[str]:
        checkpoint()  # the next checkpoint prunes the first version, the last to name it
        names = listing(at)
        assert replaced in names and crashed in names
        assert remove_unnamed(root, {replaced, kept}) == [replaced]  # as Checkpoints.add
        return names

    monkeypatch.setattr(segmented_build, "unpublished", listed_as_the_build_publishes)
    vectors = worker.previous(embedder.model_id).vectors
    assert text_key(texts[kept]) in vectors and text_key(crashed_text) in vectors
    assert text_key(texts[replaced]) not in vectors
    assert np.allclose(vectors[text_key(crashed_text)], embedder.embed([crashed_text])[0])
    worker.close()
