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
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Callable

from index_builder.errors import ConfigError, PrecedentError
from index_builder.ingest.policy import EVERYONE, Access, WallPolicy, load_policy
from index_builder.sources.base import ChangePage, Source, SourceItem
from index_builder.sources.http import CursorExpired
from index_builder.sources.ledger import LedgerStore, ledger_for, live_generation
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
    # Whether the listing saw every deletion and access change since the last sync (a full
    # round, or a source whose feed reports them, as Graph's delta does).
    complete: bool = True
    build: Any = None  # the BuildReport
    waits: list[float] = field(default_factory=list)


def sync_changes(source: Source, state: SyncState, report: SyncReport,
                 after_page: Callable[[int], None] | None = None,
                 before_apply: Callable[[ChangePage], None] | None = None) -> None:
    """Apply every page of changes since the saved cursor (``after_page``: a test's crash;
    ``before_apply``: sees each page, and the state as it was, before the page is saved)."""
    def apply(page: ChangePage) -> None:
        page = _with_inherited(source, state, page)
        if before_apply is not None:
            before_apply(page)
        report.deleted += len(page.deletes) + state.apply(page)
        report.changed += len(page.upserts)
        report.pages += 1
        if not (page.full or getattr(source, "reports_every_change", False)):
            report.complete = False  # an edit-date feed: deletions and security unseen

    try:
        for page in source.changes(state.get("cursor")):
            apply(page)
            if after_page is not None:
                after_page(report.pages)
    except CursorExpired:
        log.warning("%s: the saved cursor expired; listing the whole library again", _kind(source))
        state.reset()
        report.resynced = True
        for page in source.changes(None):
            apply(page)


def withheld(state: SyncState, page: ChangePage, walls: WallPolicy | None
             ) -> list[tuple[list[str], tuple[str, ...], tuple[str, ...]]]:
    """What ``page`` narrows, as the access ledger takes it: (document ids as the index holds
    them, allowed, denied) for every item it removes or whose access it narrows."""
    changes: list[tuple[list[str], tuple[str, ...], tuple[str, ...]]] = [
        (_doc_ids(old), (), ()) for old in state.removals(page)]
    stored = {item.item_id: item for item in state.lookup(u.item_id for u in page.upserts)}
    for item in page.upserts:
        old = stored.get(item.item_id)
        if old is None:
            continue  # new: nothing of it is served yet
        # A policy rule naming the path the index holds wins over the DMS, as when labelling.
        before, after = _effective(old, old.path, walls), _effective(item, old.path, walls)
        if before is not None and after is not None and _narrower(before, after):
            changes.append((_doc_ids(old), after.allowed, after.denied))
    return changes


def _effective(item: SourceItem, path: str, walls: WallPolicy | None) -> Access | None:
    access = item.access()
    if access is None:  # a folder: the policy file decides, and a listing never changes it
        return None
    override = walls.rule_access(path) if walls is not None else None
    return override or access


def _narrower(before: Access, after: Access) -> bool:
    """Whether someone who could see the document before can no longer."""
    allowed, was = set(after.allowed), set(before.allowed)
    return not ((EVERYONE in allowed or was <= allowed) and set(after.denied) <= set(before.denied))


def _doc_ids(item: SourceItem) -> list[str]:
    """The ids the index may hold the item under: those the last two builds gave it, and
    those a build would give it (``SourceLibrary.documents``) where none was recorded."""
    relative = Path(item.path)
    stem = relative.with_suffix("").as_posix()
    return sorted({*item.extra.get("doc_ids", []), stem, relative.as_posix(),
                   f"{stem}~{item.item_id[-8:]}"})


def _with_inherited(source: Source, state: SyncState, page: ChangePage) -> ChangePage:
    """The page, plus the files below a folder whose own permissions changed, read again:
    they inherit them, and delta may list the folder alone. (A full round lists every file.)"""
    changed = [] if page.full else state.folder_changes(page.folder_access)
    reread = getattr(source, "reread", None)
    if not changed or reread is None:
        return page
    listed = {item.item_id for item in page.upserts}
    below = [item for item in state.below(changed) if item.item_id not in listed]
    log.info("%s: %d folder(s) changed permissions; reading the %d file(s) below again",
             _kind(source), len(changed), len(below))
    return replace(page, upserts=page.upserts + reread(below)) if below else page


class SourceLibrary:
    """The sync states' documents as the build's ``SourceDocument``s, bytes on demand; several
    sources make one library (a document id taken by one is suffixed in the next)."""

    def __init__(self, followed: list[tuple[Source, SyncState]], max_mb: int = 100) -> None:
        self.followed = followed
        self.max_bytes = max_mb << 20
        self.name = ", ".join(source.name for source, _ in followed)
        # Per state, (item id, document id) where the id differs from the one recorded: saved
        # once the build is live (``SyncState.record_doc_ids``).
        self.assigned: list[list[tuple[str, str]]] = [[] for _ in followed]

    def documents(self, report: Any) -> list[Any]:
        from index_builder.index.documents import SourceDocument, _unique_id
        from index_builder.ingest import SUPPORTED_SUFFIXES

        found: list[Any] = []
        taken: set[str] = set()
        for position, (source, state) in enumerate(self.followed):
            for item, recorded in state.items(doc_ids=True):
                relative = Path(item.path)
                if relative.suffix.lower() not in SUPPORTED_SUFFIXES or relative.name.startswith("~$"):
                    continue  # spreadsheets, PDFs, Office lock files: not contracts we can read
                if item.size > self.max_bytes:
                    report.skipped.append((relative.as_posix(), (
                        f"{item.size / 2**20:.0f} MB, larger than PRECEDENT_SOURCE_MAX_MB="
                        f"{self.max_bytes >> 20}: not downloaded (a scanned bundle? raise the "
                        f"limit to index it)")))
                    continue
                stem = relative.with_suffix("").as_posix()
                doc_id = _unique_id([stem, relative.as_posix(), f"{stem}~{item.item_id[-8:]}"], taken)
                taken.add(doc_id)
                if doc_id != recorded:
                    self.assigned[position].append((item.item_id, doc_id))
                link_key = hashlib.sha256(item.web_url.encode()).hexdigest()[:8]
                found.append(SourceDocument(
                    doc_id, relative, "file", relative.as_posix(), version=item.version,
                    access=item.access(), link=item.web_url,
                    # Who may see it and where it opens: a change to either is metadata only.
                    access_key=f"{item.access_digest()}:{link_key}",
                    fetch=partial(source.fetch, item)))
        return found


def sync_and_build(settings: Any, sources: Source | list[Source], embedder: Any,
                   progress: bool = True, after_page: Callable[[int], None] | None = None
                   ) -> SyncReport:
    """One sync of every source into one index: list changes, build what changed, record
    each source's outcome for /health."""
    from index_builder.index import open_store
    from index_builder.index.build import build_index
    from index_builder.index.lock import build_lock

    sources = sources if isinstance(sources, list) else [sources]
    report = SyncReport()
    store = open_store(settings)
    ledger = ledger_for(store)
    if ledger is None:
        raise ConfigError(f"The index engine {settings.backend!r} keeps no access ledger, so "
                          f"a sync could not withhold revoked documents at once; use embedded or milvus.")
    walls = load_policy(settings.walls.policy_file, settings.walls.default)
    states = [SyncState(state_path(settings.index_dir, s.name), s.name) for s in sources]
    started = time.time()
    blamed = states  # whose /health record an error goes to: the source listing, else all
    complete = []
    try:
        with build_lock(settings.index_dir):  # one writer of the states and the index
            for source, state in zip(sources, states):
                blamed = [state]
                report.complete = True
                sync_changes(source, state, report, after_page, before_apply=partial(
                    _publish, ledger, state, walls))
                complete.append(report.complete)
        blamed = states
        report.documents = sum(state.count() for state in states)
        library = SourceLibrary(list(zip(sources, states)), settings.sources.max_mb)
        # The version records the access generation it includes: the ledger's entries up to
        # it stop applying to servers once they answer from it (sources/watch.py).
        live_before, floor = _live(store), live_generation(store)
        report.build = build_index(settings, library, embedder, progress=progress, store=store,
                                   params={"access_generation": ledger.read().generation})
        if report.build.version != live_before:
            ledger.prune(floor)  # what even the previous version, kept for lagging servers, has
        for state, assigned in zip(states, library.assigned):
            state.record_doc_ids(assigned)
        for state, whole in zip(states, complete):
            state.put({"last_ok": _iso(started), "last_ok_epoch": started, "last_error": "",
                       "last_version": report.build.version,
                       **({"access_ok_epoch": started} if whole else {})})
        report.complete = all(complete)
    except PrecedentError as exc:
        for state in blamed:
            state.put({"last_error": exc.message, "last_error_at": _iso(time.time())})
        raise
    finally:
        report.waits = [w for s in sources for w in getattr(getattr(s, "client", None), "waits", [])]
        for state in states:
            state.close()
    log.info("%d source(s): %d pages, %d changed, %d deleted; index %s", len(sources),
             report.pages, report.changed, report.deleted, report.build.version)
    return report


def _publish(ledger: LedgerStore, state: SyncState, walls: WallPolicy | None,
             page: ChangePage) -> None:
    """Before a page is saved: what it narrows, to every server (it is listed again after a
    crash, and published again: harmless)."""
    changes = withheld(state, page, walls)
    if changes:
        generation = ledger.publish(changes)
        log.info("Access narrowed for %d document(s): withheld from every server at once "
                 "(access generation %d)", len(changes), generation)


def _live(store: Any) -> str:
    try:
        return str(store.live_version())
    except PrecedentError:
        return ""


def _kind(source: Source) -> str:
    return source.name.partition(":")[0]  # never the full spec in warnings: it may name a matter


def _iso(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


def follow(settings: Any, specs: list[str], embedder: Any, every_s: float, progress: bool = False,
           sleep: Callable[[float], None] = time.sleep, rounds: int | None = None) -> None:
    """Daemon mode: sync every ``every_s`` seconds until stopped (``rounds``: for tests).

    A failed sync (the DMS down, throttling that outlasts the retries) is logged with its
    fix and tried again next round; the live index keeps serving meanwhile.
    """
    from index_builder.sources import open_source

    done = 0
    while rounds is None or done < rounds:
        began = time.monotonic()
        try:
            report = sync_and_build(settings, [open_source(s, settings) for s in specs], embedder,
                                    progress=progress)
            log.info("Synced: %d documents (%d changed, %d deleted), index %s", report.documents,
                     report.changed, report.deleted, report.build.version)
        except PrecedentError as exc:
            log.error("Sync failed: %s", exc.message)
        done += 1
        if rounds is None or done < rounds:
            sleep(max(0.0, every_s - (time.monotonic() - began)))
