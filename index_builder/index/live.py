"""The index the server answers from, swapped for a newer version when a rebuild lands.

`index-builder build` writes a complete new version and then replaces the root's CURRENT
pointer (index_builder/store.py). The server notices the new pointer on a request, loads
the new version in a background thread while it keeps answering from the old one, then
swaps: firm IT rebuilds from a folder of contracts with no restart and no downtime.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

from index_builder.errors import PrecedentError
from index_builder.retrieve.hybrid import HybridRetriever
from index_builder.index.store import ClauseIndex, load_index, resolve_version

log = logging.getLogger(__name__)


class LiveIndex:
    """Holds (index, retriever) and replaces both together; readers never see a mix."""

    def __init__(self, root: Path, retriever: HybridRetriever, check_every_s: float) -> None:
        self.root = Path(root)
        self._live = (retriever.index, retriever)
        self._check_every_s = check_every_s
        self._checked = time.monotonic()
        self._lock = threading.Lock()
        self._loader: threading.Thread | None = None

    def current(self) -> tuple[ClauseIndex, HybridRetriever]:
        """The live pair; starts loading a newer version if one was built since the last check."""
        self._maybe_reload()
        return self._live

    def wait_for_reload(self, timeout_s: float = 30.0) -> None:
        """Block until a reload in progress (if any) has finished: for tests and benchmarks."""
        loader = self._loader
        if loader is not None:
            loader.join(timeout_s)

    def _maybe_reload(self) -> None:
        if self._check_every_s <= 0 or time.monotonic() - self._checked < self._check_every_s:
            return
        with self._lock:
            busy = self._loader is not None and self._loader.is_alive()
            if busy or time.monotonic() - self._checked < self._check_every_s:
                return
            self._checked = time.monotonic()
            try:
                version = resolve_version(self.root)
            except PrecedentError as exc:  # a pointer mid-replacement or removed: keep serving
                log.warning("Index check failed (%s); still serving %s", exc.message,
                            self._live[0].path.name)
                return
            if version == self._live[0].path:
                return
            self._loader = threading.Thread(target=self._load, args=(version,), daemon=True,
                                            name="index-reload")
            self._loader.start()

    def _load(self, version: Path) -> None:
        old_index, old = self._live
        try:
            index = load_index(version)
        except PrecedentError as exc:
            log.error("New index version %s cannot be loaded (%s); still serving %s",
                      version.name, exc.message, old_index.path.name)
            return
        if index.model_id != old.embedder.model_id:
            # Its vectors cannot be compared with this server's query vectors (the dimension
            # may differ too): serving it would break every search.
            log.error("New index version %s was embedded with %s but this server embeds queries "
                      "with %s; still serving %s. Rebuild with the same model or restart the "
                      "server with PRECEDENT_EMBEDDING_MODEL=%s.", version.name, index.model_id,
                      old.embedder.model_id, old_index.path.name, index.model_id)
            return
        # Same query embedder and cross-encoder: only the clause collection changed.
        retriever = HybridRetriever(index, old.embedder, old.settings, old.retrievers, old.reranker)
        self._live = (index, retriever)
        log.info("Now serving index version %s (%d clauses; was %s)", version.name,
                 len(index.clauses), old_index.path.name)
