"""What every search backend promises: the pipeline relies on exactly this.

Searches keyed by clause id, filters as data applied inside the search (a filter that
matches one clause in ten thousand still finds it), list-valued access groups, negated
conditions, clause look-up and neighbours, versions with an atomic switch, and incremental
rebuilds that re-embed only what changed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from index_builder.errors import InvalidRequestError
from index_builder.index.backend import Condition, IndexStore, filters_from_mapping
from index_builder.index.build import build_index
from index_builder.model import Clause
from index_builder.settings import Settings

StoreFactory = Callable[[Settings], IndexStore]

CLAUSES = [
    ("nda#1", "nda", "Each party shall keep the Confidential Information of the other party secret.",
     {"type": "nda", "access_groups": "everyone"}),
    ("nda#2", "nda", "This Agreement is governed by the laws of the State of New York.",
     {"type": "nda", "access_groups": "everyone"}),
    ("nda#3", "nda", "Notices must be given in writing to the addresses above.",
     {"type": "nda", "access_groups": "everyone"}),
    ("msa#1", "msa", "In no event shall either party's aggregate liability exceed the fees paid.",
     {"type": "msa", "access_groups": "matter-acme,litigation", "denied_groups": "team-globex"}),
    ("msa#2", "msa", "Supplier shall indemnify Customer against third-party claims.",
     {"type": "msa", "access_groups": "matter-acme"}),
]


def _reader(rows: list[tuple[str, str, str, dict[str, str]]]) -> Any:
    by_doc: dict[str, list[Clause]] = {}
    for n, (cid, doc, text, meta) in enumerate(rows):
        by_doc.setdefault(doc, []).append(Clause(cid, text, doc, doc_title=doc.upper(),
                                                 section=cid.split("#")[1], metadata=dict(meta)))

    def read(path: Path, doc_id: str, source_path: str) -> list[Clause]:
        return by_doc[Path(path).stem]

    return read


def _library(folder: Path, docs: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for doc in docs:
        (folder / f"{doc}.txt").write_text(doc)  # content only drives change detection
    return folder


@pytest.fixture
def built(tmp_path: Path, settings: Settings, embedder: Any,
          store_factory: StoreFactory) -> tuple[IndexStore, Settings]:
    store = store_factory(settings)
    build_index(settings, [_library(tmp_path / "lib", ["nda", "msa"])], embedder,
                read_document=_reader(CLAUSES), progress=False, store=store)
    return store, settings


def test_dense_and_lexical_search_by_clause_id(built: Any, embedder: Any) -> None:
    store, _ = built
    backend = store.open()
    dense = backend.dense(embedder.embed(["aggregate liability fees"]), 3)
    lexical = backend.lexical(["aggregate liability fees"], 3)
    assert dense[0][0] == "msa#1" and lexical[0][0] == "msa#1"
    assert all(isinstance(cid, str) and isinstance(score, float) for cid, score in dense + lexical)
    assert [s for _, s in lexical] == sorted((s for _, s in lexical), reverse=True)
    # Several query rows or texts: one list, each clause once.
    both = backend.dense(embedder.embed(["aggregate liability", "indemnify claims"]), 5)
    assert len({cid for cid, _ in both}) == len(both) and {"msa#1", "msa#2"} <= {c for c, _ in both}
    assert {"msa#1", "msa#2"} <= {c for c, _ in backend.lexical(["liability", "indemnify"], 5)}


def test_filters_are_data_and_apply_inside_the_search(built: Any, embedder: Any) -> None:
    backend = built[0].open()
    query = embedder.embed(["liability"])
    only_nda = filters_from_mapping({"type": "nda"})
    assert {c for c, _ in backend.dense(query, 5, only_nda)} <= {"nda#1", "nda#2", "nda#3"}
    assert backend.lexical(["liability"], 5, only_nda) == []  # no nda clause shares a term
    # List-valued field: any of the user's groups; negation: none of them.
    acme = (Condition("access_groups", ("matter-acme",)),)
    assert {c for c, _ in backend.dense(query, 5, acme)} == {"msa#1", "msa#2"}
    walled = (Condition("access_groups", ("matter-acme", "team-globex")),
              Condition("denied_groups", ("matter-acme", "team-globex"), negate=True))
    assert {c for c, _ in backend.dense(query, 5, walled)} == {"msa#2"}
    # Case-insensitive values, the friendly "document" alias.
    assert {c for c, _ in backend.dense(query, 5, filters_from_mapping({"document": "MSA"}))} \
        == {"msa#1", "msa#2"}
    with pytest.raises(InvalidRequestError, match="Unknown filter field 'colour'"):
        backend.dense(query, 5, filters_from_mapping({"colour": "red"}))


def test_a_filter_matching_one_clause_in_ten_thousand_still_finds_it(
        tmp_path: Path, settings: Settings, embedder: Any, store_factory: StoreFactory) -> None:
    corpus = tmp_path / "big"
    corpus.mkdir()
    rows = [{"_id": f"c{i}", "text": f"The supplier shall deliver the goods within {i} days "
             f"of the order.", "metadata": {"matter": "common"}} for i in range(9_999)]
    rows.append({"_id": "rare", "text": "Liability is capped at the fees paid in twelve months.",
                 "metadata": {"matter": "needle"}})
    (corpus / "corpus.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    store = store_factory(settings)
    build_index(settings, [corpus], embedder, progress=False, store=store)
    backend = store.open()
    needle = filters_from_mapping({"matter": "needle"})
    # The query favours the 9,999 others; a post-hoc filter of a top 10 would return nothing.
    query = "the supplier shall deliver the goods within days of the order"
    assert [c for c, _ in backend.dense(embedder.embed([query]), 10, needle)] == ["rare"]
    assert [c for c, _ in backend.lexical([query + " fees"], 10, needle)] == ["rare"]
    assert backend.stats(needle) == {"clauses": 1, "documents": 1}


def test_clause_store_get_and_neighbours(built: Any) -> None:
    backend = built[0].open()
    got = backend.get(["nda#2", "missing", "msa#1"])
    assert got[0].text.startswith("This Agreement is governed") and got[1] is None
    assert got[2].metadata["type"] == "msa"
    before, after = backend.neighbours("nda#2", 1)
    assert [c.clause_id for c in before] == ["nda#1"] and [c.clause_id for c in after] == ["nda#3"]
    before, after = backend.neighbours("msa#1", 5)  # never crosses into another document
    assert before == [] and [c.clause_id for c in after] == ["msa#2"]
    assert {"type", "doc_id", "access_groups"} <= backend.fields()
    assert backend.stats() == {"clauses": 5, "documents": 2}
    assert backend.facets(["type"]) == {"type": {"nda": 1, "msa": 1}}


def test_versions_switch_atomically_and_old_readers_keep_working(
        tmp_path: Path, built: Any, embedder: Any) -> None:
    store, settings = built
    first = store.live_version()
    old_reader = store.open()
    changed = [r if r[0] != "nda#3" else ("nda#3", "nda", "Notices may be sent by email.", {})
               for r in CLAUSES]
    (tmp_path / "lib" / "nda.txt").write_text("nda, second edition")
    embedder.calls.clear()
    report = build_index(settings, [tmp_path / "lib"], embedder, read_document=_reader(changed),
                         progress=False, store=store)
    assert store.live_version() == report.version != first
    assert sum(embedder.calls) == 1  # incremental: only the changed text is embedded
    assert old_reader.get(["nda#3"])[0].text.startswith("Notices must")  # old version intact
    assert store.open().get(["nda#3"])[0].text == "Notices may be sent by email."
    previous = store.previous(embedder.model_id)
    assert previous.version == report.version and set(previous.documents) == {"nda", "msa"}
    assert len(previous.vectors) == 5
    # Another embedding model: nothing to reuse, so everything would be re-embedded.
    assert store.previous("another-model").vectors == {}


def test_an_unchanged_rebuild_keeps_the_live_version(built: Any, tmp_path: Path,
                                                      embedder: Any) -> None:
    store, settings = built
    live = store.live_version()
    report = build_index(settings, [tmp_path / "lib"], embedder, read_document=_reader(CLAUSES),
                         progress=False, store=store)
    assert report.version == live == store.live_version() and report.embedded == 0
