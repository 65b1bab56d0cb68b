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
from typing import Any, Iterable, Mapping, Sequence

from flask import Blueprint, current_app, jsonify, request

from addin_server.web import api
from index_builder.errors import InvalidRequestError
from index_builder.index.backend import Filters, filters_from_mapping
from index_builder.ingest.metadata import FACET_FIELDS, LIST_VALUED, clause_facets, facet_values
from index_builder.model import SearchHit
from index_builder.retrieve.pipeline import Example
from index_builder.retrieve.variations import Exploration, Major, Wording, explore

log = logging.getLogger(__name__)

bp = Blueprint("explore", __name__, url_prefix="/api/v1")
# Same sign-in as the rest of /api/v1: the api blueprint's token check while it exists (app-wide
# auth.init_app covers every /api/ path once wired); walls come from api.access() per request.
if hasattr(api, "require_token"):
    bp.before_request(api.require_token)

MAX_EXAMPLES = 10
MAX_MATCHES = 2000


@bp.post("/variations")
def variations() -> Any:
    started = time.perf_counter()
    body = api._json_body()
    retrieval = current_app.config["PRECEDENT_SETTINGS"].retrieval
    texts = _query_texts(body)
    min_score = _unit(body, "min_score", default_floor(texts, retrieval))
    major = _unit(body, "major_threshold", retrieval.explorer_major_threshold)
    minor = _unit(body, "minor_threshold", retrieval.explorer_minor_threshold)
    limit = api._int(body, "max_matches", 1, MAX_MATCHES) or retrieval.explorer_max_matches
    filters = filters_from_mapping(api._filters(body)) + tuple(api.access())
    hits = matches(api.service().pipeline, texts, filters, min_score, limit)
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
    backend = api.service().pipeline.backend
    wanted = {k: request.args.getlist(k) for k in request.args}
    filters = filters_from_mapping(wanted) + tuple(api.access())
    names = [n for n in FACET_FIELDS if n in backend.fields()]
    counts = backend.facets(names, filters)
    return jsonify({"fields": {name: facet_values(counts.get(name, {}), name in LIST_VALUED)
                               for name in names}})


def default_floor(texts: Sequence[str], retrieval: Any) -> float:
    """The relevance floor: higher when every query text is a whole clause, not a phrase."""
    clause = all(len(t.split()) > retrieval.expansion_max_words for t in texts)
    return retrieval.explorer_min_score_clause if clause else retrieval.explorer_min_score


def matches(pipeline: Any, texts: Sequence[str], filters: Filters, min_score: float,
            limit: int, vectors: Any = None) -> list[SearchHit]:
    """Clauses at least ``min_score`` similar (cosine) to any query text, best first
    (``vectors``: the texts' embeddings when the caller embedded a batch at once)."""
    if vectors is None:
        vectors = pipeline.embedder.embed(list(texts))
    scored = [(cid, s) for cid, s in pipeline.backend.dense(vectors, limit, filters) if s >= min_score]
    clauses = pipeline.backend.get([cid for cid, _ in scored])
    return [SearchHit(clause=clause, score=round(float(score), 4), rank=rank,
                      retriever_ranks={"dense": rank}, retriever_scores={"dense": float(score)})
            for rank, ((_, score), clause) in enumerate(zip(scored, clauses), 1)
            if clause is not None]


def examples_from_body(body: Mapping[str, Any]) -> list[Example]:
    """``examples``: up to MAX_EXAMPLES ``{"clause_id"}`` or ``{"text"}`` objects (for /precedents too)."""
    examples = body.get("examples")
    if examples is None:
        return []
    if not isinstance(examples, list) or len(examples) > MAX_EXAMPLES or not all(
            isinstance(e, dict) and (isinstance(e.get("clause_id"), str) and e["clause_id"] or
                                     isinstance(e.get("text"), str)) for e in examples):
        raise InvalidRequestError(
            f"'examples' must be a list of up to {MAX_EXAMPLES} objects, each "
            f"{{\"clause_id\": \"...\"}} or {{\"text\": \"...\"}}.")
    settings = api.server_settings()
    return [Example(clause_id=e["clause_id"]) if isinstance(e.get("clause_id"), str)
            else Example(text=api._text({"text": e["text"]}, settings)) for e in examples]


def _query_texts(body: Mapping[str, Any]) -> list[str]:
    """The typed text and the examples' texts (examples by id must be visible to the caller)."""
    texts = [api._text(body, api.server_settings())] if body.get("text") is not None else []
    examples = examples_from_body(body)
    ids = [e.clause_id for e in examples if e.clause_id]
    found = {c.clause_id: c.text for c in api.service().clauses(ids, api.access())} if ids else {}
    texts += [found[e.clause_id] if e.clause_id else e.text for e in examples]
    if not texts:
        raise InvalidRequestError("Send 'text' (the clause or phrase to explore) or 'examples'.")
    return texts


def _unit(body: Mapping[str, Any], name: str, default: float) -> float:
    value = body.get(name)
    if value is None:
        return float(default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise InvalidRequestError(f"'{name}' must be a number above 0 and at most 1.")
    return float(value)


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
    from addin_server.web.serialize import source_json

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
