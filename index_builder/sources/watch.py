"""On every request: what the access ledger says the version being served must withhold.

``AccessWatch.filters(access, params)`` is called with the caller's wall filters and the
served version's params; it checks the ledger's stamp (a ``stat`` of the embedded engine's
file, one primary-key query to Milvus), re-reads the ledger only when that changed, and
answers one more filter (data, like every wall): ``doc_id`` none of the documents narrowed
after the version was built whose new access leaves this caller out. A version so old that
the ledger no longer holds what it would need is refused (``AccessChangePendingError``, 503)
until the server has loaded a newer one. So a revocation reaches every server before its next
answer, whatever the index's size and however long the new version takes to build and load.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from index_builder.errors import AccessChangePendingError
from index_builder.model import Condition, Filters
from index_builder.ingest.policy import ACCESS_FIELD, EVERYONE
from index_builder.sources.ledger import Ledger, LedgerStore, version_generation

log = logging.getLogger(__name__)

# Entries a version has not caught up with, grouped by the access they now have (a matter's
# documents share one): (allowed, denied, document ids).
Pending = list[tuple[frozenset[str], frozenset[str], tuple[str, ...]]]


class AccessWatch:
    """One per server process; thread-safe."""

    def __init__(self, ledger: LedgerStore) -> None:
        self.ledger = ledger
        self._lock = threading.Lock()
        self._stamp: Any = object()  # never equal to a real stamp: the first call reads
        # The ledger as last read, with what each served generation must withhold from it.
        self._read: tuple[Ledger, dict[int, Pending]] = (Ledger(), {})

    def filters(self, access: Filters, params: dict[str, Any] | None) -> Filters:
        """The extra filter for a caller with these wall filters, answered from this version."""
        ledger, pending = self._current()
        served = version_generation(params)
        if served >= ledger.generation:
            return ()
        if served < ledger.floor:
            log.warning("The index version being served predates access changes the ledger no "
                        "longer lists (its generation %d, the ledger's floor %d): refusing to "
                        "answer from it until a newer version is loaded", served, ledger.floor)
            raise AccessChangePendingError(
                "Access to some documents has just changed and this server is still loading "
                "the index that includes it. Try again in a moment.")
        mine = _groups(access)
        blocked = sorted({doc for allowed, denied, docs in _pending_for(served, ledger, pending)
                          if not (mine & allowed) or (mine & denied) for doc in docs})
        return (Condition("doc_id", tuple(blocked), negate=True),) if blocked else ()

    def _current(self) -> tuple[Ledger, dict[int, Pending]]:
        stamp = self.ledger.stamp()
        if stamp == self._stamp:
            return self._read
        with self._lock:
            if stamp != self._stamp:
                ledger = self.ledger.read()
                self._read, self._stamp = (ledger, {}), stamp
                log.info("Access ledger at generation %d (%d documents withheld from older "
                         "versions)", ledger.generation, len(ledger.entries))
            return self._read


def _pending_for(served: int, ledger: Ledger, cache: dict[int, Pending]) -> Pending:
    found = cache.get(served)
    if found is None:
        grouped: dict[tuple[frozenset[str], frozenset[str]], list[str]] = {}
        for entry in ledger.entries.values():
            if entry.generation > served:
                key = (frozenset(entry.allowed), frozenset(entry.denied))
                grouped.setdefault(key, []).append(entry.doc_id)
        found = [(a, d, tuple(docs)) for (a, d), docs in grouped.items()]
        cache[served] = found
    return found


def _groups(access: Filters) -> frozenset[str]:
    """The caller's groups, as their wall filter lists them (with ``*``); none: ``*`` alone."""
    for condition in access:
        if condition.field == ACCESS_FIELD and not condition.negate:
            return frozenset(condition.values) | {EVERYONE}
    return frozenset({EVERYONE})
