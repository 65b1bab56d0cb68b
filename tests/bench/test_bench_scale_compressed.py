"""The 10M benchmark's parts: stand-in vectors from sentence vectors, the generated library
as a DMS source with walls, the exact top k streamed from disk, the results table."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np

from index_builder.index.backend import clause_matches
from index_builder.model import Clause
from precedent_bench import scale_corpus as sc
from precedent_bench.scale import library as lib
from precedent_bench.scale import vectors as sv
from precedent_bench.scale.compressed import table
from precedent_bench.scale.measure import percentiles

SOURCES = [
    sc.SourceClause("Confidentiality", (
        "The Recipient shall keep the Confidential Information secret for five (5) years.",
        "The Recipient may disclose it to its advisers who are bound by duties of confidence.",
        "Obligations survive termination of this Agreement for three (3) years.")),
    sc.SourceClause("Payment", (
        "The Customer shall pay each invoice within 45 days of receipt.",
        "Late payments bear interest at 2% per month until paid in full.",
        "The fee cap is $250,000 in any year, governed by the laws of the State of New York.")),
    sc.SourceClause("Notices", (
        "Notices must be given in writing to the addresses set out above.",
        "A notice sent by email is received on the next Business Day.")),
]


def _table() -> sv.SentenceTable:
    """A table with made-up unit vectors (no model): what the tests check is the mapping."""
    texts = sorted({s for c in SOURCES for s in c.sentences} | {f"{c.heading}." for c in SOURCES}
                   | {sv.PREAMBLE})
    vectors = np.random.default_rng(1).standard_normal((len(texts), sv.DIMENSION)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    rows = {}
    for row, text in enumerate(texts):
        rows.setdefault(sv.skeleton(text), row)
    return sv.SentenceTable(texts, vectors, np.full(len(texts), 20, np.int32), rows)


def test_varied_sentences_find_their_source_sentence() -> None:
    table = _table()
    generator = sc.Generator(SOURCES, 5)
    context = {"roles": ("Licensor", "Licensee"), "parties": ("Harbor Systems LLC", "Kestrel Media plc"),
               "law": "Ontario", "title": "Supply Agreement",
               "renames": {"Confidential Information": "Proprietary Information", "Business Day": "Working Day"}}
    for source in SOURCES:
        for sentence in source.sentences:
            varied = sc.vary(sentence, random.Random(3), context)
            assert table.rows[sv.skeleton(varied)] == table.rows[sv.skeleton(sentence)]
    assert sv.skeleton(sc.Document("d", "Reseller Agreement 0000005", ("Calder Foods GmbH", "Upland Energy Inc."),
                                   ("Company", "Consultant"), ()).markdown().splitlines()[2]) \
        == sv.skeleton(sv.PREAMBLE)
    del generator


def test_the_fast_sentence_split_is_the_corpus_split() -> None:
    generator = sc.Generator(SOURCES, 7)
    texts = [t for n in range(30) for _, t in generator.document(n, 12).clauses]
    texts += ["Acme Inc. shall pay A. Smith. No. 5 applies! Then (a) it ends.", "One. Two"]
    assert all(sv.sentences(t) == sc.split_sentences(t) for t in texts)


def test_stand_ins_are_deterministic_and_near_as_their_sentences_are() -> None:
    embedder = sv.RecombinedEmbedder(_table(), noise=0.2)
    a = "1. Confidentiality. The Recipient shall keep the Proprietary Information secret for ten (10) years. " \
        "Obligations survive termination of this Agreement for two (2) years."
    b = "The Recipient shall keep the Confidential Information secret for five (5) years. " \
        "The Recipient may disclose it to its advisers who are bound by duties of confidence."
    c = "Notices must be given in writing to the addresses set out above."
    vectors = embedder.embed([a, b, c])
    np.testing.assert_array_equal(vectors, sv.RecombinedEmbedder(_table(), noise=0.2).embed([a, b, c]))
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2  # one shared sentence
    assert embedder.counts()["unmapped_texts"] == 0
    # A text none of whose sentences is known is its perturbation alone, at full length, even
    # without noise (the stand-in for a query the library has never seen a sentence of).
    stranger = "Zebra quartz hums softly."
    alone = sv.RecombinedEmbedder(_table(), noise=0.0).embed([stranger, stranger])
    assert np.isfinite(alone).all() and np.allclose(np.linalg.norm(alone, axis=1), 1, atol=1e-5)
    np.testing.assert_allclose(alone[0], embedder.embed([stranger])[0], atol=1e-6)
    assert embedder.counts()["unmapped_texts"] == 1
    known = sv.RecombinedEmbedder(_table(), known={"cap on liability": vectors[2]})
    np.testing.assert_array_equal(known.embed(["cap on liability"])[0], vectors[2])


def test_the_generated_library_is_a_dms_source_with_walls(tmp_path: Path) -> None:
    library = lib.GeneratedLibrary(sc.Generator(SOURCES, 9), 120_000)  # 6 matters
    documents = library.documents()
    assert len(documents) == len(library.sizes) and documents[3].doc_id == "part-0000/doc-0000003"
    local = tmp_path / "doc.md"
    documents[3].fetch(local)
    assert local.read_text().startswith("# ") and documents[3].version == "9.0"
    walled = [d for d in documents if d.access.allowed != ("*",)]
    assert walled and all(lib.matter(int(d.doc_id[-7:])) % lib.WALLED_EVERY == 4 for d in walled)
    cases = lib.filter_cases(library)
    walls = cases["walls"]

    def visible(number: int) -> bool:
        access = lib.access(number)
        clause = Clause("x", "t", "d", metadata=access.metadata())
        return clause_matches(clause, walls)

    groups = set(walls[0].values)
    assert "*" in groups and any(g.startswith("matter-") for g in groups)
    for number in range(0, len(library.sizes), 7):
        access = lib.access(number)
        expected = bool(groups & set(access.allowed)) and not groups & set(access.denied)
        assert visible(number) == expected
    # The one-document case names a document this user may read (else it measures nothing).
    wide = lib.GeneratedLibrary(sc.Generator(SOURCES, 9), 600_000)  # 30 matters, 6 walled
    for seed in range(20):  # a plain random draw fell behind another matter's wall for one of these
        other = lib.filter_cases(wide, seed)
        assert clause_matches(Clause("x", "t", "d", metadata=lib.access(
            int(other["walls+document"][-1].values[0][-7:])).metadata()), other["walls"])
    library.revision[3] = 1
    assert library.documents()[3].version == "9.1"


def test_results_table_and_percentiles() -> None:
    assert percentiles([5.0, 1.0, 3.0, 2.0, 4.0]) == {"n": 5, "p50_ms": 3.0, "p95_ms": 5.0, "max_ms": 5.0}
    lat = [{"clients": 1, "p50_ms": 10, "p95_ms": 20, "load_before": [1.5]},
           {"clients": 20, "p50_ms": 100, "p95_ms": 200, "load_before": [3.0]}]
    cases = {c: {"recall_at_10": 0.97, "allowed": 1000} for c in
             ("none", "walls", "walls+role", "walls+matter", "walls+document")}
    data = {"1m-build": {"clauses": 1_000_000, "build_s": 600, "load_before": [1], "load_after": [2],
                         "peak_rss_mb": 4096, "disk_mb": {"total_mb": 2048}},
            "1m-search": {"after_open": {"rss_mb": 1024}, "after_engine": {"rss_mb": 2048},
                          "recall": {"cases": cases}, "engine": {"by_clients": lat},
                          "http": {"by_clients": lat}}}
    text = table(data)
    assert "| clauses | 1,000,000 |" in text and "recall@10, walls+role | 0.970 (1,000 allowed)" in text
    assert "10 / 20 ms (load 1.5)" in text and json.dumps(data)


def test_a_library_built_in_increments_shows_each() -> None:
    first = {"build_s": 1800, "load_before": [1.1], "load_after": [6.0]}
    data = {"1m-build": {"clauses": 1_153_369, "build_s": 2400, "load_before": [11.7],
                         "load_after": [3.2], "peak_rss_mb": 4333, "disk_mb": {"total_mb": 2963},
                         "increments": [first]}}
    text = table(data)
    assert "| build time | 70 min in 2 increments (30 + 40 min; load 1.1–11.7) |" in text
    del data["1m-build"]["increments"]
    assert "| build time | 40 min (load 11.7 → 3.2) |" in table(data)
