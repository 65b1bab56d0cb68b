"""HTTP statuses for the shared error hierarchy: the only place an error meets HTTP.

The classes live in ``index_builder.errors`` (the CLI and the server raise the same ones);
this table says what each means on the wire. The most specific class listed wins.
"""

from __future__ import annotations

from index_builder import errors as e

# Subclasses come before their bases: the first match in the error's MRO decides.
HTTP_STATUS: dict[type[e.PrecedentError], int] = {
    e.UnauthorizedError: 401,
    e.ForbiddenError: 403,
    e.RateLimitedError: 429,
    e.SignInUnavailableError: 503,
    e.LLMContextError: 413,
    e.TextTooLongError: 413,
    e.UnsupportedMediaTypeError: 415,
    e.InvalidRequestError: 400,
    e.NotFoundError: 404,
    e.LLMBadResponseError: 502,
    e.LLMBusyError: 503,
    e.SearchBusyError: 503,
    e.LLMCircuitOpenError: 503,
    e.LLMUnavailableError: 503,
    e.IndexNotFoundError: 503,
    e.SearchEngineUnavailableError: 503,
    e.AccessChangePendingError: 503,
    e.IndexFormatError: 503,
    e.ModelLoadError: 503,
    e.FeedbackUnavailableError: 503,
}


def http_status(exc: e.PrecedentError) -> int:
    """The status for an error: its own class's, else its nearest listed base's, else 500."""
    for cls in type(exc).__mro__:
        if cls in HTTP_STATUS:
            return HTTP_STATUS[cls]
    return 500


def retry_after(exc: e.PrecedentError) -> int | None:
    """Seconds for a Retry-After header, or None: a busy LLM says "in a minute"; a full search
    queue (index/batcher.py) carries its own."""
    if isinstance(exc, e.LLMBusyError):
        return 60
    seconds = getattr(exc, "retry_after", None)
    return max(1, int(seconds)) if seconds is not None else None
