"""The JSON API under /api/v1: precedents, redraft, clauses, health.

Request bodies are checked here, field by field, so bad input is a 4xx with a message
that says what to send, never a 500.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, g, jsonify, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from index_builder.errors import InvalidRequestError, NotFoundError
from index_builder.index.backend import WALL_FIELDS, Filters, filters_from_mapping

from index_builder.errors import TextTooLongError, UnauthorizedError
from addin_server.conform.prompting import with_document_terms
from addin_server.web.body import read_json_object
from addin_server.draft.router import PREFERENCES
from addin_server.web.serialize import clause_json, redraft_json, search_json
from addin_server.service import PrecedentService
from index_builder.settings import ServerSettings

bp = Blueprint("api", __name__, url_prefix="/api/v1")

MAX_CLAUSE_IDS = 20
MAX_FILTER_VALUES = 50


def service() -> PrecedentService:
    return current_app.extensions["precedent"]


def access() -> Filters:
    """The signed-in caller's ethical walls as filters (none without walls configured).

    Set by web/auth.py before every API view; missing means the view ran unauthenticated,
    so it fails closed rather than serving without walls.
    """
    if "precedent_access" not in g:
        raise UnauthorizedError("Sign in to use Precedent.")
    return g.precedent_access


def server_settings() -> ServerSettings:
    return current_app.config["PRECEDENT_SETTINGS"].server


@bp.post("/precedents")
def precedents() -> Any:
    body = _json_body()
    settings = server_settings()
    from addin_server.web.explore import examples_from_body  # explore imports this module

    from addin_server.web.follow import search_options  # issue 31: strict mode, cursor searches

    options = search_options(body)  # before any work: a refused cursor search costs nothing
    examples = examples_from_body(body)  # "more like these": ids or texts, beside or instead of text
    text = _text(body, settings) if body.get("text") is not None or not examples else ""
    top_k = _int(body, "top_k", 1, settings.max_top_k)
    outcome = service().search(text, top_k, filters_from_mapping(_filters(body)),
                               _bool(body, "rerank"), examples=examples, access=access(),
                               curation=body.get("curation") is not False, **options)
    from addin_server.web.usage import served_json  # usage imports this module

    payload = served_json(outcome, text)  # + list_id and curation marks (issue 27)
    g.audit_payload = payload  # the audit trail reads its clause ids without parsing the JSON again
    return jsonify(payload)


@bp.post("/redraft")
def redraft() -> Any:
    body = _json_body()
    settings = server_settings()
    text = _text(body, settings)
    clause_ids = _clause_ids(body, settings.max_redraft_precedents)
    instructions = _string(body, "instructions", settings.max_instructions_chars)
    prefer = _choice(body, "producer", PREFERENCES)
    terms = _document_terms(body)
    # Issue 23: the document's own parties and terms, when the pane sent them, guide the model
    # (conform/prompting.py); the lawyer's instruction alone is what operations and checks read.
    note = with_document_terms("", body.get("document"), settings.max_instructions_chars)
    outcome, searched = service().redraft(text, clause_ids, instructions, access=access(),
                                          document_terms=terms, prefer=prefer, model_note=note)
    payload = redraft_json(outcome.result, outcome.timings_ms, outcome.drafted)
    if searched is not None:  # the precedents were chosen by search: show how
        payload["rerank"] = search_json(searched)["rerank"]
    return jsonify(payload)


@bp.get("/clauses/<path:clause_id>")
def clause(clause_id: str) -> Any:
    found, before, after = service().clause_with_context(clause_id, access=access())
    item = clause_json(found)
    return jsonify({"clause": item, "context": {"before": [clause_json(c) for c in before],
                                                "after": [clause_json(c) for c in after]},
                    # Corpora without document order (ACORD) never offer other clauses as context.
                    "context_available": bool(before or after)})


@bp.get("/health")
def health() -> Any:
    from addin_server.web.follow import capability  # issue 31: whether the pane may follow the cursor
    from addin_server.web.usage import health_info

    info = service().health(access())
    info["capabilities"]["follow"] = capability(current_app.config["PRECEDENT_SETTINGS"].follow)
    return jsonify({"status": "ok", **info, **health_info()})


def _json_body() -> dict[str, Any]:
    # Strict: duplicate keys, NaN, 1e999, huge integers, deep nesting, invalid UTF-8 and
    # short bodies are each a 400 with a message (see web/body.py).
    return read_json_object(request)


def _text(body: dict[str, Any], settings: ServerSettings) -> str:
    if "text" not in body:
        raise InvalidRequestError("Missing 'text': send the selected paragraph or a short query.")
    text = body["text"]
    if not isinstance(text, str):
        raise InvalidRequestError("'text' must be a string.")
    _check_encodable(text, "text")
    if not text.strip():
        raise InvalidRequestError("The text is empty: select a clause in the document, or type "
                                  "what you are looking for.")
    if len(text) > settings.max_text_chars:
        raise TextTooLongError(f"The selected text is {len(text):,} characters long; the limit is "
                               f"{settings.max_text_chars:,}. Select a single clause.")
    return text


def _int(body: dict[str, Any], name: str, low: int, high: int) -> int | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequestError(f"'{name}' must be a whole number from {low} to {high}.")
    if not low <= value <= high:
        raise InvalidRequestError(f"'{name}' must be from {low} to {high}, got {value}.")
    return value


def _bool(body: dict[str, Any], name: str) -> bool | None:
    value = body.get(name)
    if value is None or isinstance(value, bool):
        return value
    raise InvalidRequestError(f"'{name}' must be true or false.")


def _check_encodable(value: str, name: str) -> None:
    # JSON can carry lone surrogates ("\ud800") that no tokenizer or HTTP client can encode.
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidRequestError(f"'{name}' contains a broken character (a lone UTF-16 "
                                  f"surrogate); copy the text again from the document.") from None


def _string(body: dict[str, Any], name: str, limit: int) -> str:
    value = body.get(name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidRequestError(f"'{name}' must be a string.")
    _check_encodable(value, name)
    if len(value) > limit:
        raise TextTooLongError(f"'{name}' is {len(value):,} characters long; the limit is {limit:,}.")
    return value


def _filters(body: dict[str, Any]) -> dict[str, Any] | None:
    value = body.get("filters")
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InvalidRequestError("'filters' must be an object such as {\"document\": \"Mutual NDA\"}.")
    filters: dict[str, Any] = {}
    for key, wanted in value.items():
        if key in WALL_FIELDS:  # the wall groups are not the caller's to choose or probe
            raise InvalidRequestError(f"Unknown filter field {key!r}.")
        values = wanted if isinstance(wanted, list) else [wanted]
        if not values or len(values) > MAX_FILTER_VALUES or not all(
                isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in values):
            raise InvalidRequestError(f"Filter '{key}' must be a string or a list of up to "
                                      f"{MAX_FILTER_VALUES} strings.")
        filters[key] = [str(v) for v in values]
    return filters or None


def _clause_ids(body: dict[str, Any], limit: int) -> list[str] | None:
    value = body.get("clause_ids")
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise InvalidRequestError("'clause_ids' must be a list of clause id strings.")
    unique = list(dict.fromkeys(value))
    if not unique:
        return None
    if len(unique) > min(limit, MAX_CLAUSE_IDS):
        raise InvalidRequestError(f"Choose at most {min(limit, MAX_CLAUSE_IDS)} precedents for a redraft.")
    return unique


@bp.route("/<path:unknown>", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
def unknown_route(unknown: str) -> Any:
    # Without this, the static files' catch-all would answer a POST here with 405; with it,
    # a known endpoint asked with the wrong method must still get 405, not 404.
    adapter = current_app.url_map.bind_to_environ(request.environ)
    for method in ("GET", "POST"):
        try:
            endpoint, _ = adapter.match(request.path, method=method)
        except HTTPException:
            continue
        if endpoint != "api.unknown_route":
            raise MethodNotAllowed(valid_methods=[method])
    raise NotFoundError(f"There is no API endpoint /api/v1/{unknown}.")


MAX_DOCUMENT_TERMS = 500


def _choice(body: dict[str, Any], name: str, choices: tuple[str, ...]) -> str:
    value = body.get(name, choices[0])
    if value not in choices:
        raise InvalidRequestError(f"'{name}' must be one of: {', '.join(choices)}.")
    return value


def _document_terms(body: dict[str, Any]) -> list[str] | None:
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
