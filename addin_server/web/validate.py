"""Request fields checked one by one, with their limits: every view's bad input is a 4xx with a
message that says what to send, never a 500.

``json_body`` reads the body strictly (web/body.py); the rest check one field of it each.
Limits that come from settings (text length, top_k, ...) are passed in by the view.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import request

from addin_server.web import context
from addin_server.web.body import read_json_object
from index_builder.errors import InvalidRequestError, TextTooLongError
from index_builder.index.backend import WALL_FIELDS
from index_builder.retrieve.pipeline import Example
from index_builder.settings import ServerSettings

MAX_CLAUSE_IDS = 20
MAX_FILTER_VALUES = 50
MAX_DOCUMENT_TERMS = 500
MAX_EXAMPLES = 10


def json_body() -> dict[str, Any]:
    """The request body as a JSON object.

    Strict: duplicate keys, NaN, 1e999, huge integers, deep nesting, invalid UTF-8 and
    short bodies are each a 400 with a message (see web/body.py).
    """
    return read_json_object(request)


def text(body: Mapping[str, Any], settings: ServerSettings) -> str:
    """``text``: the selected paragraph or a short query, present, not blank, within the limit."""
    if "text" not in body:
        raise InvalidRequestError("Missing 'text': send the selected paragraph or a short query.")
    value = body["text"]
    if not isinstance(value, str):
        raise InvalidRequestError("'text' must be a string.")
    check_encodable(value, "text")
    if not value.strip():
        raise InvalidRequestError("The text is empty: select a clause in the document, or type "
                                  "what you are looking for.")
    if len(value) > settings.max_text_chars:
        raise TextTooLongError(f"The selected text is {len(value):,} characters long; the limit is "
                               f"{settings.max_text_chars:,}. Select a single clause.")
    return value


def integer(body: Mapping[str, Any], name: str, low: int, high: int) -> int | None:
    """A whole number from ``low`` to ``high``; None when absent."""
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequestError(f"'{name}' must be a whole number from {low} to {high}.")
    if not low <= value <= high:
        raise InvalidRequestError(f"'{name}' must be from {low} to {high}, got {value}.")
    return value


def boolean(body: Mapping[str, Any], name: str) -> bool | None:
    """true or false; None when absent."""
    value = body.get(name)
    if value is None or isinstance(value, bool):
        return value
    raise InvalidRequestError(f"'{name}' must be true or false.")


def fraction(body: Mapping[str, Any], name: str, default: float) -> float:
    """A number above 0 and at most 1 (a similarity or a threshold); ``default`` when absent."""
    value = body.get(name)
    if value is None:
        return float(default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise InvalidRequestError(f"'{name}' must be a number above 0 and at most 1.")
    return float(value)


def check_encodable(value: str, name: str) -> None:
    # JSON can carry lone surrogates ("\ud800") that no tokenizer or HTTP client can encode.
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidRequestError(f"'{name}' contains a broken character (a lone UTF-16 "
                                  f"surrogate); copy the text again from the document.") from None


def string(body: Mapping[str, Any], name: str, limit: int) -> str:
    """An optional string of at most ``limit`` characters ("" when absent)."""
    value = body.get(name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidRequestError(f"'{name}' must be a string.")
    check_encodable(value, name)
    if len(value) > limit:
        raise TextTooLongError(f"'{name}' is {len(value):,} characters long; the limit is {limit:,}.")
    return value


def filters(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """``filters``: field -> a value or a list of values; the wall fields are not the caller's."""
    value = body.get("filters")
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InvalidRequestError("'filters' must be an object such as {\"document\": \"Mutual NDA\"}.")
    out: dict[str, Any] = {}
    for key, wanted in value.items():
        if key in WALL_FIELDS:  # the wall groups are not the caller's to choose or probe
            raise InvalidRequestError(f"Unknown filter field {key!r}.")
        values = wanted if isinstance(wanted, list) else [wanted]
        if not values or len(values) > MAX_FILTER_VALUES or not all(
                isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in values):
            raise InvalidRequestError(f"Filter '{key}' must be a string or a list of up to "
                                      f"{MAX_FILTER_VALUES} strings.")
        out[key] = [str(v) for v in values]
    return out or None


def clause_ids(body: Mapping[str, Any], limit: int) -> list[str] | None:
    """``clause_ids``: distinct ids, at most ``limit`` (and MAX_CLAUSE_IDS); None when absent.
    An empty list is the caller's choice of no precedent at all (a redraft of the clause alone)."""
    value = body.get("clause_ids")
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise InvalidRequestError("'clause_ids' must be a list of clause id strings.")
    unique = list(dict.fromkeys(value))
    if len(unique) > min(limit, MAX_CLAUSE_IDS):
        raise InvalidRequestError(f"Choose at most {min(limit, MAX_CLAUSE_IDS)} precedents for a redraft.")
    return unique


def choice(body: Mapping[str, Any], name: str, choices: tuple[str, ...]) -> str:
    """One of ``choices``; the first when absent."""
    value = body.get(name, choices[0])
    if value not in choices:
        raise InvalidRequestError(f"'{name}' must be one of: {', '.join(choices)}.")
    return value


def document_terms(body: Mapping[str, Any]) -> list[str] | None:
    """The defined terms of the lawyer's document (the pane reads them), when sent."""
    terms = body.get("document_terms")
    if terms is None:
        return None
    if not isinstance(terms, list) or not all(isinstance(t, str) and 0 < len(t) <= 100
                                               for t in terms):
        raise InvalidRequestError("'document_terms' must be a list of defined terms (short strings).")
    if len(terms) > MAX_DOCUMENT_TERMS:
        raise InvalidRequestError(f"Send at most {MAX_DOCUMENT_TERMS} defined terms.")
    return terms


def examples(body: Mapping[str, Any]) -> list[Example]:
    """``examples``: up to MAX_EXAMPLES ``{"clause_id"}`` or ``{"text"}`` objects ("more like
    these", on /precedents and /variations)."""
    value = body.get("examples")
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_EXAMPLES or not all(
            isinstance(e, dict) and (isinstance(e.get("clause_id"), str) and e["clause_id"] or
                                     isinstance(e.get("text"), str)) for e in value):
        raise InvalidRequestError(
            f"'examples' must be a list of up to {MAX_EXAMPLES} objects, each "
            f"{{\"clause_id\": \"...\"}} or {{\"text\": \"...\"}}.")
    settings = context.server_settings()
    return [Example(clause_id=e["clause_id"]) if isinstance(e.get("clause_id"), str)
            else Example(text=text({"text": e["text"]}, settings)) for e in value]
