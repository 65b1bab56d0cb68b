"""Frozen server settings, built once from ``PRECEDENT_*`` variables and CLI flags.

``AppSettings`` = the index builder's ``Settings`` (index, embedding, retrieval) plus the
``ServerSettings`` below. Precedence: CLI flags, then the environment, then the defaults.
Every validation message names the variable to fix. Nothing reads the environment later.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Mapping

from index_builder.settings import Settings, coerce_setting, load_settings

from index_builder.errors import ConfigError

PACKAGE_DIR = Path(__file__).resolve().parent
# Prompts live at the repository root so prompt engineers find them without opening Python.
DEFAULT_PROMPTS_DIR = PACKAGE_DIR.parent / "prompts"
DEFAULT_MODELS_DIR = Path("var/models")
RERANK_DEFAULTS = ("auto", "on", "off")
LOCAL_MODES = ("auto", "on", "off")
PROVIDERS = ("openai", "azure")


@dataclass(frozen=True)
class LLMSettings:
    """One OpenAI-compatible endpoint (OpenAI, Azure, vLLM, Ollama, llama.cpp) and its budgets."""

    base_url: str = ""  # "" = none configured: the embedded local model may stand in
    api_key: str = field(default="", repr=False)
    provider: str = "openai"  # "azure" uses openai.AzureOpenAI with api_version
    api_version: str = ""
    rerank_model: str = "local"
    redraft_model: str = "local"
    connect_timeout_s: float = 5.0
    request_timeout_s: float = 60.0  # one HTTP attempt
    deadline_s: float = 120.0  # one call, all retries included
    max_attempts: int = 4
    backoff_initial_s: float = 0.5
    backoff_max_s: float = 8.0
    max_concurrency: int = 4
    cooldown_s: float = 15.0  # after the endpoint proved unreachable, fail fast this long
    context_tokens: int = 4096
    encoding: str = "cl100k_base"  # tiktoken encoding used to count tokens (approximate)
    rerank_logprobs: bool = True
    rerank_top_logprobs: int = 5
    rerank_query_tokens: int = 256
    rerank_clause_tokens: int = 384
    redraft_max_tokens: int = 700
    redraft_timeout_s: float = 110.0  # one attempt; the pane itself gives up at 120 s
    redraft_clause_tokens: int = 600
    redraft_temperature: float = 0.2
    cache_size: int = 20_000

    @property
    def configured(self) -> bool:
        return bool(self.base_url)


@dataclass(frozen=True)
class LocalLLMSettings:
    """The embedded llama.cpp server (xllamacpp) used when no endpoint is configured."""

    mode: str = "auto"  # auto: start it when no endpoint is set and the model is present
    models_dir: Path = DEFAULT_MODELS_DIR
    threads: int = 2
    context_tokens: int = 4096
    port: int = 0  # 0 = any free loopback port


@dataclass(frozen=True)
class ServerSettings:
    """The HTTP server, the API's limits and the rerank/redraft defaults."""

    host: str = "127.0.0.1"
    port: int = 8443
    cert_file: Path | None = None
    key_file: Path | None = None
    threads: int = 8
    api_tokens: tuple[str, ...] = field(default=(), repr=False)
    cors_origins: tuple[str, ...] = ()
    max_text_chars: int = 20_000
    max_instructions_chars: int = 1_000
    max_top_k: int = 50
    # "auto": on for a configured endpoint, off for the embedded local model, whose
    # rerank measured worse than hybrid retrieval alone on ACORD (docs/backend.md).
    rerank_default: str = "auto"
    rerank_depth: int = 10
    rerank_budget_s: float = 90.0
    redraft_precedents: int = 3
    max_redraft_precedents: int = 8
    prompts_dir: Path = DEFAULT_PROMPTS_DIR
    # Results at least this similar (word-level, 0..1) are folded into one with variants; 0 = off.
    variation_threshold: float = 0.9
    # How often a request may check for a rebuilt index (0 = never reload without a restart).
    index_reload_s: float = 10.0
    llm: LLMSettings = field(default_factory=LLMSettings)
    local_llm: LocalLLMSettings = field(default_factory=LocalLLMSettings)

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def max_content_length(self) -> int:
        """Request body limit: the text at its worst JSON escaping (6 bytes a char) plus room."""
        return self.max_text_chars * 6 + self.max_instructions_chars * 6 + 64 * 1024


@dataclass(frozen=True)
class AppSettings:
    """Everything the server needs: the index builder's settings and the server's own."""

    core: Settings
    server: ServerSettings


# Environment variable -> dotted field of ServerSettings.
ENV_FIELDS: dict[str, str] = {
    "PRECEDENT_HOST": "host",
    "PRECEDENT_PORT": "port",
    "PRECEDENT_CERT_FILE": "cert_file",
    "PRECEDENT_KEY_FILE": "key_file",
    "PRECEDENT_SERVER_THREADS": "threads",
    "PRECEDENT_API_TOKENS": "api_tokens",
    "PRECEDENT_CORS_ORIGINS": "cors_origins",
    "PRECEDENT_MAX_TEXT_CHARS": "max_text_chars",
    "PRECEDENT_MAX_INSTRUCTIONS_CHARS": "max_instructions_chars",
    "PRECEDENT_MAX_TOP_K": "max_top_k",
    "PRECEDENT_RERANK_DEFAULT": "rerank_default",
    "PRECEDENT_RERANK_DEPTH": "rerank_depth",
    "PRECEDENT_RERANK_BUDGET_S": "rerank_budget_s",
    "PRECEDENT_REDRAFT_PRECEDENTS": "redraft_precedents",
    "PRECEDENT_MAX_REDRAFT_PRECEDENTS": "max_redraft_precedents",
    "PRECEDENT_PROMPTS_DIR": "prompts_dir",
    "PRECEDENT_INDEX_RELOAD_S": "index_reload_s",
    "PRECEDENT_VARIATION_THRESHOLD": "variation_threshold",
    "PRECEDENT_LLM_BASE_URL": "llm.base_url",
    "PRECEDENT_LLM_API_KEY": "llm.api_key",
    "PRECEDENT_LLM_PROVIDER": "llm.provider",
    "PRECEDENT_LLM_API_VERSION": "llm.api_version",
    "PRECEDENT_LLM_RERANK_MODEL": "llm.rerank_model",
    "PRECEDENT_LLM_REDRAFT_MODEL": "llm.redraft_model",
    "PRECEDENT_LLM_CONNECT_TIMEOUT_S": "llm.connect_timeout_s",
    "PRECEDENT_LLM_TIMEOUT_S": "llm.request_timeout_s",
    "PRECEDENT_LLM_DEADLINE_S": "llm.deadline_s",
    "PRECEDENT_LLM_MAX_ATTEMPTS": "llm.max_attempts",
    "PRECEDENT_LLM_BACKOFF_INITIAL_S": "llm.backoff_initial_s",
    "PRECEDENT_LLM_BACKOFF_MAX_S": "llm.backoff_max_s",
    "PRECEDENT_LLM_MAX_CONCURRENCY": "llm.max_concurrency",
    "PRECEDENT_LLM_COOLDOWN_S": "llm.cooldown_s",
    "PRECEDENT_LLM_CONTEXT_TOKENS": "llm.context_tokens",
    "PRECEDENT_LLM_ENCODING": "llm.encoding",
    "PRECEDENT_LLM_RERANK_LOGPROBS": "llm.rerank_logprobs",
    "PRECEDENT_LLM_RERANK_TOP_LOGPROBS": "llm.rerank_top_logprobs",
    "PRECEDENT_LLM_RERANK_QUERY_TOKENS": "llm.rerank_query_tokens",
    "PRECEDENT_LLM_RERANK_CLAUSE_TOKENS": "llm.rerank_clause_tokens",
    "PRECEDENT_LLM_REDRAFT_MAX_TOKENS": "llm.redraft_max_tokens",
    "PRECEDENT_LLM_REDRAFT_TIMEOUT_S": "llm.redraft_timeout_s",
    "PRECEDENT_LLM_REDRAFT_CLAUSE_TOKENS": "llm.redraft_clause_tokens",
    "PRECEDENT_LLM_REDRAFT_TEMPERATURE": "llm.redraft_temperature",
    "PRECEDENT_LLM_CACHE_SIZE": "llm.cache_size",
    "PRECEDENT_LOCAL_LLM": "local_llm.mode",
    "PRECEDENT_LOCAL_LLM_DIR": "local_llm.models_dir",
    "PRECEDENT_LOCAL_LLM_THREADS": "local_llm.threads",
    "PRECEDENT_LOCAL_LLM_CONTEXT_TOKENS": "local_llm.context_tokens",
    "PRECEDENT_LOCAL_LLM_PORT": "local_llm.port",
}
_VAR_OF = {dotted: var for var, dotted in ENV_FIELDS.items()}


def var_for(dotted: str) -> str:
    """The environment variable that sets a dotted ServerSettings field."""
    return _VAR_OF.get(dotted, dotted)


def load_app_settings(
    environ: Mapping[str, str] | None = None,
    core_overrides: Mapping[str, Any] | None = None,
    server_overrides: Mapping[str, Any] | None = None,
) -> AppSettings:
    """Build AppSettings; overrides are keyed like ``"port"`` or ``"llm.base_url"``.

    Override values of ``None`` are ignored, so CLI flags that were not given fall through.
    """
    environ = os.environ if environ is None else environ
    core = load_settings(environ, core_overrides)
    values: dict[str, tuple[Any, str]] = {}
    for var, dotted in ENV_FIELDS.items():
        if environ.get(var, "") != "":
            values[dotted] = (environ[var], var)
    if "api_tokens" in values and not coerce_setting(values["api_tokens"][0], "tuple[str, ...]", ""):
        # "," or " " would otherwise switch authentication off without a word.
        raise ConfigError("PRECEDENT_API_TOKENS is set but holds no token: give one or more "
                          "comma-separated tokens, or unset it to run without authentication.")
    tokens_file = environ.get("PRECEDENT_API_TOKENS_FILE")
    if tokens_file:
        values["api_tokens"] = (_read_tokens(Path(tokens_file)), "PRECEDENT_API_TOKENS_FILE")
    for key, value in (server_overrides or {}).items():
        if value is not None:
            values[key] = (value, f"option {key}")
    return AppSettings(core=core, server=_build(values))


def _build(values: Mapping[str, tuple[Any, str]]) -> ServerSettings:
    top: dict[str, Any] = {}
    nested: dict[str, dict[str, Any]] = {"llm": {}, "local_llm": {}}
    defaults = {"": ServerSettings, "llm": LLMSettings, "local_llm": LocalLLMSettings}
    for key, (raw, origin) in values.items():
        section, _, name = key.rpartition(".")
        if section not in defaults:
            raise ConfigError(f"Unknown setting {key!r} (from {origin}).")
        kinds = {f.name: str(f.type) for f in fields(defaults[section])}
        if name not in kinds:
            raise ConfigError(f"Unknown setting {key!r} (from {origin}).")
        (nested[section] if section else top)[name] = coerce_setting(raw, kinds[name], origin)
    llm = replace(LLMSettings(), **nested["llm"])
    local = replace(LocalLLMSettings(), **nested["local_llm"])
    return ServerSettings(**top, llm=llm, local_llm=local)


def _read_tokens(path: Path) -> tuple[str, ...]:
    try:
        lines = path.read_text("utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"PRECEDENT_API_TOKENS_FILE {path} cannot be read ({exc.strerror}).") from None
    tokens = tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))
    if not tokens:
        raise ConfigError(f"PRECEDENT_API_TOKENS_FILE {path} holds no token (one per line); "
                          f"add one, or unset the variable to run without authentication.")
    return tokens


def _validate(s: ServerSettings) -> None:
    if not 0 <= s.port <= 65535:
        raise ConfigError(f"PRECEDENT_PORT must be a port number (1-65535), got {s.port}.")
    _positive(s, ("threads", "max_text_chars", "max_instructions_chars", "max_top_k",
                  "rerank_depth", "redraft_precedents", "max_redraft_precedents"))
    _positive(s.llm, ("connect_timeout_s", "request_timeout_s", "deadline_s", "max_attempts",
                      "max_concurrency", "context_tokens", "rerank_top_logprobs",
                      "rerank_query_tokens", "rerank_clause_tokens", "redraft_max_tokens",
                      "redraft_timeout_s",
                      "redraft_clause_tokens", "cache_size"), "llm.")
    _positive(s.local_llm, ("threads", "context_tokens"), "local_llm.")
    if not 0 <= s.variation_threshold <= 1:
        raise ConfigError("PRECEDENT_VARIATION_THRESHOLD must lie between 0 (no grouping) and 1 "
                          "(only identical wording); 0.9 folds clauses differing in ~1 word in 10.")
    if s.index_reload_s < 0:
        raise ConfigError("PRECEDENT_INDEX_RELOAD_S must be 0 (never) or a number of seconds.")
    _choice(s.rerank_default, RERANK_DEFAULTS, "rerank_default")
    _choice(s.llm.provider, PROVIDERS, "llm.provider")
    _choice(s.local_llm.mode, LOCAL_MODES, "local_llm.mode")
    if (s.cert_file is None) != (s.key_file is None):
        raise ConfigError("HTTPS needs both a certificate and its key: set PRECEDENT_CERT_FILE "
                          "and PRECEDENT_KEY_FILE (or --cert and --key), or neither.")
    if s.redraft_precedents > s.max_redraft_precedents:
        raise ConfigError("PRECEDENT_REDRAFT_PRECEDENTS cannot exceed PRECEDENT_MAX_REDRAFT_PRECEDENTS.")
    if s.llm.provider == "azure" and not (s.llm.base_url and s.llm.api_version):
        raise ConfigError("Azure OpenAI needs PRECEDENT_LLM_BASE_URL (https://<resource>.openai."
                          "azure.com) and PRECEDENT_LLM_API_VERSION (e.g. 2024-10-21); the model "
                          "settings name your deployments.")
    if s.llm.base_url and not s.llm.base_url.startswith(("http://", "https://")):
        raise ConfigError(f"PRECEDENT_LLM_BASE_URL must start with http:// or https://, got "
                          f"{s.llm.base_url!r} (e.g. http://localhost:11434/v1 for Ollama).")
    if s.llm.rerank_top_logprobs > 20:
        raise ConfigError("PRECEDENT_LLM_RERANK_TOP_LOGPROBS must be at most 20 (the API's limit).")
    if s.llm.context_tokens < s.llm.redraft_max_tokens + 512:
        raise ConfigError("PRECEDENT_LLM_CONTEXT_TOKENS must leave at least 512 tokens for the "
                          "prompt beyond PRECEDENT_LLM_REDRAFT_MAX_TOKENS.")


def _positive(obj: Any, names: tuple[str, ...], prefix: str = "") -> None:
    for name in names:
        value = getattr(obj, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise ConfigError(f"{var_for(prefix + name)} must be a positive number, got {value!r}.")


def _choice(value: str, allowed: tuple[str, ...], dotted: str) -> None:
    if value not in allowed:
        raise ConfigError(f"{var_for(dotted)} must be one of {', '.join(allowed)}, got {value!r}.")
