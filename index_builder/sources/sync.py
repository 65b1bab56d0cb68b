"""Follow a source: apply its changes to the sync state, then build from the state.

``sync_and_build`` is what ``index-builder build --source ...`` runs, once or every N
seconds: the listing (metadata and access, page by page, each page saved with its cursor)
then the build, which fetches bytes only for documents whose version changed and reuses
everything else, vectors included. A permission change changes only clause metadata.

If the source is down or keeps throttling, the sync stops with a ``SourceUnavailableError``
naming the fix; the live index is not touched and keeps serving, and the next sync resumes
from the last page saved.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable

from index_builder.errors import PrecedentError
from index_builder.sources.base import Source
from index_builder.sources.http import CursorExpired
from index_builder.sources.state import SyncState, state_path

log = logging.getLogger(__name__)


@dataclass
class SyncReport:
    """What one listing did (counts only: names and paths stay out of logs)."""

    pages: int = 0
    changed: int = 0
    deleted: int = 0
    resynced: bool = False
    documents: int = 0
    build: Any = None  # the BuildReport
    waits: list[float] = field(default_factory=list)


def sync_changes(source: Source, state: SyncState, report: SyncReport,
                 after_page: Callable[[int], None] | None = None) -> None:
    """Apply every page of changes since the saved cursor (``after_page``: a test's crash)."""
    try:
        for page in source.changes(state.get("cursor")):
            report.deleted += len(page.deletes) + state.apply(page)
            report.changed += len(page.upserts)
            report.pages += 1
            if after_page is not None:
                after_page(report.pages)
    except CursorExpired:
        log.warning("%s: the saved cursor expired; listing the whole library again", _kind(source))
        state.reset()
        report.resynced = True
        for page in source.changes(None):
            report.deleted += len(page.deletes) + state.apply(page)
            report.changed += len(page.upserts)
            report.pages += 1
    report.documents = state.count()


class SourceLibrary:
    """The sync state's documents as the build's ``SourceDocument``s, bytes on demand."""

    def __init__(self, source: Source, state: SyncState) -> None:
        self.source = source
        self.state = state
        self.name = source.name

    def documents(self, report: Any) -> list[Any]:
        from index_builder.index.build import SourceDocument, _unique_id
        from index_builder.ingest import SUPPORTED_SUFFIXES

        found, taken = [], set()
        for item in self.state.items():
            relative = Path(item.path)
            if relative.suffix.lower() not in SUPPORTED_SUFFIXES or relative.name.startswith("~$"):
                continue  # spreadsheets, PDFs, Office lock files: not contracts we can read
            stem = relative.with_suffix("").as_posix()
            doc_id = _unique_id([stem, relative.as_posix(), f"{stem}~{item.item_id[-8:]}"], taken)
            taken.add(doc_id)
            found.append(SourceDocument(
                doc_id, relative, "file", relative.as_posix(), version=item.version,
                access=item.access(), link=item.web_url,
                # Who may see it and where it opens: a change to either is metadata only.
                access_key=f"{item.access_digest()}:{hashlib.sha256(item.web_url.encode()).hexdigest()[:8]}",
                fetch=partial(self.source.fetch, item)))
        return found


def sync_and_build(settings: Any, source: Source, embedder: Any, progress: bool = True,
                   after_page: Callable[[int], None] | None = None) -> SyncReport:
    """One sync: list changes, build what changed, record the outcome for /health."""
    from index_builder.index.build import build_index
    from index_builder.index.lock import build_lock

    report = SyncReport()
    state = SyncState(state_path(settings.index_dir, source.name), source.name)
    started = time.time()
    try:
        with build_lock(settings.index_dir):  # one writer of the state and the index
            sync_changes(source, state, report, after_page)
        report.build = build_index(settings, SourceLibrary(source, state), embedder,
                                   progress=progress)
        state.put({"last_ok": _iso(started), "last_ok_epoch": started, "last_error": "",
                   "last_version": report.build.version})
    except PrecedentError as exc:
        state.put({"last_error": exc.message, "last_error_at": _iso(time.time())})
        raise
    finally:
        report.waits = list(getattr(getattr(source, "client", None), "waits", []))
        state.close()
    log.info("%s: %d pages, %d changed, %d deleted; index %s", _kind(source), report.pages,
             report.changed, report.deleted, report.build.version)
    return report


def _kind(source: Source) -> str:
    return source.name.partition(":")[0]  # never the full spec in warnings: it may name a matter


def _iso(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))
