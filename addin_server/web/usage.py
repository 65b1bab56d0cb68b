"""Usage feedback and curation on the API: POST /api/v1/feedback, POST /api/v1/curation.

Every search served is recorded as a shown list and answered with its ``list_id``
(web/recording.py). The pane then reports what the lawyer did with a result (Insert, Copy,
Compare, Show full clause, used in a redraft, thumbs, "not relevant" with a reason code)
naming the list, the clause and its rank. An event is kept only when that list was served
to this user, holds that clause at that rank, and the clause is still visible to them
(walls): anything else is refused whole, as unknown. Knowledge-team members (the group
``PRECEDENT_CURATION_GROUP``) mark clauses or whole documents preferred, approved or
deprecated; each card then carries the mark (``curation``), and the one SearchPipeline
orders by it (retrieve/curated.py).

Both routes are signed in, walled, audited (web/audit.py records the clause ids) and rate
limited like every API call, feedback also per user by ``PRECEDENT_FEEDBACK_RATE_LIMIT``.
A database that cannot be opened at start is reported once in the log and on /health;
search goes on without it and these routes answer 503 ``feedback_unavailable``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from addin_server.web import recording
from addin_server.web.context import access, current_identity, service, settings
from addin_server.web.validate import json_body
from index_builder.errors import FeedbackUnavailableError, ForbiddenError, InvalidRequestError, NotFoundError
from index_builder.learn.curation import card_mark, validated
from index_builder.learn.store import EVENT_KINDS, REASONS, UsageEvent

MAX_EVENTS = 20  # per call: a pane sends one or a few at a time
bp = Blueprint("usage", __name__, url_prefix="/api/v1")


# --- feedback -------------------------------------------------------------------------------

@bp.post("/feedback")
def feedback() -> Any:
    identity = current_identity()
    recording.state().limiter.check(f"{identity.kind}:{identity.oid or identity.user}")
    body = json_body()
    store = recording.store()
    if not settings().learning.feedback:
        raise FeedbackUnavailableError("Usage feedback is off on this server (PRECEDENT_FEEDBACK).")
    list_id = body.get("list_id")
    if not isinstance(list_id, str) or not list_id or len(list_id) > 64:
        raise InvalidRequestError("Send 'list_id': the id of the result list the search returned.")
    raw = body.get("events")
    if not isinstance(raw, list) or not raw or len(raw) > MAX_EVENTS:
        raise InvalidRequestError(f"Send 'events': a list of 1 to {MAX_EVENTS} events.")
    shown = recording.stored_shown(list_id, identity.user)  # it may still be in the journal
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
    identity = current_identity()
    learning = settings().learning
    if not recording.is_curator():
        raise ForbiddenError(f"Only the {learning.curation_team} team can mark precedents "
                             f"(group {learning.curation_group}).")
    body = json_body()
    store = recording.store()
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
