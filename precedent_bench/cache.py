"""LLM answers cached on disk by a hash of everything the model sees.

The key is SHA-256 over the model name, the rendered messages (the prompt file's text with
the item's inputs filled in) and the sampling parameters, so an unchanged prompt re-run on
the same items costs no call, and any edit to a prompt (or an input) is a new key. The
store is one SQLite file; failures are never cached. The inner client is built only on the
first miss, so a fully cached run does not even start the embedded model.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable

from addin_server.llm.client import ChatClient, Completion, Messages
from index_builder.errors import LLMUnavailableError

log = logging.getLogger(__name__)

_SCHEMA = """CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY, model TEXT NOT NULL, completion TEXT NOT NULL)"""


def cache_key(messages: Messages, model: str, max_tokens: int, temperature: float,
              top_logprobs: int, namespace: str = "") -> str:
    """The key of one call: which model, what it sees and how it is asked to answer."""
    payload = json.dumps({"namespace": namespace, "model": model, "messages": [dict(m) for m in messages],
                          "max_tokens": max_tokens, "temperature": temperature,
                          "top_logprobs": top_logprobs}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class AnswerStore:
    """Completions by key in one SQLite file (thread-safe)."""

    def __init__(self, path: Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._db.execute(_SCHEMA)
        self._lock = threading.Lock()

    def get(self, key: str) -> Completion | None:
        with self._lock:
            row = self._db.execute("SELECT completion FROM answers WHERE key = ?", (key,)).fetchone()
        return Completion(**json.loads(row[0])) if row else None

    def put(self, key: str, completion: Completion) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)",
                             (key, completion.model, json.dumps(asdict(completion))))
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM answers").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class CachedChatClient:
    """A ChatClient that answers repeated calls from an AnswerStore.

    ``inner`` is a factory, called on the first miss (starting an embedded model is slow);
    ``namespace`` names the endpoint or model file, since model names such as "local" do not.
    """

    def __init__(self, inner: Callable[[], ChatClient], store: AnswerStore,
                 namespace: str = "") -> None:
        self._factory = inner
        self.namespace = namespace  # which endpoint or model file: "local" names several
        self._inner: ChatClient | None = None
        self._lock = threading.Lock()
        self.store = store
        self.hits = 0
        self.misses = 0
        self.cache_only = False  # True: a miss fails instead of asking (a spent time budget)

    @property
    def inner(self) -> ChatClient:
        with self._lock:
            if self._inner is None:
                self._inner = self._factory()
            return self._inner

    @property
    def started(self) -> bool:
        return self._inner is not None

    def complete(self, messages: Messages, *, model: str, max_tokens: int,
                 temperature: float = 0.0, top_logprobs: int = 0,
                 timeout_s: float | None = None, deadline_s: float | None = None) -> Completion:
        key = cache_key(messages, model, max_tokens, temperature, top_logprobs, self.namespace)
        cached = self.store.get(key)
        if cached is not None:
            self.hits += 1
            return cached
        if self.cache_only:
            raise LLMUnavailableError("Not in the answer cache, and the run's time budget is spent.")
        completion = self.inner.complete(messages, model=model, max_tokens=max_tokens,
                                         temperature=temperature, top_logprobs=top_logprobs,
                                         timeout_s=timeout_s, deadline_s=deadline_s)
        self.misses += 1
        self.store.put(key, completion)
        log.debug("LLM answer cached under %s", key[:12])
        return completion

    def ping(self) -> dict[str, Any]:
        return self.inner.ping()

    def counts(self) -> dict[str, int]:
        return {"calls": self.misses, "cached": self.hits}
