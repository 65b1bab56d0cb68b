"""What the build's cheaper per-clause paths must keep: the same rows, terms and fields.

Each shortcut (issue 39, build cost toward 10M clauses) is checked against what it replaced
on real clause texts (ACORD) and on texts written to hit the edge of each rule.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from index_builder.index.clausedb import (Packer, PackedClauseTable, unpack,
                                          write_packed_clause_db, zdict_for)
from index_builder.index.lexical import _TOKEN, Tokenizer
from index_builder.ingest import metadata as md
from index_builder.reading import blanks, dates, jurisdictions
from index_builder.model import Clause
from index_builder.settings import BM25Settings

EDGES = [
    "This Agreement shall be governed by the laws of the State of New York.",
    "New York law governs this Agreement.",
    "Governed By the Laws of Delaware", "the [Effective Date] is TBD", "Price: ____ or xx",
    "Fee: $[\u2022] per month {to be agreed} <insert>", "see Exhibit A....... page 4",
    "For Example, the Buyer may pay E.G. by wire; for instance by cheque.",
    "effective as of January 5, 2021 by and between Acme Corp., a Delaware corporation, "
    "and Beta LLC (\"Supplier\").", "dated 2021-03-04", "made on 5th day of March, 2020",
    "rock'n'roll party's 'quoted' it''s caf\u00e9 na\u00efve \u2019s", "", "'", "Tbd XX Xx tbd.",
]


@pytest.fixture(scope="module")
def texts(acord_dir: Path) -> list[str]:
    with open(acord_dir / "corpus.jsonl", encoding="utf-8") as lines:
        corpus = [json.loads(line)["text"] for _, line in zip(range(1500), lines)]
    return corpus + EDGES


def _clause(i: int, text: str) -> Clause:
    return Clause(f"doc-{i // 7}/{i}", text, f"doc-{i // 7}", "Master Services Agreement",
                  f"lib/doc-{i // 7}.docx", f"{i}.1", "Indemnity", i, i + 1,
                  {"parties": "Acme; Beta", "access_groups": "*", "governing_law": "New York"})


def test_to_dict_is_asdict(texts: list[str]) -> None:
    for i, text in enumerate(texts[:50] + EDGES):
        clause = _clause(i, text)
        assert json.dumps(clause.to_dict()) == json.dumps(dataclasses.asdict(clause))
        assert Clause.from_dict(clause.to_dict()) == clause


def test_packed_rows_inflate_to_the_clauses(tmp_path: Path, texts: list[str]) -> None:
    clauses = [_clause(i, t) for i, t in enumerate(texts[:300])]
    zdict = zdict_for(clauses)
    packer = Packer(zdict)
    rows = [json.dumps(c.to_dict(), ensure_ascii=False) for c in clauses]
    packed = [packer(row) for row in rows]
    assert [unpack(p, zdict) for p in packed] == rows
    assert packed == [packer(row) for row in rows]  # each row alone: order does not matter
    assert sum(map(len, packed)) < 0.5 * sum(len(r.encode()) for r in rows)
    write_packed_clause_db(tmp_path / "clauses.sqlite", clauses)
    table = PackedClauseTable(tmp_path / "clauses.sqlite")
    assert list(table) == clauses
    table.close()


def test_tokenizer_terms_are_the_comprehensions(texts: list[str]) -> None:
    for settings in (BM25Settings(), BM25Settings(stemmer="", stopwords="", bigrams=False)):
        tokenizer = Tokenizer(settings)
        for text in texts:
            words = [w for w in _TOKEN.findall(text.lower()) if w not in tokenizer._stopwords]
            terms = tokenizer._stem(words) if tokenizer._stem else words
            if settings.bigrams:
                terms = terms + [f"{a}_{b}" for a, b in zip(terms, terms[1:])]
            assert tokenizer(text) == terms


def test_metadata_marks_are_needed_for_a_match(texts: list[str]) -> None:
    """A rule is skipped when its mark is missing: no text the rule matches lacks it."""
    hits = dict.fromkeys(("blank", "example", "law", "date"), 0)
    for text in texts:
        lower = text.lower()
        if blanks.BLANK.search(text):
            hits["blank"] += 1
            assert any(mark in lower for mark in blanks.BLANK_MARKS), text
        if blanks._EXAMPLE.search(text):
            hits["example"] += 1
            assert any(mark in lower for mark in blanks.EXAMPLE_MARKS), text
        for pattern in jurisdictions._LAW:  # the core's choice-of-law sentences (reading/jurisdictions.py)
            if pattern.search(text):
                hits["law"] += 1
                assert "law" in text, text
        if dates._DATE.search(text):  # the core's date reader (reading/dates.py)
            hits["date"] += 1
            assert dates._YEAR.search(text), text
    assert all(hits.values()), hits  # each rule was met at least once


def test_fields_are_those_of_the_unfiltered_rules(texts: list[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def reference(text: str) -> str:
        text = blanks.BLANK.sub(" \u2026 ", text)
        example = blanks._EXAMPLE.search(text)
        return text[:example.start()] if example else text

    assert [blanks.filled_prose(t) for t in texts] == [reference(t) for t in texts]
    documents = [EDGES] + [texts[i:i + 40] for i in range(0, len(texts), 40)]
    fast = [md.extract(d) for d in documents]
    assert fast[0]["governing_law"] == "New York" and fast[0]["effective_date"] == "2021-01-05"
    # Every mark present in every text: the rules run as they did without the marks.
    monkeypatch.setattr(blanks, "BLANK_MARKS", ("",))
    monkeypatch.setattr(blanks, "EXAMPLE_MARKS", ("",))
    monkeypatch.setattr(dates, "_YEAR", dates.re.compile(""))
    assert fast == [md.extract(d) for d in documents]


# -- FAISS threads at build time (PRECEDENT_IVF_BUILD_THREADS) ----------------------------
def test_build_threads_hold_for_the_block_and_are_put_back() -> None:
    import faiss

    from index_builder.index.ivf import build_threads

    faiss.omp_set_num_threads(3)
    with build_threads(1):
        assert faiss.omp_get_max_threads() == 1
    assert faiss.omp_get_max_threads() == 3
    with build_threads(0):  # 0: FAISS's own, untouched
        assert faiss.omp_get_max_threads() == 3
    with pytest.raises(RuntimeError), build_threads(2):
        raise RuntimeError("a failed training")
    assert faiss.omp_get_max_threads() == 3
    faiss.omp_set_num_threads(1)


def test_a_build_trains_and_encodes_with_the_threads_set(settings, embedder, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import faiss

    from index_builder.index import open_store, segmented_build, segments
    from index_builder.index.build import build_index
    from index_builder.settings import updated

    seen: dict[str, int] = {}
    train, encode = segmented_build.train, segments.encode

    def training(*args: object, **kwargs: object) -> object:
        seen["train"] = faiss.omp_get_max_threads()
        return train(*args, **kwargs)

    def encoding(*args: object, **kwargs: object) -> object:
        seen["encode"] = faiss.omp_get_max_threads()
        return encode(*args, **kwargs)

    monkeypatch.setattr(segmented_build, "train", training)
    monkeypatch.setattr(segments, "encode", encoding)
    library = tmp_path / "lib"
    library.mkdir()
    words = "indemnify liability notice payment audit warranty licence breach cure fees".split()
    for d in range(12):
        (library / f"doc{d}.txt").write_text("\n\n".join(
            f"{n}. The Supplier shall {words[(d + n) % 10]} and {words[(d * n) % 10]} "
            f"within {n + d} days of notice." for n in range(1, 30)))
    faiss.omp_set_num_threads(1)
    chosen = updated(settings, {"embedding.dense_index": "ivfpq", "embedding.ivf_build_threads": 2})
    build_index(chosen, [library], embedder, progress=False, store=open_store(chosen))
    assert seen == {"train": 2, "encode": 2}
    assert faiss.omp_get_max_threads() == 1  # the server's one thread a search is untouched


def test_build_threads_setting_is_checked() -> None:
    from index_builder.errors import ConfigError
    from index_builder.settings import load_settings

    assert load_settings({}).embedding.ivf_build_threads == 1
    assert load_settings({"PRECEDENT_IVF_BUILD_THREADS": "0"}).embedding.ivf_build_threads == 0
    with pytest.raises(ConfigError, match="PRECEDENT_IVF_BUILD_THREADS"):
        load_settings({"PRECEDENT_IVF_BUILD_THREADS": "-1"})


def test_the_embedding_cache_trims_only_files_it_did_not_leave(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    from index_builder.index.parallel import EmbeddingCache

    cache = EmbeddingCache(tmp_path, "m", 4)
    trims = []
    trim = cache._trim
    monkeypatch.setattr(cache, "_trim", lambda: (trims.append(1), trim()))
    for n in range(50):  # one read of every key on the first append, not one per append
        cache.append([f"k{n}"], np.full((1, 4), n, dtype=np.float32))
    assert len(trims) == 1
    with open(cache.folder / "vectors.f32", "ab") as out:  # half an append from elsewhere
        out.write(np.zeros((1, 4), dtype=np.float32).tobytes())
    cache.append(["last"], np.full((1, 4), 99.0, dtype=np.float32))
    assert len(trims) == 2
    loaded = cache.load()
    assert len(loaded) == 51 and loaded["k7"][0] == 7 and loaded["last"][0] == 99.0
