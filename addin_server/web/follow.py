"""Follow the cursor and strict mode on POST /api/v1/precedents (issue 31): no route of its own.

The pane marks a search it started by itself (the lawyer paused in a paragraph) with
``"trigger": "cursor"``; a click sends nothing (or ``"click"``). Such searches are the same
search, signed in, walled and audited like every other (they go through api.precedents, which
asks ``search_options`` here), with
two extra rules read here:

* the firm can turn them off (``PRECEDENT_FOLLOW=off``): 403 ``follow_off``, and /health's
  ``capabilities.follow`` tells the pane not to offer it;
* their own per-user limit (``PRECEDENT_FOLLOW_RATE_LIMIT``) on top of the general one: 429
  with Retry-After, which the pane honours before it sends another.

``"mode": "strict"`` with an optional ``"min_similarity"`` asks for precedents whose words
are (nearly) the lawyer's (index_builder/retrieve/strict.py).
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import Flask, current_app

from addin_server.web.context import caller_key, settings
from addin_server.web.limits import RateLimiter, parse_limit, shared_file
from index_builder.errors import FollowOffError, InvalidRequestError
from index_builder.retrieve.strict import MODES
from index_builder.settings import FollowSettings, Settings

EXTENSION = "precedent_follow_limits"
TRIGGERS = ("click", "cursor")


def init_app(app: Flask) -> None:
    """The per-user limit on cursor-triggered searches (its own moving window)."""
    config: Settings = app.config["PRECEDENT_SETTINGS"]
    item = parse_limit(config.follow.rate_limit, "PRECEDENT_FOLLOW_RATE_LIMIT")
    app.extensions[EXTENSION] = RateLimiter(item, None, shared_file(app, "follow-limits"))


def search_options(body: Mapping[str, Any]) -> dict[str, Any]:
    """``mode`` and ``min_similarity`` for the pipeline, checked; cursor searches vetted first."""
    trigger = body.get("trigger", "click")
    if trigger not in TRIGGERS:
        raise InvalidRequestError(f"'trigger' must be one of {', '.join(TRIGGERS)}.")
    if trigger == "cursor":
        _check_cursor()
    mode = body.get("mode", "ranked")
    if mode not in MODES:
        raise InvalidRequestError(f"'mode' must be one of {', '.join(MODES)}.")
    value = body.get("min_similarity")
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                              or not 0 < value <= 1):
        raise InvalidRequestError("'min_similarity' must be a number above 0 and at most 1 "
                                  "(1 = the same words only).")
    if value is not None and mode != "strict":
        raise InvalidRequestError("'min_similarity' applies to strict mode: send \"mode\": \"strict\".")
    return {"mode": mode, "min_similarity": None if value is None else float(value)}


def capability(follow: FollowSettings) -> dict[str, Any]:
    """What /health tells the pane: whether to offer following, its default and its timing."""
    available = follow.mode != "off"
    return {"available": available, "default": follow.mode == "on",
            "reason": "" if available else "Your firm has turned off suggestions as you type. "
                                            "Select a clause and click Find precedent.",
            "pause_ms": follow.pause_ms, "min_words": follow.min_words,
            "strict_min_similarity": follow.strict_min_similarity}


def _check_cursor() -> None:
    if settings().follow.mode == "off":
        raise FollowOffError("Your firm has turned off suggestions as you type. Select a clause "
                             "and click Find precedent.")
    # As the general limit (web/limits.py): per signed-in user, else per client address.
    current_app.extensions[EXTENSION].check(caller_key())
