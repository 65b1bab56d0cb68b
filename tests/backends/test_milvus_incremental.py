"""A Milvus rebuild writes what changed: rows of unchanged documents stay where they are.

The plan (which documents to keep, retire or re-insert) is pure and tested alone; the rest
runs the real index builder against the session's milvus-lite file on a library of three
small documents, one of which changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index_builder.index import milvus_write
from index_builder.index.backend import text_key
from index_builder.index.build import build_index
from index_builder.index.milvus import MilvusStore
from index_builder.index.milvus_plan import FOREVER, LiveRow, plan_generation, row_digest
from index_builder.model import Clause
from index_builder.settings import Settings, load_settings
from tests.backends.conftest import milvus_settings
from tests.conftest import HashingEmbedder

DOCS = {
    "nda": ["Each party shall keep the other's Confidential Information secret.",
            "This Agreement is governed by the laws of New York.",
            "Notices must be given in writing."],
    "msa": ["Liability is capped at the fees paid in the prior year.",
            "Supplier shall indemnify Customer against third-party claims."],
    "lease": ["Rent is payable monthly in advance.", "The tenant shall keep the premises in repair.",
              "Either party may terminate on six months' notice."],
}


def _clauses(doc: str, texts: list[str]) -> list[Clause]:
    return [Clause(f"{doc}#{i}", text, doc, doc_title=doc.upper(), section=str(i),
                   metadata={"type": doc}) for i, text in enumerate(texts)]


def _digests(clauses: list[Clause]) -> list[str]:
    return [row_digest(c, True, text_key(c.text)) for c in clauses]


def test_the_plan_keeps_unchanged_documents_and_rewrites_changed_ones_whole() -> None:
    old = [c for doc, texts in DOCS.items() for c in _clauses(doc, texts)]
    live = [LiveRow(f"1:{c.clause_id}", c.clause_id, c.doc_id, n, d)
            for n, (c, d) in enumerate(zip(old, _digests(old)))]
    new_texts = {**DOCS, "msa": [DOCS["msa"][0], "Supplier shall indemnify Customer."]}
    del new_texts["nda"]
    new_texts["spa"] = ["The Seller sells the Shares."]
    new = [c for doc, texts in new_texts.items() for c in _clauses(doc, texts)]
    plan = plan_generation(live, new, _digests(new), ordinal_end=len(old))
    assert plan.kept == 3  # the lease, untouched
    assert [new[p].clause_id for p in plan.insert] == ["msa#0", "msa#1", "spa#0"]
    assert plan.ordinals == [8, 9, 10]  # a changed document gets a fresh contiguous run
    assert sorted(plan.retire_docs) == ["msa", "nda"] and plan.revive == []
    # A kept row still marked dead by a build that failed before its switch is revived.
    stale = [r if r.doc_id != "lease" else LiveRow(r.row_id, r.clause_id, r.doc_id, r.ordinal,
                                                   r.digest, dead=5) for r in live]
    assert plan_generation(stale, new, _digests(new), 8).revive == ["lease#0", "lease#1", "lease#2"]
    # Metadata, order or the ordered flag count as a change; nothing changed keeps everything.
    moved = _clauses("lease", list(reversed(DOCS["lease"])))
    assert plan_generation(live, moved, _digests(moved), 8).retire_docs == ["lease", "nda", "msa"]
    same = plan_generation(live, old, _digests(old), 8)
    assert (same.kept, same.insert, same.retire_docs) == (8, [], [])
    assert row_digest(old[0], True, "k") != row_digest(old[0], False, "k")


def _library(folder: Path, docs: dict[str, list[str]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for doc, texts in docs.items():
        (folder / f"{doc}.txt").write_text("\n".join(texts))  # drives change detection
    return folder


def _reader(docs: dict[str, list[str]]) -> Any:
    return lambda path, doc_id, source_path: _clauses(Path(path).stem, docs[Path(path).stem])


class Spy:
    """Counts the rows the store sends to Milvus, per call kind."""

    def __init__(self, client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rows: dict[str, int] = {"insert": 0, "upsert": 0}
        for how in self.rows:
            real = getattr(client, how)

            def sent(collection: str, rows: Any, _real: Any = real, _how: str = how,
                     **kwargs: Any) -> Any:
                if not collection.endswith("_catalog"):
                    self.rows[_how] += len(rows)
                return _real(collection, rows, **kwargs)

            monkeypatch.setattr(client, how, sent)


@pytest.fixture
def config(tmp_path: Path, milvus_lite_uri: str) -> Settings:
    return milvus_settings(load_settings({}, {"index_dir": tmp_path / "index"}), milvus_lite_uri)


def test_a_rebuild_re_inserts_and_re_embeds_only_the_changed_document(
        tmp_path: Path, config: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    store = MilvusStore(config)
    embedder = HashingEmbedder()
    library = _library(tmp_path / "lib", DOCS)
    first = build_index(config, [library], embedder, read_document=_reader(DOCS), progress=False,
                        store=store).version
    old_reader = store.open()
    collections = set(store._client.list_collections())
    changed = {**DOCS, "nda": [DOCS["nda"][0], "This Agreement is governed by English law.",
                               DOCS["nda"][2]]}
    _library(library, changed)
    spy = Spy(store._client, monkeypatch)
    embedder.calls.clear()
    report = build_index(config, [library], embedder, read_document=_reader(changed),
                         progress=False, store=store)
    assert report.version != first and store.live_version() == report.version
    assert sum(embedder.calls) == 1  # one new text embedded
    # The changed document's 3 rows inserted anew and its 3 old rows retired; 5 untouched.
    assert spy.rows == {"insert": 3, "upsert": 3}
    assert set(store._client.list_collections()) == collections  # no new collection
    new = store.open()
    assert new.get(["nda#1"])[0].text.endswith("English law.")
    assert old_reader.get(["nda#1"])[0].text.endswith("New York.")  # the old version intact
    assert new.stats() == old_reader.stats() == {"clauses": 8, "documents": 3}
    before, after = new.neighbours("nda#1", 1)
    assert [c.clause_id for c in before + after] == ["nda#0", "nda#2"]
    vector = embedder.embed(["premises repair"])
    assert new.dense(vector, 1)[0][0] == old_reader.dense(vector, 1)[0][0] == "lease#1"
    # The reused vectors are the stored ones: a re-inserted unchanged text scores as before.
    query = embedder.embed([DOCS["nda"][0]])
    (cid, score), = new.dense(query, 1)
    assert cid == "nda#0" and score == pytest.approx(old_reader.dense(query, 1)[0][1], abs=1e-6)


def test_a_failed_incremental_rebuild_keeps_the_live_version_and_is_cleared_next_time(
        tmp_path: Path, config: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    from index_builder.errors import SearchEngineUnavailableError

    store = MilvusStore(config)
    embedder = HashingEmbedder()
    library = _library(tmp_path / "lib", DOCS)
    live = build_index(config, [library], embedder, read_document=_reader(DOCS), progress=False,
                       store=store).version
    changed = {**DOCS, "msa": ["Liability is unlimited."]}
    _library(library, changed)
    real_upsert = store._client.upsert

    def failing(collection: str, rows: Any, **kwargs: Any) -> Any:
        if not collection.endswith("_catalog"):
            from pymilvus.exceptions import MilvusException

            raise MilvusException(message="node down")
        return real_upsert(collection, rows, **kwargs)

    monkeypatch.setattr(store._client, "upsert", failing)
    monkeypatch.setattr(store, "_abandon", lambda *args, **kwargs: None)  # as if it crashed
    with pytest.raises(SearchEngineUnavailableError, match="node down"):
        build_index(config, [library], embedder, read_document=_reader(changed), progress=False,
                    store=store)
    monkeypatch.undo()
    assert store.live_version() == live
    reader = store.open()
    assert reader.stats() == {"clauses": 8, "documents": 3}
    assert reader.lexical(["unlimited"], 5) == []  # the failed build's rows are not seen
    assert reader.get(["msa#0"])[0].text.startswith("Liability is capped")
    report = build_index(config, [library], embedder, read_document=_reader(changed),
                         progress=False, store=store)
    now = store.open()
    assert now.version == report.version != live and now.stats()["clauses"] == 7
    assert [c for c, _ in now.lexical(["liability"], 5)] == ["msa#0"]
    assert now.get(["msa#1"]) == [None]
    everything = store._count(now.collection, "")
    assert everything == 7 + 2  # the new version's rows and the msa rows the previous one sees
    assert np.isnan(store.previous(embedder.model_id).vectors[text_key(DOCS["nda"][0])]).all()
    assert store._count(now.collection, f"dead < {FOREVER}") == 2


def test_a_rebuild_carries_unchanged_documents_without_reading_their_clauses(
        tmp_path: Path, config: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    store = MilvusStore(config)
    embedder = HashingEmbedder()
    library = _library(tmp_path / "lib", DOCS)
    build_index(config, [library], embedder, read_document=_reader(DOCS), progress=False,
                store=store)
    changed = {**DOCS, "lease": DOCS["lease"][:2], "dpa": ["Processor acts on instructions only."]}
    del changed["msa"]
    _library(library, changed)
    (library / "msa.txt").unlink()
    read_whole: list[str] = []
    real = store._clauses
    monkeypatch.setattr(store, "_clauses", lambda *a, **k: read_whole.append(a[0]) or real(*a, **k))
    report = build_index(config, [library], embedder, read_document=_reader(changed),
                         progress=False, store=store)
    assert read_whole == [] and sorted(report.parsed) == ["dpa", "lease"]
    assert report.removed == ["msa"] and report.reused == ["nda"] and report.clauses == 6
    live = store.open()
    assert live.stats() == {"clauses": 6, "documents": 3}
    assert live.get(["msa#0", "lease#2"]) == [None, None]
    assert [c for c, _ in live.lexical(["processor instructions"], 3)][0] == "dpa#0"
    before, after = live.neighbours("nda#1", 1)
    assert [c.clause_id for c in before + after] == ["nda#0", "nda#2"]

    # Past the compaction threshold the carried version is completed from the live one and
    # written into a fresh collection, vectors copied, nothing re-embedded.
    monkeypatch.setattr(milvus_write, "COMPACT_AT", 0.1)
    monkeypatch.setattr(milvus_write, "COMPACT_SLACK", 0)
    changed["dpa"] = ["Processor acts on written instructions only."]
    _library(library, changed)
    embedder.calls.clear()
    report = build_index(config, [library], embedder, read_document=_reader(changed),
                         progress=False, store=store)
    fresh = store.open()
    assert read_whole and sum(embedder.calls) == 1 and fresh.collection != live.collection
    assert fresh.stats() == {"clauses": 6, "documents": 3}
    query = embedder.embed([DOCS["nda"][0]])
    assert fresh.dense(query, 1)[0][0] == "nda#0"
    assert fresh.dense(query, 1)[0][1] == pytest.approx(live.dense(query, 1)[0][1], abs=1e-6)
