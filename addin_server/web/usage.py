"""Usage feedback and curation on the API: POST /api/v1/feedback, POST /api/v1/curation.

Every search the pane is served is recorded as a *shown list* (learn/store.py: clause ids,
ranks, feature rows, a keyed hash of the query; never text) and answered with its
``list_id``. The pane then reports what the lawyer did with a result (Insert, Copy,
Compare, Show full clause, used in a redraft, thumbs, "not relevant" with a reason code)
naming the list, the clause and its rank. An event is kept only when that list was served
to this user, holds that clause at that rank, and the clause is still visible to them
(walls): anything else is refused whole, as unknown. Knowledge-team members (the group
``PRECEDENT_CURATION_GROUP``) mark clauses or whole documents preferred, approved or
deprecated; each card then carries the mark (``curation``), and the one SearchPipeline
orders by it (learn/curation.py).

Both routes are signed in, walled, audited (web/audit.py records the clause ids) and rate
limited like every API call, feedback also per user by ``PRECEDENT_FEEDBACK_RATE_LIMIT``.
A database that cannot be opened at start is reported once in the log and on /health;
search goes on without it and these routes answer 503 ``feedback_unavailable``.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify, request

from addin_server.web.api import access, service
from addin_server.web.body import read_json_object
from addin_server.web.deferred import Deferred
from addin_server.web.limits import RateLimiter, parse_limit
from addin_server.web.serialize import search_json
from index_builder.errors import (FeedbackUnavailableError, ForbiddenError, InvalidRequestError,
                                  NotFoundError)
from index_builder.ingest.policy import normalise_group
from index_builder.learn.curation import Curation, card_mark, validated
from index_builder.learn.shown import ranker_version, shown_items, swap_adjacent
from index_builder.learn.store import EVENT_KINDS, REASONS, UsageEvent, UsageStore, usage_dir
from index_builder.retrieve.pipeline import SearchOutcome
from index_builder.settings import Settings

log = logging.getLogger(__name__)

EXTENSION = "precedent_usage"
MAX_EVENTS = 20  # per call: a pane sends one or a few at a time
bp = Blueprint("usage", __name__, url_prefix="/api/v1")


@dataclass
class UsageState:
    store: UsageStore | None
    problem: str  # why there is no store ("" when there is one)
    limiter: RateLimiter
    rng: random.Random
    # Shown lists are written after the answer (web/deferred.py); None: written before it.
    writes: Deferred | None = None


def init_app(app: Flask) -> UsageState:
    """Open the usage database (a broken one is logged, never fatal) and register the routes."""
    settings: Settings = app.config["PRECEDENT_SETTINGS"]
    store, problem = None, ""
    try:
        store = UsageStore.open(settings)
        # Retention holds even where nobody cron'd `addin-server feedback purge`.
        purged = store.purge(settings.learning.retention_days)
        log.info("Usage database: %s (%d lists past retention removed)", store.where, purged["lists"])
    except FeedbackUnavailableError as exc:
        problem = exc.message
        log.error("%s", problem)
    limiter = RateLimiter(parse_limit(settings.learning.rate_limit, "PRECEDENT_FEEDBACK_RATE_LIMIT"), None)
    state = UsageState(store, problem, limiter, random.Random(), _deferred(settings, store))
    app.extensions[EXTENSION] = state
    if state.writes is not None:
        app.extensions["precedent"].at_close(state.writes.close)
    if store is not None:
        # The one pipeline orders by the marks; rebuilt versions inherit it (with_backend).
        app.extensions["precedent"].pipeline.curation = Curation(store)
    app.register_blueprint(bp)
    return state


def _deferred(settings: Settings, store: UsageStore | None) -> Deferred | None:
    """The journal that takes shown lists off the critical path (issue 39), replaying what a
    stopped server left; None (write before answering) when it cannot be opened."""
    if store is None or not settings.learning.feedback:
        return None
    try:
        return Deferred(usage_dir(settings) / "journal",
                        {"usage": lambda rows, replay: store.record_lists(rows, skip_known=replay)})
    except (OSError, FeedbackUnavailableError) as exc:
        log.error("Usage journal unavailable (%s): shown lists are written before each answer",
                  getattr(exc, "message", exc))
        return None


def _state() -> UsageState:
    return current_app.extensions[EXTENSION]


def _settings() -> Settings:
    return current_app.config["PRECEDENT_SETTINGS"]


def _store() -> UsageStore:
    state = _state()
    if state.store is None:
        raise FeedbackUnavailableError(state.problem or "Usage feedback is not set up on this server.")
    return state.store


def health_info() -> dict[str, Any]:
    """What /health says about feedback and curation (IT reads the reason)."""
    state = current_app.extensions.get(EXTENSION)
    learning = _settings().learning
    return {"feedback": {"enabled": bool(state and state.store and learning.feedback),
                         "reason": (state.problem if state else "") if not (state and state.store)
                         else ("" if learning.feedback else "PRECEDENT_FEEDBACK is off"),
                         # Lists handed off but not yet stored, and why storing fails (IT).
                         **({"deferred": state.writes.health()} if state and state.writes else {})},
            "ranker": {"version": ranker_version(service().pipeline)},
            # Whether this caller may mark precedents (the pane shows its form only then).
            "curation": {"available": bool(state and state.store), "team": learning.curation_team,
                         "can_curate": bool(state and state.store) and _is_curator()}}


def _is_curator() -> bool:
    from addin_server.web.auth import current_identity

    return normalise_group(_settings().learning.curation_group) in current_identity().groups


# --- the search response --------------------------------------------------------------------

def served_json(outcome: SearchOutcome, query: str) -> dict[str, Any]:
    """The search response with curation on each card and, when feedback is on, a ``list_id``."""
    state = current_app.extensions.get(EXTENSION)
    learning = _settings().learning
    recording = bool(state and state.store and learning.feedback)
    swapped = None
    if recording and learning.swap_share and state.rng.random() < learning.swap_share:
        outcome, swapped = swap_adjacent(outcome, state.rng)
    payload = search_json(outcome)
    if state and state.store:
        _add_marks(payload, outcome, state.store)
    if recording:
        pipeline = service().pipeline
        try:
            row = state.store.list_row(_user(), query, shown_items(pipeline, query, outcome),
                                       ranker_version(pipeline), str(pipeline.backend.version),
                                       swapped)
            if state.writes is not None:
                state.writes.submit("usage", row)  # journaled now, stored after the answer
            else:
                state.store.record_lists([row])
            payload["list_id"] = row["list_id"]
        except FeedbackUnavailableError as exc:  # the lawyer still gets the results
            log.warning("Shown list not recorded: %s", exc.message)
        except OSError as exc:  # the journal's disk is full
            log.warning("Shown list not recorded: the usage journal cannot be written (%s)", exc)
    return payload


def _add_marks(payload: dict[str, Any], outcome: SearchOutcome, store: UsageStore) -> None:
    found = outcome.marks  # read by the pipeline when it curated the page
    if found is None:
        try:
            curation = getattr(service().pipeline, "curation", None) or Curation(store)
            found = curation.marks_for([r.hit.clause for r in outcome.results])
        except FeedbackUnavailableError as exc:
            log.warning("Curation marks not shown: %s", exc.message)
            return
    visible = _visible({m.replacement_clause_id for m in found.values() if m.replacement_clause_id})
    team = _settings().learning.curation_team
    for item in payload["results"]:
        mark = found.get(item["clause_id"])
        if mark is not None:
            item["curation"] = card_mark(mark, team, mark.replacement_clause_id in visible).to_dict()


def _visible(clause_ids: set[str]) -> set[str]:
    """Which of these ids the caller may see (a walled one is as unknown)."""
    seen = set()
    for cid in clause_ids:
        try:
            service().clauses([cid], access())
            seen.add(cid)
        except NotFoundError:
            pass
    return seen


def _user() -> str:
    from addin_server.web.auth import current_identity

    return current_identity().user


# --- feedback -------------------------------------------------------------------------------

@bp.post("/feedback")
def feedback() -> Any:
    from addin_server.web.auth import current_identity

    identity = current_identity()
    _state().limiter.check(f"{identity.kind}:{identity.oid or identity.user}")
    body = read_json_object(request)
    store = _store()
    if not _settings().learning.feedback:
        raise FeedbackUnavailableError("Usage feedback is off on this server (PRECEDENT_FEEDBACK).")
    list_id = body.get("list_id")
    if not isinstance(list_id, str) or not list_id or len(list_id) > 64:
        raise InvalidRequestError("Send 'list_id': the id of the result list the search returned.")
    raw = body.get("events")
    if not isinstance(raw, list) or not raw or len(raw) > MAX_EVENTS:
        raise InvalidRequestError(f"Send 'events': a list of 1 to {MAX_EVENTS} events.")
    shown = store.shown(list_id, identity.user)
    if shown is None and _state().writes is not None and _state().writes.drain():
        shown = store.shown(list_id, identity.user)  # it may have been waiting to be stored
    if shown is None:  # unknown, expired, deleted or someone else's: all look alike
        raise NotFoundError("That result list is unknown: search again.")
    by_clause = {item.clause_id: item for item in shown}
    parsed = [_event(e, list_id, by_clause) for e in raw]
    # Walls may have moved since the search: the clause must still be visible to this user.
    service().clauses(sorted({e.clause_id for e in parsed}), access())
    return jsonify({"recorded": store.record_events(identity.user, parsed)})


def _event(raw: Any, list_id: str, by_clause: dict[str, Any]) -> UsageEvent:
    if not isinstance(raw, dict):
        raise InvalidRequestError("Each event is an object with kind, clause_id and rank.")
    kind, clause_id, rank = raw.get("kind"), raw.get("clause_id"), raw.get("rank")
    if kind not in EVENT_KINDS:
        raise InvalidRequestError(f"'kind' must be one of {', '.join(EVENT_KINDS)}.")
    if not isinstance(clause_id, str) or isinstance(rank, bool) or not isinstance(rank, int):
        raise InvalidRequestError("Each event names 'clause_id' (a string) and 'rank' (a number).")
    reason = raw.get("reason")
    if reason is not None and (kind != "not_relevant" or reason not in REASONS):
        raise InvalidRequestError(f"'reason' goes with not_relevant and is one of {', '.join(REASONS)}.")
    item = by_clause.get(clause_id)
    if item is None or item.rank != rank:
        raise NotFoundError(f"Unknown clause id(s): {clause_id[:80]} in that result list.")
    return UsageEvent(list_id, kind, clause_id, rank, item.position, reason)


# --- curation -------------------------------------------------------------------------------

@bp.post("/curation")
def curate() -> Any:
    from addin_server.web.auth import current_identity

    identity = current_identity()
    learning = _settings().learning
    if not _is_curator():
        raise ForbiddenError(f"Only the {learning.curation_team} team can mark precedents "
                             f"(group {learning.curation_group}).")
    body = read_json_object(request)
    store = _store()
    clause_id = body.get("clause_id")
    if not isinstance(clause_id, str) or not clause_id:
        raise InvalidRequestError("Send 'clause_id': the clause to mark (or one of the document's).")
    scope = body.get("scope", "clause")
    fields = {k: body.get(k, "") for k in ("status", "reason", "replacement", "replacement_clause_id")}
    if not all(isinstance(v, str) for v in fields.values()) or scope not in ("clause", "document"):
        raise InvalidRequestError("'status', 'reason', 'replacement' and 'replacement_clause_id' "
                                  "are strings; 'scope' is clause or document.")
    # The curator must see the clause, and the replacement they name (walls apply to them too).
    clause = service().clauses([clause_id], access())[0]
    if fields["replacement_clause_id"]:
        service().clauses([fields["replacement_clause_id"]], access())
    target = clause.clause_id if scope == "clause" else clause.doc_id
    mark = validated(scope, target, fields["status"], fields["reason"], fields["replacement"],
                     fields["replacement_clause_id"], identity.user)
    store.add_marks([mark])
    shown = store.current_marks([clause.clause_id] if scope == "clause" else [],
                                [clause.doc_id] if scope == "document" else [])
    saved = shown.get((scope, target))
    return jsonify({"clause_id": clause.clause_id, "scope": scope,
                    "curation": card_mark(saved, learning.curation_team, True).to_dict()
                    if saved else None})
