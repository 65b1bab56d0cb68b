"""The explorer's API: POST /api/v1/variations and GET /api/v1/facets.

``/variations`` answers "how have we drafted this before?": every clause at least
``min_score`` similar to the query (or to any example; dense cosine, the relevance floor)
is grouped into major variations with their wordings nested (index_builder/retrieve/
variations.py states the guarantees). ``/facets`` lists the values each metadata field
takes, with how many documents hold each, among the clauses the caller may see.

Shapes are documented in docs/backend.md ("Explorer API"). Logs carry counts and timings,
never clause text.
"""

from __future__ import annotations

import logging
import time
from pathlib import PurePath
from typing import Any, Iterable, Mapping

from flask import Blueprint, jsonify, request

from addin_server.web import validate
from addin_server.web.context import access, server_settings, service, settings
from addin_server.web.serialize import source_json
from index_builder.errors import InvalidRequestError
from index_builder.index.backend import filters_from_mapping
from index_builder.ingest.metadata import FACET_FIELDS, LIST_VALUED, facet_values
from index_builder.model import SearchHit
from index_builder.retrieve.matches import default_floor
from index_builder.retrieve.variations import Exploration, Major, Wording, explore

log = logging.getLogger(__name__)

# Signed in like every /api/ path (web/auth.py's app-wide hook); walls come from access().
bp = Blueprint("explore", __name__, url_prefix="/api/v1")

MAX_MATCHES = 2000


@bp.post("/variations")
def variations() -> Any:
    started = time.perf_counter()
    body = validate.json_body()
    retrieval = settings().retrieval
    texts = _query_texts(body)
    min_score = validate.fraction(body, "min_score", default_floor(texts, retrieval))
    major = validate.fraction(body, "major_threshold", retrieval.explorer_major_threshold)
    minor = validate.fraction(body, "minor_threshold", retrieval.explorer_minor_threshold)
    limit = validate.integer(body, "max_matches", 1, MAX_MATCHES) or retrieval.explorer_max_matches
    filters = filters_from_mapping(validate.filters(body))
    hits = service().pipeline.matches(texts, filters, min_score, limit, access=access())
    searched = time.perf_counter()
    result = explore(hits, major, minor)
    payload = exploration_json(result)
    payload["settings"] = {"min_score": min_score, "major_threshold": major,
                           "minor_threshold": minor, "max_matches": limit}
    payload["truncated"] = len(hits) >= limit
    payload["timings_ms"] = {"search": _ms(searched - started),
                             "grouping": _ms(time.perf_counter() - searched),
                             "total": _ms(time.perf_counter() - started)}
    log.info("variations: %d matches -> %d majors, %d minors in %.1f ms", result.matches,
             len(result.majors), result.minor_count, payload["timings_ms"]["total"])
    return jsonify(payload)


@bp.get("/facets")
def facets() -> Any:
    """Facet values over what the caller may see; query-string pairs narrow it (?field=value)."""
    backend = service().pipeline.backend
    wanted = {k: request.args.getlist(k) for k in request.args}
    filters = filters_from_mapping(wanted) + tuple(access())
    names = [n for n in FACET_FIELDS if n in backend.fields()]
    counts = backend.facets(names, filters)
    return jsonify({"fields": {name: facet_values(counts.get(name, {}), name in LIST_VALUED)
                               for name in names}})


def _query_texts(body: Mapping[str, Any]) -> list[str]:
    """The typed text and the examples' texts (examples by id must be visible to the caller)."""
    texts = [validate.text(body, server_settings())] if body.get("text") is not None else []
    examples = validate.examples(body)
    ids = [e.clause_id for e in examples if e.clause_id]
    found = {c.clause_id: c.text for c in service().clauses(ids, access())} if ids else {}
    texts += [found[e.clause_id] if e.clause_id else e.text for e in examples]
    if not texts:
        raise InvalidRequestError("Send 'text' (the clause or phrase to explore) or 'examples'.")
    return texts


# -- JSON shapes --------------------------------------------------------------------------------

def exploration_json(result: Exploration) -> dict[str, Any]:
    return {
        "summary": {"wordings": len(result.majors), "minor_variations": result.minor_count,
                    "documents": len(result.documents), "matches": result.matches},
        "majors": [major_json(m) for m in result.majors],
    }


def major_json(major: Major) -> dict[str, Any]:
    own = major.own
    return {
        "representative": {**_clause_json(own.representative), "count": own.count,
                           "documents": _documents_json(own)},
        "count": major.count,
        "documents": _documents_json_of(h for h, _ in major.members),
        "minors": [minor_json(w) for w in major.minors],
    }


def minor_json(wording: Wording) -> dict[str, Any]:
    return {**_clause_json(wording.representative), "similarity": wording.similarity,
            "count": wording.count, "documents": _documents_json(wording),
            "blackline": [{"op": o.op, "text": o.text} for o in wording.blackline]}


def _clause_json(hit: SearchHit) -> dict[str, Any]:
    return {"clause_id": hit.clause.clause_id, "text": hit.clause.text,
            "source": source_json(hit.clause), "score": hit.score}


def _documents_json(wording: Wording) -> list[dict[str, str]]:
    return _documents_json_of(h for h, _ in wording.members)


def _documents_json_of(hits: Iterable[SearchHit]) -> list[dict[str, str]]:
    seen: dict[str, dict[str, str]] = {}
    for hit in hits:
        c = hit.clause
        seen.setdefault(c.doc_id, {"doc_id": c.doc_id, "document": c.doc_title or c.doc_id,
                                   "file": PurePath(c.source_path).name if c.source_path else ""})
    return list(seen.values())


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)
