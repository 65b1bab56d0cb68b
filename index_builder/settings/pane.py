"""Settings of the pane's features beyond search: compare to market, conforming a precedent,
following the cursor (and strict mode, which cursor searches use).

Each section is read by its server module (addin_server/web/market.py, addin_server/conform/,
addin_server/web/follow.py) and checked in its own ``__post_init__``.
"""

from __future__ import annotations

from dataclasses import dataclass

from index_builder.errors import ConfigError


@dataclass(frozen=True)
class MarketSettings:
    """Compare to the firm's market (issue 24): /api/v1/market and the whole-document mode."""

    # A value held by at least this share of the matching documents is "the usual" one: a clause
    # that differs from it stands out, and a sub-provision that many lack in yours is "missing".
    usual_share: float = 0.5
    max_precedents: int = 10  # precedents listed per bucket (all are counted)
    document_max_clauses: int = 400  # paragraphs one whole-document request may send
    document_min_words: int = 8  # shorter paragraphs (titles, signature lines) are not compared

    def __post_init__(self) -> None:
        if not 0 < self.usual_share <= 1:
            raise ConfigError("PRECEDENT_MARKET_USUAL_SHARE must be above 0 and at most 1.")
        if min(self.max_precedents, self.document_max_clauses, self.document_min_words) < 1:
            raise ConfigError("PRECEDENT_MARKET_MAX_PRECEDENTS, PRECEDENT_MARKET_DOCUMENT_MAX_CLAUSES "
                              "and PRECEDENT_MARKET_DOCUMENT_MIN_WORDS must be at least 1.")


@dataclass(frozen=True)
class ConformSettings:
    """Conforming a precedent to the lawyer's document (issue 23, docs/conform.md)."""

    apply_min: float = 0.8  # a mapping this sure is applied; below it is shown, not applied
    suggest_min: float = 0.4  # (tuned on the tuning half: 0.3 showed "Product -> Services") a definition match below this is no match: the term is listed as missing
    margin: float = 0.1  # the best definition match must beat the next by this much to be applied
    name_weight: float = 0.25  # share of the terms' names (vs their definitions) in a definition match
    max_definitions: int = 2000  # definitions an API client's document summary may hold
    max_sections: int = 3000  # sections an API client's document summary may hold
    source_window: int = 400  # clauses of the precedent's document read for its definitions
    # The lawyer's open document, sent by the pane once per version and read on the server.
    document_max_chars: int = 1_000_000  # about 400 pages; a longer document is refused, saying so
    document_max_paragraphs: int = 20_000
    document_cache: int = 200  # documents kept (each caller's own), least recently used dropped first
    document_ttl_s: int = 8 * 3600  # a document is kept this long after it was sent

    def __post_init__(self) -> None:
        if min(self.document_max_chars, self.document_max_paragraphs, self.document_cache, self.document_ttl_s) < 1:
            raise ConfigError("PRECEDENT_CONFORM_DOCUMENT_MAX_CHARS, _MAX_PARAGRAPHS, _CACHE and _TTL_S must be at least 1.")

    @property
    def document_max_bytes(self) -> int:
        """Request body limit for a document: its text as UTF-8 (3 bytes a character at most
        outside escapes) plus each paragraph's fields."""
        return self.document_max_chars * 3 + self.document_max_paragraphs * 160 + 64 * 1024


@dataclass(frozen=True)
class FollowSettings:
    """Follow the cursor (issue 31): the pane searches the paragraph the lawyer is in after a
    pause, and strict mode ("have we used these exact words?") on /api/v1/precedents."""

    # on: offered and on until a lawyer turns it off; offered: off until a lawyer turns it on;
    # off: not offered, and the server refuses cursor-triggered searches (403 follow_off).
    mode: str = "on"
    pause_ms: int = 800  # the pane searches after the lawyer pauses this long
    min_words: int = 8  # paragraphs with fewer words (headings, signature lines) are skipped
    # Cursor-triggered searches one user may make ("N/second|minute|hour|day"; off = no limit),
    # on top of PRECEDENT_RATE_LIMIT: a lawyer typing steadily pauses a few times a minute.
    rate_limit: str = "30/minute"
    # Strict mode: precedents whose words are at least this similar (word-level edit
    # similarity, retrieve/variations.py) to the lawyer's paragraph; the lawyer can change it.
    # 0.9: the best F1 on the tuning half of the real agreements (`precedent-bench strict`).
    strict_min_similarity: float = 0.9
    strict_depth: int = 300  # candidates strict mode compares word by word

    def __post_init__(self) -> None:
        if self.mode not in FOLLOW_MODES:
            raise ConfigError(f"PRECEDENT_FOLLOW must be one of {', '.join(FOLLOW_MODES)}, got {self.mode!r}.")
        if not 100 <= self.pause_ms <= 10_000:
            raise ConfigError("PRECEDENT_FOLLOW_PAUSE_MS must be from 100 to 10000 milliseconds.")
        if self.min_words < 1 or self.strict_depth < 1:
            raise ConfigError("PRECEDENT_FOLLOW_MIN_WORDS and PRECEDENT_STRICT_DEPTH must be positive.")
        if not 0.0 < self.strict_min_similarity <= 1.0:
            raise ConfigError("PRECEDENT_STRICT_MIN_SIMILARITY must be above 0 and at most 1 "
                              f"(1 = identical words only), got {self.strict_min_similarity!r}.")


FOLLOW_MODES = ("on", "offered", "off")

