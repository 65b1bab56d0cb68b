"""Pointwise LLM rerank on ACORD's five-star rubric (answers 0-4 = stars - 1).

One call per (query, candidate), run concurrently under a bound. With logprobs the score
is the expected rating over the digit tokens of the single answer token; otherwise the
digit is parsed. A candidate whose call fails or whose answer is unreadable keeps its
retrieval position and has no rerank score: a bad answer never raises. Scores are cached
by (query, clause text, prompt key, model).
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

from index_builder.model import SearchHit

from index_builder.errors import LLMNotConfiguredError, LLMUnavailableError
from addin_server.llm.client import ChatClient, Completion
from addin_server.llm.tokens import TokenCounter
from addin_server.llm.untrusted import neutralise
from addin_server.draft.prompts import RERANK_VARIABLES, PromptTemplate, load_prompt
from index_builder.settings import LLMSettings

log = logging.getLogger(__name__)

RATINGS = {str(n): n for n in range(5)}
_DIGIT = re.compile(r"""^\s*(?:rating\s*[:=]?\s*)?["'*\[(]*([0-4])(?![0-9.])""", re.IGNORECASE)


@dataclass(frozen=True)
class Rating:
    """One candidate's rerank score (0..4), or None and why not."""

    score: float | None
    method: str  # "logprobs", "digit", "cache", "unparseable", "unavailable", "timeout"


@dataclass
class RerankOutcome:
    """Hits in reranked order with their ratings, and how the stage went."""

    ranked: list[tuple[SearchHit, Rating]]
    status: str  # "applied" or "unavailable"
    reason: str = ""
    calls: int = 0
    cached: int = 0


def rating_from(completion: Completion) -> Rating:
    """Expected rating from top logprobs when present, else the answered digit."""
    if completion.top_logprobs:
        mass = [0.0] * 5
        for token, logprob in completion.top_logprobs.items():
            digit = RATINGS.get(token.strip())
            if digit is not None:
                mass[digit] += math.exp(logprob)
        total = sum(mass)
        if total > 0:
            return Rating(sum(d * p for d, p in enumerate(mass)) / total, "logprobs")
    match = _DIGIT.match(completion.text)
    if match:
        return Rating(float(match.group(1)), "digit")
    return Rating(None, "unparseable")


class ScoreCache:
    """A bounded, thread-safe LRU of ratings."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._data: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> float | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: str, value: float) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self._size:
                self._data.popitem(last=False)


class LLMReranker:
    """Implements index_builder's Reranker protocol; ``rerank_detailed`` tells the API more."""

    def __init__(self, client: ChatClient, prompt: PromptTemplate, settings: LLMSettings,
                 counter: TokenCounter | None = None, budget_s: float | None = None) -> None:
        self.client = client
        self.prompt = prompt
        self.settings = settings
        self.model = settings.rerank_model
        self.counter = counter or TokenCounter(settings.encoding)
        self.budget_s = budget_s  # the whole stage; None: each call has only its own deadline
        self.cache = ScoreCache(settings.cache_size)
        # Shared by all requests, so the bound holds server-wide, not per request.
        self._pool = ThreadPoolExecutor(max_workers=settings.max_concurrency,
                                        thread_name_prefix="rerank")

    def rerank(self, query: str, hits: Sequence[SearchHit]) -> list[SearchHit]:
        """The hits reordered; a rated hit's score becomes its rating, ranks renumbered."""
        outcome = self.rerank_detailed(query, hits)
        return [replace(hit, rank=rank, score=hit.score if rating.score is None else rating.score)
                for rank, (hit, rating) in enumerate(outcome.ranked, 1)]

    def rerank_detailed(self, query: str, hits: Sequence[SearchHit]) -> RerankOutcome:
        started = time.monotonic()
        query_text = neutralise(self.counter.truncate(query, self.settings.rerank_query_tokens))
        ratings: list[Rating | None] = [None] * len(hits)
        pending: dict[Future[Rating], int] = {}
        for i, hit in enumerate(hits):
            cached = self.cache.get(self._key(query, hit))
            if cached is not None:
                ratings[i] = Rating(cached, "cache")
            else:
                pending[self._pool.submit(self._rate, query_text, query, hit)] = i
        timeout = None if self.budget_s is None else max(self.budget_s - (time.monotonic() - started), 0)
        done, not_done = wait(pending, timeout=timeout)
        for future in not_done:
            future.cancel()  # queued calls never start; running ones finish and fill the cache
            ratings[pending[future]] = Rating(None, "timeout")
        for future in done:
            ratings[pending[future]] = future.result()
        final = [r or Rating(None, "timeout") for r in ratings]
        status, reason = _status(final, len(pending))
        log.info("Reranked %d candidates in %.2f s: %d calls, %d cached, status %s", len(hits),
                 time.monotonic() - started, len(pending), len(hits) - len(pending), status)
        return RerankOutcome(_merge(list(hits), final), status, reason, len(pending),
                             len(hits) - len(pending))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _rate(self, query_text: str, query: str, hit: SearchHit) -> Rating:
        clause = neutralise(self.counter.truncate(hit.clause.text, self.settings.rerank_clause_tokens))
        messages = self.prompt.render(query=query_text, clause=clause)
        try:
            completion = self.client.complete(
                messages, model=self.model, max_tokens=1, temperature=0.0,
                top_logprobs=self.settings.rerank_top_logprobs if self.settings.rerank_logprobs else 0)
        except LLMUnavailableError as exc:
            log.debug("Rerank call failed for %s: %s", hit.clause.clause_id, exc.code)
            return Rating(None, "unavailable")
        rating = rating_from(completion)
        if rating.score is None:
            log.info("Unparseable rerank answer for %s (%d chars); keeping its retrieval position",
                     hit.clause.clause_id, len(completion.text))
        else:
            self.cache.put(self._key(query, hit), rating.score)
        return rating

    def _key(self, query: str, hit: SearchHit) -> str:
        parts = (self.prompt.key, self.model, query, hit.clause.text)
        return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()


def _merge(hits: list[SearchHit], ratings: list[Rating]) -> list[tuple[SearchHit, Rating]]:
    """Rated hits by rating (retrieval rank breaks ties); unrated ones keep their slots."""
    rated = sorted(((h, r) for h, r in zip(hits, ratings, strict=True) if r.score is not None),
                   key=lambda pair: (-(pair[1].score or 0.0), pair[0].rank))
    fill = iter(rated)
    return [(h, r) if r.score is None else next(fill) for h, r in zip(hits, ratings, strict=True)]


def _status(ratings: list[Rating], calls: int) -> tuple[str, str]:
    unrated = [r for r in ratings if r.score is None]
    if ratings and len(unrated) == len(ratings):
        if any(r.method == "unavailable" for r in unrated):
            return "unavailable", "The language model could not be reached; results are in search order."
        if any(r.method == "timeout" for r in unrated):
            return "unavailable", "The language model was too slow; results are in search order."
        return "unavailable", "The language model's ratings could not be read; results are in search order."
    if unrated:
        return "applied", (f"{len(unrated)} of {len(ratings)} candidates could not be rated and "
                           f"keep their search positions.")
    return "applied", ""


def default_prompt_path(prompts_dir: Path) -> Path:
    return prompts_dir / "rerank.prompt"


def load_rerank_prompt(path: Path) -> PromptTemplate:
    return load_prompt(path, RERANK_VARIABLES)


_EVAL_SERVERS: list[object] = []  # keeps an embedded local LLM alive for the eval process


def reranker_for_eval(prompt_path: Path | None = None) -> LLMReranker:
    """The LLM reranker `index-builder eval --rerank llm` measures, from the environment.

    Uses PRECEDENT_LLM_* when an endpoint is configured, else starts the embedded local
    model (if fetched); ``prompt_path`` defaults to prompts/rerank.prompt.
    """
    from addin_server.llm.client import OpenAIChatClient
    from addin_server.llm.local import LocalLLMServer, local_model_available
    from index_builder.settings import load_settings

    settings = load_settings()
    prompt = load_rerank_prompt(Path(prompt_path) if prompt_path else
                                default_prompt_path(settings.server.prompts_dir))
    llm = settings.llm
    if not llm.configured:
        if settings.local_llm.mode == "off" or not local_model_available(settings.local_llm):
            raise LLMNotConfiguredError(
                "No language model: set PRECEDENT_LLM_BASE_URL (and PRECEDENT_LLM_RERANK_MODEL), "
                "or run `addin-server local-llm fetch` and install xllamacpp for the local model.")
        local = LocalLLMServer(settings.local_llm).start()
        _EVAL_SERVERS.append(local)
        llm = local.llm_settings(llm)
    log.info("Rerank prompt %s, model %s at %s", prompt.key, llm.rerank_model, llm.base_url)
    # No stage budget in evaluation: every candidate gets its full per-call deadline.
    return LLMReranker(OpenAIChatClient(llm), prompt, llm, budget_s=None)
