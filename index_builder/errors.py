"""One small exception hierarchy shared by the index builder and the server.

Every error carries a stable machine ``code`` (used in the API's JSON error body) and a
message that tells the user what to do about it.
"""

from __future__ import annotations


class PrecedentError(Exception):
    """Base class: an error we expect and can explain to the user."""

    code = "precedent_error"
    http_status = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ConfigError(PrecedentError):
    """A setting is missing or wrong; the message names the setting to fix."""

    code = "config_error"


class DataNotFoundError(PrecedentError):
    """A data folder or file the command needs does not exist."""

    code = "data_not_found"


class DocumentError(PrecedentError):
    """A source document could not be read (corrupt, encrypted, wrong format)."""

    code = "unreadable_document"


class IndexNotFoundError(PrecedentError):
    """No usable index at the configured path."""

    code = "index_not_found"
    http_status = 503


class IndexFormatError(PrecedentError):
    """An index exists but was written by an incompatible version or is damaged."""

    code = "index_format"
    http_status = 503


class InvalidRequestError(PrecedentError):
    """The caller sent something we cannot act on (empty text, wrong types, ...)."""

    code = "invalid_request"
    http_status = 400


class NotFoundError(PrecedentError):
    """A named thing (clause id, document) does not exist."""

    code = "not_found"
    http_status = 404


class ModelLoadError(PrecedentError):
    """The embedding (or other local) model could not be loaded."""

    code = "model_unavailable"
    http_status = 503


class LLMUnavailableError(PrecedentError):
    """The language model endpoint could not be reached or kept failing."""

    code = "llm_unavailable"
    http_status = 503
