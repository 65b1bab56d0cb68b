"""Server-side errors: subclasses of the shared hierarchy, each with its code and status."""

from __future__ import annotations

from index_builder.errors import (  # re-exported: the server imports errors from here
    ConfigError,
    InvalidRequestError,
    LLMUnavailableError,
    NotFoundError,
    PrecedentError,
)

__all__ = [
    "ConfigError", "InvalidRequestError", "LLMUnavailableError", "NotFoundError", "PrecedentError",
    "TextTooLongError", "UnsupportedMediaTypeError", "UnauthorizedError", "PromptError",
    "LLMNotConfiguredError", "LLMRequestError", "LLMContextError", "LocalModelError",
]


class TextTooLongError(InvalidRequestError):
    """The selected text (or the whole request) is bigger than the server accepts."""

    code = "text_too_long"
    http_status = 413


class UnsupportedMediaTypeError(InvalidRequestError):
    """The body is not declared as JSON (which also keeps cross-site form posts out)."""

    code = "unsupported_media_type"
    http_status = 415


class UnauthorizedError(PrecedentError):
    """API tokens are configured and the request carried no valid one."""

    code = "unauthorized"
    http_status = 401


class PromptError(ConfigError):
    """A prompt template file is missing, malformed or has the wrong placeholders."""

    code = "prompt_error"


class LLMNotConfiguredError(LLMUnavailableError):
    """No language model endpoint is configured and no local model is running."""

    code = "llm_not_configured"


class LLMRequestError(LLMUnavailableError):
    """The endpoint answered, but refused the request (bad key, unknown model, bad input).

    Retrying will not help; the message names the setting to check.
    """

    code = "llm_request_failed"


class LLMContextError(TextTooLongError):
    """The selected text alone does not fit in the language model's context window."""

    code = "text_too_long_for_model"


class LocalModelError(ConfigError):
    """The embedded local model could not be fetched, verified or started."""

    code = "local_model_error"
