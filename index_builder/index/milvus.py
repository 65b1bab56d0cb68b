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
import logging
import secrets
import time
from pathlib import Path
from typing import Any

import numpy as np

from index_builder.errors import ConfigError, IndexFormatError, IndexNotFoundError
from index_builder.index import milvus_connection as connection
from index_builder.index.backend import LIST_FIELDS, STORED_ONLY, IndexStore, PreviousVersion, \
    VersionData, completed, text_key
from index_builder.index.milvus_expr import CLAUSE_FIELDS, clause_from_row
from index_builder.index.milvus_plan import ClausesOnDemand, row_digest
from index_builder.index.milvus_reader import MilvusBackend, scope
from index_builder.index.milvus_versions import _NAME, _catalog_filter, _collection, _end, _generation
from index_builder.index.milvus_write import _SNAPSHOT_FIELDS, MilvusWriter, _snapshot, _Snapshot
from index_builder.model import Clause
from index_builder.settings import Settings

__all__ = ["MilvusBackend", "MilvusStore"]

log = logging.getLogger(__name__)

LAYOUT = 2  # 1: one collection per version; 2: generations of rows in a shared collection


class MilvusStore(MilvusWriter):
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

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._client.close()
