"""Per-user request limits (429 with Retry-After) and CORS for the add-in's origins only.

Rate limits use the ``limits`` library (the engine under Flask-Limiter) with a moving window
in memory for one server process; with several (``PRECEDENT_WORKERS``) in one SQLite file
they all count in (web/shared.py), so a limit stays per user, not per process. We
call it directly rather than through Flask-Limiter because the key is the *signed-in user*,
known only after ``auth`` has run in its own before-request hook, and the refusal must be our
JSON error (``rate_limited``) with a message the pane shows; Flask-Limiter's key function
runs before blueprint hooks and its refusal is its own response.

Limits: ``PRECEDENT_RATE_LIMIT`` for every API call, ``PRECEDENT_REDRAFT_RATE_LIMIT`` on top
for redraft (each calls the LLM), per user (service accounts by name; without sign-in, per
client address). ``GET /api/v1/auth/config`` is not limited: the pane needs it to sign in.

CORS: the pane is served by this server (same origin); other origins are allowed only when
listed in ``PRECEDENT_CORS_ORIGINS``. ``*`` is refused: it would let any web page's script
call the API with a token it obtained.
"""

from __future__ import annotations

import logging
import math
import time
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from addin_server.web.context import caller_key
from addin_server.web.shared import SharedWindows
from index_builder.errors import ConfigError, RateLimitedError
from index_builder.settings import Settings

log = logging.getLogger(__name__)

EXTENSION = "precedent_limits"
OFF = ("", "off", "none", "0")
_UNITS = {"second": "second", "minute": "minute", "hour": "hour", "day": "day"}


def parse_limit(text: str, variable: str) -> RateLimitItem | None:
    """``"120/minute"`` -> a limit; ``off`` -> None; anything else -> ConfigError naming the variable."""
    value = (text or "").strip().lower()
    if value in OFF:
        return None
    count, _, unit = value.partition("/")
    if not count.isdigit() or int(count) <= 0 or unit.rstrip("s") not in _UNITS:
        raise ConfigError(f"{variable} must look like 120/minute (per second, minute, hour or "
                          f"day), or off; got {text!r}.")
    return parse(f"{int(count)}/{unit.rstrip('s')}")


class RateLimiter:
    """Moving-window limits per user key; ``check(key, redraft)`` raises RateLimitedError."""

    def __init__(self, general: RateLimitItem | None, redraft: RateLimitItem | None,
                 shared: Path | None = None) -> None:
        """``shared``: the SQLite file every worker process counts in (None: this process's memory)."""
        self.general = general
        self.redraft = redraft
        storage = MemoryStorage() if shared is None or (general is None and redraft is None) \
            else SharedWindows(shared)
        self._limiter = MovingWindowRateLimiter(storage)

    def check(self, key: str, redraft: bool = False) -> None:
        """Refuse a call over a limit; a refused call takes no slot of either limit.

        A redraft is only tested here and counted by ``served`` once it was answered: one the
        server refused (429, a bad request, no model, busy) cost the user a slot before, so a
        lawyer who got errors was told to wait as if they had been served."""
        if redraft and self.redraft is not None and not self._limiter.test(self.redraft, "redraft", key):
            self._refuse(self.redraft, "redraft", key)
        if self.general is not None and not self._limiter.hit(self.general, "api", key):
            self._refuse(self.general, "api", key)

    def served(self, key: str) -> None:
        """Count a redraft that was answered (concurrent ones at the limit may pass it by one)."""
        if self.redraft is not None:
            self._limiter.hit(self.redraft, "redraft", key)

    def _refuse(self, item: RateLimitItem, name: str, key: str) -> None:
        stats = self._limiter.get_window_stats(item, name, key)
        wait = max(1, math.ceil(stats.reset_time - time.time()))
        what = "redrafts" if name == "redraft" else "requests"
        log.info("Rate limit reached (%s %s) for %s", item, name, key)
        raise RateLimitedError(
            f"You have made too many {what} (the limit is {_words(item)}). "
            f"Try again in {_duration(wait)}.", retry_after=wait)


def _words(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name  # "second", "minute", ...
    return f"{item.amount} per {unit}" if item.multiples == 1 else \
        f"{item.amount} per {item.multiples} {unit}s"


def _duration(seconds: int) -> str:
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    return f"{math.ceil(seconds / 60)} minutes"


# --- Flask wiring -----------------------------------------------------------------------

def init_app(app: Flask) -> RateLimiter:
    """Limit /api/ calls per user and answer CORS; register after ``auth.init_app``."""
    settings: Settings = app.config["PRECEDENT_SETTINGS"]
    if "*" in settings.server.cors_origins:
        raise ConfigError("PRECEDENT_CORS_ORIGINS may not be '*': list the https origins that "
                          "may call the API (the pane served by this server needs none).")
    limiter = RateLimiter(parse_limit(settings.server.rate_limit, "PRECEDENT_RATE_LIMIT"),
                          parse_limit(settings.server.redraft_rate_limit,
                                      "PRECEDENT_REDRAFT_RATE_LIMIT"), shared_file(app, "limits"))
    app.extensions[EXTENSION] = limiter
    app.before_request(_limit)
    app.after_request(_count_served)
    app.after_request(cors)
    app.register_error_handler(RateLimitedError, _too_many)
    return limiter


def shared_file(app: Flask, name: str) -> Path | None:
    """``<shared folder>/<name>.sqlite`` when the app is one of several worker processes."""
    folder = app.config.get("PRECEDENT_SHARED_DIR")
    return Path(folder) / f"{name}.sqlite" if folder else None


def _limit() -> None:
    if not request.path.startswith("/api/") or request.method == "OPTIONS" \
            or request.endpoint == "auth.config":
        return
    current_app.extensions[EXTENSION].check(caller_key(), redraft=request.endpoint == "api.redraft")


def _count_served(response: Response) -> Response:
    if request.endpoint == "api.redraft" and request.method == "POST" and response.status_code < 400:
        current_app.extensions[EXTENSION].served(caller_key())
    return response


def _too_many(exc: RateLimitedError) -> Any:
    response = jsonify({"error": {"code": exc.code, "message": exc.message}})
    response.status_code = 429
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


def cors(response: Response) -> Response:
    """CORS headers for allowed origins on /api/ (the server's own origin needs none)."""
    origin = request.headers.get("Origin")
    allowed = current_app.config["PRECEDENT_SETTINGS"].server.cors_origins
    if origin and request.path.startswith("/api/") and origin in allowed:
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Allow-Headers"] = "Authorization, Content-Type"
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
        response.headers["Access-Control-Expose-Headers"] = "Retry-After"
        response.headers["Access-Control-Max-Age"] = "600"
    if request.path.startswith("/api/"):
        response.headers.add("Vary", "Origin")
    return response
