"""The usage database: shown lists, usage events and curation marks (SQLAlchemy Core).

SQLAlchemy Core rather than the stdlib's sqlite3: the same statements run on the default
SQLite file and on a server database named by URL (PostgreSQL for several servers,
``PRECEDENT_FEEDBACK_DB_URL``), with one schema definition and pooled connections.

What is stored never holds clause, query or document text: a shown list is its id, the
user, a keyed hash of the query (HMAC-SHA256 with a key kept outside the database, so
the file alone cannot be checked against guessed queries), the ranker and index versions,
and per position the clause id, the served rank and the ranker's feature row (numbers);
an event is a kind, a clause id, its rank and position, and an optional reason code.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import os
import random
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

import numpy as np
from sqlalchemy import (Column, Float, Integer, LargeBinary, MetaData, String, Table,
                        create_engine, delete, event, func, insert, select)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError, SQLAlchemyError

from index_builder.errors import FeedbackUnavailableError
from index_builder.settings import Settings

log = logging.getLogger(__name__)

# What the pane may report, and how much each says about the clause (relearn.py's grades).
EVENT_KINDS = ("insert", "copy", "compare", "show_full", "redraft_used", "thumbs_up",
               "thumbs_down", "not_relevant")
# "Not relevant" takes a reason from this list, never free text (it could hold clause text).
REASONS = ("wrong_topic", "wrong_jurisdiction", "outdated", "wrong_party", "too_long", "other")
MARKS = ("preferred", "approved", "deprecated", "cleared")
SCHEMA_LOCK = 270027  # PostgreSQL advisory lock key taken while creating the tables
SCHEMA_ATTEMPTS = 5  # SQLite: processes opening a new file at once (see UsageStore.open)

# List ids: 128 random bits from a generator seeded once per process by the system's entropy;
# an id per search from os.urandom (uuid4) was a system call on every answer (issue 39).
# Unique across processes and servers sharing a database, as uuid4's are; not a secret
# (a list is only ever read back together with its user).
_LIST_IDS = random.Random(secrets.token_bytes(32))
os.register_at_fork(after_in_child=lambda: _LIST_IDS.seed(secrets.token_bytes(32)))  # a forked worker

metadata = MetaData()
shown_lists = Table(
    "shown_lists", metadata,
    Column("list_id", String(32), primary_key=True),
    Column("user", String(320), nullable=False, index=True),
    Column("created", Float, nullable=False, index=True),
    Column("query_key", String(64), nullable=False),  # HMAC-SHA256 of the query, hex
    Column("ranker", String(64), nullable=False),
    Column("index_version", String(64), nullable=False),
    Column("swapped", Integer),  # positions p and p+1 were swapped on purpose (1-based p)
    Column("size", Integer, nullable=False),
)
shown_items = Table(
    "shown_items", metadata,
    Column("list_id", String(32), nullable=False, index=True),
    Column("position", Integer, nullable=False),  # 1-based, reading order (copies after theirs)
    Column("rank", Integer, nullable=False),  # the result number the card shows
    Column("clause_id", String(512), nullable=False),
    Column("features", LargeBinary),  # float32 row of retrieve/ltr.FEATURES; none without a query
)
events = Table(
    "events", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("list_id", String(32), nullable=False, index=True),
    Column("user", String(320), nullable=False, index=True),
    Column("created", Float, nullable=False, index=True),
    Column("kind", String(32), nullable=False),
    Column("clause_id", String(512), nullable=False),
    Column("rank", Integer, nullable=False),
    Column("position", Integer, nullable=False),
    Column("reason", String(32)),
)
marks = Table(
    "curation_marks", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("target_kind", String(16), nullable=False),  # clause | document
    Column("target_id", String(512), nullable=False, index=True),
    Column("status", String(16), nullable=False),
    Column("reason", String(300), nullable=False, default=""),
    Column("replacement", String(200), nullable=False, default=""),  # "7.2 of the 2026 MSA"
    Column("replacement_clause_id", String(512), nullable=False, default=""),
    Column("by_user", String(320), nullable=False),
    Column("created", Float, nullable=False),
)


@dataclass(frozen=True)
class ShownItem:
    position: int
    rank: int
    clause_id: str
    features: np.ndarray | None = None


@dataclass(frozen=True)
class UsageEvent:
    list_id: str
    kind: str
    clause_id: str
    rank: int
    position: int
    reason: str | None = None


@dataclass(frozen=True)
class Mark:
    target_kind: str
    target_id: str
    status: str
    reason: str = ""
    replacement: str = ""
    replacement_clause_id: str = ""
    by_user: str = ""
    created: float = 0.0


def usage_dir(settings: Settings) -> Path:
    return Path(settings.index_dir).resolve().parent / "usage"


def database_url(settings: Settings) -> str:
    return settings.learning.db_url or f"sqlite:///{usage_dir(settings) / 'usage.sqlite'}"


def _describe(url: str) -> str:
    """The database for messages: a SQLite path, or the URL without its password."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    return parsed.database if parsed.drivername.startswith("sqlite") else \
        parsed.render_as_string(hide_password=True)


def _key(settings: Settings) -> bytes:
    """The query-hash key: read, or made once (owner-only file) beside the database."""
    path = settings.learning.key_file or usage_dir(settings) / "usage.key"
    if not path.is_file():
        if settings.learning.key_file is not None:
            raise FeedbackUnavailableError(
                f"The feedback key file {path} does not exist; copy it from the first server "
                f"(PRECEDENT_FEEDBACK_KEY_FILE) so every server hashes queries alike.")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32))
    return bytes.fromhex(path.read_text().strip())


class UsageStore:
    """Shown lists, events and curation marks in one database; every method is one transaction."""

    def __init__(self, engine: Engine, key: bytes, where: str) -> None:
        self.engine = engine
        self.key = key
        self.where = where
        self.mark_writes = 0  # add_marks calls through this object

    @classmethod
    def open(cls, settings: Settings) -> "UsageStore":
        """Open (creating tables) or raise FeedbackUnavailableError naming the file and the fix."""
        url = database_url(settings)
        where = _describe(url)
        engine = None
        try:
            if url.startswith("sqlite:///"):
                Path(url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url, future=True)
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", _sqlite_pragmas)
            for attempt in range(SCHEMA_ATTEMPTS):
                try:
                    _create_schema(engine, where)
                    break
                except OperationalError as exc:
                    # Worker processes of one server (PRECEDENT_WORKERS) open a new SQLite file
                    # at once: both see no table, the second CREATE fails ("already exists"),
                    # or its read turns into a write while the other writes ("locked", which
                    # SQLite answers at once rather than wait). Again: the tables are there.
                    if not any(why in str(exc) for why in ("already exists", "locked")) \
                            or attempt == SCHEMA_ATTEMPTS - 1:
                        raise
                    time.sleep(0.05 * (attempt + 1))
            key = _key(settings)
        except FeedbackUnavailableError:
            _dispose(engine)
            raise
        except (SQLAlchemyError, OSError, ValueError) as exc:
            _dispose(engine)
            raise FeedbackUnavailableError(_damaged(where, _first_line(exc))) from exc
        return cls(engine, key, where)

    def close(self) -> None:
        """Close the pooled connections (a server database keeps them open otherwise)."""
        self.engine.dispose()

    def query_key(self, text: str) -> str:
        return hmac.new(self.key, text.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    # -- shown lists and events ---------------------------------------------------------------
    def record_list(self, user: str, query: str, items: Sequence[ShownItem], ranker: str,
                    index_version: str, swapped: int | None = None) -> str:
        row = self.list_row(user, query, items, ranker, index_version, swapped)
        self.record_lists([row])
        return row["list_id"]

    def list_row(self, user: str, query: str, items: Sequence[ShownItem], ranker: str,
                 index_version: str, swapped: int | None = None) -> dict[str, Any]:
        """A shown list as plain JSON data (no query text: its keyed hash), ready to store now
        or after the answer (addin_server/web/deferred.py); its ``list_id`` is made here."""
        return {"list_id": f"{_LIST_IDS.getrandbits(128):032x}", "user": user, "created": time.time(),
                "query_key": self.query_key(query), "ranker": ranker,
                "index_version": index_version, "swapped": swapped,
                "items": [[i.position, i.rank, i.clause_id, None if i.features is None else
                           base64.b64encode(np.asarray(i.features, dtype="<f4").tobytes()).decode()]
                          for i in items]}

    def record_lists(self, rows: Sequence[dict[str, Any]], skip_known: bool = False) -> int:
        """Store ``list_row`` rows in one transaction; with ``skip_known`` a list already
        stored is left as it is (a journal replayed after a crash). Returns how many were new."""
        with self._begin() as conn:
            if skip_known and rows:
                known = set(conn.execute(select(shown_lists.c.list_id).where(
                    shown_lists.c.list_id.in_([r["list_id"] for r in rows]))).scalars())
                rows = [r for r in rows if r["list_id"] not in known]
            if not rows:
                return 0
            conn.execute(insert(shown_lists), [
                {"list_id": r["list_id"], "user": r["user"], "created": r["created"],
                 "query_key": r["query_key"], "ranker": r["ranker"],
                 "index_version": r["index_version"], "swapped": r["swapped"],
                 "size": len(r["items"])} for r in rows])
            items = [{"list_id": r["list_id"], "position": position, "rank": rank,
                      "clause_id": clause_id,
                      "features": None if features is None else base64.b64decode(features)}
                     for r in rows for position, rank, clause_id, features in r["items"]]
            if items:
                conn.execute(insert(shown_items), items)
        return len(rows)

    def shown(self, list_id: str, user: str) -> list[ShownItem] | None:
        """The list as served to ``user`` (folded copies at position 0); None when unknown or
        someone else's."""
        with self._begin() as conn:
            owner = conn.execute(select(shown_lists.c.user).where(
                shown_lists.c.list_id == list_id)).scalar()
            if owner != user:
                return None
            rows = conn.execute(select(shown_items).where(shown_items.c.list_id == list_id))
            return [ShownItem(r.position, r.rank, r.clause_id) for r in rows]

    def record_events(self, user: str, items: Sequence[UsageEvent]) -> int:
        now = time.time()
        with self._begin() as conn:
            if items:
                conn.execute(insert(events), [
                    {"list_id": e.list_id, "user": user, "created": now, "kind": e.kind,
                     "clause_id": e.clause_id, "rank": e.rank, "position": e.position,
                     "reason": e.reason} for e in items])
        return len(items)

    def delete_user(self, user: str) -> dict[str, int]:
        """Every event and shown list of one user (a data-subject request)."""
        with self._begin() as conn:
            ids = select(shown_lists.c.list_id).where(shown_lists.c.user == user)
            n_items = conn.execute(delete(shown_items).where(shown_items.c.list_id.in_(ids))).rowcount
            n_events = conn.execute(delete(events).where(events.c.user == user)).rowcount
            n_lists = conn.execute(delete(shown_lists).where(shown_lists.c.user == user)).rowcount
        log.info("Deleted usage of one user: %d lists, %d events", n_lists, n_events)
        return {"lists": n_lists, "shown_items": n_items, "events": n_events}

    def purge(self, days: int, now: float | None = None) -> dict[str, int]:
        """Delete events and shown lists older than ``days`` (retention)."""
        cutoff = (now or time.time()) - days * 86400
        with self._begin() as conn:
            old = select(shown_lists.c.list_id).where(shown_lists.c.created < cutoff)
            n_items = conn.execute(delete(shown_items).where(shown_items.c.list_id.in_(old))).rowcount
            n_events = conn.execute(delete(events).where(events.c.created < cutoff)).rowcount
            n_lists = conn.execute(delete(shown_lists).where(shown_lists.c.created < cutoff)).rowcount
        return {"lists": n_lists, "shown_items": n_items, "events": n_events}

    def counts(self) -> dict[str, int]:
        with self._begin() as conn:
            return {name: conn.execute(select(func.count()).select_from(t)).scalar() or 0
                    for name, t in (("lists", shown_lists), ("events", events), ("marks", marks))}

    def training_lists(self, since: float = 0.0) -> Iterator[dict[str, Any]]:
        """Every shown list with at least one event: its items (with features) and events."""
        with self._begin() as conn:
            with_events = select(events.c.list_id).distinct()
            lists = conn.execute(select(shown_lists).where(
                shown_lists.c.list_id.in_(with_events), shown_lists.c.created >= since)
                .order_by(shown_lists.c.created)).mappings().all()
            for row in lists:
                items = conn.execute(select(shown_items).where(
                    shown_items.c.list_id == row["list_id"]).order_by(shown_items.c.position)).all()
                evs = conn.execute(select(events).where(
                    events.c.list_id == row["list_id"])).mappings().all()
                yield {**dict(row), "items": [
                    {"position": i.position, "rank": i.rank, "clause_id": i.clause_id,
                     "features": None if i.features is None
                     else np.frombuffer(i.features, dtype="<f4").tolist()} for i in items],
                    "events": [{k: e[k] for k in ("kind", "clause_id", "rank", "position",
                                                  "reason", "created")} for e in evs]}

    def export(self, out: Path, since: float = 0.0) -> int:
        """The training lists as JSON Lines (ids, ranks, features, events; no text)."""
        n = 0
        with out.open("w", encoding="utf-8") as f:
            for item in self.training_lists(since):
                f.write(json.dumps(item, separators=(",", ":")) + "\n")
                n += 1
        return n

    # -- curation ------------------------------------------------------------------------------
    def add_marks(self, new: Iterable[Mark]) -> int:
        now = time.time()
        rows = [{"target_kind": m.target_kind, "target_id": m.target_id, "status": m.status,
                 "reason": m.reason, "replacement": m.replacement,
                 "replacement_clause_id": m.replacement_clause_id, "by_user": m.by_user,
                 "created": m.created or now} for m in new]
        with self._begin() as conn:
            if rows:
                conn.execute(insert(marks), rows)
        self.mark_writes += 1  # this process's Curation reads them at once (learn/curation.py)
        return len(rows)

    def marks_since(self, row_id: int) -> list[tuple[int, Mark]]:
        """Mark rows added after ``row_id`` (marks are only ever added), with their row ids."""
        with self._begin() as conn:
            rows = conn.execute(select(marks).where(marks.c.id > row_id)
                                .order_by(marks.c.id)).mappings().all()
        return [(r["id"], Mark(r["target_kind"], r["target_id"], r["status"], r["reason"],
                               r["replacement"], r["replacement_clause_id"], r["by_user"],
                               r["created"])) for r in rows]

    def current_marks(self, clause_ids: Sequence[str], doc_ids: Sequence[str]) -> dict[tuple[str, str], Mark]:
        """The latest mark per (kind, id) among the named clauses and documents ("cleared" drops it)."""
        wanted = {("clause", c) for c in clause_ids} | {("document", d) for d in doc_ids}
        if not wanted:
            return {}
        ids = sorted({i for _, i in wanted})
        with self._begin() as conn:
            rows = conn.execute(select(marks).where(marks.c.target_id.in_(ids))
                                .order_by(marks.c.created, marks.c.id)).mappings().all()
        latest: dict[tuple[str, str], Mark] = {}
        for r in rows:
            latest[(r["target_kind"], r["target_id"])] = Mark(
                r["target_kind"], r["target_id"], r["status"], r["reason"], r["replacement"],
                r["replacement_clause_id"], r["by_user"], r["created"])
        return {k: m for k, m in latest.items() if m.status != "cleared" and k in wanted}

    def _begin(self):  # type: ignore[no-untyped-def]
        return _Transaction(self)


class _Transaction:
    """``engine.begin()`` whose database errors become FeedbackUnavailableError."""

    def __init__(self, store: UsageStore) -> None:
        self.store = store
        self._cm = store.engine.begin()

    def __enter__(self):  # type: ignore[no-untyped-def]
        try:
            return self._cm.__enter__()
        except SQLAlchemyError as exc:
            raise FeedbackUnavailableError(_damaged(self.store.where, _first_line(exc))) from exc

    def __exit__(self, *exc_info: Any) -> bool:
        try:
            self._cm.__exit__(*exc_info)
        except SQLAlchemyError as exc:
            raise FeedbackUnavailableError(_damaged(self.store.where, _first_line(exc))) from exc
        if exc_info[0] is not None and issubclass(exc_info[0], SQLAlchemyError):
            raise FeedbackUnavailableError(_damaged(self.store.where, _first_line(exc_info[1]))) \
                from exc_info[1]
        return False


def _create_schema(engine: Engine, where: str) -> None:
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            verdict = conn.exec_driver_sql("PRAGMA quick_check").scalar()
            if verdict != "ok":
                raise FeedbackUnavailableError(_damaged(where, str(verdict)))
        if engine.dialect.name == "postgresql":
            # Servers started together would race to create the tables (one fails on
            # a duplicate type); the first to take this lock creates, the others wait.
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
        metadata.create_all(conn)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA busy_timeout = 5000")  # cheroot threads share the file
    # WAL: searches recording lists never wait on a reader (export, learn); NORMAL sync is
    # safe under WAL (a power cut may lose the last events, never corrupt the file).
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.close()


def _first_line(exc: BaseException) -> str:
    return str(getattr(exc, "orig", None) or exc).splitlines()[0][:200]


def _damaged(where: str, why: str) -> str:
    return (f"The usage database {where} cannot be used ({why}). Search keeps working, but "
            f"usage feedback and curation marks are off. IT: move the file aside (keep it for "
            f"inspection) and restart; a new one is created. Or point PRECEDENT_FEEDBACK_DB_URL "
            f"at a working database.")


def _dispose(engine: Any) -> None:
    """Let go of a half-opened engine's pooled connection (a damaged file stays closed)."""
    if engine is not None:
        engine.dispose()
