"""Which language model a benchmark run talks to: a configured endpoint or the embedded one.

Any OpenAI-compatible endpoint named by PRECEDENT_LLM_* (OpenAI, Azure, vLLM, Ollama) is
used when set; otherwise the embedded llama.cpp model (``addin-server local-llm fetch``),
started only when the first uncached call needs it. Every call goes through the answer
cache (cache.py).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Callable

from addin_server.llm.client import ChatClient, OpenAIChatClient
from index_builder.errors import LLMNotConfiguredError
from index_builder.settings import LLMSettings, Settings

from precedent_bench.cache import AnswerStore, CachedChatClient

log = logging.getLogger(__name__)

# A cold prompt on two shared cores can take minutes: a benchmark waits instead of failing.
BENCH_TIMEOUT_S = 900.0


@dataclass
class BenchModel:
    """The cached client, the LLM settings the prompts run with, and a name for the report."""

    client: CachedChatClient
    llm: LLMSettings
    name: str
    _stop: Callable[[], None] | None = None

    def close(self) -> None:
        if self._stop is not None:
            self._stop()


def open_model(settings: Settings, store: AnswerStore,
               factory: Callable[[LLMSettings], ChatClient] | None = None) -> BenchModel:
    """The configured endpoint, else the embedded model; ``factory`` lets tests pass a fake."""
    make = factory or OpenAIChatClient
    if settings.llm.configured:
        llm = _patient(settings.llm)
        name = f"{llm.redraft_model} / {llm.rerank_model} at {llm.base_url}"
        client = CachedChatClient(lambda: make(llm), store, namespace=llm.base_url)
        return BenchModel(client, llm, name)
    from addin_server.llm.local import (MODEL_NAME, MODEL_SHA256, LocalLLMServer,
                                        local_model_available)

    if settings.local_llm.mode == "off" or not local_model_available(settings.local_llm):
        raise LLMNotConfiguredError(
            "No language model: set PRECEDENT_LLM_BASE_URL (and the model names), or run "
            "`addin-server local-llm fetch` and install xllamacpp for the embedded model.")
    server = LocalLLMServer(settings.local_llm)
    llm = _patient(server.llm_settings(settings.llm))

    def start() -> ChatClient:
        log.info("Starting the embedded model (first uncached call)")
        server.start()
        return make(llm)

    client = CachedChatClient(start, store, namespace=f"embedded:{MODEL_SHA256[:16]}")
    return BenchModel(client, llm, f"embedded {MODEL_NAME}", server.stop)


def _patient(llm: LLMSettings) -> LLMSettings:
    return replace(llm, request_timeout_s=max(llm.request_timeout_s, BENCH_TIMEOUT_S),
                   redraft_timeout_s=max(llm.redraft_timeout_s, BENCH_TIMEOUT_S),
                   deadline_s=max(llm.deadline_s, BENCH_TIMEOUT_S * 1.5), max_attempts=1)
