"""Settings of the language model: an OpenAI-compatible endpoint, the embedded local model,
and precedent-bench's cache of its answers and its bootstrap intervals.

Kept apart from the server's settings because the index builder's eval and the workbench use
the same endpoint without a server.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from index_builder.errors import ConfigError

LOCAL_MODES = ("auto", "on", "off")
PROVIDERS = ("openai", "azure")
DEFAULT_MODELS_DIR = Path("var/models")


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
    # A failed attempt is retried only if what is left of the call's deadline, after the
    # backoff wait, is at least this share of the time the first attempt had: a shorter retry
    # cannot be expected to finish what a full one did not (client.py _TooLittleLeft).
    retry_min_share: float = 0.5
    backoff_initial_s: float = 0.5
    backoff_max_s: float = 8.0
    max_concurrency: int = 4
    cooldown_s: float = 15.0  # after the endpoint proved unreachable or the breaker opened, fail fast this long
    max_requests: int = 4  # requests waiting on the LLM at once; keep below server.threads so searches always find a thread
    breaker_window: int = 20  # recent LLM attempts the circuit breaker judges
    breaker_failure_rate: float = 0.5  # share of failed or timed-out attempts in the window that opens it
    breaker_probes: int = 2  # successful probe calls that close it again
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
    redraft_verify: bool = False  # ask the model to confirm citations the wording check flags
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
class BenchSettings:
    """`precedent-bench` (issue 26): where LLM answers are cached, how intervals are drawn."""

    cache_dir: Path = Path("var/bench-cache")
    confidence: float = 0.95
    resamples: int = 10_000

    def __post_init__(self) -> None:
        if not 0.5 <= self.confidence < 1:
            raise ConfigError("PRECEDENT_BENCH_CONFIDENCE must be between 0.5 and 1, e.g. 0.95.")
        if self.resamples < 100:
            raise ConfigError("PRECEDENT_BENCH_RESAMPLES must be at least 100 (10000 is usual).")
