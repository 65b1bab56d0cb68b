"""What a repeated search can reuse: its retrieval, ranking and folding (issue 29).

A lawyer's pane searches the same paragraph again and again (the cursor returns to it, the
pane is reopened, a colleague selects the same clause of the firm's template), and the
retrieval of a search is a pure function of its text, examples, filters and walls within one
index version and one first-stage ranker. Each ``SearchPipeline`` is one version with one
ranker (a swap or a relearned ranker makes a new pipeline), so a cache per pipeline can never
serve a result of another version, and the caller's walls are part of every key.

What is *not* cached is what can change under a version: the knowledge team's marks (read
for every page), the LLM rerank, the usage record and the audit line.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Hashable


@dataclass(frozen=True)
class Retrieved:
    """One search's work before its page: the query vectors, the ranked pool with the
    ranker's feature rows, and the folded groups. Read-only once stored."""

    vectors: Any
    candidates: tuple[Any, ...]
    feature_rows: Any  # Mapping[str, row]; never mutated by readers
    groups: tuple[Any, ...]


class LRU:
    """A bounded, thread-safe least-recently-used map (``size`` 0 keeps nothing).

    Two threads missing the same key both compute it; the second store wins. That costs one
    duplicate search at worst and keeps the lock out of the search itself.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> Any:
        if not self.size:
            return None
        with self._lock:
            value = self._items.get(key)
            if value is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: Hashable, value: Any) -> None:
        if not self.size:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
