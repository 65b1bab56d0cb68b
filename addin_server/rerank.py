"""Pointwise LLM rerank on ACORD's five-star rubric (answers 0-4 = stars - 1).

One call per (query, candidate), run concurrently under a bound. With logprobs the score
is the expected rating over the digit tokens of the single answer token; otherwise the
digit is parsed. A candidate whose call fails or whose answer is unreadable keeps its
retrieval position and has no rerank score: a bad answer never raises. Scores are cached
by (query, clause text, prompt key, model).

The stage never holds a search hostage: it takes one of the client's request slots at once
or gives up (the LLM is busy), skips the LLM while the circuit breaker is open, and has a
whole-stage deadline; in each case the results come back in search order with
status "unavailable" and the reason.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from index_builder.model import Rating, RerankOutcome, SearchHit

from index_builder.errors import (LLMBusyError, LLMCircuitOpenError, LLMNotConfiguredError,
                                  LLMUnavailableError)
from addin_server.llm.client import ChatClient, Completion
from addin_server.llm.guard import OPEN, Bulkhead
from addin_server.llm.tokens import TokenCounter
from addin_server.llm.untrusted import neutralise
from addin_server.draft.prompts import RERANK_VARIABLES, PromptTemplate, load_prompt
from index_builder.settings import LLMSettings, Settings

log = logging.getLogger(__name__)

RATINGS = {str(n): n for n in range(5)}
_DIGIT = re.compile(r"""^\s*(?:rating\s*[:=]?\s*)?["'*\[(]*([0-4])(?![0-9.])""", re.IGNORECASE)


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
        # The client's bulkhead when it has one, so rerank and redraft share the bound.
        self.requests: Bulkhead = getattr(client, "requests", None) or Bulkhead(settings.max_requests)

    def rerank(self, query: str, hits: Sequence[SearchHit]) -> list[SearchHit]:
        """The hits reordered; a rated hit's score becomes its rating, ranks renumbered."""
        outcome = self.rerank_detailed(query, hits)
        return [replace(hit, rank=rank, score=hit.score if rating.score is None else rating.score)
                for rank, (hit, rating) in enumerate(outcome.ranked, 1)]

    def rerank_detailed(self, query: str, hits: Sequence[SearchHit]) -> RerankOutcome:
        started = time.monotonic()
        deadline = None if self.budget_s is None else started + self.budget_s
        ratings: list[Rating | None] = [None] * len(hits)
        keys = [self._key(query, hit) for hit in hits]
        for i, key in enumerate(keys):
            cached = self.cache.get(key)
            if cached is not None:
                ratings[i] = Rating(cached, "cache")
        missing = [i for i, r in enumerate(ratings) if r is None]
        if missing and getattr(getattr(self.client, "breaker", None), "state", None) == OPEN:
            return _search_order(hits, "unavailable" if getattr(self.client, "unreachable", False)
                                 else "paused", 0)
        if not missing:
            return self._outcome(hits, ratings, 0, started)
        try:
            with self.requests.admit():
                self._ask(query, hits, missing, ratings, deadline)
        except LLMBusyError:
            return _search_order(hits, "busy", 0)
        return self._outcome(hits, ratings, len(missing), started)

    def _ask(self, query: str, hits: Sequence[SearchHit], missing: list[int],
             ratings: list[Rating | None], deadline: float | None) -> None:
        """Rate the uncached candidates concurrently until they answer or the stage ends."""
        query_text = neutralise(self.counter.truncate(query, self.settings.rerank_query_tokens))
        pending = {self._pool.submit(self._rate, query_text, query, hits[i], deadline): i
                   for i in missing}
        timeout = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        done, not_done = wait(pending, timeout=timeout)
        for future in not_done:
            future.cancel()  # queued calls never start; running ones stop at the deadline
            ratings[pending[future]] = Rating(None, "timeout")
        for future in done:
            ratings[pending[future]] = future.result()

    def _outcome(self, hits: Sequence[SearchHit], ratings: list[Rating | None], calls: int,
                 started: float) -> RerankOutcome:
        final = [r or Rating(None, "timeout") for r in ratings]
        status, reason = _status(final, self.budget_s)
        ranked = (_merge(list(hits), final) if status == "applied"
                  else [(h, Rating(None, r.method)) for h, r in zip(hits, final, strict=True)])
        log.info("Reranked %d candidates in %.2f s: %d calls, %d cached, status %s", len(hits),
                 time.monotonic() - started, calls, len(hits) - calls, status)
        return RerankOutcome(ranked, status, reason, calls, len(hits) - calls)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _rate(self, query_text: str, query: str, hit: SearchHit, deadline: float | None) -> Rating:
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            return Rating(None, "timeout")  # waited in the queue past the stage's deadline
        clause = neutralise(self.counter.truncate(hit.clause.text, self.settings.rerank_clause_tokens))
        messages = self.prompt.render(query=query_text, clause=clause)
        try:
            with self.requests.on_behalf():
                completion = self.client.complete(
                    messages, model=self.model, max_tokens=1, temperature=0.0,
                    top_logprobs=self.settings.rerank_top_logprobs if self.settings.rerank_logprobs else 0,
                    deadline_s=remaining)
        except LLMUnavailableError as exc:
            log.debug("Rerank call failed for %s: %s", hit.clause.clause_id, exc.code)
            if isinstance(exc, LLMCircuitOpenError):
                return Rating(None, "paused")
            if isinstance(exc, LLMBusyError):
                return Rating(None, "busy")
            past = deadline is not None and time.monotonic() >= deadline - 0.05
            return Rating(None, "timeout" if past else "unavailable")
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


REASONS = {
    "timeout": "The language model was too slow: not every result was rated within {budget}, "
               "so results are in search order.",
    "busy": "The language model is busy with other requests; results are in search order.",
    "paused": "The language model has been failing, so rerank is paused for a short while; "
              "results are in search order.",
    "unavailable": "The language model could not be reached; results are in search order.",
    "unparseable": "The language model's ratings could not be read; results are in search order.",
}


def _search_order(hits: Sequence[SearchHit], method: str, calls: int) -> RerankOutcome:
    return RerankOutcome([(h, Rating(None, method)) for h in hits], "unavailable",
                         REASONS[method], calls, 0)


def _status(ratings: list[Rating], budget_s: float | None) -> tuple[str, str]:
    """A stage past its deadline is unavailable (search order); else partial is applied."""
    unrated = [r for r in ratings if r.score is None]
    if any(r.method == "timeout" for r in unrated):
        budget = f"{budget_s:.0f} s" if budget_s else "its deadline"
        return "unavailable", REASONS["timeout"].format(budget=budget)
    if ratings and len(unrated) == len(ratings):
        for method in ("unavailable", "paused", "busy"):
            if any(r.method == method for r in unrated):
                return "unavailable", REASONS[method]
        return "unavailable", REASONS["unparseable"]
    if unrated:
        return "applied", (f"{len(unrated)} of {len(ratings)} candidates could not be rated and "
                           f"keep their search positions.")
    return "applied", ""


def default_prompt_path(prompts_dir: Path) -> Path:
    return prompts_dir / "rerank.prompt"


def load_rerank_prompt(path: Path) -> PromptTemplate:
    return load_prompt(path, RERANK_VARIABLES)


_EVAL_SERVERS: list[object] = []  # keeps an embedded local LLM alive for the eval process


def reranker_for_eval(settings: Settings, prompt_path: Path | None = None) -> LLMReranker:
    """The LLM reranker `addin-server eval` measures.

    Uses PRECEDENT_LLM_* when an endpoint is configured, else starts the embedded local
    model (if fetched); ``prompt_path`` defaults to the server's rerank.prompt.
    """
    from addin_server.llm.client import OpenAIChatClient
    from addin_server.llm.local import LocalLLMServer, local_model_available

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
