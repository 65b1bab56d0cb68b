"""The Flask application factory: ``create_app(settings, service=None)``.

One JSON error handler for everything: our PrecedentError hierarchy, Werkzeug's HTTP
errors (404, 405, 413 ...) and, as a last resort, unexpected exceptions (500, logged).
Logs name the route, status and timing, never the text a lawyer sent.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, g, jsonify, request
from werkzeug.exceptions import HTTPException

from index_builder.errors import PrecedentError
from index_builder.reading.sentences import sentence_spans

from addin_server.web import (api, audit, auth, conform, explore, follow, limits, market,
                              recording, static_files, usage)
from addin_server.conform import documents
from addin_server.web.body import CLOSE_CONNECTION
from addin_server.web.errors import http_status, retry_after
from addin_server.service import PrecedentService, build_service
from index_builder.settings import Settings

log = logging.getLogger(__name__)

_HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
               413: "request_too_large", 415: "unsupported_media_type"}


def create_app(settings: Settings, service: PrecedentService | None = None,
               shared: Path | None = None, balance: Any = None) -> Flask:
    """Build the app; ``service`` defaults to one built from the settings (loads the index).

    ``shared``: the folder this app's sibling worker processes share (web/prefork.py): rate
    limits and read documents are kept there, so they hold across processes; ``balance``:
    their connection counts (/health says how many serve)."""
    app = Flask(__name__, static_folder=None)
    app.config["PRECEDENT_SETTINGS"] = settings
    app.config["PRECEDENT_SHARED_DIR"] = shared
    app.config["PRECEDENT_BALANCE"] = balance
    app.config["MAX_CONTENT_LENGTH"] = settings.server.max_content_length
    app.json.sort_keys = False  # keep the documented field order
    app.extensions["precedent"] = service or build_service(settings)
    # Every blueprint, here and nowhere else: the views are peers (none imports another).
    app.register_blueprint(api.bp)
    app.register_blueprint(explore.bp)
    app.register_blueprint(market.bp)  # compare to the firm's market (issue 24)
    app.register_blueprint(conform.bp)  # issue 23: conforming a precedent to the document
    app.register_blueprint(static_files.bp)
    app.register_blueprint(auth.bp)  # GET /api/v1/auth/config: how the pane signs in
    app.register_blueprint(usage.bp)  # feedback events and curation (issue 27)
    _register_errors(app)
    app.before_request(_start_timer)
    app.after_request(_access_log)  # registered first, so it runs last and logs the final status
    # Sign-in (sets g.identity and g.precedent_access), then per-user limits and CORS, then the
    # audit trail: the later two read the identity.
    auth.init_app(app)
    limits.init_app(app)
    audit.init_app(app)
    recording.init_app(app)  # the usage database: shown lists, curation marks (issue 27)
    follow.init_app(app)  # issue 31: the per-user limit on cursor-triggered searches
    return app


def error_response(code: str, message: str, status: int) -> tuple[Response, int]:
    # The message's sentences as the core reads them (reading/sentences.py): the pane drops a
    # sentence meant for IT (a setting's name, an address) and reads no sentences itself.
    sentences = [message[a:b] for a, b in sentence_spans(message)]
    return jsonify({"error": {"code": code, "message": message, "sentences": sentences}}), status


def _register_errors(app: Flask) -> None:
    @app.errorhandler(PrecedentError)
    def precedent_error(exc: PrecedentError) -> Any:
        response, status = error_response(exc.code, exc.message, http_status(exc))
        if status == 401:
            response.headers["WWW-Authenticate"] = "Bearer"
        wait = retry_after(exc)  # a busy LLM ("in a minute"), a full search queue
        if wait is not None:
            response.headers["Retry-After"] = str(wait)
        if request.environ.get(CLOSE_CONNECTION):
            response.headers["Connection"] = "close"  # unread body bytes must not become a request
        return response, status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        status = exc.code or 500
        return error_response(_HTTP_CODES.get(status, "http_error"), _http_message(status, exc), status)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        log.exception("Unexpected error on %s %s", request.method, request.path)
        return error_response("internal_error", "Something went wrong on the server. Try again; "
                              "if it keeps happening, ask IT to check the server log.", 500)


def _http_message(status: int, exc: HTTPException) -> str:
    if status == 413:
        return _too_large()
    if status == 404:
        return f"There is nothing at {request.path}."
    if status == 405:
        return f"{request.method} is not allowed on {request.path}."
    return exc.description or exc.name


def _too_large() -> str:
    """A body over the byte limit, said in the lawyer's terms: one limit, in characters. The
    byte limit and the setting behind it go to the log, for IT (a 2 MB paste was told "187 KB"
    beside a 20,000-character limit)."""
    settings = current_app.config["PRECEDENT_SETTINGS"]
    limit, declared = request.max_content_length or 0, request.content_length
    if limit == settings.conform.document_max_bytes:  # the open document, read for conforming
        return documents.too_long(None, settings.conform)  # logged there, with the setting
    log.warning("413 on %s: %s bytes over the request limit of %d bytes (PRECEDENT_MAX_TEXT_CHARS, "
                "PRECEDENT_MAX_INSTRUCTIONS_CHARS)", request.path, declared, limit)
    return (f"The selected text is too long: Precedent reads up to {settings.server.max_text_chars:,} "
            f"characters at a time. Select a single clause rather than a whole document.")


def _start_timer() -> None:
    g.started = time.perf_counter()


def _access_log(response: Response) -> Response:
    started = g.get("started")
    elapsed = (time.perf_counter() - started) * 1000 if started else 0.0
    log.info("%s %s %d %.1f ms", request.method, request.path, response.status_code, elapsed)
    return response
