"""The chat-completions client: one interface, one implementation over the openai SDK.

Works with any OpenAI-compatible endpoint by configuration alone (OpenAI, Azure OpenAI,
vLLM, Ollama, llama.cpp). The SDK's own retries are off; tenacity retries timeouts,
connection failures, 429 and 5xx with jittered exponential backoff (honouring
Retry-After) inside a per-call deadline, and only while what is left of it can hold a useful
attempt (LLMSettings.retry_min_share of the first attempt's time). A semaphore bounds calls in flight across all
requests; a bulkhead bounds the requests waiting on the LLM (see guard.py), and a circuit
breaker that judges every attempt (errors, 429s, timeouts, unreadable bodies) makes calls
fail fast while the endpoint is failing, so a sick LLM costs each search microseconds.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Protocol, Sequence

import openai
from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential_jitter,
)
from tenacity.stop import stop_base

from addin_server.llm.guard import Bulkhead, CircuitBreaker
from index_builder.errors import (LLMBadResponseError, LLMBusyError, LLMRequestError,
                                  LLMUnavailableError)
from index_builder.settings import LLMSettings

log = logging.getLogger(__name__)

Messages = Sequence[dict[str, str]]

# A timeout counts against the endpoint only if the attempt had at least this long (or its
# full per-attempt timeout): a call cut short by the end of a rerank stage proves nothing.
TIMEOUT_EVIDENCE_S = 2.0
# Longest wait for a free call slot; past it the caller hears "busy" instead of queueing.
SLOT_WAIT_S = 10.0


@dataclass(frozen=True)
class Completion:
    """The first choice of an answer: text, the first token's alternatives, usage."""

    text: str
    top_logprobs: dict[str, float] | None  # token -> logprob; None when not returned
    model: str = ""
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    seconds: float = 0.0


class ChatClient(Protocol):
    """What the reranker and the redrafter need from a language model."""

    def complete(self, messages: Messages, *, model: str, max_tokens: int,
                 temperature: float = 0.0, top_logprobs: int = 0,
                 timeout_s: float | None = None, deadline_s: float | None = None) -> Completion:
        """One chat completion; raises LLMUnavailableError (or a subclass) on failure.

        ``timeout_s`` overrides the per-attempt timeout (a long generation needs more);
        ``deadline_s`` the whole call's, retries included (what is left of a rerank stage).
        """
        ...

    def ping(self) -> dict[str, Any]:
        """Whether the endpoint answers: {"reachable": bool, "detail": str}."""
        ...



class OpenAIChatClient:
    """ChatClient over the openai SDK: retries, deadline, call bound, bulkhead, breaker."""

    def __init__(self, settings: LLMSettings, sdk: Any | None = None) -> None:
        self.settings = settings
        self._sdk = sdk or make_sdk_client(settings)
        self._slots = threading.BoundedSemaphore(settings.max_concurrency)
        # Requests (not calls) waiting on the LLM; the reranker admits its request here too.
        self.requests = Bulkhead(settings.max_requests)
        self.breaker = CircuitBreaker(settings.breaker_window, settings.breaker_failure_rate,
                                      settings.cooldown_s, settings.breaker_probes)
        self.unreachable = False
        self.logprobs_supported = True

    def complete(self, messages: Messages, *, model: str, max_tokens: int,
                 temperature: float = 0.0, top_logprobs: int = 0,
                 timeout_s: float | None = None, deadline_s: float | None = None) -> Completion:
        # A redraft's thread takes a request slot here (at once, or 503 llm_busy); rerank
        # workers run on behalf of a request that already holds one.
        with self.requests.admit():
            return self._complete(messages, model, max_tokens, temperature, top_logprobs,
                                  timeout_s, deadline_s)

    def _complete(self, messages: Messages, model: str, max_tokens: int, temperature: float,
                  top_logprobs: int, timeout_s: float | None,
                  deadline_s: float | None) -> Completion:
        started = time.monotonic()
        timeout = timeout_s or self.settings.request_timeout_s
        budget = max(self.settings.deadline_s, timeout) if deadline_s is None else deadline_s
        deadline = started + budget
        self.breaker.check()
        if not self._slots.acquire(timeout=max(0.0, min(budget, SLOT_WAIT_S))):
            raise LLMBusyError("The drafting assistant is busy, try again in a minute.")
        try:
            completion = self._with_retries(messages, model, max_tokens, temperature,
                                            top_logprobs if self.logprobs_supported else 0,
                                            deadline, timeout)
        finally:
            self._slots.release()
        completion = replace(completion, seconds=time.monotonic() - started)
        log.debug("LLM %s: %.2f s, %s prompt / %s completion tokens", model, completion.seconds,
                  completion.prompt_tokens, completion.completion_tokens)
        return completion

    def ping(self) -> dict[str, Any]:
        try:
            self._sdk.models.list(timeout=min(self.settings.connect_timeout_s, 5.0))
        except (openai.APIConnectionError, openai.APITimeoutError) as exc:
            return {"reachable": False, "detail": _describe(exc)}
        except openai.AuthenticationError:
            return {"reachable": True, "detail": "the endpoint refused the API key (PRECEDENT_LLM_API_KEY)"}
        except openai.APIStatusError as exc:
            # Some endpoints (Azure deployments) have no /models route: an HTTP answer still
            # proves the server is up.
            return {"reachable": True, "detail": f"models route answered HTTP {exc.status_code}"}
        except Exception as exc:  # an unreadable answer still came from a live server
            return {"reachable": True, "detail": f"unexpected answer ({type(exc).__name__})"}
        if self.unreachable:  # it answers again: no need to wait out the cool-down
            self.unreachable = False
            self.breaker.reset()
        return {"reachable": True, "detail": "ok"}

    def guard_state(self) -> dict[str, Any]:
        """The breaker's and the bulkhead's state, for health and benchmarks."""
        return {"breaker": self.breaker.snapshot(), "requests": self.requests.snapshot()}

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._sdk.close()

    def _with_retries(self, messages: Messages, model: str, max_tokens: int, temperature: float,
                      top_logprobs: int, deadline: float, timeout: float) -> Completion:
        s = self.settings
        first = min(timeout, deadline - time.monotonic())  # the time the first attempt gets
        retrying = Retrying(
            retry=retry_if_exception(_transient),
            stop=stop_after_attempt(s.max_attempts) | _TooLittleLeft(deadline, s.retry_min_share * first),
            wait=_RetryAfterWait(s.backoff_initial_s, s.backoff_max_s),
            before_sleep=_log_retry,
            reraise=True,
        )
        try:
            for attempt in retrying:
                with attempt:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        raise openai.APITimeoutError(request=None)  # type: ignore[arg-type]
                    return self._attempt(messages, model, max_tokens, temperature, top_logprobs,
                                         min(timeout, remaining), timeout)
        except openai.BadRequestError as exc:
            if top_logprobs and "logprob" in str(exc).lower():
                log.warning("The endpoint rejects logprobs; rerank will parse the rated digit.")
                self.logprobs_supported = False
                return self._with_retries(messages, model, max_tokens, temperature, 0, deadline,
                                          timeout)
            raise LLMRequestError(_request_error(exc, model)) from exc
        except (openai.APIConnectionError, openai.APITimeoutError, openai.RateLimitError,
                openai.InternalServerError) as exc:
            unreachable = (isinstance(exc, openai.APIConnectionError)
                           and not isinstance(exc, openai.APITimeoutError))
            if unreachable:
                self.unreachable = True
                self.breaker.force_open(f"unreachable: {_describe(exc)}", self.settings.cooldown_s)
            raise LLMUnavailableError(f"The language model did not answer ({_describe(exc)}).") from exc
        except openai.APIStatusError as exc:
            raise LLMRequestError(_request_error(exc, model)) from exc
        except (ValueError, TypeError, AttributeError) as exc:  # unreadable body
            raise LLMBadResponseError(f"The language model sent an unreadable answer ({type(exc).__name__}).") from exc
        raise AssertionError("unreachable")  # tenacity either returns or raises

    def _attempt(self, messages: Messages, model: str, max_tokens: int, temperature: float,
                 top_logprobs: int, allowed: float, timeout: float) -> Completion:
        """One HTTP attempt, judged by the circuit breaker (which may refuse it)."""
        probe = self.breaker.before_attempt()
        try:
            completion = _parse(self._call(messages, model, max_tokens, temperature,
                                           top_logprobs, allowed), 0.0)
        except BaseException as exc:
            self.breaker.record(_failed(exc, allowed, timeout), probe, _describe(exc))
            raise
        self.breaker.record(False, probe)
        self.unreachable = False
        return completion

    def _call(self, messages: Messages, model: str, max_tokens: int, temperature: float,
              top_logprobs: int, timeout: float) -> Any:
        extra: dict[str, Any] = {}
        if top_logprobs:
            extra = {"logprobs": True, "top_logprobs": top_logprobs}
        return self._sdk.chat.completions.create(
            model=model, messages=list(messages), max_tokens=max_tokens,
            temperature=temperature, timeout=timeout, **extra)


def make_sdk_client(settings: LLMSettings) -> Any:
    """The openai SDK client for these settings (Azure or any OpenAI-compatible endpoint)."""
    timeout = openai.Timeout(settings.request_timeout_s, connect=settings.connect_timeout_s)
    # Local servers ignore the key, but the SDK insists on one.
    key = settings.api_key or "not-needed"
    if settings.provider == "azure":
        return openai.AzureOpenAI(azure_endpoint=settings.base_url, api_version=settings.api_version,
                                  api_key=key, max_retries=0, timeout=timeout)
    return openai.OpenAI(base_url=settings.base_url, api_key=key, max_retries=0, timeout=timeout)


class _RetryAfterWait:
    """Exponential backoff with jitter, or the server's Retry-After when it asks for longer."""

    def __init__(self, initial: float, maximum: float) -> None:
        self._backoff = wait_exponential_jitter(initial=initial, max=maximum)
        self._maximum = maximum

    def __call__(self, state: RetryCallState) -> float:
        wait = float(self._backoff(state))
        exc = state.outcome.exception() if state.outcome else None
        response = getattr(exc, "response", None)
        header = response.headers.get("retry-after") if response is not None else None
        try:
            asked = float(header) if header else 0.0
        except ValueError:
            asked = 0.0  # an HTTP date: fall back to our own backoff
        return max(wait, min(asked, self._maximum))


class _TooLittleLeft(stop_base):
    """Stop when the time left after the backoff wait is less than a useful attempt's.

    A retry given a fraction of the time a full attempt had cannot be expected to finish what
    that attempt did not (a 110 s redraft that timed out, retried with the 10 s left of its
    120 s): the caller hears the timeout at once instead of ten seconds later."""

    def __init__(self, deadline: float, useful_s: float) -> None:
        self.deadline = deadline
        self.useful_s = useful_s

    def __call__(self, retry_state: RetryCallState) -> bool:
        left = self.deadline - time.monotonic() - (retry_state.upcoming_sleep or 0.0)
        return left <= 0 or left < self.useful_s


def _transient(exc: BaseException) -> bool:
    return isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError,
                            openai.RateLimitError, openai.InternalServerError))


def _failed(exc: BaseException, allowed: float, timeout: float) -> bool | None:
    """Whether an attempt's error counts against the endpoint (None: no evidence either way)."""
    if isinstance(exc, openai.APITimeoutError):
        return True if allowed >= min(timeout, TIMEOUT_EVIDENCE_S) else None
    if isinstance(exc, (openai.APIConnectionError, openai.RateLimitError,
                        openai.InternalServerError, LLMBadResponseError, ValueError,
                        TypeError, AttributeError)):
        return True
    if isinstance(exc, openai.APIStatusError):
        return False  # 4xx: the endpoint is up and judged our request
    return None


def _log_retry(state: RetryCallState) -> None:
    exc = state.outcome.exception() if state.outcome else None
    log.info("LLM call attempt %d failed (%s); retrying in %.2f s", state.attempt_number,
             _describe(exc), state.upcoming_sleep)


def _describe(exc: BaseException | None) -> str:
    if isinstance(exc, openai.APITimeoutError):
        return "timed out"
    if isinstance(exc, openai.APIConnectionError):
        return "connection failed"
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}"
    return type(exc).__name__ if exc else "unknown"


def _request_error(exc: openai.APIStatusError, model: str) -> str:
    status = exc.status_code
    if status in (401, 403):
        return "The language model endpoint refused the API key: check PRECEDENT_LLM_API_KEY."
    if status == 404:
        return (f"The language model endpoint has no model {model!r}: check PRECEDENT_LLM_BASE_URL "
                f"and PRECEDENT_LLM_RERANK_MODEL / PRECEDENT_LLM_REDRAFT_MODEL.")
    return f"The language model endpoint rejected the request (HTTP {status})."


def _parse(answer: Any, seconds: float) -> Completion:
    """Read the first choice defensively: endpoints differ in what they leave out."""
    choices = getattr(answer, "choices", None)
    if not choices:
        raise LLMBadResponseError("The language model sent an answer with no choices.")
    choice = choices[0]
    message = getattr(choice, "message", None)
    text = getattr(message, "content", None) or ""
    usage = getattr(answer, "usage", None)
    return Completion(
        text=str(text),
        top_logprobs=_top_logprobs(getattr(choice, "logprobs", None)),
        model=str(getattr(answer, "model", "") or ""),
        prompt_tokens=getattr(usage, "prompt_tokens", None),
        completion_tokens=getattr(usage, "completion_tokens", None),
        seconds=seconds,
    )


def _top_logprobs(logprobs: Any) -> dict[str, float] | None:
    content = getattr(logprobs, "content", None)
    if not content:
        return None
    first = content[0]
    top = getattr(first, "top_logprobs", None) or []
    result: dict[str, float] = {}
    for item in top:
        token, value = getattr(item, "token", None), getattr(item, "logprob", None)
        if isinstance(token, str) and isinstance(value, (int, float)):
            # Keep the most likely spelling when " 3" and "3" both appear.
            result[token] = max(float(value), result.get(token, float("-inf")))
    return result or None
