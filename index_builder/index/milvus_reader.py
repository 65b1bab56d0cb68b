"""Reading one version of a Milvus index: searches, clause look-ups, facets (``SearchBackend``).

A version is a generation of rows in a collection (see milvus.py): every read adds the
version's scope, ``born <= g and dead > g``, to its expression, so a reader never sees rows
that a later build added or that an earlier build retired. Versions written before
generations existed (one collection per version, no ``born``/``dead``) are read unscoped.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence, TypeVar

import numpy as np

from index_builder.errors import InvalidRequestError
from index_builder.index.backend import ALIASES, CORE_FIELDS, LIST_FIELDS, Filters, Scored, \
    check_fields
from index_builder.index.milvus_expr import CLAUSE_FIELDS, clause_from_row, expression, literal, \
    literals, safe, token
from index_builder.model import Clause

if TYPE_CHECKING:
    from index_builder.index.milvus import MilvusStore

QUERY_BATCH = 1_000
MAX_TOPK = 16_384  # Milvus's limit on k per search and on rows per query
# Rows per read window. pymilvus 2.5 turns each row's float vector into a list by slicing the
# whole reply's vector field, so a query's cost grows with the square of its rows when vectors
# are read: 2,048 rows with 384-d vectors 1.0 s, 10,250 rows 153 s (docs/milvus.md).
READ_WINDOW = 4_096
VECTOR_WINDOW = 1_024
T = TypeVar("T")
R = TypeVar("R")
SEEN_LIMIT = 200_000  # clause ids whose ordinal and key a reader keeps (a few dozen MB)
ROWS_LIMIT = 20_000  # clause rows it keeps from searches (texts: up to ~40 MB)


def scope(generation: int | None) -> str:
    """The rows generation ``generation`` sees; "" for a version that has a collection alone."""
    return "" if generation is None else f"born <= {int(generation)} and dead > {int(generation)}"


def both(*parts: str) -> str:
    """Expressions joined with ``and`` (empty ones left out)."""
    return " and ".join(f"({p})" for p in parts if p)


def query(client: Any, collection: str, expr: str, fields: list[str],
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


def windows(client: Any, collection: str, expr: str, fields: list[str], order: str,
            end: int, window: int = READ_WINDOW, threads: int = 1) -> Iterator[dict[str, Any]]:
    """Every row matching ``expr``, read in windows of ``order`` over 0..end-1, in order.

    Milvus caps one query at 16,384 rows and milvus-lite's query iterator fails on JSON
    fields, so rows are read window by window over a sequence number. ``threads`` > 1 keeps
    that many windows in flight (all of them are then held until read: small fields only).
    """
    if "dense" in fields:
        window = min(window, VECTOR_WINDOW)

    def read(start: int) -> list[dict[str, Any]]:
        span = f"{order} >= {start} and {order} < {start + window}"
        return query(client, collection, both(expr, span), fields, window)

    for part in in_flight(read, range(0, max(end, 0), window), threads):
        yield from part


def in_flight(function: Callable[[T], R], items: Iterable[T], threads: int) -> Iterator[R]:
    """``function`` over ``items``, results in order, ``threads`` calls at a time (milvus-lite
    works on each request with a core of its own while this process waits)."""
    if threads <= 1:
        yield from map(function, items)
        return
    with ThreadPoolExecutor(threads) as pool:
        yield from pool.map(function, items)


class MilvusBackend:
    """One version of a Milvus index, open for reading (implements ``SearchBackend``)."""

    def __init__(self, store: "MilvusStore", version: str, params: dict[str, Any]) -> None:
        self.store = store
        self.version = version
        self.params = params
        self.model_id = str(params.get("embedding_model", ""))
        self.dimension = int(params.get("dimension", 0))
        self._size = int(params.get("clauses", 0))
        info = params.get("milvus", {})
        self.collection = str(info.get("collection") or version)
        generation = info.get("generation")
        self._scope = scope(None if generation is None else int(generation))
        self._end = int(info.get("ordinal_end", self._size))
        self._arrays = list(info.get("array_fields", []))
        self._fields = set(CORE_FIELDS) | set(ALIASES) | set(info.get("metadata_keys", []))
        self._client = store._client
        # What searches returned, so that the pipeline's look-ups of its own hits need no query:
        # in milvus-lite any query scans every row (100 clauses by primary key: 9 ms at 100k
        # rows, 350 ms at 1M), while a search hands the same fields back for ~1 ms more.
        # clause id -> (ordinal, primary key) of the row this version sees ...
        self._seen: dict[str, tuple[int, str]] = {}
        # ... and clause id -> the row's clause fields (bounded: cleared when full).
        self._hit_rows: dict[str, dict[str, Any]] = {}
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
        return ranked(best, k)

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
        return ranked(scored, k)

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
            result = self._client.hybrid_search(self.collection, requests,
                                                ranker=RRFRanker(rrf_k), limit=k,
                                                output_fields=["clause_id", "ordinal"])
        self._remember(result)
        return ranked({_clause_id(h): (float(h["distance"]), int(h["entity"]["ordinal"]))
                       for h in result[0]}, k)

    def _search(self, data: list[Any], field: str, metric: str, k: int,
                filters: Filters) -> list[list[tuple[str, float, int]]]:
        expr = self._expr(filters)
        k = min(k, MAX_TOPK)
        if k <= 0:
            return [[] for _ in data]
        with self.store._errors("search"):
            result = self._client.search(self.collection, data=data, anns_field=field, limit=k,
                                         filter=expr, output_fields=CLAUSE_FIELDS,
                                         search_params={"metric_type": metric})
        rows = [[(_clause_id(h), float(h["distance"]), int(h["entity"]["ordinal"])) for h in row]
                for row in result]
        self._remember(result)
        return rows

    def _remember(self, result: Any) -> None:
        with self._lock:
            if len(self._seen) > SEEN_LIMIT:
                self._seen.clear()
            if len(self._hit_rows) > ROWS_LIMIT:
                self._hit_rows.clear()
            for row in result:
                for hit in row:
                    cid, entity = _clause_id(hit), hit["entity"]
                    self._seen[cid] = (int(entity["ordinal"]), str(hit["id"]))
                    if "text" in entity:
                        self._hit_rows[cid] = entity

    def _expr(self, filters: Filters) -> str:
        if not filters:
            return self._scope
        check_fields(filters, self._fields | set(LIST_FIELDS))
        return both(self._scope, expression(filters, self._arrays))

    def positions(self, clause_ids: Sequence[str]) -> list[int]:
        """Insertion order of clauses in this version: the tie-break for equal fused scores."""
        with self._lock:
            known = {cid: self._seen[cid][0] for cid in clause_ids if cid in self._seen}
        missing = [cid for cid in clause_ids if cid not in known]
        if missing:
            known.update((str(row["clause_id"]), int(row["ordinal"]))
                         for row in self._query_ids(missing, ["clause_id", "ordinal"]))
        return [known.get(cid, self._end) for cid in clause_ids]

    # -- clause store -----------------------------------------------------------------------
    def get(self, clause_ids: Sequence[str]) -> list[Clause | None]:
        wanted = list(dict.fromkeys(clause_ids))
        with self._lock:
            rows = {cid: self._hit_rows[cid] for cid in wanted if cid in self._hit_rows}
        missing = [cid for cid in wanted if cid not in rows]
        if missing:
            rows.update((str(r["clause_id"]), r) for r in self._query_ids(missing, CLAUSE_FIELDS))
        found = {cid: clause_from_row(row) for cid, row in rows.items()}
        return [found.get(cid) for cid in clause_ids]

    def neighbours(self, clause_id: str, window: int) -> tuple[list[Clause], list[Clause]]:
        rows = self._query_ids([clause_id], ["doc_id", "ordinal", "ordered"])
        # A BEIR corpus is a bag of clauses from many contracts: its order is not a document.
        if not rows or not rows[0]["ordered"] or window <= 0:
            return [], []
        doc, at = str(rows[0]["doc_id"]), int(rows[0]["ordinal"])
        # A document's rows in one generation hold a contiguous run of ordinals (milvus_plan).
        expr = both(self._scope, f"doc_key == {literal(token(doc))} and ordinal >= {at - window} "
                                 f"and ordinal <= {at + window} and ordinal != {at}")
        with self.store._errors("read clauses"):
            found = query(self._client, self.collection, expr, CLAUSE_FIELDS, 2 * window)
        found.sort(key=lambda r: int(r["ordinal"]))
        return ([clause_from_row(r) for r in found if int(r["ordinal"]) < at],
                [clause_from_row(r) for r in found if int(r["ordinal"]) > at])

    def fields(self) -> set[str]:
        return set(self._fields)

    def facets(self, names: Sequence[str], filters: Filters = ()) -> dict[str, dict[str, int]]:
        """value -> number of documents, over the clauses the filters allow (read in windows)."""
        out: dict[str, dict[str, set[str]]] = {name: {} for name in names}
        fields = ["doc_id", "metadata", *(n for n in names if n in CORE_FIELDS and n != "doc_id")]
        for row in self._rows(self._expr(filters), sorted(set(fields))):
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
        for row in self._rows(self._expr(filters), ["doc_id"]):
            clauses += 1
            docs.add(str(row["doc_id"]))
        return {"clauses": clauses, "documents": len(docs)}

    def close(self) -> None:
        """The connection belongs to the store; a version is released when it is dropped."""

    def _rows(self, expr: str, fields: list[str]) -> Iterator[dict[str, Any]]:
        with self.store._errors("read rows"):
            yield from windows(self._client, self.collection, expr, fields, "ordinal", self._end,
                               MAX_TOPK)

    def _query_ids(self, clause_ids: list[str], fields: list[str]) -> list[dict[str, Any]]:
        """These clauses' rows: by primary key where a search returned it, else by clause_key."""
        with self._lock:
            # Layout 1 (no generations) keyed rows by clause id: no key look-ups there.
            keys = {cid: self._seen[cid][1] for cid in clause_ids
                    if self._scope and cid in self._seen}
        with self.store._errors("read clauses"):
            return fetch(self._client, self.collection, self._scope, clause_ids, keys, fields)


def fetch(client: Any, collection: str, scope_expr: str, clause_ids: Sequence[str],
          keys: dict[str, str], fields: list[str], threads: int = 1) -> list[dict[str, Any]]:
    """The rows of these clauses in one version (``scope_expr``), by primary key where ``keys``
    holds a safe one (milvus_expr.row_key), else by ``clause_key``.

    A key is the cheapest look-up (milvus_expr.row_key). Rows written before row_key held
    "generation:clause id", which may not be quoted safely. ``threads`` > 1 keeps that many
    queries in flight.
    """
    by_key = {cid: keys[cid] for cid in clause_ids if cid in keys and safe(keys[cid])}
    rest = [token(cid) for cid in clause_ids if cid not in by_key]
    chunks = [(field, values[at:at + QUERY_BATCH])
              for field, values in (("row_id", list(by_key.values())), ("clause_key", rest))
              for at in range(0, len(values), QUERY_BATCH)]

    def read(chunk: tuple[str, list[str]]) -> list[dict[str, Any]]:
        field, values = chunk
        expr = both(scope_expr, f"{field} in {literals(values)}")
        return query(client, collection, expr, fields, len(values))

    return [row for part in in_flight(read, chunks, threads) for row in part]


def _clause_id(hit: Any) -> str:
    """Versions with generations key rows by generation and clause; older ones by clause id."""
    return str(hit["entity"].get("clause_id", hit["id"]))


def ranked(scored: dict[str, tuple[float, int]], k: int) -> Scored:
    # Ties go to the earlier clause in the index, as in the embedded backend.
    ordered = sorted(scored.items(), key=lambda item: (-item[1][0], item[1][1]))[:k]
    return [(cid, score) for cid, (score, _) in ordered]
