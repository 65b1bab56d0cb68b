"""The audit trail: one JSON line per API call, append-only, never any text.

Each line: time (UTC), user and how they signed in, method, route, status, the index
version, the clause ids the response returned (``clause_ids``) and those the request named
(``requested_ids``: redraft precedents, a clause fetch, examples), the LLM model when one was
used, and a keyed hash (HMAC-SHA256) of the query text (``query_hmac``; ``example_hmac`` for
example texts) so IT can match a query it is shown without the trail holding it, and without
anyone who holds only the trail confirming a guessed clause (the key: web/audit_key.py).
Trails written before the key hold ``query_sha256``/``example_sha256`` (plain SHA-256) and are
still read. Clause text, query text, instructions and tokens are never
written. ``addin-server audit`` (addin_server/audit_cli.py) answers questions over it.

Files roll daily (UTC midnight) or by size with Python's rotating handlers; rotated files keep
the base name plus a suffix and ``audit_cli`` reads them all. If a line cannot be written the
request is answered 503 rather than served unaudited.

Several server processes (``PRECEDENT_WORKERS``) append to one trail: each line, and each
roll-over, is written holding an exclusive ``flock`` on a lock file beside it
(``.audit.jsonl.lock``), so lines never interleave (a long line is more than one ``write``)
and a file another process has just rolled over is reopened, never rolled over again (that
would replace the day's file that process had just made).
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import os
import time
import weakref
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator

from flask import Flask, Response, current_app, g, jsonify, request

from addin_server.web.audit_key import keyed_hash, query_key
from addin_server.web.context import current_identity

try:
    import fcntl
except ImportError:  # Windows: one server process (web/prefork.py), nothing to lock against
    fcntl = None  # type: ignore[assignment]
from index_builder.settings import AuditSettings, Settings

log = logging.getLogger(__name__)

EXTENSION = "precedent_audit"
FILE_MODE = 0o640  # new audit files: owner read/write, group read, no one else
MAX_IDS = 500  # a response holds at most a few hundred ids; more means a bug, not a user


def audit_path(settings: Settings) -> Path:
    """The audit file: PRECEDENT_AUDIT_FILE, else audit/audit.jsonl beside the index folder."""
    return settings.audit.file or Path(settings.index_dir).parent / "audit" / "audit.jsonl"


def query_hash(text: str, key: bytes) -> str:
    """What the trail stores for a query: its HMAC-SHA256 under the deployment's key, hex."""
    return keyed_hash(key, text)


class _Handler:
    """Rotation from logging.handlers, but a write that fails raises instead of printing."""

    @staticmethod
    def make(path: Path, audit: AuditSettings) -> logging.Handler:
        base: type[logging.FileHandler]
        if audit.rotate == "size":
            base = logging.handlers.RotatingFileHandler
            kwargs: dict[str, Any] = {"maxBytes": audit.max_mb * 1024 * 1024, "backupCount": audit.keep}
        else:
            base = logging.handlers.TimedRotatingFileHandler
            kwargs = {"when": "midnight", "utc": True, "backupCount": audit.keep}

        class Strict(base):  # type: ignore[valid-type, misc]
            def handleError(self, record: logging.LogRecord) -> None:
                raise  # noqa: PLE0704 -- re-raise the write error to the request

            def doRollover(self) -> None:
                # Called with the trail's lock held (AuditLog.write): another process may have
                # rolled the file over since this one last wrote; then only reopen.
                if _rolled_by_another(self):
                    _close_quietly(self)
                    if isinstance(self, logging.handlers.TimedRotatingFileHandler):
                        self.rolloverAt = self.computeRollover(int(time.time()))
                    return
                super().doRollover()

            def _open(self) -> Any:
                # Never world-readable (the umask may narrow it further): it names users and clauses.
                fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
                return open(fd, "a", encoding=self.encoding, errors=self.errors)

        handler = Strict(str(path), encoding="utf-8", delay=True, **kwargs)
        handler.setFormatter(logging.Formatter("%(message)s"))
        return handler


class AuditLog:
    """Appends entries as JSON Lines to one file (with rotation). Thread-safe."""

    def __init__(self, path: Path, settings: AuditSettings, key: bytes = b"") -> None:
        self.path = Path(path)
        self.key = key  # the queries' hash key (audit_key.query_key)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Every process writing this trail takes this lock around each line (module docstring).
        self._lock_fd = os.open(self.path.parent / f".{self.path.name}.lock",
                                os.O_RDWR | os.O_CREAT, FILE_MODE)
        with _locked(self._lock_fd):
            _end_torn_line(self.path)
        self._torn = False
        self._handler = _Handler.make(self.path, settings)
        # A logger of its own, outside the logging registry: nothing propagates to the server
        # log, and two apps in one process (tests) never share handlers.
        self._logger = logging.Logger(f"{__name__}.{self.path}", logging.INFO)
        self._logger.propagate = False
        self._logger.addHandler(self._handler)
        # The file stays open between lines: closed with the trail, or when it is collected.
        weakref.finalize(self, _close_quietly, self._handler)

    def write(self, entry: dict[str, Any]) -> None:
        """Append one line, flushed before this returns. The file stays open between lines
        (opening and closing it per request was most of the trail's cost on a search: issue
        39) but is looked up by name every time, so a file moved away by a log shipper is
        simply created again; after a failed write it is closed, as before."""
        line = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        handler = self._handler
        handler.acquire()
        _flock(self._lock_fd, True)
        failed = False
        try:
            if self._torn:  # the last write failed part way (disk full): end its line first
                _end_torn_line(self.path)
                self._torn = False
            if handler.stream is not None and _moved(self.path, handler.stream):
                _close_quietly(handler)
            self._logger.info(line)
        except BaseException:
            self._torn = failed = True
            raise
        finally:
            if failed:
                _close_quietly(handler)  # its buffer may hold part of the failed line
            _flock(self._lock_fd, False)
            handler.release()

    def close(self) -> None:
        self._logger.removeHandler(self._handler)
        try:
            self._handler.close()
        except (OSError, ValueError) as exc:  # the last flush failed: it was reported already
            log.warning("Closing the audit trail %s: %s", self.path, exc)
        try:
            os.close(self._lock_fd)
        except OSError:
            pass


class _locked:
    """The trail's lock file held exclusively (with ``with``)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __enter__(self) -> None:
        _flock(self.fd, True)

    def __exit__(self, *exc: Any) -> None:
        _flock(self.fd, False)


def _flock(fd: int, take: bool) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX if take else fcntl.LOCK_UN)


def _rolled_by_another(handler: Any) -> bool:
    """Whether the trail was rolled over by another process since ``handler`` last wrote: its
    open file is no longer the one at the path, or (daily files) today's name is taken."""
    path = Path(handler.baseFilename)
    if handler.stream is not None:
        return _moved(path, handler.stream)
    if isinstance(handler, logging.handlers.TimedRotatingFileHandler):
        interval_start = handler.rolloverAt - handler.interval
        stamp = time.gmtime(interval_start) if handler.utc else time.localtime(interval_start)
        named = handler.rotation_filename(f"{handler.baseFilename}.{time.strftime(handler.suffix, stamp)}")
        return os.path.exists(named)
    return False


def _moved(path: Path, stream: Any) -> bool:
    """Whether the open trail is no longer the file at ``path`` (moved away or deleted)."""
    try:
        named = os.stat(path)
    except OSError:
        return True
    opened = os.fstat(stream.fileno())
    return (named.st_dev, named.st_ino) != (opened.st_dev, opened.st_ino)


def _close_quietly(handler: logging.Handler) -> None:
    stream, handler.stream = handler.stream, None  # type: ignore[attr-defined]
    if stream is not None:
        try:
            stream.close()
        except (OSError, ValueError):
            pass  # the failed write already raised


def _end_torn_line(path: Path) -> None:
    """End a last line that a server killed mid-write left without its newline, so the next
    entry starts a line of its own instead of being glued to (and lost with) the torn one.
    A torn line belongs to a request that was never answered: the line is written before
    the response is sent."""
    if not path.is_file():  # no file yet, or not a regular one (a device, a pipe)
        return
    try:
        with open(path, "rb") as trail:
            trail.seek(-1, os.SEEK_END)
            torn = trail.read(1) != b"\n"
    except OSError:  # an empty file
        return
    if torn:
        log.warning("The audit trail %s ended part way through a line (the server was stopped "
                    "while writing it); the next entry starts a new line.", path)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            try:
                os.write(fd, b"\n")
            finally:
                os.close(fd)
        except OSError as exc:  # a full disk: the next write fails too, and refuses the call
            log.warning("Could not end the torn line of %s: %s", path, exc)


def entry(*, user: str, auth: str, method: str, route: str, status: int, index_version: str,
          clause_ids: Iterable[str] = (), requested_ids: Iterable[str] = (),
          llm_model: str | None = None, query_hmac: str | None = None,
          example_hmac: Iterable[str] = (), oid: str = "", tenant: str = "",
          when: datetime | None = None, ranker: str = "") -> dict[str, Any]:
    """One audit line (the only shape ``audit_cli`` reads)."""
    stamp = (when or datetime.now(timezone.utc)).astimezone(timezone.utc)
    return {"time": stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "user": user, "auth": auth, "oid": oid, "tenant": tenant, "method": method,
            "route": route, "status": status, "index_version": index_version,
            "clause_ids": _unique(clause_ids), "requested_ids": _unique(requested_ids),
            "llm_model": llm_model, "query_hmac": query_hmac,
            "example_hmac": list(example_hmac), "ranker": ranker}


def returned_ids(payload: Any) -> list[str]:
    """Every ``clause_id`` anywhere in a JSON response: results, variants, context, citations."""
    found: list[str] = []
    stack = [payload]
    # Only containers go on the stack: a search's answer holds a few hundred strings and
    # numbers, each of which was pushed, popped and tested twice (issue 39). The same walk.
    nested = (dict, list, tuple)
    while stack and len(found) < MAX_IDS:
        item = stack.pop()
        if isinstance(item, dict):
            value = item.get("clause_id")
            if isinstance(value, str):
                found.append(value)
            stack.extend([v for v in reversed(item.values()) if isinstance(v, nested)])
        elif isinstance(item, (list, tuple)):
            stack.extend([v for v in reversed(item) if isinstance(v, nested)])
    return found


def _unique(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(str(i) for i in ids))[:MAX_IDS]


# --- Flask wiring -----------------------------------------------------------------------

def init_app(app: Flask) -> AuditLog | None:
    """Audit every /api/ call; register after auth (it reads ``g.identity``)."""
    settings: Settings = app.config["PRECEDENT_SETTINGS"]
    if not settings.audit.enabled:
        log.warning("The audit trail is off (PRECEDENT_AUDIT=off): API calls are not recorded.")
        return None
    trail = AuditLog(audit_path(settings), settings.audit, query_key(settings))
    app.extensions[EXTENSION] = trail
    app.after_request(_record)
    log.info("Audit trail: %s (rotates %s)", trail.path, settings.audit.rotate)
    return trail


def _record(response: Response) -> Response:
    if not request.path.startswith("/api/") or request.method == "OPTIONS":
        return response
    identity = current_identity() if "identity" in g else None
    key = current_app.extensions[EXTENSION].key
    body = _parsed_body()
    payload = g.pop("audit_payload", None)  # what the view serialised (issue 39), else parsed
    if payload is None:
        payload = response.get_json(silent=True) if response.is_json else None
    # The view's own list of the ids it returned (a search's: serialize.search_ids), else the
    # walk of the answer.
    returned = g.pop("audit_clause_ids", None)
    returned = returned[:MAX_IDS] if returned is not None else None
    line = entry(
        user=identity.user if identity else "unauthenticated",
        auth=identity.kind if identity else "none",
        oid=identity.oid if identity else "", tenant=identity.tenant if identity else "",
        method=request.method, route=request.url_rule.rule if request.url_rule else request.path,
        status=response.status_code, index_version=_index_version(),
        clause_ids=(() if response.status_code >= 400 else
                    returned if returned is not None else returned_ids(payload)),
        requested_ids=_requested_ids(body), llm_model=_model(payload),
        query_hmac=query_hash(body["text"], key) if isinstance(body.get("text"), str) else None,
        example_hmac=[query_hash(e["text"], key) for e in _list(body, "examples")
                        if isinstance(e, dict) and isinstance(e.get("text"), str)],
        ranker=_ranker_version())
    try:
        current_app.extensions[EXTENSION].write(line)
    except (OSError, ValueError):
        log.exception("The audit trail %s could not be written; the request was refused.",
                      current_app.extensions[EXTENSION].path)
        failed = jsonify({"error": {"code": "audit_unavailable", "message":
                                    "The server cannot record this request in its audit trail, so "
                                    "it was not served. Ask IT to check the audit file's disk."}})
        failed.status_code = 503
        return failed
    return response


def _parsed_body() -> dict[str, Any]:
    """The JSON body as the view parsed it (web/body.py caches it); never read the body here:
    a refused body (413, too deep, invalid) must not be parsed a second, laxer time."""
    cached = getattr(request, "_cached_json", (Ellipsis, Ellipsis))
    for value in cached:
        if isinstance(value, dict):
            return value
    return {}


def _list(body: dict[str, Any], key: str) -> list[Any]:
    """A list field of the body as sent: the view may have refused it for its type."""
    value = body.get(key)
    return value if isinstance(value, list) else []


def _requested_ids(body: dict[str, Any]) -> Iterator[str]:
    if request.view_args and isinstance(request.view_args.get("clause_id"), str):
        yield request.view_args["clause_id"]
    for value in _list(body, "clause_ids"):
        if isinstance(value, str):
            yield value
    for example in _list(body, "examples"):
        if isinstance(example, dict) and isinstance(example.get("clause_id"), str):
            yield example["clause_id"]
    for item in _list(body, "events"):  # usage feedback (web/usage.py)
        if isinstance(item, dict) and isinstance(item.get("clause_id"), str):
            yield item["clause_id"]
    for name in ("clause_id", "replacement_clause_id"):  # curation marks
        if isinstance(body.get(name), str) and body[name]:
            yield body[name]


def _model(payload: Any) -> str | None:
    """The LLM model this call may have sent text to (the trail errs towards naming it):
    redraft's, when it answered or the LLM failed; rerank's, when a rerank was attempted."""
    service = current_app.extensions.get("precedent")
    if service is None or service.client is None or request.url_rule is None \
            or not isinstance(payload, dict):
        return None
    if request.url_rule.rule.endswith("/redraft"):
        error = payload.get("error")
        failed_in_llm = isinstance(error, dict) and str(error.get("code", "")).startswith("llm_")
        producer = payload.get("producer")
        # A drafting operation's draft sent no text to any model (a new user read "local" on one).
        by_operation = isinstance(producer, dict) and producer.get("kind") == "operation"
        return service.llm.redraft_model if ("redraft" in payload and not by_operation) or failed_in_llm else None
    rerank = payload.get("rerank")
    if isinstance(rerank, dict) and rerank.get("status") in ("applied", "unavailable"):
        return service.llm.rerank_model
    return None


def _ranker_version() -> str:
    """The learned ranker that ordered results (issue 27: relearned rankers are traceable)."""
    service = current_app.extensions.get("precedent")
    if service is None:
        return ""
    from index_builder.learn.shown import ranker_version

    return ranker_version(service.pipeline)


def _index_version() -> str:
    service = current_app.extensions.get("precedent")
    return str(service.pipeline.backend.version) if service is not None else ""
