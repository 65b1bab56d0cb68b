"""The Milvus backend: index versions as generations of rows, switched atomically.

``PRECEDENT_MILVUS_URI`` empty means milvus-lite, the real Milvus engine embedded in a
subprocess that keeps a file ``INDEX_DIR/milvus.db`` (tests, one machine); a firm sets it to
its cluster (``http://milvus:19530``, credentials in ``PRECEDENT_MILVUS_TOKEN``) and nothing
else changes. The pins matter: ``milvus-lite==2.5.1`` with ``pymilvus`` 2.5.x (the 3.x
milvus-lite is a pure-Python rewrite) and ``setuptools<81`` (milvus-lite imports
pkg_resources); see ../shared/notes/engines.md and docs/milvus.md.

Layout, for ``PRECEDENT_MILVUS_COLLECTION=precedent_clauses``::

    precedent_clauses_catalog         each version's params and documents, and the "live"
                                      row: the pointer readers follow
    precedent_clauses_v<time>_<rand>  a collection of clause rows (text -> BM25 sparse vector,
                                      dense vector, filter copies), named after the version
                                      that created it and shared by the versions after it
    precedent_clauses                 on a cluster, an alias naming the live collection (for
                                      other tools; readers follow the catalog)

A version is a generation ``g`` (milliseconds since 1970) of rows in a collection: it sees
the rows with ``born <= g < dead``. A rebuild keeps the rows of unchanged documents, inserts
the changed documents' rows with ``born = g`` (invisible to the live version) and marks their
old rows ``dead = g`` (still visible to it), checks the count, records the version in the
catalog and then switches the pointer in one operation (an upsert of one row). So a rebuild
writes what changed, not the library, and a failure before the switch leaves the live
version exactly as it was (the new rows are deleted, or by the next build). The previous
version stays readable for servers that still hold it; rows no kept version sees are
deleted. A first build, a new model or dimension, new BM25 parameters, or a collection
holding far more rows than the version are written into a fresh collection instead.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from index_builder.errors import (
    ConfigError,
    DocumentError,
    IndexFormatError,
    IndexNotFoundError,
    SearchEngineUnavailableError,
)
from index_builder.index import milvus_connection as connection
from index_builder.index.backend import LIST_FIELDS, STORED_ONLY, IndexStore, PreviousVersion, \
    VersionData, completed
from index_builder.index.milvus_expr import CLAUSE_FIELDS, clause_from_row, clause_row, literal, \
    row_key
from index_builder.index.milvus_plan import (
    FOREVER,
    ClausesOnDemand,
    LiveRow,
    Plan,
    plan_carried,
    plan_generation,
    row_digest,
)
from index_builder.index.milvus_reader import MAX_TOPK, QUERY_BATCH, MilvusBackend, fetch, \
    in_flight, query, scope, windows
from index_builder.model import Clause
from index_builder.settings import Settings

__all__ = ["MilvusBackend", "MilvusStore", "text_key"]

log = logging.getLogger(__name__)

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,199}$")
LAYOUT = 2  # 1: one collection per version; 2: generations of rows in a shared collection
INSERT_BATCH = 1_024  # rows per insert or upsert call (a few MB; each call stays short)
# A collection holding more rows than this many times the version (plus the slack) is
# rewritten fresh: dead rows of pruned versions are deleted, but Milvus's BM25 statistics and
# its segments shrink only when it compacts.
COMPACT_AT, COMPACT_SLACK = 1.5, 10_000
# Requests the writer keeps in flight for its bulk reads and retires: milvus-lite works on
# each with a core of its own while this process waits (the 1M row list: 30 s one at a time).
ENGINE_THREADS = 2
_SNAPSHOT_FIELDS = ["row_id", "clause_id", "doc_id", "ordinal", "row_sha", "dead", "text_sha256"]


def text_key(text: str) -> str:
    """The key under which a clause text's vector is reused (same as the embedded store's)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class _Snapshot:
    """The live generation's rows as the writer needs them (read once per build)."""

    version: str
    rows: list[LiveRow] = field(default_factory=list)
    owners: dict[str, str] = field(default_factory=dict)  # text key -> a clause id holding it


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
        self._snapshot: _Snapshot | None = None
        self._ensure_catalog()

    # -- IndexStore ---------------------------------------------------------------------------
    def live_version(self) -> str:
        version = self._pointer()
        if not version:
            raise IndexNotFoundError(
                f"No index in {self.describe()}. Build one with `index-builder build --backend "
                f"milvus SOURCE...`.")
        return version

    def open(self, version: str | None = None) -> MilvusBackend:
        name = version or self.live_version()
        params = self._params(name) if _NAME.match(name) else None
        if params is None:
            raise IndexNotFoundError(f"Index version {name} is not in {self.describe()}: "
                                     f"rebuild with `index-builder build --backend milvus`.")
        with self._errors("load"):
            self._client.load_collection(_collection(name, params))
        return MilvusBackend(self, name, params)

    def previous(self, model_id: str, placeholders: bool = True) -> PreviousVersion:
        """The live version for reuse. Its vectors are not read back: each stored text maps to
        a vector of NaNs, which ``write`` recognises and resolves where it must (a kept row
        needs none; a re-inserted one is copied out of the live version). Reading 100k
        vectors over gRPC cost more than the whole rebuild should (docs/milvus.md).

        A version of generations is read as its rows' ids, documents and text keys alone:
        the builder carries unchanged documents over without their clauses
        (``PreviousVersion.holders``), which are read whole only if it asks for them."""
        version = self._pointer()
        params = self._params(version) if version else None
        if params is None:
            return PreviousVersion()
        documents = {row["payload"]["id"]: {k: v for k, v in row["payload"].items() if k != "id"}
                     for row in self._read(self.catalog, _catalog_filter(version, "document"),
                                           ["payload"], "seq", int(params.get("documents", 0)))}
        reuse = params.get("embedding_model") == model_id
        if placeholders and _generation(params) is not None:
            snapshot = self._live_snapshot(version, params)
            held = {r.clause_id: r.doc_id for r in snapshot.rows}
            vectors = dict.fromkeys(snapshot.owners, self._placeholder(params)) if reuse else {}
            by_doc = ClausesOnDemand(set(held.values()),
                                     lambda: self._clauses(version, params, False)[0])
            return PreviousVersion(version, params, documents, by_doc, vectors,
                                   holders=lambda ids: [held.get(i) for i in ids])
        by_doc, vectors = self._clauses(version, params, placeholders, reuse)
        return PreviousVersion(version, params, documents, by_doc, vectors)

    def _clauses(self, version: str, params: dict[str, Any], placeholders: bool,
                 reuse: bool = True) -> tuple[dict[str, list[Clause]], dict[str, np.ndarray]]:
        """Every clause of a version by document, and text key -> vector (NaN placeholders
        for a version of generations when ``placeholders``; none unless ``reuse``)."""
        generation = _generation(params)
        lazy = placeholders and generation is not None
        fields = CLAUSE_FIELDS + ["text_sha256"]
        fields += _SNAPSHOT_FIELDS[:1] + ["row_sha", "dead"] if generation is not None else []
        fields += ["dense"] if reuse and not lazy else []
        rows = sorted(self._read(_collection(version, params), scope(generation),
                                 sorted(set(fields)), "ordinal", _end(params)),
                      key=lambda r: int(r["ordinal"]))
        by_doc: dict[str, list[Clause]] = {}
        for row in rows:
            by_doc.setdefault(str(row["doc_id"]), []).append(clause_from_row(row))
        if generation is not None:
            self._snapshot = _snapshot(version, rows)
        if not reuse:
            vectors: dict[str, np.ndarray] = {}
        elif lazy:
            vectors = dict.fromkeys((str(r["text_sha256"]) for r in rows), self._placeholder(params))
        else:
            vectors = {str(r["text_sha256"]): np.asarray(r["dense"], dtype=np.float32)
                       for r in rows}
        return by_doc, vectors

    @staticmethod
    def _placeholder(params: dict[str, Any]) -> np.ndarray:
        stored = np.full(int(params.get("dimension", 0)), np.nan, dtype=np.float32)
        stored.flags.writeable = False
        return stored

    def _complete(self, data: VersionData, live: str, live_params: dict[str, Any]) -> VersionData:
        """A carried version made complete (to be written into a fresh collection): the kept
        documents' clauses read from the live version, their vectors as placeholders."""
        by_doc, _ = self._clauses(live, live_params, True)
        placeholder = self._placeholder(live_params)
        return completed(data, lambda doc_id: by_doc.get(doc_id, []),
                         lambda _, clauses: np.tile(placeholder, (len(clauses), 1)))

    def write(self, data: VersionData) -> str:
        if data.embeddings.ndim != 2 or len(data.embeddings) != len(data.clauses):
            raise IndexFormatError(f"{len(data.clauses)} clauses but {len(data.embeddings)} "
                                   f"vectors: nothing was written; build again.")
        name = f"{self.alias}_v{time.strftime('%Y%m%d%H%M%S', time.gmtime())}_{secrets.token_hex(3)}"
        dimension = int(data.embeddings.shape[1])
        arrays = [f for f in LIST_FIELDS if _NAME.match(f)]
        live = self._pointer()
        live_params = (self._params(live) if live else None) or {}
        if data.kept and live != data.base:
            raise IndexFormatError(f"The live version changed to {live} during this build (it "
                                   f"started from {data.base}); build again.")
        generation = max(int(time.time() * 1000), (_generation(live_params) or 0) + 1)
        unordered = {d for d, info in data.documents.items() if info.get("kind") == "beir"}
        digests = [row_digest(c, c.doc_id not in unordered, text_key(c.text)) for c in data.clauses]
        plan = self._plan(live, live_params, data, digests, dimension, arrays)
        if data.kept and plan is None:
            data = self._complete(data, live, live_params)
            digests = [row_digest(c, c.doc_id not in unordered, text_key(c.text)) for c in data.clauses]
        keys = {k for c in data.clauses for k in c.metadata if k not in STORED_ONLY}
        if data.kept:  # the kept documents' metadata keys are the live version's
            keys |= set(live_params.get("milvus", {}).get("metadata_keys", []))
        collection = _collection(live, live_params) if plan else name
        info = {"layout": LAYOUT, "collection": collection, "generation": generation,
                "ordinal_end": plan.ordinal_end if plan else len(data.clauses),
                "array_fields": arrays, "bm25_index": self._bm25_index(),
                "metadata_keys": sorted(keys)}
        params = {**data.params, "milvus": info}
        try:
            if plan is None:
                self._create_version(collection, dimension, arrays)
                every = list(range(len(data.clauses)))
                self._insert_rows(collection, data, every, every, generation, digests, arrays)
                self._finish_version(collection)
            else:
                self._write_changes(collection, live, live_params, data, plan, generation,
                                    digests, arrays)
            self._check_count(collection, generation,
                              plan.kept + len(plan.insert) if plan else len(data.clauses))
            self._write_catalog(name, params, data.documents)
        except BaseException:
            log.error("Writing index version %s failed; %s stays live", name, live or "nothing")
            self._abandon(name, collection, generation, fresh=plan is None)
            raise
        self._set_pointer(name, collection)
        self._snapshot = None
        log.info("Index version %s is live in %s (%s)", name, self.describe(),
                 f"{len(plan.insert)} rows written, {plan.kept} kept" if plan else "written fresh")
        self._prune(keep={name, live})
        return name

    def copy_from(self, source: IndexStore, model_id: str) -> str:
        """Write ``source``'s live version here as a new version, without re-embedding.

        For a firm moving an embedded index to Milvus: the clauses, documents (with their
        file hashes, so the next build stays incremental) and vectors are taken as they are.
        """
        previous = (source.previous(model_id, placeholders=False)
                    if isinstance(source, MilvusStore) else source.previous(model_id))
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
        params = {k: v for k, v in previous.params.items() if k != "milvus"}
        return self.write(VersionData(params, clauses, previous.documents, vectors))

    def describe(self) -> str:
        where = f"milvus-lite file {self.uri}" if self.lite else f"Milvus at {self.uri}"
        return f"{where}, collection {self.alias}"

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._client.close()

    # -- writing a version ----------------------------------------------------------------------
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

    def _prune(self, keep: set[str]) -> None:
        """Forget versions but the live and previous ones, drop collections no kept version
        uses, and delete rows no kept version sees. Best effort: the next build tries again."""
        try:
            with self._errors("list versions"):
                versions = {str(r["version"]): dict(r["payload"]["params"])
                            for r in query(self._client, self.catalog, 'kind == "version"',
                                           ["version", "payload"], 16_384)}
                names = self._client.list_collections()
            used: dict[str, list[int | None]] = {}
            for version, params in versions.items():
                if version in keep:
                    used.setdefault(_collection(version, params), []).append(_generation(params))
                else:
                    log.info("Forgetting old index version %s", version)
                    self._client.delete(self.catalog, filter=f"version == {literal(version)}")
            for name in names:
                if name.startswith(f"{self.alias}_v") and name not in used:
                    log.info("Dropping collection %s: no kept version uses it", name)
                    self._client.drop_collection(name)
            for collection, generations in used.items():
                if None not in generations:
                    self._client.delete(collection, filter=f"dead <= {min(generations)}")
        except Exception as exc:  # noqa: BLE001 - the new version is live; this is tidying
            log.warning("Pruning old versions failed (%s); the next build tries again",
                        connection.reason(exc))

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

    def _params(self, version: str) -> dict[str, Any] | None:
        with self._errors("read the catalog"):
            rows = query(self._client, self.catalog, f"key == {literal('version:' + version)}",
                         ["payload"], 1)
        return dict(rows[0]["payload"]["params"]) if rows else None

    # -- the live pointer ---------------------------------------------------------------------
    def _aliases_supported(self) -> bool:
        """Clusters have aliases (kept naming the live collection); milvus-lite has none."""
        try:
            self._client.describe_alias(self.alias)
        except Exception as exc:  # noqa: BLE001 - classified below
            return not connection.unimplemented(exc)
        return True

    def _pointer(self) -> str:
        with self._errors("read the live version"):
            rows = query(self._client, self.catalog, 'key == "live"', ["payload"], 1)
        return str(rows[0]["payload"]["version"]) if rows else ""

    def _set_pointer(self, name: str, collection: str) -> None:
        """The switch: one row, upserted (atomic; every read is Strong)."""
        with self._errors("switch the live version"):
            self._client.upsert(self.catalog, [_catalog_row("live", "pointer", name,
                                                            {"version": name})])
        if not self._aliases:
            return
        try:  # for other tools (Attu, scripts) on a cluster; readers follow the row
            try:
                current = str(self._client.describe_alias(self.alias)["collection_name"])
            except Exception as exc:  # noqa: BLE001
                if not connection.not_found(exc):
                    raise
                self._client.create_alias(collection, self.alias)
                return
            if current != collection:
                self._client.alter_alias(collection, self.alias)
        except Exception as exc:  # noqa: BLE001
            log.warning("Version %s is live; pointing the alias %s at %s failed (%s)", name,
                        self.alias, collection, connection.reason(exc))

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
        rows = query(self._client, collection, expr, ["count(*)"], None)
        return int(rows[0]["count(*)"]) if rows else 0

    def _read(self, collection: str, expr: str, fields: list[str], order: str,
              end: int) -> Iterator[dict[str, Any]]:
        with self._errors("read rows"):
            yield from windows(self._client, collection, expr, fields, order, end)

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


def _collection(version: str, params: dict[str, Any]) -> str:
    return str(params.get("milvus", {}).get("collection") or version)


def _generation(params: dict[str, Any]) -> int | None:
    """The version's generation; None for a version that has a collection of its own."""
    value = params.get("milvus", {}).get("generation")
    return None if value is None else int(value)


def _end(params: dict[str, Any]) -> int:
    return int(params.get("milvus", {}).get("ordinal_end", params.get("clauses", 0)))


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


def _catalog_row(key: str, kind: str, version: str, payload: dict[str, Any],
                 seq: int = 0) -> dict[str, Any]:
    return {"key": key, "kind": kind, "version": version, "seq": seq, "unused": [0.0, 0.0],
            "payload": json.loads(json.dumps(payload, default=str))}


def _catalog_filter(version: str, kind: str) -> str:
    return f"version == {literal(version)} and kind == {literal(kind)}"
