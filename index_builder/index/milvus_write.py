"""Writing a version into Milvus: a new generation of rows beside the live one, then checked.

The middle layer of ``MilvusStore`` (milvus.py): ``_plan`` decides whether the new version
fits in the live collection as a generation (only changed documents' rows written, old ones
marked dead) or needs a fresh collection; the rest inserts, retires, counts and records it,
and ``_abandon`` clears what a failed write left. Readers of the live version see none of it
until the pointer switches (milvus_versions.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

import numpy as np

from index_builder.errors import DocumentError, IndexFormatError, SearchEngineUnavailableError
from index_builder.index.backend import LIST_FIELDS, VersionData, text_key
from index_builder.index.milvus_expr import clause_row, literal, row_key
from index_builder.index.milvus_plan import FOREVER, LiveRow, Plan, plan_carried, plan_generation
from index_builder.index.milvus_reader import MAX_TOPK, QUERY_BATCH, fetch, in_flight, scope, windows
from index_builder.index.milvus_versions import (_NAME, MilvusVersions, _catalog_row, _collection,
                                                 _end, _generation, log)
from index_builder.settings import BM25Settings

INSERT_BATCH = 1_024  # rows per insert or upsert call (a few MB; each call stays short)
# A collection holding more rows than this many times the version (plus the slack) is
# rewritten fresh: dead rows of pruned versions are deleted, but Milvus's BM25 statistics and
# its segments shrink only when it compacts.
COMPACT_AT, COMPACT_SLACK = 1.5, 10_000
# Requests the writer keeps in flight for its bulk reads and retires: milvus-lite works on
# each with a core of its own while this process waits (the 1M row list: 30 s one at a time).
ENGINE_THREADS = 2
_SNAPSHOT_FIELDS = ["row_id", "clause_id", "doc_id", "ordinal", "row_sha", "dead", "text_sha256"]


@dataclass
class _Snapshot:
    """The live generation's rows as the writer needs them (read once per build)."""

    version: str
    rows: list[LiveRow] = field(default_factory=list)
    owners: dict[str, str] = field(default_factory=dict)  # text key -> a clause id holding it


class MilvusWriter(MilvusVersions):
    """Writing versions of one index in Milvus (a base of ``MilvusStore``)."""

    bm25: BM25Settings
    _snapshot: _Snapshot | None

    def _plan(self, live: str, live_params: dict[str, Any], data: VersionData,
              digests: list[str], dimension: int, arrays: list[str]) -> Plan | None:
        """How to write the new version into the live collection; None: write a fresh one."""
        info = live_params.get("milvus", {})
        if _generation(live_params) is None:
            return None  # no live version, or one of the layout with a collection per version
        if (live_params.get("embedding_model") != data.params.get("embedding_model")
                or int(live_params.get("dimension", 0)) != dimension
                or info.get("array_fields") != arrays
                or info.get("bm25_index") != self._bm25_index()):
            return None  # every row (or the sparse index) would change anyway
        collection = _collection(live, live_params)
        with self._errors("read the live version"):
            if not self._client.has_collection(collection):
                return None
            held = self._count(collection, "")
        snapshot = self._live_snapshot(live, live_params)
        if data.kept:
            plan = plan_carried(snapshot.rows, data.kept, len(data.clauses), _end(live_params))
        else:
            plan = plan_generation(snapshot.rows, data.clauses, digests, _end(live_params))
        total = plan.kept + len(plan.insert)
        if held + len(plan.insert) > COMPACT_AT * total + COMPACT_SLACK:
            log.info("Writing %s afresh: it holds %d rows for %d clauses", collection, held, total)
            return None
        return plan

    def _write_changes(self, collection: str, live: str, live_params: dict[str, Any],
                       data: VersionData, plan: Plan, generation: int, digests: list[str],
                       arrays: list[str]) -> None:
        """Insert the changed documents' rows and retire their old ones (readers of the live
        version see neither change: the new rows are born after it, the old ones die after)."""
        live_gen = int(_generation(live_params) or 0)
        with self._errors("clear an unfinished build"):
            # Rows a failed build left: no version sees them, and this one must not either.
            self._client.delete(collection, filter=f"born > {live_gen}")
        self._insert_rows(collection, data, plan.insert, plan.ordinals, generation, digests, arrays)
        retired = set(plan.retire_docs)
        snapshot = self._live_snapshot(live, live_params)
        keys = {r.clause_id: r.row_id for r in snapshot.rows}
        self._mark(collection, live_params,
                   [r.clause_id for r in snapshot.rows if r.doc_id in retired], generation, keys)
        self._mark(collection, live_params, plan.revive, FOREVER, keys)
        with self._errors("index a new version"):
            self._client.flush(collection)

    def _insert_rows(self, collection: str, data: VersionData, positions: Sequence[int],
                     ordinals: Sequence[int], generation: int, digests: list[str],
                     arrays: list[str]) -> None:
        unordered = {d for d, info in data.documents.items() if info.get("kind") == "beir"}
        stored = self._stored_vectors(data, positions)
        batch: list[dict[str, Any]] = []
        for position, ordinal in zip(positions, ordinals):
            clause = data.clauses[position]
            key = text_key(clause.text)
            if len(clause.text.encode("utf-8")) > 65_535:
                log.warning("Clause %s is longer than 64 KB; Milvus keeps its first 64 KB",
                            clause.clause_id)
            vector = stored.get(key) if key in stored else data.embeddings[position]
            try:
                row = clause_row(clause, ordinal, clause.doc_id not in unordered, vector, key,
                                 arrays)
            except ValueError as exc:
                raise DocumentError(f"{clause.source_path or clause.doc_id}: {exc}. Shorten the "
                                    f"list and build again; the live version is unchanged.") from exc
            row.update(row_id=row_key(generation, clause.clause_id), born=generation, dead=FOREVER,
                       row_sha=digests[position])
            batch.append(row)
            if len(batch) >= INSERT_BATCH:
                self._send(collection, batch, "insert")
                batch = []
        if batch:
            self._send(collection, batch, "insert")

    def _stored_vectors(self, data: VersionData, positions: Sequence[int]) -> dict[str, Any]:
        """Vectors of texts the builder took from the live version (NaN placeholders, see
        ``previous``), copied out of it: only for rows that are inserted again."""
        wanted = {text_key(data.clauses[p].text) for p in positions
                  if np.isnan(data.embeddings[p, 0])}
        if not wanted:
            return {}
        live = self._pointer()
        live_params = self._params(live) if live else None
        if not live_params or _generation(live_params) is None:
            raise IndexFormatError("Some vectors were to be copied from a live version that is "
                                   "gone: build again.")
        snapshot = self._live_snapshot(live, live_params)
        owners = {snapshot.owners[k]: k for k in wanted if k in snapshot.owners}
        if len(owners) < len(wanted):
            raise IndexFormatError(f"{len(wanted) - len(owners)} vectors to reuse are not in "
                                   f"{live}: build again.")
        out: dict[str, Any] = {}
        keys = {r.clause_id: r.row_id for r in snapshot.rows}
        with self._errors("copy vectors"):
            for row in fetch(self._client, _collection(live, live_params),
                             scope(_generation(live_params)), sorted(owners), keys,
                             ["clause_id", "dense"], threads=ENGINE_THREADS):
                out[owners[str(row["clause_id"])]] = row["dense"]
        return out

    def _mark(self, collection: str, live_params: dict[str, Any], clause_ids: list[str],
              dead: int, keys: dict[str, str]) -> None:
        """Set ``dead`` on these clauses' live rows (an upsert of the whole row: Milvus 2.5
        has no partial update). ``keys``: clause id -> primary key of its live row."""
        fields = _row_fields(live_params.get("milvus", {}).get("array_fields", []))
        live_scope = scope(_generation(live_params))

        def retire(start: int) -> None:
            chunk = clause_ids[start:start + QUERY_BATCH]
            with self._errors("read rows"):
                rows = fetch(self._client, collection, live_scope, chunk, keys, fields)
            for row in rows:
                row["dead"] = dead
                row["dense"] = [float(x) for x in row["dense"]]
                for name in ("metadata", "keys", "flags"):  # some clients hand JSON back as text
                    if isinstance(row[name], str):
                        row[name] = json.loads(row[name])
            for at in range(0, len(rows), INSERT_BATCH):
                self._send(collection, rows[at:at + INSERT_BATCH], "upsert")

        # Chunks are independent (each row is retired once), so they go ENGINE_THREADS at a time.
        list(in_flight(retire, range(0, len(clause_ids), QUERY_BATCH), ENGINE_THREADS))

    def _send(self, collection: str, rows: list[dict[str, Any]], how: str) -> None:
        with self._errors(f"{how} clauses"):
            getattr(self._client, how)(collection, rows)

    def _create_version(self, name: str, dimension: int, arrays: list[str]) -> None:
        from pymilvus import DataType, Function, FunctionType, MilvusClient

        schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("row_id", DataType.VARCHAR, max_length=2100, is_primary=True)
        schema.add_field("clause_id", DataType.VARCHAR, max_length=2048)
        schema.add_field("clause_key", DataType.VARCHAR, max_length=40)  # token(clause_id)
        schema.add_field("doc_key", DataType.VARCHAR, max_length=40)  # token(doc_id)
        schema.add_field("ordinal", DataType.INT64)
        schema.add_field("born", DataType.INT64)  # the first generation that sees the row
        schema.add_field("dead", DataType.INT64)  # the first generation that does not
        schema.add_field("row_sha", DataType.VARCHAR, max_length=64)  # milvus_plan.row_digest
        schema.add_field("text", DataType.VARCHAR, max_length=65_535, enable_analyzer=True,
                         analyzer_params={"type": "english"})
        schema.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
        schema.add_field("dense", DataType.FLOAT_VECTOR, dim=dimension)
        schema.add_field("text_sha256", DataType.VARCHAR, max_length=64)
        for name_, length in (("doc_id", 4096), ("doc_title", 4096), ("source_path", 8192),
                              ("section", 1024), ("heading", 8192)):
            schema.add_field(name_, DataType.VARCHAR, max_length=length)
        schema.add_field("paragraph_start", DataType.INT64)
        schema.add_field("paragraph_end", DataType.INT64)
        schema.add_field("ordered", DataType.BOOL)
        for name_ in ("metadata", "keys", "flags"):
            schema.add_field(name_, DataType.JSON)
        for name_ in arrays:
            schema.add_field(name_, DataType.ARRAY, element_type=DataType.VARCHAR,
                             max_capacity=4096, max_length=1024)
        schema.add_function(Function(name="text_bm25", function_type=FunctionType.BM25,
                                     input_field_names=["text"], output_field_names=["sparse"]))
        with self._errors("create a collection"):
            self._client.create_collection(name, schema=schema, consistency_level="Strong")

    def _finish_version(self, name: str) -> None:
        index = self._client.prepare_index_params()
        index.add_index("dense", index_type="AUTOINDEX", metric_type="COSINE")
        index.add_index("sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25",
                        params={"bm25_k1": self.bm25.k1, "bm25_b": self.bm25.b})
        if not self.lite:  # milvus-lite builds no scalar indexes; a cluster filters faster with them
            for name_ in ("clause_key", "doc_key", "ordinal", "born", "dead",
                          *(f for f in LIST_FIELDS if _NAME.match(f))):
                index.add_index(name_, index_type="INVERTED")
        with self._errors("index a new version"):
            self._client.flush(name)
            self._client.create_index(name, index)
            self._client.load_collection(name)

    def _check_count(self, collection: str, generation: int, expected: int) -> None:
        with self._errors("count the new version"):
            count = self._count(collection, scope(generation))
        if count != expected:
            raise SearchEngineUnavailableError(
                f"Milvus holds {count} of the {expected} clauses written to {collection}; the "
                f"live version is unchanged. Check the Milvus logs and build again.")

    def _write_catalog(self, name: str, params: dict[str, Any],
                       documents: dict[str, dict[str, Any]]) -> None:
        rows = [_catalog_row(f"version:{name}", "version", name, {"params": params})]
        rows += [_catalog_row(f"doc:{name}:{text_key(doc)}", "document", name, {"id": doc, **info},
                              seq) for seq, (doc, info) in enumerate(documents.items())]
        with self._errors("record the version"):
            for start in range(0, len(rows), INSERT_BATCH):
                self._client.insert(self.catalog, rows[start:start + INSERT_BATCH])

    def _abandon(self, name: str, collection: str, generation: int, fresh: bool) -> None:
        """Best effort after a failed write; whatever stays, no reader sees, and the next build
        or prune removes it."""
        try:
            if fresh and self._client.has_collection(collection):
                self._client.drop_collection(collection)
            elif not fresh:
                self._client.delete(collection, filter=f"born >= {generation}")
            self._client.delete(self.catalog, filter=f"version == {literal(name)}")
        except Exception as exc:  # noqa: BLE001 - cleanup must not hide the original error
            log.warning("Could not clear what the failed build of %s wrote (%s); the next build "
                        "does", name, type(exc).__name__)

    def _live_snapshot(self, live: str, live_params: dict[str, Any]) -> _Snapshot:
        if self._snapshot is None or self._snapshot.version != live:
            # The largest window Milvus allows: each window is a scan of every row in
            # milvus-lite (1M rows: 85 s in windows of 4,096, 30 s in windows of 16,384).
            with self._errors("read rows"):
                rows = list(windows(self._client, _collection(live, live_params),
                                    scope(_generation(live_params)), _SNAPSHOT_FIELDS, "ordinal",
                                    _end(live_params), MAX_TOPK, threads=ENGINE_THREADS))
            self._snapshot = _snapshot(live, rows)
        return self._snapshot

    def _bm25_index(self) -> dict[str, float]:
        return {"k1": float(self.bm25.k1), "b": float(self.bm25.b)}


def _row_fields(arrays: Sequence[str]) -> list[str]:
    """Every stored field but the sparse vector, which Milvus derives from the text."""
    return ["row_id", "clause_id", "clause_key", "doc_key", "ordinal", "born", "dead", "row_sha",
            "text", "dense", "text_sha256", "doc_id", "doc_title", "source_path", "section",
            "heading", "paragraph_start", "paragraph_end", "ordered", "metadata", "keys", "flags",
            *arrays]


def _snapshot(version: str, rows: Iterator[dict[str, Any]] | list[dict[str, Any]]) -> _Snapshot:
    snapshot = _Snapshot(version)
    for row in rows:
        cid = str(row["clause_id"])
        snapshot.rows.append(LiveRow(str(row["row_id"]), cid, str(row["doc_id"]),
                                     int(row["ordinal"]), str(row["row_sha"]), int(row["dead"])))
        snapshot.owners.setdefault(str(row["text_sha256"]), cid)
    return snapshot
