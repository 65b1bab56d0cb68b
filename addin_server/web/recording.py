"""The usage database as the server holds it (issue 27): opened at start, read by every search.

``init_app`` opens the database (a broken one is logged and reported on /health, never fatal:
search goes on without it) and hands the one pipeline the knowledge team's marks to order by.
Every search the pane is served is recorded as a *shown list* (learn/store.py: clause ids,
ranks, feature rows, a keyed hash of the query; never text) and answered with its
``list_id`` and each card's curation mark (``served_json``). The routes that write to the
database, POST /api/v1/feedback and /api/v1/curation, are web/usage.py's.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app

from addin_server.web.context import access, current_identity, service, settings
from addin_server.web.deferred import Deferred, handed_off_elsewhere
from addin_server.web.limits import RateLimiter, parse_limit, shared_file
from addin_server.web.serialize import search_json
from index_builder.errors import FeedbackUnavailableError, NotFoundError
from index_builder.ingest.policy import normalise_group
from index_builder.learn.curation import Curation, card_mark
from index_builder.learn.shown import ranker_version, shown_items, swap_adjacent
from index_builder.learn.store import UsageStore, usage_dir
from index_builder.retrieve.pipeline import SearchOutcome
from index_builder.settings import Settings

log = logging.getLogger(__name__)

EXTENSION = "precedent_usage"
SIBLING_WAIT_S = 5.0  # feedback waits this long for another worker process to store its list


@dataclass
class UsageState:
    store: UsageStore | None
    problem: str  # why there is no store ("" when there is one)
    limiter: RateLimiter
    rng: random.Random
    # Shown lists are stored after the answer (web/deferred.py); None: stored before it.
    writes: Deferred | None = None


def init_app(app: Flask) -> UsageState:
    """Open the usage database (a broken one is logged, never fatal)."""
    config: Settings = app.config["PRECEDENT_SETTINGS"]
    opened, problem = None, ""
    try:
        opened = UsageStore.open(config)
        # Retention holds even where nobody cron'd `addin-server feedback purge`.
        purged = opened.purge(config.learning.retention_days)
        log.info("Usage database: %s (%d lists past retention removed)", opened.where, purged["lists"])
    except FeedbackUnavailableError as exc:
        problem = exc.message
        log.error("%s", problem)
    limiter = RateLimiter(parse_limit(config.learning.rate_limit, "PRECEDENT_FEEDBACK_RATE_LIMIT"), None,
                          shared_file(app, "feedback-limits"))
    held = UsageState(opened, problem, limiter, random.Random(), _deferred(config, opened))
    app.extensions[EXTENSION] = held
    if held.writes is not None:
        app.extensions["precedent"].at_close(held.writes.close)
    if opened is not None:
        # The one pipeline orders by the marks; rebuilt versions inherit it (with_backend).
        app.extensions["precedent"].live.use_curation(Curation(opened))
    return held


def _deferred(config: Settings, opened: UsageStore | None) -> Deferred | None:
    """The journal that takes shown lists off the critical path (issue 39), replaying what a
    stopped server left; None (store before answering) when it cannot be opened."""
    if opened is None or not config.learning.feedback:
        return None
    try:
        return Deferred(usage_dir(config) / "journal",
                        {"usage": lambda rows, replay: opened.record_lists(rows, skip_known=replay)})
    except (OSError, FeedbackUnavailableError) as exc:
        log.error("Usage journal unavailable (%s): shown lists are stored before each answer",
                  getattr(exc, "message", exc))
        return None


def state() -> UsageState:
    return current_app.extensions[EXTENSION]


def store() -> UsageStore:
    """The open usage database, or FeedbackUnavailableError (503) saying why there is none."""
    held = state()
    if held.store is None:
        raise FeedbackUnavailableError(held.problem or "Usage feedback is not set up on this server.")
    return held.store


def health_info() -> dict[str, Any]:
    """What /health says about feedback and curation (IT reads the reason)."""
    held = current_app.extensions.get(EXTENSION)
    learning = settings().learning
    return {"feedback": {"enabled": bool(held and held.store and learning.feedback),
                         "reason": (held.problem if held else "") if not (held and held.store)
                         else ("" if learning.feedback else "PRECEDENT_FEEDBACK is off"),
                         # Lists handed off but not yet stored, and why storing fails (IT).
                         **({"deferred": held.writes.health()} if held and held.writes else {})},
            "ranker": {"version": ranker_version(service().pipeline)},
            # Whether this caller may mark precedents (the pane shows its form only then).
            "curation": {"available": bool(held and held.store), "team": learning.curation_team,
                         "can_curate": bool(held and held.store) and is_curator()}}


def is_curator() -> bool:
    """Whether the caller is in the knowledge team (PRECEDENT_CURATION_GROUP)."""
    return normalise_group(settings().learning.curation_group) in current_identity().groups


# --- the search response --------------------------------------------------------------------

def served_json(outcome: SearchOutcome, query: str) -> dict[str, Any]:
    """The search response with curation on each card and, when feedback is on, a ``list_id``."""
    held = current_app.extensions.get(EXTENSION)
    learning = settings().learning
    recorded = bool(held and held.store and learning.feedback)
    swapped = None
    if recorded and learning.swap_share and held.rng.random() < learning.swap_share:
        outcome, swapped = swap_adjacent(outcome, held.rng)
    payload = search_json(outcome, query)
    if held and held.store:
        _add_marks(payload, outcome, held.store)
    if recorded:
        pipeline = service().pipeline
        try:
            row = held.store.list_row(_user(), query, shown_items(pipeline, query, outcome),
                                      ranker_version(pipeline), str(pipeline.backend.version),
                                      swapped)
            if held.writes is not None:
                held.writes.submit("usage", row)  # journaled now, stored after the answer
            else:
                held.store.record_lists([row])
            payload["list_id"] = row["list_id"]
        except FeedbackUnavailableError as exc:  # the lawyer still gets the results
            log.warning("Shown list not recorded: %s", exc.message)
        except OSError as exc:  # the journal's disk is full
            log.warning("Shown list not recorded: the usage journal cannot be written (%s)", exc)
    return payload


def stored_shown(list_id: str, user: str) -> Any:
    """``store().shown``, after the lists still waiting in the journal are stored, when it is
    not there yet (a pane's feedback can follow its search within milliseconds). With several
    worker processes the search may have been served by another: when its journal holds the
    list, wait (bounded) for that process to store it."""
    found = store().shown(list_id, user)
    held = state()
    if found is None and held.writes is not None and held.writes.drain():
        found = store().shown(list_id, user)
    if found is None and held.writes is not None and \
            handed_off_elsewhere(held.writes.folder, list_id):
        until = time.monotonic() + SIBLING_WAIT_S
        while found is None and time.monotonic() < until:
            time.sleep(0.02)
            found = store().shown(list_id, user)
    return found


def _add_marks(payload: dict[str, Any], outcome: SearchOutcome, store: UsageStore) -> None:
    found = outcome.marks  # read by the pipeline when it curated the page
    if found is None:
        try:
            curation = service().pipeline.curation or Curation(store)  # its marks kept in memory
            found = curation.marks_for([r.hit.clause for r in outcome.results])
        except FeedbackUnavailableError as exc:
            log.warning("Curation marks not shown: %s", exc.message)
            return
    visible = _visible({m.replacement_clause_id for m in found.values() if m.replacement_clause_id})
    team = settings().learning.curation_team
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
    return current_identity().user
