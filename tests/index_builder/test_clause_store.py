"""The embedded backend's on-disk clause store (format 3): clauses in SQLite, filter columns,
a memory-mapped BM25 matrix; same answers as the in-memory index of formats 1-2."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import bm25s
import numpy as np
import pytest

from index_builder.errors import IndexFormatError
from index_builder.index.backend import Condition, clause_matches
from index_builder.index.build import build_index
from index_builder.index.clausedb import ClauseTable, MemoryClauses
from index_builder.index.embedded import EmbeddedBackend, EmbeddedStore
from index_builder.index.lexical import BM25Index, Tokenizer
from index_builder.index.store import ClauseIndex, load_index
from index_builder.model import Clause
from index_builder.settings import BM25Settings

ROWS = [  # doc, section, text, metadata (in the order the build reads them: msa.txt, nda.txt)
    ("msa", "1", "In no event shall either party's aggregate liability exceed the fees paid.",
     {"type": "msa", "access_groups": "Matter-Acme, litigation", "party_roles": "Customer, Supplier"}),
    ("msa", "2", "Supplier shall indemnify Customer against third-party claims.",
     {"type": "msa", "access_groups": "matter-acme", "party_roles": "Customer, Supplier"}),
    ("msa", "3", "The Supplier shall pay the fees within thirty (30) days of the invoice.", {}),
    ("nda", "1", "Each party shall keep the Confidential Information of the other party secret.",
     {"type": "nda", "governing_law": "New York", "access_groups": "everyone"}),
    ("nda", "2", "This Agreement is governed by the laws of the State of New York.",
     {"type": "nda", "governing_law": "New York", "access_groups": "everyone"}),
    ("nda", "3", "Notices must be given in writing to the addresses above.",
     {"type": "nda", "access_groups": "everyone"}),
]
FILTERS = [
    (Condition("type", ("NDA",)),),
    (Condition("governing_law", ("new york",)),),
    (Condition("access_groups", ("matter-acme",)),),
    (Condition("access_groups", ("litigation", "everyone")), Condition("type", ("msa",))),
    (Condition("party_roles", ("supplier",)),),
    (Condition("type", ("nda",), negate=True),),
    (Condition("document", ("MSA",)),),
    (Condition("document", ("nda",)), Condition("section", ("2", "3"))),
    (Condition("clause_id", ("nda#2", "MSA#1")),),
    (Condition("heading", ("",)),),
    (Condition("denied_groups", ("x",), negate=True),),
]


def _reader(path: Path, doc_id: str, source_path: str) -> list[Clause]:
    return [Clause(f"{doc}#{section}", text, doc, doc_title=doc.upper(), source_path=source_path,
                   section=section, metadata=dict(meta))
            for doc, section, text, meta in ROWS if doc == Path(path).stem]


@pytest.fixture
def built(tmp_path: Path, settings, embedder):  # type: ignore[no-untyped-def]
    library = tmp_path / "lib"
    library.mkdir()
    for doc in ("nda", "msa"):
        (library / f"{doc}.txt").write_text(doc)
    build_index(settings, [library], embedder, read_document=_reader, progress=False)
    return settings


def _memory_twin(index: ClauseIndex) -> EmbeddedBackend:
    """The same version with every clause in memory (how formats 1-2 are served)."""
    return EmbeddedBackend(ClauseIndex(index.path, index.params, list(index.clauses),
                                       index.documents, index.embeddings, index.dense, index.bm25))


def test_version_keeps_clauses_on_disk(built) -> None:  # type: ignore[no-untyped-def]
    index = load_index(built.index_dir)
    assert isinstance(index.clauses, ClauseTable) and len(index.clauses) == len(ROWS)
    assert (index.path / "clauses.sqlite").is_file() and not (index.path / "clauses.jsonl").exists()
    data = index.bm25._retriever.scores["data"]
    # A plain view of the mapped pages (slicing a memmap costs CPU): on disk, not read in.
    assert type(data) is np.ndarray and isinstance(data.base, np.memmap)
    assert [c.clause_id for c in index.clauses] == [f"{d}#{s}" for d, s, _, _ in ROWS]
    assert index.clauses[-1].clause_id == "nda#3" and index.clauses[1:3][0].clause_id == "msa#2"
    assert index.get("msa#2").metadata["party_roles"] == "Customer, Supplier"  # type: ignore[union-attr]
    assert index.get("nope") is None and index.position["msa#1"] == 0 and "nope" not in index.position
    before, after = index.neighbours("msa#1", 2)
    assert before == [] and [c.clause_id for c in after] == ["msa#2", "msa#3"]


@pytest.mark.parametrize("filters", FILTERS, ids=lambda f: ";".join(c.field for c in f))
def test_filters_facets_and_counts_match_the_clauses(built, filters) -> None:  # type: ignore[no-untyped-def]
    disk = EmbeddedStore(built.index_dir).open()
    memory = _memory_twin(disk.index)
    clauses = list(disk.index.clauses)
    want = {c.clause_id for c in clauses if clause_matches(c, filters)}
    assert {cid for cid, _ in disk.dense(disk.index.embeddings[0], 10, filters)} == want
    assert {cid for cid, _ in disk.lexical(["party shall"], 10, filters)} <= want
    assert disk.lexical(["party shall"], 10, filters) == memory.lexical(["party shall"], 10, filters)
    names = ["type", "governing_law", "doc_title", "heading", "party_roles", "missing"]
    assert disk.facets(names, filters) == memory.facets(names, filters) == _facets(
        [c for c in clauses if c.clause_id in want], names)
    assert disk.stats(filters) == memory.stats(filters) == {
        "clauses": len(want), "documents": len({c.doc_id for c in clauses if c.clause_id in want})}


def _facets(clauses: list[Clause], names: list[str]) -> dict[str, dict[str, int]]:
    """Reference: per field, value -> number of documents (whole strings, empty skipped)."""
    out: dict[str, dict[str, set[str]]] = {name: {} for name in names}
    for clause in clauses:
        for name in names:
            value = str(getattr(clause, name)) if hasattr(clause, name) else clause.metadata.get(name)
            if value:
                out[name].setdefault(value, set()).add(clause.doc_id)
    return {name: {v: len(d) for v, d in values.items()} for name, values in out.items()}


def test_reads_from_many_threads(built) -> None:  # type: ignore[no-untyped-def]
    backend = EmbeddedStore(built.index_dir).open()
    ids = [f"{d}#{s}" for d, s, _, _ in ROWS]
    seen: list[list[str]] = []

    def read() -> None:
        for _ in range(20):
            seen.append([c.clause_id for c in backend.get(ids[::-1]) if c is not None])

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [ids[::-1]] * 80
    assert backend.positions(["msa#3", "gone"]) == [2, 6]
    backend.close()


def test_format_2_versions_still_load(built, embedder) -> None:  # type: ignore[no-untyped-def]
    index = load_index(built.index_dir)
    want = EmbeddedBackend(index).lexical(["liability fees"], 3)
    folder = index.path
    with open(folder / "clauses.jsonl", "w") as out:
        for clause in index.clauses:
            out.write(json.dumps(clause.to_dict()) + "\n")
    index.close()
    (folder / "clauses.sqlite").unlink()
    params = json.loads((folder / "params.json").read_text())
    (folder / "params.json").write_text(json.dumps({**params, "format_version": 2}))
    old = EmbeddedStore(built.index_dir).open()
    assert isinstance(old.index.clauses, MemoryClauses)
    assert old.lexical(["liability fees"], 3) == want
    assert old.facets(["type"]) == {"type": {"nda": 1, "msa": 1}}


def test_a_missing_clause_store_is_reported_with_the_fix(built) -> None:  # type: ignore[no-untyped-def]
    (load_index(built.index_dir).path / "clauses.sqlite").unlink()
    with pytest.raises(IndexFormatError, match="rebuild"):
        load_index(built.index_dir)


def test_bm25_scores_equal_bm25s_own_index(tmp_path: Path, acord_dir: Path) -> None:
    texts = [json.loads(line)["text"] for line in
             (acord_dir / "corpus.jsonl").read_text("utf-8").splitlines()[:400]]
    settings = BM25Settings()
    tokenizer = Tokenizer(settings)
    reference = bm25s.BM25(k1=settings.k1, b=settings.b, method="robertson")
    reference.index([tokenizer(t) for t in texts], show_progress=False)
    ours = BM25Index.build(iter(texts), settings, total=len(texts))
    (tmp_path / "bm25").mkdir()
    ours.save(tmp_path / "bm25")
    mapped = BM25Index.load(tmp_path / "bm25", mmap=True)
    for query in ("limitation of liability", texts[7], "governed by the laws of new york"):
        want = np.asarray(reference.get_scores(tokenizer(query)), dtype=np.float32)
        np.testing.assert_array_equal(ours.scores(query), want)
        np.testing.assert_array_equal(mapped.scores(query), want)
    assert not mapped.scores("zzzz").any() and mapped.size == len(texts)


def test_next_build_rewrites_a_format_2_version_without_re_embedding(built, embedder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    index = load_index(built.index_dir)
    folder = index.path
    with open(folder / "clauses.jsonl", "w") as out:
        for clause in index.clauses:
            out.write(json.dumps(clause.to_dict()) + "\n")
    index.close()
    params = json.loads((folder / "params.json").read_text())
    (folder / "params.json").write_text(json.dumps({**params, "format_version": 2}))
    report = build_index(built, [tmp_path / "lib"], embedder, read_document=_reader, progress=False)
    assert report.version != folder.name and report.embedded == 0
    assert isinstance(load_index(built.index_dir).clauses, ClauseTable)
