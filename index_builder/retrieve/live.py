"""The pipeline a server answers from, moved onto a newer index version when a rebuild lands.

`index-builder build` writes a complete new version and then switches atomically (the
embedded store's CURRENT pointer, Milvus's alias). The server notices the switch on a
request, opens the new version in a background thread while it keeps answering from the
old one, then swaps: firm IT rebuilds with no restart and no downtime. A version that
cannot be opened, or was embedded with another model, is refused and the old one stays.

The learned ranker is followed the same way: `index-builder learn` installs a relearned
ranker by switching the ``current`` link that PRECEDENT_RANKER names; the server sees the
link move at its next check, loads the new ranker beside the old and swaps it in (/health
and the audit trail then name its version). A ranker that cannot be loaded is refused.
"""

from __future__ import annotations

import logging
import threading
import time

from pathlib import Path

from index_builder.errors import PrecedentError
from index_builder.index.backend import IndexStore
from index_builder.index.embedder import query_twin, settings_for_model_id
from index_builder.index.heap import release_free_memory
from index_builder.retrieve.curated import Curator
from index_builder.retrieve.ltr import load_ranker, moved_ranker
from index_builder.retrieve.pipeline import SearchPipeline

log = logging.getLogger(__name__)
# How long a version swapped out stays open before its files are closed: requests that took
# the old pipeline just before the swap finish on it (a redraft waits up to ~2 minutes for
# its model). Without closing, every swap left one SQLite connection per server thread open
# on a deleted version, and its page cache in memory (found by `precedent-bench soak`).
RETIRE_AFTER_S = 300.0


class LivePipeline:
    """Holds the serving pipeline and replaces it whole; readers never see a mix."""

    def __init__(self, store: IndexStore, pipeline: SearchPipeline, check_every_s: float) -> None:
        self.store = store
        self._live = pipeline
        self._check_every_s = check_every_s
        self._checked = time.monotonic()
        self._lock = threading.Lock()
        self._loader: threading.Thread | None = None
        self._refused: Path | None = None  # a ranker folder that failed to load
        self._retired: list[tuple[float, SearchPipeline]] = []  # (swapped out at, pipeline)

    def current(self) -> SearchPipeline:
        """The live pipeline; starts loading a newer version if one was built since the last check."""
        self._maybe_reload()
        return self._live

    def use_curation(self, curation: Curator | None) -> None:
        """Serve from now on with the knowledge team's marks read from ``curation`` (the server
        opens its usage database after the index); rebuilt versions keep it (with_backend)."""
        with self._lock:
            self._live = self._live.with_curation(curation)

    def wait_for_reload(self, timeout_s: float = 30.0) -> None:
        """Block until a reload in progress (if any) has finished: for tests and benchmarks."""
        loader = self._loader
        if loader is not None:
            loader.join(timeout_s)

    def load_newer_now(self, timeout_s: float) -> None:
        """Look for a newer version now, not at the next interval, and wait while it loads:
        the version served is one the access ledger no longer covers (sources/watch.py)."""
        with self._lock:
            if not (self._loader is not None and self._loader.is_alive()):
                self._checked = float("-inf")
        self._maybe_reload()
        self.wait_for_reload(timeout_s)

    def _maybe_reload(self) -> None:
        if self._check_every_s <= 0 or time.monotonic() - self._checked < self._check_every_s:
            return
        with self._lock:
            busy = self._loader is not None and self._loader.is_alive()
            if busy or time.monotonic() - self._checked < self._check_every_s:
                return
            self._checked = time.monotonic()
            self._close_retired(self._checked - RETIRE_AFTER_S)
            try:
                version = self.store.live_version()
            except PrecedentError as exc:  # a pointer mid-replacement, an engine away: keep serving
                log.warning("Index check failed (%s); still serving %s", exc.message,
                            self._live.backend.version)
                return
            ranker = moved_ranker(self._live.rescorer, self._live.settings.retrieval.ranker)
            if version == self._live.backend.version:
                if ranker is not None and ranker != self._refused:
                    self._loader = threading.Thread(target=self._load_ranker, args=(ranker,),
                                                    daemon=True, name="ranker-reload")
                    self._loader.start()
                return
            self._loader = threading.Thread(target=self._load, args=(version,), daemon=True,
                                            name="index-reload")
            self._loader.start()

    def _load_ranker(self, folder: Path) -> None:
        old = self._live
        try:
            ranker = load_ranker(folder, old.expander, old.settings.retrieval.rrf_k)
        except Exception as exc:  # noqa: BLE001 - also LightGBM's own error on a damaged model file
            self._refused = folder  # not retried until the link moves again
            log.error("New ranker at %s cannot be loaded (%s); still serving %s", folder,
                      getattr(exc, "message", type(exc).__name__),
                      getattr(old.rescorer, "version", ""))
            return
        self._live = old.with_rescorer(ranker)
        log.info("Now serving ranker %s (was %s)", ranker.version, getattr(old.rescorer, "version", ""))

    def _load(self, version: str) -> None:
        old = self._live
        try:
            backend = self.store.open(version)
        except PrecedentError as exc:
            log.error("New index version %s cannot be loaded (%s); still serving %s",
                      version, exc.message, old.backend.version)
            return
        if query_twin(backend.model_id, old.embedder.model_id) is None:
            # Its vectors cannot be compared with this server's query vectors (the dimension
            # may differ too): serving it would break every search.
            log.error("New index version %s was embedded with %s but this server embeds queries "
                      "with %s; still serving %s. Rebuild with the same model or restart the "
                      "server with %s.", version, backend.model_id, old.embedder.model_id,
                      old.backend.version, settings_for_model_id(backend.model_id))
            backend.close()
            return
        self._live = old.with_backend(backend)
        # Its caches (folding pairs, repeated searches, spans) are for its own version's clause
        # ids: no use to the new version, and kept for the grace they stacked up per swap.
        old.release_caches()
        self._retired.append((time.monotonic(), old))
        log.info("Now serving index version %s (%d clauses; was %s)", version,
                 backend.stats()["clauses"], old.backend.version)

    def _close_retired(self, before: float) -> None:
        """Close the versions swapped out before ``before`` (called under the lock), then
        hand the memory they held back to the operating system."""
        due = [pipeline for at, pipeline in self._retired if at < before]
        if not due:
            return
        del self._retired[:len(due)]
        versions = [pipeline.backend.version for pipeline in due]
        for pipeline in due:
            try:
                pipeline.backend.close()
            except Exception:  # noqa: BLE001 - closing must never stop serving
                log.warning("Closing retired index version %s failed", pipeline.backend.version,
                            exc_info=True)
        # The last references (barring a request still finishing on one): their arrays and
        # caches are freed now, and glibc would otherwise keep the pages (index/heap.py).
        del due, pipeline
        freed = release_free_memory()
        log.info("Closed retired index version(s) %s; %.0f MB returned to the system",
                 ", ".join(versions), freed / 2**20)
