"""Reading a JSON request body strictly: whatever arrives, the answer is a 4xx that says
what was wrong, never a 500.

Python's json module accepts things a careful API should not: duplicate keys (the last
silently wins), NaN and Infinity, numbers that overflow to inf (1e999), integers of any
length (10**5000 costs quadratic time to convert), and nesting deep enough to exhaust the
interpreter's recursion limit. Invalid UTF-8 and a body shorter than its Content-Length
are refused here too, each with its own message.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from flask import Request
from werkzeug.exceptions import ClientDisconnected

from index_builder.errors import InvalidRequestError, UnsupportedMediaTypeError

# Set on a request whose body was refused: the rest of it may still be on the socket, so
# the answer closes the connection (web/app.py) rather than read it as a next request.
CLOSE_CONNECTION = "precedent.close_connection"
MAX_DEPTH = 32  # our deepest request (examples -> object -> field) needs 3
MAX_NUMBER_CHARS = 100
_LONE_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def read_json_object(request: Request) -> dict[str, Any]:
    """The request body as a JSON object, or InvalidRequestError / 413 / 415 saying why not."""
    if not request.is_json:
        raise UnsupportedMediaTypeError("Send the request body as JSON with the header "
                                        "Content-Type: application/json.")
    try:
        value = parse_json(_decode(_raw(request)))
    except InvalidRequestError:
        request.environ[CLOSE_CONNECTION] = True
        _remember(request, None)
        raise
    _remember(request, value)
    if not isinstance(value, dict):
        raise InvalidRequestError("The request body must be a JSON object, e.g. {\"text\": \"...\"}.")
    return value


def parse_json(text: str) -> Any:
    """Parse strictly; every refusal is an InvalidRequestError with a message for the caller."""
    if not text.strip():
        raise InvalidRequestError("The request body is empty: send a JSON object such as "
                                  "{\"text\": \"...\"}.")
    try:
        value = json.loads(text, object_pairs_hook=_object, parse_int=_int,
                           parse_float=_float, parse_constant=_constant)
    except RecursionError:
        raise _too_deep() from None
    except ValueError as exc:
        where = (f" (line {exc.lineno}, column {exc.colno}: {exc.msg})"
                 if isinstance(exc, json.JSONDecodeError) else "")
        raise InvalidRequestError(f"The request body is not valid JSON{where}.") from None
    _check_structure(value, check_strings=bool(_LONE_SURROGATE_ESCAPE.search(text)))
    return value


def _remember(request: Request, value: Any) -> None:
    # Later readers (the audit hook) call request.get_json(); Flask would parse the raw body
    # again with the lax json module, and a 5,000-level body raises RecursionError there,
    # which no ``silent=True`` catches. Give them this parse (None for a refused body).
    request._cached_json = (value, value)  # type: ignore[attr-defined]


def _raw(request: Request) -> bytes:
    declared_text = request.environ.get("CONTENT_LENGTH", "") or ""
    if declared_text and not declared_text.strip().isdigit():
        raise InvalidRequestError("The Content-Length header is not a valid length.")
    short = InvalidRequestError("The request body is shorter than its Content-Length header says "
                                "(the upload stopped part way); send the request again.")
    try:
        raw = request.get_data(cache=True)  # a declared length over the limit raises 413 here
    except (ClientDisconnected, OSError):  # closed early, or the socket timed out waiting
        raise short from None
    declared = request.content_length
    if declared is not None and len(raw) < declared:  # the client closed its side early
        raise short
    return raw


def _decode(raw: bytes) -> str:
    try:
        return raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidRequestError(f"The request body is not valid UTF-8 (byte 0x{raw[exc.start]:02x} "
                                  f"at position {exc.start:,}); send JSON encoded as UTF-8.") from None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            shown = key if len(key) <= 40 else key[:40] + "..."
            raise InvalidRequestError(f"The request body repeats the key {json.dumps(shown)}; send "
                                      f"each key once.")
        result[key] = value
    return result


def _int(literal: str) -> int:
    if len(literal) > MAX_NUMBER_CHARS:
        raise InvalidRequestError(f"A number in the request body has {len(literal):,} digits; "
                                  f"numbers must have fewer than {MAX_NUMBER_CHARS}.")
    return int(literal)


def _float(literal: str) -> float:
    if len(literal) > MAX_NUMBER_CHARS:
        raise InvalidRequestError(f"A number in the request body is {len(literal):,} characters "
                                  f"long; numbers must be shorter than {MAX_NUMBER_CHARS}.")
    value = float(literal)
    if not math.isfinite(value):
        raise InvalidRequestError(f"The number {literal} in the request body is too large.")
    return value


def _constant(name: str) -> Any:
    raise InvalidRequestError(f"{name} is not a JSON number; send a finite number.")


def _too_deep() -> InvalidRequestError:
    return InvalidRequestError(f"The request body is nested too deeply (more than {MAX_DEPTH} "
                               f"levels of arrays and objects).")


def _check_structure(value: Any, check_strings: bool) -> None:
    """Refuse nesting beyond MAX_DEPTH and (when escapes suggest it) lone surrogates."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = list(item.keys()) + list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            if check_strings and isinstance(item, str):
                _check_encodable(item)
            continue
        if depth >= MAX_DEPTH:
            raise _too_deep()
        stack.extend((child, depth + 1) for child in children)


def _check_encodable(value: str) -> None:
    # JSON can carry lone UTF-16 surrogates ("\ud800") that no tokenizer or client can encode.
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidRequestError("The request contains a broken character (a lone UTF-16 "
                                  "surrogate); copy the text again from the document.") from None
