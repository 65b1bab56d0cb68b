"""Scale features of the build: vectors stored once, HNSW, resume after a crash, worker processes."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from index_builder.index.backend import Condition
from index_builder.index.build import build_index
from index_builder.index.embedded import EmbeddedStore
from index_builder.index.parallel import CACHE_DIR, CHUNK, EmbeddingCache
from index_builder.index.store import FORMAT_VERSION, load_index
from index_builder.settings import updated

class HashingEmbedder:
    """Bag-of-words vectors, defined here so spawned build workers can import it by name."""

    model_id = "test-hashing"
    dimension = 64

    def __init__(self) -> None:
        self.calls: list[int] = []

    def embed(self, texts, *, show_progress=False):  # type: ignore[no-untyped-def]
        self.calls.append(len(texts))
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                out[row, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dimension] += 1.0
            out[row] /= np.linalg.norm(out[row]) or 1.0
        return out


WORDS = ("indemnify liability confidential notice assignment termination payment audit warranty "
         "licence territory exclusivity insurance renewal governing law arbitration").split()


def _corpus(folder: Path, n: int) -> Path:
    """A BEIR corpus of ``n`` distinct short clauses (deterministic)."""
    folder.mkdir(parents=True)
    rng = np.random.default_rng(7)
    with open(folder / "corpus.jsonl", "w") as out:
        for i in range(n):
            words = " ".join(rng.choice(WORDS, size=6 + i % 9))
            out.write(json.dumps({"_id": f"c{i}", "text": f"Clause {i}: the party shall {words}."}) + "\n")
    return folder


def _with(settings, **embedding):  # type: ignore[no-untyped-def]
    return replace(settings, embedding=replace(settings.embedding, **embedding))


def test_vectors_are_stored_once_and_read_as_a_view(settings, embedder, tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", 40)
    build_index(settings, [corpus], embedder, progress=False)
    index = load_index(settings.index_dir)
    assert not (index.path / "embeddings.npy").exists()
    assert index.params["format_version"] == FORMAT_VERSION and index.params["dense"] == {"kind": "flat"}
    expected = embedder.embed([c.text for c in index.clauses])
    np.testing.assert_allclose(index.embeddings, expected, rtol=1e-6)
    assert not index.embeddings.flags.writeable


def test_hnsw_index_finds_what_exact_search_finds(settings, embedder, tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", 300)
    build_index(settings, [corpus], embedder, progress=False)
    exact = EmbeddedStore(settings.index_dir).open()
    hnsw_settings = _with(updated(settings, {"index_dir": tmp_path / "hnsw"}), dense_index="hnsw",
                          hnsw_m=16, hnsw_ef_search=200)
    build_index(hnsw_settings, [corpus], embedder, progress=False)
    approx = EmbeddedStore(hnsw_settings.index_dir).open()
    assert approx.index.params["dense"]["kind"] == "hnsw" and approx.ef_search == 200
    queries = embedder.embed(["party shall indemnify liability", "audit warranty renewal notice"])
    for query in queries:
        want = [cid for cid, _ in exact.dense(query, 10)]
        got = [cid for cid, _ in approx.dense(query, 10)]
        assert len(set(want) & set(got)) >= 9
    # A narrow filter is searched exactly over the clauses it allows.
    only = (Condition("clause_id", ("c3", "c5")),)
    assert {cid for cid, _ in approx.dense(queries[0], 10, only)} == {"c3", "c5"}
    np.testing.assert_allclose(approx.index.embeddings, exact.index.embeddings, rtol=1e-6)


def test_broad_filters_on_hnsw_hold_under_concurrent_searches(settings, embedder, tmp_path: Path,
                                                             monkeypatch) -> None:
    """The bitmap selector of one thread's filter must never be swapped by another's mid-search."""
    import threading

    from index_builder.index import embedded

    monkeypatch.setattr(embedded, "EXACT_BELOW", 0)  # every filter takes the bitmap path
    corpus = _corpus(tmp_path / "corpus", 300)
    hnsw_settings = _with(settings, dense_index="hnsw", hnsw_m=16, hnsw_ef_search=200)
    build_index(hnsw_settings, [corpus], embedder, progress=False)
    backend = EmbeddedStore(hnsw_settings.index_dir).open()
    query = embedder.embed(["party shall indemnify liability"])[0]
    allowed = {f"c{n}": tuple(f"c{i}" for i in range(n, 300, 3)) for n in range(3)}
    wrong: list[str] = []

    def search(name: str) -> None:
        only = (Condition("clause_id", allowed[name]),)
        for _ in range(60):
            wrong.extend(cid for cid, _ in backend.dense(query, 10, only) if cid not in allowed[name])

    threads = [threading.Thread(target=search, args=(name,)) for name in allowed for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong
    assert not hasattr(backend, "_bits")


def test_changing_ef_search_alone_writes_no_new_version(settings, embedder, tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", 30)
    first = build_index(_with(settings, dense_index="hnsw"), [corpus], embedder, progress=False)
    again = build_index(_with(settings, dense_index="hnsw", hnsw_ef_search=300), [corpus], embedder,
                        progress=False)
    assert again.version == first.version
    exact = build_index(settings, [corpus], embedder, progress=False)
    assert exact.version != first.version and exact.embedded == 0  # vectors reused


class _Crashing(HashingEmbedder):
    """Fails on its third call, as a killed or crashed build would stop mid-way."""

    def embed(self, texts, *, show_progress=False):  # type: ignore[no-untyped-def]
        if len(self.calls) == 2:
            raise KeyboardInterrupt("interrupted")
        return super().embed(texts)


def test_interrupted_build_resumes_without_re_embedding(settings, tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", CHUNK * 3 + 10)
    with pytest.raises(KeyboardInterrupt):
        build_index(settings, [corpus], _Crashing(), progress=False)
    cache = EmbeddingCache(settings.index_dir, "test-hashing", 64)
    assert len(cache.load()) == 2 * CHUNK
    second = HashingEmbedder()
    report = build_index(settings, [corpus], second, progress=False)
    assert sum(second.calls) == CHUNK + 10  # only what the first run had not finished
    assert report.embedded == CHUNK * 3 + 10 and report.clauses == CHUNK * 3 + 10
    assert not (settings.index_dir / CACHE_DIR).exists()  # cleared once the version is written
    index = load_index(settings.index_dir)
    np.testing.assert_allclose(index.embeddings, HashingEmbedder().embed([c.text for c in index.clauses]),
                               rtol=1e-6)


def test_cache_ignores_a_half_written_batch(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path, "m", 4)
    cache.append(["a", "b"], np.ones((2, 4), dtype=np.float32))
    with open(cache.folder / "vectors.f32", "ab") as out:  # crash after vectors, before keys
        out.write(np.zeros((1, 4), dtype=np.float32).tobytes())
    assert sorted(cache.load()) == ["a", "b"]
    cache.append(["c"], np.full((1, 4), 2.0, dtype=np.float32))
    loaded = cache.load()
    assert sorted(loaded) == ["a", "b", "c"] and loaded["c"][0] == 2.0


def test_workers_build_the_same_index(settings, tmp_path: Path) -> None:
    folder = tmp_path / "library"
    folder.mkdir()
    for n in range(6):
        (folder / f"doc{n}.md").write_text(
            f"# Agreement {n}\n\n1. **Payment.** The Customer shall pay within {n + 10} days.\n\n"
            f"2. **Notices.** Notices to party {n} must be in writing and delivered by hand.\n")
    corpus = _corpus(tmp_path / "corpus", CHUNK + 5)  # two chunks: embedding goes to the workers
    one = build_index(settings, [folder, corpus], HashingEmbedder(), progress=False)
    two_settings = _with(updated(settings, {"index_dir": tmp_path / "two"}), workers=2)
    parent = HashingEmbedder()
    two = build_index(two_settings, [folder, corpus], parent, progress=False)
    assert parent.calls == []  # every batch was embedded by a worker's copy
    a, b = load_index(settings.index_dir), load_index(two_settings.index_dir)
    assert one.clauses == two.clauses and sorted(two.parsed) == sorted(one.parsed)
    assert [c.clause_id for c in a.clauses] == [c.clause_id for c in b.clauses]
    np.testing.assert_allclose(a.embeddings, b.embeddings, rtol=1e-6)
