"""The Milvus backend: one collection per index version, switched atomically.

``PRECEDENT_MILVUS_URI`` empty means milvus-lite, the real Milvus engine embedded in a
subprocess that keeps a file ``INDEX_DIR/milvus.db`` (tests, one machine); a firm sets it to
its cluster (``http://milvus:19530``, credentials in ``PRECEDENT_MILVUS_TOKEN``) and nothing
else changes. The pins matter: ``milvus-lite==2.5.1`` with ``pymilvus`` 2.5.x (the 3.x
milvus-lite is a pure-Python rewrite) and ``setuptools<81`` (milvus-lite imports
pkg_resources); see ../shared/notes/engines.md and docs/milvus.md.

Layout, for ``PRECEDENT_MILVUS_COLLECTION=precedent_clauses``::

    precedent_clauses                 what readers search: an alias (cluster) naming the live
                                      version; milvus-lite has no aliases, so there the
                                      catalog's "live" row is the pointer
    precedent_clauses_v<time>_<rand>  one collection per version: clause rows with text
                                      (english analyzer -> BM25 sparse vector), dense vector,
                                      filter copies (keys/flags JSON, group arrays)
    precedent_clauses_catalog         params and documents of each version; the lite pointer

A build writes and loads a complete new collection, records it in the catalog, then
switches the pointer in one operation (``alter_alias``, or an upsert of one row); a failure
before that drops the new collection and the live version keeps serving. The previous
version is kept for readers that still hold it; older ones are dropped.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import re
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from index_builder.errors import (
    ConfigError,
    DocumentError,
    IndexFormatError,
    IndexNotFoundError,
    InvalidRequestError,
    SearchEngineUnavailableError,
)
from index_builder.index.backend import (
    ALIASES,
    CORE_FIELDS,
    LIST_FIELDS,
    Filters,
    IndexStore,
    PreviousVersion,
    Scored,
    VersionData,
    check_fields,
)
from index_builder.index import milvus_connection as connection
from index_builder.index.milvus_expr import (
    CLAUSE_FIELDS,
    clause_from_row,
    clause_row,
    expression,
    literal,
    literals,
    token,
)
from index_builder.model import Clause
from index_builder.settings import Settings

log = logging.getLogger(__name__)

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,199}$")
INSERT_BATCH = 512
QUERY_BATCH = 1_000
MAX_TOPK = 16_384  # Milvus's limit on k per search


def text_key(text: str) -> str:
    """The key under which a clause text's vector is reused (same as the embedded store's)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class MilvusStore:
    """Versions of one index in Milvus (implements ``IndexStore``)."""

    def __init__(self, settings: Settings) -> None:
        self.alias = settings.milvus.collection
        if not _NAME.match(self.alias):
            raise ConfigError(
                f"PRECEDENT_MILVUS_COLLECTION={self.alias!r} is not a Milvus collection name: "
                f"use letters, digits and underscores, starting with a letter.")
        self.bm25 = settings.bm25
        self.uri = settings.milvus.uri or str(Path(settings.index_dir) / "milvus.db")
        self.lite = self.uri.endswith(".db")
        self.catalog = f"{self.alias}_catalog"
        self._client = connection.connect(self.uri, settings.milvus.token, self.lite)
        self._aliases = self._aliases_supported()
        self._ensure_catalog()

    # -- IndexStore ---------------------------------------------------------------------------
    def live_version(self) -> str:
        version = self._pointer()
        if not version:
            raise IndexNotFoundError(
                f"No index in {self.describe()}. Build one with `index-builder build --backend "
                f"milvus SOURCE...`.")
        return version

    def open(self, version: str | None = None) -> "MilvusBackend":
        name = version or self.live_version()
        params = self._params(name) if _NAME.match(name) else None
        if params is None:
            raise IndexNotFoundError(f"Index version {name} is not in {self.describe()}: "
                                     f"rebuild with `index-builder build --backend milvus`.")
        with self._errors("load"):
            self._client.load_collection(name)
        return MilvusBackend(self, name, params)

    def previous(self, model_id: str) -> PreviousVersion:
        version = self._pointer()
        params = self._params(version) if version else None
        if params is None:
            return PreviousVersion()
        documents = {row["payload"]["id"]: {k: v for k, v in row["payload"].items() if k != "id"}
                     for row in self._iterate(self.catalog, _catalog_filter(version, "document"),
                                              ["payload"], "seq", int(params.get("documents", 0)))}
        reuse = params.get("embedding_model") == model_id
        fields = CLAUSE_FIELDS + (["text_sha256", "dense"] if reuse else [])
        by_doc: dict[str, list[Clause]] = {}
        vectors: dict[str, np.ndarray] = {}
        rows = sorted(self._iterate(version, "", fields, "ordinal", int(params.get("clauses", 0))),
                      key=lambda r: r["ordinal"])
        for row in rows:
            by_doc.setdefault(str(row["doc_id"]), []).append(clause_from_row(row))
            if reuse:
                vectors[row["text_sha256"]] = np.asarray(row["dense"], dtype=np.float32)
        return PreviousVersion(version, params, documents, by_doc, vectors)

    def write(self, data: VersionData) -> str:
        if data.embeddings.ndim != 2 or len(data.embeddings) != len(data.clauses):
            raise IndexFormatError(f"{len(data.clauses)} clauses but {len(data.embeddings)} "
                                   f"vectors: nothing was written; build again.")
        name = f"{self.alias}_v{time.strftime('%Y%m%d%H%M%S', time.gmtime())}_{secrets.token_hex(3)}"
        dimension = int(data.embeddings.shape[1])
        arrays = [f for f in LIST_FIELDS if _NAME.match(f)]
        metadata_keys = sorted({k for c in data.clauses for k in c.metadata})
        params = {**data.params, "milvus": {"collection": name, "array_fields": arrays,
                                            "metadata_keys": metadata_keys}}
        previous = self._pointer()
        try:
            self._create_version(name, dimension, arrays)
            self._insert_clauses(name, data, arrays)
            self._finish_version(name, len(data.clauses))
            self._write_catalog(name, params, data.documents)
        except BaseException:
            log.error("Writing index version %s failed; %s stays live", name, previous or "nothing")
            self._drop_version(name)
            raise
        self._set_pointer(name)
        log.info("Index version %s is live in %s", name, self.describe())
        self._prune(keep={name, previous})
        return name

    def copy_from(self, source: IndexStore, model_id: str) -> str:
        """Write ``source``'s live version here as a new version, without re-embedding.

        For a firm moving an embedded index to Milvus: the clauses, documents (with their
        file hashes, so the next build stays incremental) and vectors are taken as they are.
        """
        previous = source.previous(model_id)
        if not previous.version:
            raise IndexNotFoundError(f"Nothing to copy: {source.describe()} has no live version.")
        clauses = [c for doc in previous.documents for c in previous.clauses_by_doc.get(doc, [])]
        missing = [c.clause_id for c in clauses if text_key(c.text) not in previous.vectors]
        if missing:
            raise IndexFormatError(
                f"{source.describe()} was embedded with {previous.params.get('embedding_model')},"
                f" not {model_id}: copy it with that model, or build with `index-builder build "
                f"--backend milvus` to embed again.")
        vectors = np.stack([previous.vectors[text_key(c.text)] for c in clauses]).astype(np.float32)
        return self.write(VersionData(dict(previous.params), clauses, previous.documents, vectors))

    def describe(self) -> str:
        where = f"milvus-lite file {self.uri}" if self.lite else f"Milvus at {self.uri}"
        return f"{where}, collection {self.alias}"

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._client.close()

    # -- versions -----------------------------------------------------------------------------
    def _create_version(self, name: str, dimension: int, arrays: list[str]) -> None:
        from pymilvus import DataType, Function, FunctionType, MilvusClient

        schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("clause_id", DataType.VARCHAR, max_length=2048, is_primary=True)
        schema.add_field("clause_key", DataType.VARCHAR, max_length=40)  # token(clause_id)
        schema.add_field("doc_key", DataType.VARCHAR, max_length=40)  # token(doc_id)
        schema.add_field("ordinal", DataType.INT64)
        schema.add_field("text", DataType.VARCHAR, max_length=65_535, enable_analyzer=True,
                         analyzer_params={"type": "english"})
        schema.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
        schema.add_field("dense", DataType.FLOAT_VECTOR, dim=dimension)
        schema.add_field("text_sha256", DataType.VARCHAR, max_length=64)
        for field, length in (("doc_id", 4096), ("doc_title", 4096), ("source_path", 8192),
                              ("section", 1024), ("heading", 8192)):
            schema.add_field(field, DataType.VARCHAR, max_length=length)
        schema.add_field("paragraph_start", DataType.INT64)
        schema.add_field("paragraph_end", DataType.INT64)
        schema.add_field("ordered", DataType.BOOL)
        for field in ("metadata", "keys", "flags"):
            schema.add_field(field, DataType.JSON)
        for field in arrays:
            schema.add_field(field, DataType.ARRAY, element_type=DataType.VARCHAR,
                             max_capacity=4096, max_length=1024)
        schema.add_function(Function(name="text_bm25", function_type=FunctionType.BM25,
                                     input_field_names=["text"], output_field_names=["sparse"]))
        with self._errors("create a collection"):
            self._client.create_collection(name, schema=schema, consistency_level="Strong")

    def _insert_clauses(self, name: str, data: VersionData, arrays: list[str]) -> None:
        unordered = {d for d, info in data.documents.items() if info.get("kind") == "beir"}
        batch: list[dict[str, Any]] = []
        for ordinal, (clause, vector) in enumerate(zip(data.clauses, data.embeddings)):
            if len(clause.text.encode("utf-8")) > 65_535:
                log.warning("Clause %s is longer than 64 KB; Milvus keeps its first 64 KB",
                            clause.clause_id)
            try:
                batch.append(clause_row(clause, ordinal, clause.doc_id not in unordered, vector,
                                        text_key(clause.text), arrays))
            except ValueError as exc:
                raise DocumentError(f"{clause.source_path or clause.doc_id}: {exc}. Shorten the "
                                    f"list and build again; the live version is unchanged.") from exc
            if len(batch) >= INSERT_BATCH:
                self._insert(name, batch)
                batch = []
        if batch:
            self._insert(name, batch)

    def _insert(self, name: str, rows: list[dict[str, Any]]) -> None:
        with self._errors("insert clauses"):
            self._client.insert(name, rows)

    def _finish_version(self, name: str, expected: int) -> None:
        index = self._client.prepare_index_params()
        index.add_index("dense", index_type="AUTOINDEX", metric_type="COSINE")
        index.add_index("sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25",
                        params={"bm25_k1": self.bm25.k1, "bm25_b": self.bm25.b})
        if not self.lite:  # milvus-lite builds no scalar indexes; a cluster filters faster with them
            for field in ("clause_key", "doc_key", "ordinal",
                          *(f for f in LIST_FIELDS if _NAME.match(f))):
                index.add_index(field, index_type="INVERTED")
        with self._errors("index a new version"):
            self._client.flush(name)
            self._client.create_index(name, index)
            self._client.load_collection(name)
            count = self._count(name, "")
        if count != expected:
            raise SearchEngineUnavailableError(
                f"Milvus holds {count} of the {expected} clauses written to {name}; the live "
                f"version is unchanged. Check the Milvus logs and build again.")

    def _write_catalog(self, name: str, params: dict[str, Any],
                       documents: dict[str, dict[str, Any]]) -> None:
        rows = [_catalog_row(f"version:{name}", "version", name, {"params": params})]
        rows += [_catalog_row(f"doc:{name}:{text_key(doc)}", "document", name, {"id": doc, **info},
                              seq) for seq, (doc, info) in enumerate(documents.items())]
        with self._errors("record the version"):
            for start in range(0, len(rows), INSERT_BATCH):
                self._client.insert(self.catalog, rows[start:start + INSERT_BATCH])

    def _params(self, version: str) -> dict[str, Any] | None:
        with self._errors("read the catalog"):
            rows = _query(self._client, self.catalog, f"key == {literal('version:' + version)}",
                          ["payload"], 1)
        return dict(rows[0]["payload"]["params"]) if rows else None

    def _drop_version(self, name: str) -> None:
        """Best effort: a failed drop leaves an unused collection that the next prune removes."""
        try:
            if self._client.has_collection(name):
                self._client.drop_collection(name)
            self._client.delete(self.catalog, filter=f"version == {literal(name)}")
        except Exception as exc:  # noqa: BLE001 - cleanup must not hide the original error
            log.warning("Could not drop %s (%s); the next build prunes it", name, type(exc).__name__)

    def _prune(self, keep: set[str]) -> None:
        with self._errors("list collections"):
            names = self._client.list_collections()
        prefix = f"{self.alias}_v"
        for name in names:
            if name.startswith(prefix) and name not in keep:
                log.info("Dropping old index version %s", name)
                self._drop_version(name)

    # -- the live pointer ---------------------------------------------------------------------
    def _aliases_supported(self) -> bool:
        """Clusters switch with an alias; milvus-lite answers UNIMPLEMENTED and uses a row."""
        try:
            self._client.describe_alias(self.alias)
        except Exception as exc:  # noqa: BLE001 - classified below
            return not connection.unimplemented(exc)
        return True

    def _pointer(self) -> str:
        with self._errors("read the live version"):
            if self._aliases:
                try:
                    return str(self._client.describe_alias(self.alias)["collection_name"])
                except Exception as exc:  # noqa: BLE001
                    if connection.not_found(exc):
                        return ""
                    raise
            rows = _query(self._client, self.catalog, 'key == "live"', ["payload"], 1)
            return str(rows[0]["payload"]["version"]) if rows else ""

    def _set_pointer(self, name: str) -> None:
        with self._errors("switch the live version"):
            row = [_catalog_row("live", "pointer", name, {"version": name})]
            if not self._aliases:
                self._client.upsert(self.catalog, row)  # milvus-lite: the row is the pointer
                return
            if self._pointer():
                self._client.alter_alias(name, self.alias)
            else:
                self._client.create_alias(name, self.alias)
        try:  # on a cluster the row only records the switch; the alias already made it
            self._client.upsert(self.catalog, row)
        except Exception as exc:  # noqa: BLE001
            log.warning("Version %s is live; recording it in the catalog failed (%s)", name,
                        connection.reason(exc))

    def _ensure_catalog(self) -> None:
        from pymilvus import DataType, MilvusClient

        with self._errors("open the catalog"):
            if not self._client.has_collection(self.catalog):
                schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
                schema.add_field("key", DataType.VARCHAR, max_length=1024, is_primary=True)
                schema.add_field("kind", DataType.VARCHAR, max_length=32)
                schema.add_field("version", DataType.VARCHAR, max_length=256)
                schema.add_field("seq", DataType.INT64)  # a document's number, to read in windows
                schema.add_field("payload", DataType.JSON)
                # Milvus collections need a vector field; this one is never searched.
                schema.add_field("unused", DataType.FLOAT_VECTOR, dim=2)
                index = self._client.prepare_index_params()
                index.add_index("unused", index_type="AUTOINDEX", metric_type="L2")
                self._client.create_collection(self.catalog, schema=schema, index_params=index,
                                               consistency_level="Strong")
            self._client.load_collection(self.catalog)

    # -- helpers ------------------------------------------------------------------------------
    def _count(self, collection: str, expr: str) -> int:
        rows = _query(self._client, collection, expr, ["count(*)"], None)
        return int(rows[0]["count(*)"]) if rows else 0

    def _iterate(self, collection: str, expr: str, fields: list[str], order: str,
                 total: int) -> Iterator[dict[str, Any]]:
        """Every row matching ``expr``, read in windows of ``order`` (0..total-1).

        Milvus caps one query at 16,384 rows and milvus-lite's query iterator fails on JSON
        fields, so rows are read window by window over a dense sequence number.
        """
        with self._errors("read rows"):
            for start in range(0, max(total, 0), MAX_TOPK):
                window = f"{order} >= {start} and {order} < {start + MAX_TOPK}"
                yield from _query(self._client, collection,
                                  f"({expr}) and {window}" if expr else window, fields, MAX_TOPK)

    @contextlib.contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """Engine failures become one error that names the place and the setting to check."""
        try:
            yield
        except Exception as exc:
            if not connection.is_engine_error(exc):
                raise
            raise SearchEngineUnavailableError(
                f"Milvus could not {doing} ({connection.reason(exc)}) at {self.describe()}. Check that "
                f"Milvus is running and PRECEDENT_MILVUS_URI / PRECEDENT_MILVUS_TOKEN are "
                f"right.") from exc


class MilvusBackend:
    """One version of a Milvus index, open for reading (implements ``SearchBackend``)."""

    def __init__(self, store: MilvusStore, version: str, params: dict[str, Any]) -> None:
        self.store = store
        self.version = version
        self.params = params
        self.model_id = str(params.get("embedding_model", ""))
        self.dimension = int(params.get("dimension", 0))
        self._size = int(params.get("clauses", 0))
        info = params.get("milvus", {})
        self._arrays = list(info.get("array_fields", []))
        self._fields = set(CORE_FIELDS) | set(ALIASES) | set(info.get("metadata_keys", []))
        self._client = store._client
        self._ordinals: dict[str, int] = {}
        self._lock = threading.Lock()

    # -- searches ---------------------------------------------------------------------------
    def dense(self, vectors: np.ndarray, k: int, filters: Filters = ()) -> Scored:
        """Cosine similarity; several rows = the best score per clause."""
        vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        if vectors.shape[1] != self.dimension:
            raise InvalidRequestError(
                f"Query vectors have {vectors.shape[1]} dimensions but index version "
                f"{self.version} holds {self.dimension} ({self.model_id}): embed queries with "
                f"{self.model_id} or rebuild the index.")
        hits = self._search([v.tolist() for v in vectors], "dense", "COSINE", k, filters)
        best: dict[str, tuple[float, int]] = {}
        for row in hits:
            for cid, score, ordinal in row:
                if cid not in best or score > best[cid][0]:
                    best[cid] = (score, ordinal)
        return _ranked(best, k)

    def lexical(self, texts: Sequence[str], k: int, filters: Filters = ()) -> Scored:
        """Milvus BM25 (english analyzer); several texts = their summed scores per clause.

        The texts are searched as one query: Milvus weighs each query term by its count, so
        the score of the joined text is the sum of the texts' scores over every clause (not
        only over each text's own top k).
        """
        joined = "\n".join(t for t in texts if t.strip())
        if not joined:
            return []
        hits = self._search([joined], "sparse", "BM25", k, filters)
        scored = {cid: (score, ordinal) for cid, score, ordinal in hits[0] if score > 0}
        return _ranked(scored, k)

    def hybrid(self, vectors: np.ndarray, texts: Sequence[str], k: int, filters: Filters = (),
               rrf_k: int = 60) -> Scored:
        """Milvus's own fusion: one dense request per row and one BM25 request, RRF-ranked."""
        from pymilvus import AnnSearchRequest, RRFRanker

        expr = self._expr(filters)
        k = min(k, MAX_TOPK)
        requests = [AnnSearchRequest(data=[v.tolist()], anns_field="dense", limit=k, expr=expr,
                                     param={"metric_type": "COSINE"})
                    for v in np.atleast_2d(np.asarray(vectors, dtype=np.float32))]
        joined = "\n".join(t for t in texts if t.strip())
        if joined:
            requests.append(AnnSearchRequest(data=[joined], anns_field="sparse", limit=k,
                                             expr=expr, param={"metric_type": "BM25"}))
        if k <= 0 or not requests:
            return []
        with self.store._errors("search"):
            result = self._client.hybrid_search(self.version, requests, ranker=RRFRanker(rrf_k),
                                                limit=k, output_fields=["ordinal"])
        return _ranked({h["id"]: (float(h["distance"]), int(h["entity"]["ordinal"]))
                        for h in result[0]}, k)

    def _search(self, data: list[Any], field: str, metric: str, k: int,
                filters: Filters) -> list[list[tuple[str, float, int]]]:
        expr = self._expr(filters)
        k = min(k, MAX_TOPK)
        if k <= 0:
            return [[] for _ in data]
        with self.store._errors("search"):
            result = self._client.search(self.version, data=data, anns_field=field, limit=k,
                                         filter=expr, output_fields=["ordinal"],
                                         search_params={"metric_type": metric})
        rows = [[(str(h["id"]), float(h["distance"]), int(h["entity"]["ordinal"])) for h in row]
                for row in result]
        with self._lock:
            if len(self._ordinals) > 200_000:
                self._ordinals.clear()
            self._ordinals.update((cid, o) for row in rows for cid, _, o in row)
        return rows

    def _expr(self, filters: Filters) -> str:
        if not filters:
            return ""
        check_fields(filters, self._fields | set(LIST_FIELDS))
        return expression(filters, self._arrays)

    def positions(self, clause_ids: Sequence[str]) -> list[int]:
        """Insertion order of clauses in this version: the tie-break for equal fused scores."""
        with self._lock:
            known = {cid: self._ordinals[cid] for cid in clause_ids if cid in self._ordinals}
        missing = [cid for cid in clause_ids if cid not in known]
        if missing:
            known.update((str(row["clause_id"]), int(row["ordinal"]))
                         for row in self._query_ids(missing, ["clause_id", "ordinal"]))
        return [known.get(cid, self._size) for cid in clause_ids]

    # -- clause store -----------------------------------------------------------------------
    def get(self, clause_ids: Sequence[str]) -> list[Clause | None]:
        found = {str(r["clause_id"]): clause_from_row(r)
                 for r in self._query_ids(list(dict.fromkeys(clause_ids)), CLAUSE_FIELDS)}
        return [found.get(cid) for cid in clause_ids]

    def neighbours(self, clause_id: str, window: int) -> tuple[list[Clause], list[Clause]]:
        rows = self._query_ids([clause_id], ["doc_id", "ordinal", "ordered"])
        # A BEIR corpus is a bag of clauses from many contracts: its order is not a document.
        if not rows or not rows[0]["ordered"] or window <= 0:
            return [], []
        doc, at = str(rows[0]["doc_id"]), int(rows[0]["ordinal"])
        expr = (f"doc_key == {literal(token(doc))} and ordinal >= {at - window} and "
                f"ordinal <= {at + window} and ordinal != {at}")
        with self.store._errors("read clauses"):
            found = _query(self._client, self.version, expr, CLAUSE_FIELDS, 2 * window)
        found.sort(key=lambda r: int(r["ordinal"]))
        return ([clause_from_row(r) for r in found if int(r["ordinal"]) < at],
                [clause_from_row(r) for r in found if int(r["ordinal"]) > at])

    def fields(self) -> set[str]:
        return set(self._fields)

    def facets(self, names: Sequence[str], filters: Filters = ()) -> dict[str, dict[str, int]]:
        """value -> number of documents, over the clauses the filters allow (read in batches)."""
        out: dict[str, dict[str, set[str]]] = {name: {} for name in names}
        fields = ["doc_id", "metadata", *(n for n in names if n in CORE_FIELDS and n != "doc_id")]
        for row in self.store._iterate(self.version, self._expr(filters), sorted(set(fields)),
                                       "ordinal", self._size):
            metadata = row.get("metadata") or {}
            for name in names:
                value = str(row[name]) if name in CORE_FIELDS else metadata.get(name)
                if value:
                    out[name].setdefault(str(value), set()).add(str(row["doc_id"]))
        return {name: {v: len(docs) for v, docs in values.items()} for name, values in out.items()}

    def stats(self, filters: Filters = ()) -> dict[str, int]:
        if not filters:
            return {"clauses": int(self.params.get("clauses", 0)),
                    "documents": int(self.params.get("documents", 0))}
        docs: set[str] = set()
        clauses = 0
        for row in self.store._iterate(self.version, self._expr(filters), ["doc_id"], "ordinal",
                                       self._size):
            clauses += 1
            docs.add(str(row["doc_id"]))
        return {"clauses": clauses, "documents": len(docs)}

    def close(self) -> None:
        """The connection belongs to the store; a version is released when it is dropped."""

    def _query_ids(self, clause_ids: list[str], fields: list[str]) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        with self.store._errors("read clauses"):
            for start in range(0, len(clause_ids), QUERY_BATCH):
                chunk = clause_ids[start:start + QUERY_BATCH]
                keys = literals(token(cid) for cid in chunk)
                rows += _query(self._client, self.version, f"clause_key in {keys}", fields,
                               len(chunk))
        return rows


def _ranked(scored: dict[str, tuple[float, int]], k: int) -> Scored:
    # Ties go to the earlier clause in the index, as in the embedded backend.
    ordered = sorted(scored.items(), key=lambda item: (-item[1][0], item[1][1]))[:k]
    return [(cid, score) for cid, (score, _) in ordered]


def _query(client: Any, collection: str, expr: str, fields: list[str],
           limit: int | None) -> list[dict[str, Any]]:
    """``client.query``; milvus-lite 2.5.1 answers a query that matches nothing with
    "Unsupported data type: 0" instead of an empty list, so that answer means no rows."""
    from pymilvus.exceptions import MilvusException

    try:
        kwargs = {"limit": limit} if limit else {}
        return list(client.query(collection, filter=expr, output_fields=fields, **kwargs))
    except MilvusException as exc:
        if "Unsupported data type: 0" in str(exc):
            return []
        raise


def _catalog_row(key: str, kind: str, version: str, payload: dict[str, Any],
                 seq: int = 0) -> dict[str, Any]:
    return {"key": key, "kind": kind, "version": version, "seq": seq, "unused": [0.0, 0.0],
            "payload": json.loads(json.dumps(payload, default=str))}


def _catalog_filter(version: str, kind: str) -> str:
    return f"version == {literal(version)} and kind == {literal(kind)}"
