"""The chat-completions client: one interface, one implementation over the openai SDK.

Works with any OpenAI-compatible endpoint by configuration alone (OpenAI, Azure OpenAI,
vLLM, Ollama, llama.cpp). The SDK's own retries are off; tenacity retries timeouts,
connection failures, 429 and 5xx with jittered exponential backoff (honouring
Retry-After) inside a per-call deadline. A semaphore bounds calls in flight across all
requests, and after the endpoint proves unreachable calls fail fast for a cool-down, so
a dead LLM costs each search milliseconds, not a timeout.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol, Sequence

import openai
from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    stop_before_delay,
    wait_exponential_jitter,
)

from index_builder.errors import LLMBadResponseError, LLMRequestError, LLMUnavailableError
from index_builder.settings import LLMSettings

log = logging.getLogger(__name__)

Messages = Sequence[dict[str, str]]


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
                 timeout_s: float | None = None) -> Completion:
        """One chat completion; raises LLMUnavailableError (or a subclass) on failure.

        ``timeout_s`` overrides the per-attempt timeout (a long generation needs more).
        """
        ...

    def ping(self) -> dict[str, Any]:
        """Whether the endpoint answers: {"reachable": bool, "detail": str}."""
        ...



class OpenAIChatClient:
    """ChatClient over the openai SDK with retries, a deadline, a bound and a cool-down."""

    def __init__(self, settings: LLMSettings, sdk: Any | None = None) -> None:
        self.settings = settings
        self._sdk = sdk or make_sdk_client(settings)
        self._slots = threading.BoundedSemaphore(settings.max_concurrency)
        self._lock = threading.Lock()
        self._down_until = 0.0
        self._down_reason = ""
        self.logprobs_supported = True

    def complete(self, messages: Messages, *, model: str, max_tokens: int,
                 temperature: float = 0.0, top_logprobs: int = 0,
                 timeout_s: float | None = None) -> Completion:
        started = time.monotonic()
        timeout = timeout_s or self.settings.request_timeout_s
        budget = max(self.settings.deadline_s, timeout)
        deadline = started + budget
        self._fail_fast_if_down()
        if not self._slots.acquire(timeout=budget):
            raise LLMUnavailableError("The language model is busy with other requests; try again.")
        try:
            answer = self._with_retries(messages, model, max_tokens, temperature,
                                        top_logprobs if self.logprobs_supported else 0,
                                        deadline, timeout)
        finally:
            self._slots.release()
        completion = _parse(answer, time.monotonic() - started)
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
        with self._lock:
            self._down_until = 0.0
        return {"reachable": True, "detail": "ok"}

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._sdk.close()

    def _with_retries(self, messages: Messages, model: str, max_tokens: int, temperature: float,
                      top_logprobs: int, deadline: float, timeout: float) -> Any:
        s = self.settings
        retrying = Retrying(
            retry=retry_if_exception(_transient),
            stop=stop_after_attempt(s.max_attempts) | stop_before_delay(deadline - time.monotonic()),
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
                    return self._call(messages, model, max_tokens, temperature, top_logprobs,
                                      min(timeout, remaining))
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
                self._mark_down(_describe(exc))
            raise LLMUnavailableError(f"The language model did not answer ({_describe(exc)}).") from exc
        except openai.APIStatusError as exc:
            raise LLMRequestError(_request_error(exc, model)) from exc
        except (ValueError, TypeError, AttributeError) as exc:  # unreadable body
            raise LLMBadResponseError(f"The language model sent an unreadable answer ({type(exc).__name__}).") from exc
        raise AssertionError("unreachable")  # tenacity either returns or raises

    def _call(self, messages: Messages, model: str, max_tokens: int, temperature: float,
              top_logprobs: int, timeout: float) -> Any:
        extra: dict[str, Any] = {}
        if top_logprobs:
            extra = {"logprobs": True, "top_logprobs": top_logprobs}
        return self._sdk.chat.completions.create(
            model=model, messages=list(messages), max_tokens=max_tokens,
            temperature=temperature, timeout=timeout, **extra)

    def _fail_fast_if_down(self) -> None:
        with self._lock:
            if time.monotonic() < self._down_until:
                raise LLMUnavailableError(f"The language model is unreachable ({self._down_reason}).")

    def _mark_down(self, reason: str) -> None:
        with self._lock:
            self._down_until = time.monotonic() + self.settings.cooldown_s
            self._down_reason = reason
        log.warning("LLM endpoint unreachable (%s); calls fail fast for %.0f s.", reason,
                    self.settings.cooldown_s)


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


def _transient(exc: BaseException) -> bool:
    return isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError,
                            openai.RateLimitError, openai.InternalServerError))


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
