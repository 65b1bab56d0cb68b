"""One small exception hierarchy shared by the index builder and the server.

Every error carries a stable machine ``code`` (used in the API's JSON error body) and a
message that tells the user what to do about it. HTTP statuses are the web layer's business:
``addin_server/web/errors.py`` maps each class to one.
"""

from __future__ import annotations


class PrecedentError(Exception):
    """Base class: an error we expect and can explain to the user."""

    code = "precedent_error"

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


class IndexFormatError(PrecedentError):
    """An index exists but was written by an incompatible version or is damaged."""

    code = "index_format"


class InvalidRequestError(PrecedentError):
    """The caller sent something we cannot act on (empty text, wrong types, ...)."""

    code = "invalid_request"


class NotFoundError(PrecedentError):
    """A named thing (clause id, document) does not exist."""

    code = "not_found"


class ModelLoadError(PrecedentError):
    """The embedding (or other local) model could not be loaded."""

    code = "model_unavailable"


class LLMUnavailableError(PrecedentError):
    """The language model endpoint could not be reached or kept failing."""

    code = "llm_unavailable"

class TextTooLongError(InvalidRequestError):
    """The selected text (or the whole request) is bigger than the server accepts."""

    code = "text_too_long"


class UnsupportedMediaTypeError(InvalidRequestError):
    """The body is not declared as JSON (which also keeps cross-site form posts out)."""

    code = "unsupported_media_type"


class UnauthorizedError(PrecedentError):
    """API tokens are configured and the request carried no valid one."""

    code = "unauthorized"


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


class LLMBadResponseError(LLMUnavailableError):
    """The endpoint answered 200 with something that is not a chat completion."""

    code = "llm_bad_response"


class BuildInProgressError(PrecedentError):
    """Another build of the same index is running; this one refuses rather than race it."""

    code = "build_in_progress"


class NothingIndexableError(DataNotFoundError):
    """Every source was skipped (empty, corrupt, unsupported): there is nothing to index."""

    code = "nothing_indexable"


class LLMBusyError(LLMUnavailableError):
    """Every slot for LLM-bound requests is taken: answer at once instead of queueing."""

    code = "llm_busy"


class LLMCircuitOpenError(LLMUnavailableError):
    """The endpoint failed or timed out too often lately; calls pause until probes succeed."""

    code = "llm_circuit_open"


class ForbiddenError(PrecedentError):
    """The caller is signed in but may not do this (e.g. their groups are unknown while walls are up)."""

    code = "forbidden"


class SignInUnavailableError(PrecedentError):
    """Sign-ins cannot be checked now (the identity provider's signing keys are out of reach)."""

    code = "sign_in_unavailable"


class RateLimitedError(PrecedentError):
    """The caller made more requests than the per-user limit; ``retry_after`` says when to retry."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class SearchBusyError(PrecedentError):
    """The server has more searches waiting for the embedding model than it queues, or one
    waited past its deadline (index/batcher.py); ``retry_after`` says when to search again."""

    code = "search_busy"

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class SearchEngineUnavailableError(PrecedentError):
    """The search engine (Milvus) cannot be reached or refused an operation; names the setting."""

    code = "search_engine_unavailable"


class AccessChangePendingError(PrecedentError):
    """Access to documents changed after the index version this server still answers from,
    and the access ledger no longer lists the change: it answers again once the newer
    version is loaded (index_builder/sources/watch.py)."""

    code = "access_change_pending"


class SourceUnavailableError(PrecedentError):
    """A document source (SharePoint, iManage) cannot be reached, refuses the app's sign-in,
    or keeps throttling; the live index keeps serving and the next sync resumes."""

    code = "source_unavailable"


class FeedbackUnavailableError(PrecedentError):
    """The usage/curation database cannot be opened or written; search keeps working."""

    code = "feedback_unavailable"


class FollowOffError(ForbiddenError):
    """The firm has turned off searching as the lawyer types (PRECEDENT_FOLLOW=off)."""

    code = "follow_off"


class DiskFullError(PrecedentError):
    """The disk (or a quota, or a file size limit) ran out while a build wrote its version."""

    code = "disk_full"
