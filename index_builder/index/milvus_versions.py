"""A Milvus index's versions: the catalog that records them, the live pointer, pruning old ones.

The lowest of the three layers of ``MilvusStore`` (milvus.py, the ``IndexStore``; then
milvus_write.py, writing a version; then this): every read of the catalog and every engine
call goes through ``_errors`` here, so a failing Milvus always says which setting to check.
The catalog collection holds one row per version (its params), one per document, and the
"live" row readers follow: switching versions is one upsert of that row.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from typing import Any, Iterator

from index_builder.errors import SearchEngineUnavailableError
from index_builder.index import milvus_connection as connection
from index_builder.index.milvus_expr import literal
from index_builder.index.milvus_reader import query, windows

# The logger of milvus.py: these lines were written there before the split and keep its name.
log = logging.getLogger("index_builder.index.milvus")

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,199}$")


class MilvusVersions:
    """The catalog and the live pointer of one index in Milvus (a base of ``MilvusStore``)."""

    alias: str
    catalog: str
    uri: str
    lite: bool
    _client: Any
    _aliases: bool

    def describe(self) -> str:
        where = f"milvus-lite file {self.uri}" if self.lite else f"Milvus at {self.uri}"
        return f"{where}, collection {self.alias}"

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


def _catalog_row(key: str, kind: str, version: str, payload: dict[str, Any],
                 seq: int = 0) -> dict[str, Any]:
    return {"key": key, "kind": kind, "version": version, "seq": seq, "unused": [0.0, 0.0],
            "payload": json.loads(json.dumps(payload, default=str))}


def _catalog_filter(version: str, kind: str) -> str:
    return f"version == {literal(version)} and kind == {literal(kind)}"
