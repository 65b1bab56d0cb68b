"""Every rule that spans a section, or several, in one place; its messages name the variable.

Rules of one section alone may sit in that section's ``__post_init__``; Settings runs
``_validate`` when it is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from index_builder.errors import ConfigError
from index_builder.settings.env import var_for
from index_builder.settings.llm import LOCAL_MODES, PROVIDERS
from index_builder.settings.search import BACKENDS, FUSION_METHODS, QUERY_EXPANSIONS, RERANK_DEFAULTS

if TYPE_CHECKING:
    from index_builder.settings.library import LearningSettings
    from index_builder.settings.llm import LLMSettings
    from index_builder.settings.root import Settings
    from index_builder.settings.server import ServerSettings


def _validate(s: Settings) -> None:
    """Every rule for every setting, in one place."""
    if s.index_dir is None or str(s.index_dir) in ("", "."):
        raise ConfigError("PRECEDENT_INDEX_DIR must name the index folder (e.g. var/index).")
    _choice(s.backend, BACKENDS, "backend")
    _unit(s.append_limit, "append_limit")
    if s.retrieval.result_cache < 0:
        raise ConfigError("PRECEDENT_RESULT_CACHE must be 0 (no cache) or a number of searches.")
    if s.embedding.cache_size < 0:
        raise ConfigError("PRECEDENT_EMBEDDING_CACHE_SIZE must be 0 (no cache) or a number of vectors.")
    r = s.retrieval
    _choice(r.fusion, FUSION_METHODS, "retrieval.fusion")
    _choice(r.query_expansion, QUERY_EXPANSIONS, "retrieval.query_expansion")
    _unit(r.dense_weight, "retrieval.dense_weight")
    _unit(r.variation_threshold, "retrieval.variation_threshold",
          " (0 = no grouping, 1 = only identical wording; 0.9 folds clauses differing in ~1 word in 10)")
    for name in ("explorer_min_score", "explorer_min_score_clause", "explorer_major_threshold",
                 "explorer_minor_threshold"):
        _unit(getattr(r, name), f"retrieval.{name}")
    if r.explorer_minor_threshold < r.explorer_major_threshold:
        raise ConfigError("PRECEDENT_EXPLORER_MINOR_THRESHOLD must be at least "
                          "PRECEDENT_EXPLORER_MAJOR_THRESHOLD.")
    _choice(r.examples_dense, ("max", "mean", "rrf"), "retrieval.examples_dense")
    _choice(r.examples_lexical, ("sum", "norm", "rrf"), "retrieval.examples_lexical")
    _choice(r.span_scorer, ("lexical", "dense"), "retrieval.span_scorer")
    if r.span_max < 0 or r.span_min_sentences < 1:
        raise ConfigError("PRECEDENT_SPAN_MAX must be 0 or more and PRECEDENT_SPAN_MIN_SENTENCES "
                          "at least 1.")
    _positive(s, ("retrieval.rrf_k", "retrieval.candidate_depth", "retrieval.top_k", "retrieval.explorer_max_matches",
                  "retrieval.expansion_max_words", "embedding.batch_size",
                  "embedding.max_seq_length", "bm25.k1", "rerank.depth", "rerank.budget_s",
                  "rerank.cross_encoder_rrf_k", "rerank.cross_encoder_max_length",
                  "rerank.cross_encoder_batch_size", "rerank.cross_encoder_max_query_words"))
    _unit(s.bm25.b, "bm25.b")
    _unit(s.rerank.cross_encoder_weight, "rerank.cross_encoder_weight")
    _choice(s.rerank.default, RERANK_DEFAULTS, "rerank.default")
    _validate_server(s.server)
    _validate_learning(s.learning)
    _validate_llm(s.llm)
    if s.llm.max_requests >= s.server.threads:
        # Else LLM-bound requests could hold every server thread and searches would queue.
        raise ConfigError("PRECEDENT_LLM_MAX_REQUESTS must be below PRECEDENT_SERVER_THREADS so "
                          "searches always find a free thread.")
    _positive(s, ("local_llm.threads", "local_llm.context_tokens"))
    _choice(s.local_llm.mode, LOCAL_MODES, "local_llm.mode")
    if not 0 <= s.local_llm.port <= 65535:
        raise ConfigError(f"PRECEDENT_LOCAL_LLM_PORT must be 0 or a port number, got {s.local_llm.port}.")
    for name in ("apply_min", "suggest_min", "margin", "name_weight"):
        _unit(getattr(s.conform, name), f"conform.{name}")
    _positive(s, ("conform.max_definitions", "conform.max_sections", "conform.source_window"))
    if s.milvus.uri and not (s.milvus.uri.startswith(("http://", "https://", "tcp://", "unix:"))
                             or s.milvus.uri.endswith(".db")):
        raise ConfigError(f"PRECEDENT_MILVUS_URI must be http(s)://host:19530 for a cluster or a "
                          f"file ending in .db for milvus-lite, got {s.milvus.uri!r}.")


def _validate_learning(s: LearningSettings) -> None:
    _unit(s.swap_share, "learning.swap_share")
    if s.retention_days <= 0 or s.curation_lift < 0 or s.guard_tolerance < 0:
        raise ConfigError("PRECEDENT_FEEDBACK_RETENTION_DAYS must be positive; "
                          "PRECEDENT_CURATION_LIFT and PRECEDENT_LEARN_GUARD_TOLERANCE 0 or more.")
    if not s.curation_group.strip():
        raise ConfigError("PRECEDENT_CURATION_GROUP must name a group (e.g. knowledge).")


def _validate_server(s: ServerSettings) -> None:
    if not 0 <= s.port <= 65535:
        raise ConfigError(f"PRECEDENT_PORT must be a port number (1-65535), got {s.port}.")
    _positive(s, ("threads", "max_text_chars", "max_instructions_chars", "max_top_k",
                  "redraft_precedents", "max_redraft_precedents"), "server.")
    _positive(s, ("backlog", "keep_alive_limit", "idle_timeout_s"), "server.")
    if isinstance(s.workers, bool) or not isinstance(s.workers, int) or s.workers < 0:
        raise ConfigError(f"PRECEDENT_WORKERS must be 0 (one process per core) or a whole "
                          f"number of processes, got {s.workers!r}.")
    if s.index_reload_s < 0:
        raise ConfigError("PRECEDENT_INDEX_RELOAD_S must be 0 (never) or a number of seconds.")
    if (s.cert_file is None) != (s.key_file is None):
        raise ConfigError("HTTPS needs both a certificate and its key: set PRECEDENT_CERT_FILE "
                          "and PRECEDENT_KEY_FILE (or --cert and --key), or neither.")
    if s.redraft_precedents > s.max_redraft_precedents:
        raise ConfigError("PRECEDENT_REDRAFT_PRECEDENTS cannot exceed PRECEDENT_MAX_REDRAFT_PRECEDENTS.")


def _validate_llm(s: LLMSettings) -> None:
    _positive(s, ("connect_timeout_s", "request_timeout_s", "deadline_s", "max_attempts",
                  "max_concurrency", "context_tokens", "rerank_top_logprobs",
                  "rerank_query_tokens", "rerank_clause_tokens", "redraft_max_tokens",
                  "redraft_timeout_s", "redraft_clause_tokens", "cache_size", "max_requests",
                  "breaker_window", "breaker_probes", "cooldown_s"), "llm.")
    _unit(s.breaker_failure_rate, "llm.breaker_failure_rate")
    _unit(s.retry_min_share, "llm.retry_min_share")
    _choice(s.provider, PROVIDERS, "llm.provider")
    if s.provider == "azure" and not (s.base_url and s.api_version):
        raise ConfigError("Azure OpenAI needs PRECEDENT_LLM_BASE_URL (https://<resource>.openai."
                          "azure.com) and PRECEDENT_LLM_API_VERSION (e.g. 2024-10-21); the model "
                          "settings name your deployments.")
    if s.base_url and not s.base_url.startswith(("http://", "https://")):
        raise ConfigError(f"PRECEDENT_LLM_BASE_URL must start with http:// or https://, got "
                          f"{s.base_url!r} (e.g. http://localhost:11434/v1 for Ollama).")
    if s.rerank_top_logprobs > 20:
        raise ConfigError("PRECEDENT_LLM_RERANK_TOP_LOGPROBS must be at most 20 (the API's limit).")
    if s.context_tokens < s.redraft_max_tokens + 512:
        raise ConfigError("PRECEDENT_LLM_CONTEXT_TOKENS must leave at least 512 tokens for the "
                          "prompt beyond PRECEDENT_LLM_REDRAFT_MAX_TOKENS.")


def _positive(obj: Any, names: tuple[str, ...], prefix: str = "") -> None:
    for name in names:
        value: Any = obj
        for part in name.split("."):
            value = getattr(value, part)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise ConfigError(f"{var_for(prefix + name)} must be a positive number, got {value!r}.")


def _unit(value: float, dotted: str, hint: str = "") -> None:
    if not 0.0 <= value <= 1.0:
        raise ConfigError(f"{var_for(dotted)} must lie between 0 and 1{hint}, got {value!r}.")


def _choice(value: str, allowed: tuple[str, ...], dotted: str) -> None:
    if value not in allowed:
        raise ConfigError(f"{var_for(dotted)} must be one of {', '.join(allowed)}, got {value!r}.")
