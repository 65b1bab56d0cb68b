"""What only the Milvus backend has to get right (the shared promises are in test_contract.py).

Filter values that try to break out of their quotes, negation without the ``not`` operator
milvus-lite lacks, BM25 sums over several texts, native hybrid search, and the pointer and
pruning of versions. One small version on the session's milvus-lite file serves the module.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from index_builder.errors import IndexNotFoundError
from index_builder.index.backend import Condition, VersionData, filters_from_mapping, normalise
from index_builder.index.milvus import MilvusBackend, MilvusStore
from index_builder.index.milvus_expr import expression, literal, token
from index_builder.model import Clause
from index_builder.settings import load_settings
from tests.backends.conftest import milvus_settings
from tests.conftest import HashingEmbedder

TRICKY = [
    'a" or clause_id != "',  # closes the quotes in a naive expression: would match everything
    "back\\slash\\",
    "new\nline\ttab",
    "Zürich – ß “curly” 東京 🙂",
    "') or (1 == 1",
]


def _clauses() -> list[Clause]:
    out = [Clause(f"t{i}", f"Tricky value clause number {i}.", "tricky", doc_title="Tricky",
                  metadata={"matter": value, "access_groups": f"g{i}"})
           for i, value in enumerate(TRICKY)]
    out += [
        Clause("p1", "The supplier shall indemnify the customer against claims.", "msa",
               doc_title="MSA", metadata={"type": "msa", "access_groups": "acme,Litigation"}),
        Clause("p2", "Liability is capped at the fees paid.", "msa", doc_title="MSA",
               metadata={"type": "msa", "denied_groups": "globex"}),
        Clause("p3", "Governing law is New York.", "nda", doc_title="NDA", metadata={}),
    ]
    return out


def _version(clauses: list[Clause], embedder: HashingEmbedder) -> VersionData:
    documents = {c.doc_id: {"kind": "file", "sha256": c.doc_id} for c in clauses}
    params = {"embedding_model": embedder.model_id, "dimension": embedder.dimension,
              "clauses": len(clauses), "documents": len(documents)}
    return VersionData(params, clauses, documents, embedder.embed([c.text for c in clauses]))


@pytest.fixture(scope="module")
def store(milvus_lite_uri: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MilvusStore]:
    settings = load_settings({}, {"index_dir": tmp_path_factory.mktemp("milvus-unit")})
    store = MilvusStore(milvus_settings(settings, milvus_lite_uri))
    store.write(_version(_clauses(), HashingEmbedder()))
    yield store
    store.close()


@pytest.fixture(scope="module")
def backend(store: MilvusStore) -> MilvusBackend:
    return store.open()


def _ids(scored: list[tuple[str, float]]) -> set[str]:
    return {cid for cid, _ in scored}


@pytest.mark.parametrize("value", TRICKY)
def test_a_filter_value_cannot_break_out_of_its_quotes(backend: MilvusBackend, value: str) -> None:
    query = HashingEmbedder().embed(["tricky value clause"])
    wanted = f"t{TRICKY.index(value)}"
    assert _ids(backend.dense(query, 20, filters_from_mapping({"matter": value}))) == {wanted}
    assert _ids(backend.lexical(["clause"], 20, filters_from_mapping({"matter": value.upper()}))) \
        == {wanted}
    negated = (Condition("matter", (value,), negate=True),)
    assert wanted not in _ids(backend.dense(query, 20, negated))
    assert len(backend.dense(query, 20, negated)) == len(_clauses()) - 1


def test_expressions_hold_tokens_never_user_text() -> None:
    filters = tuple(Condition(field, (value,), negate) for value in TRICKY
                    for field in ("matter", "access_groups", "document") for negate in (False, True))
    expr = expression(filters, ["access_groups", "denied_groups"])
    assert token(normalise(TRICKY[0])) in expr and "clause_id" not in expr
    assert re.fullmatch(r'[A-Za-z0-9_ ()\[\],."<>=]*', expr)  # no quotes but ours, no user text
    with pytest.raises(ValueError):
        literal(TRICKY[0])


def test_list_fields_any_of_and_none_of_case_insensitively(backend: MilvusBackend) -> None:
    query = HashingEmbedder().embed(["claims fees law"])
    assert _ids(backend.dense(query, 20, (Condition("access_groups", ("LITIGATION",)),))) == {"p1"}
    # None of: a clause without the field passes, as in the reference semantics.
    denied = _ids(backend.dense(query, 20, (Condition("denied_groups", ("Globex",), negate=True),)))
    assert "p2" not in denied and {"p1", "p3", "t0"} <= denied
    # One of nothing never holds; none of nothing always does.
    assert backend.dense(query, 20, (Condition("type", ()),)) == []
    assert len(backend.dense(query, 20, (Condition("type", (), negate=True),))) == len(_clauses())
    # A metadata key most clauses lack, negated: they all pass.
    assert _ids(backend.dense(query, 20, (Condition("type", ("msa",), negate=True),))) \
        == {c.clause_id for c in _clauses()} - {"p1", "p2"}


def test_several_texts_score_as_their_sum(backend: MilvusBackend) -> None:
    one = dict(backend.lexical(["indemnify"], 10))
    two = dict(backend.lexical(["fees"], 10))
    both = dict(backend.lexical(["indemnify", "fees"], 10))
    assert set(both) == {"p1", "p2"}
    for cid in both:
        assert both[cid] == pytest.approx(one.get(cid, 0.0) + two.get(cid, 0.0), rel=1e-4)
    # Shared terms count twice, as when each text is scored on its own and the scores added.
    twice = dict(backend.lexical(["fees", "fees"], 10))
    assert twice["p2"] == pytest.approx(2 * two["p2"], rel=1e-4)
    assert backend.lexical(["zebra"], 10) == [] and backend.lexical(["  "], 10) == []


def test_english_analyzer_stems_and_drops_nothing_it_needs(backend: MilvusBackend) -> None:
    assert _ids(backend.lexical(["indemnification claimed"], 5)) == {"p1"}
    assert backend.lexical(["INDEMNIFIES"], 5)[0][0] == "p1"


def test_native_hybrid_search_fuses_with_rrf_inside_the_filter(backend: MilvusBackend) -> None:
    query = HashingEmbedder().embed(["supplier shall indemnify the customer"])
    fused = backend.hybrid(query, ["indemnify customer"], 3)
    assert fused[0][0] == "p1"
    assert fused[0][1] == pytest.approx(2 / 61, rel=1e-3)  # first in both lists, rrf_k 60
    only_nda = filters_from_mapping({"document": "nda"})
    assert _ids(backend.hybrid(query, ["indemnify customer"], 3, only_nda)) == {"p3"}


def test_get_keeps_order_and_metadata_and_positions_follow_insertion(backend: MilvusBackend) -> None:
    got = backend.get(["p2", "nope", "t1", "p2"])
    assert [c.clause_id if c else None for c in got] == ["p2", None, "t1", "p2"]
    assert got[2].metadata == {"matter": TRICKY[1], "access_groups": "g1"}
    assert got[0].doc_title == "MSA"
    assert backend.positions(["p1", "t0", "unknown"]) == [5, 0, len(_clauses())]
    assert backend.facets(["type", "doc_title"], filters_from_mapping({"document": "msa"})) \
        == {"type": {"msa": 1}, "doc_title": {"MSA": 1}}


def _spied(backend: MilvusBackend, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    filters: list[str] = []
    original = backend._client.query

    def spy(collection: str, **kwargs: Any) -> Any:
        filters.append(kwargs["filter"])
        return original(collection, **kwargs)

    monkeypatch.setattr(backend._client, "query", spy)
    return filters


def test_searched_clauses_come_from_the_search_and_others_by_clause_key(
        store: MilvusStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """What keeps /precedents fast at 1M rows (scale.md): milvus-lite scans every row for any
    query, so the pipeline's ``get`` of its own hits must use the fields the search returned;
    a clause no search returned is read by ``clause_key``."""
    backend = store.open()  # a fresh reader: nothing seen yet
    expected = {cid: backend.get([cid])[0] for cid in ("t0", "p1", "p3")}
    filters = _spied(backend, monkeypatch)
    found = {cid for cid, _ in backend.lexical(["Tricky value clause indemnify"], 20)}
    assert {"t0", "p1"} <= found and "p3" not in found
    got = backend.get(["t0", "p3", "p1"])
    assert got == [expected["t0"], expected["p3"], expected["p1"]]
    assert len(filters) == 1 and token("p3") in filters[0] and "clause_key in" in filters[0]
    assert backend.positions(["p1", "t0"]) == [5, 0] and len(filters) == 1  # known: no query


def test_clauses_a_hybrid_search_returned_are_read_by_primary_key(
        store: MilvusStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Row keys are generated (generation:token), so any clause id, quotes and all, is read by
    key once a search has returned its row."""
    backend = store.open()
    expected = backend.get(["t0", "p1"])
    filters = _spied(backend, monkeypatch)
    vector = HashingEmbedder().embed(["Tricky value clause number 0."])
    found = {cid for cid, _ in backend.hybrid(vector, ["Tricky value clause indemnify"], 20)}
    assert {"t0", "p1"} <= found
    assert backend.get(["t0", "p1"]) == expected
    assert len(filters) == 1 and "row_id in" in filters[0] and filters[0].count(":h") == 2


def test_query_vectors_of_another_dimension_are_refused(backend: MilvusBackend) -> None:
    from index_builder.errors import InvalidRequestError

    with pytest.raises(InvalidRequestError, match="8 dimensions .* holds 64"):
        backend.dense(np.ones((1, 8), dtype=np.float32), 3)


def test_versions_keep_live_and_previous_and_record_the_switch(
        milvus_lite_uri: str, tmp_path: Path) -> None:
    settings = milvus_settings(load_settings({}, {"index_dir": tmp_path / "index"}),
                               milvus_lite_uri)
    store = MilvusStore(settings)
    embedder = HashingEmbedder()
    names = [store.write(_version(_clauses()[:n], embedder)) for n in (2, 3, 4)]
    assert store.live_version() == names[-1]
    # One collection, named after the first version; later versions are generations in it.
    held = [n for n in store._client.list_collections() if n.startswith(store.alias + "_v")]
    assert held == [names[0]]
    assert store.open(names[1]).stats() == {"clauses": 3, "documents": 1}
    with pytest.raises(IndexNotFoundError):  # the oldest was pruned
        store.open(names[0])
    # Rows only the pruned version saw are gone: 4 live, and the 3 the previous one sees.
    assert store._count(names[0], "") == 4 + 3
    # Another store on the same engine sees the same live version (the pointer is shared).
    assert MilvusStore(settings).live_version() == names[-1]
    assert "milvus-lite file" in store.describe() and settings.milvus.collection in store.describe()


class AliasingClient:
    """The session's milvus-lite client plus the alias calls a Milvus cluster answers.

    milvus-lite 2.5.1 answers UNIMPLEMENTED to aliases, so the store keeps its pointer in a
    catalog row there; this stand-in exercises the cluster path (alias switch) on the real
    engine. Its errors mirror a cluster's: describing a missing alias says "alias not found",
    and a collection an alias names cannot be dropped.
    """

    def __init__(self, real: Any) -> None:
        self._real = real
        self.aliases: dict[str, str] = {}
        self.calls: list[tuple[str, str, str]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def describe_alias(self, alias: str) -> dict[str, str]:
        from pymilvus.exceptions import MilvusException

        if alias not in self.aliases:
            raise MilvusException(message=f"alias not found[database=default][alias={alias}]")
        return {"alias": alias, "collection_name": self.aliases[alias], "db_name": "default"}

    def create_alias(self, collection_name: str, alias: str) -> None:
        assert alias not in self.aliases, "create_alias on an existing alias fails on a cluster"
        self.calls.append(("create_alias", collection_name, alias))
        self.aliases[alias] = collection_name

    def alter_alias(self, collection_name: str, alias: str) -> None:
        assert alias in self.aliases, "alter_alias on a missing alias fails on a cluster"
        self.calls.append(("alter_alias", collection_name, alias))
        self.aliases[alias] = collection_name

    def drop_collection(self, name: str) -> None:
        assert name not in self.aliases.values(), "a cluster refuses to drop an aliased collection"
        self._real.drop_collection(name)


def test_on_a_cluster_the_alias_is_the_live_pointer(
        milvus_lite_uri: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from index_builder.index import milvus_connection

    clients: list[AliasingClient] = []
    real_connect = milvus_connection.connect

    def connect(*args: Any) -> AliasingClient:
        clients.append(AliasingClient(real_connect(*args)))
        return clients[-1]

    monkeypatch.setattr(milvus_connection, "connect", connect)
    settings = milvus_settings(load_settings({}, {"index_dir": tmp_path / "index"}),
                               milvus_lite_uri)
    store = MilvusStore(settings)
    assert store._aliases
    embedder = HashingEmbedder()
    first = store.write(_version(_clauses()[:2], embedder))
    second = store.write(_version(_clauses()[:3], embedder))
    alias = settings.milvus.collection
    # The alias names the live collection (for other tools); generations share it.
    assert clients[0].calls == [("create_alias", first, alias)]
    assert store.live_version() == second and store.open().stats()["clauses"] == 3
    # Another embedding model writes a fresh collection: the alias follows, the old one goes.
    other = _version(_clauses()[:4], embedder)
    other.params["embedding_model"] = "another-model"
    third = store.write(other)
    assert clients[0].calls[1:] == [("alter_alias", third, alias)]
    assert store.live_version() == third and store.open().stats()["clauses"] == 4
    assert store.open(second).stats()["clauses"] == 3  # the previous version still reads
    # Readers follow the catalog row, which the switch writes in one upsert.
    clients[0].aliases[alias] = first
    assert store.live_version() == third
