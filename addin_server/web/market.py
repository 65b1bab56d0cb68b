"""Compare to the firm's market: POST /api/v1/market and POST /api/v1/market/document.

``/market``: the lawyer's clause against the explorer's matches (the same search as
/variations: dense cosine over the clause store, the relevance floor, the caller's filters and
ethical walls applied inside the engine). Per term (notice period, non-compete duration, fee cap,
governing law ...): the distribution over the matching *documents*, the lawyer's value placed,
each bucket with its precedents; the sub-provisions most documents have and the clause lacks.
Terms come from index_builder/terms (stored with each clause at build time).

``/market/document``: each clause of the open document, the same comparison, only the
stand-outs returned (below/above the usual value, a different law or forum, missing
sub-provisions), each with its paragraph index so the pane can take the lawyer there.

Sign-in, walls and the audit trail are the app's, as for every /api/v1 route (the audit records
every ``clause_id`` in the response). Logs carry counts and timings, never text.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Mapping, Sequence

from flask import Blueprint, jsonify

from addin_server.web import validate
from addin_server.web.context import access, server_settings, service, settings
from addin_server.web.serialize import source_json
from index_builder.errors import InvalidRequestError
from index_builder.index.backend import filters_from_mapping
from index_builder.model import Filters, SearchHit
from index_builder.reading.labels import clause_label
from index_builder.retrieve.matches import default_floor
from index_builder.terms import Term, extract
from index_builder.terms.market import (Bucket, Market, Precedent, TermMarket, compare, dimension,
                                       market_terms, title)

log = logging.getLogger(__name__)

MAX_MATCHES = 2000  # as /variations
bp = Blueprint("market", __name__, url_prefix="/api/v1")


@bp.post("/market")
def market() -> Any:
    started = time.perf_counter()
    body = validate.json_body()
    text = validate.text(body, server_settings())
    market_settings = settings().market
    min_score, limit, filters = _search_args(body, [text])
    hits = service().pipeline.matches([text], filters, min_score, limit)
    searched = time.perf_counter()
    result = compare(extract(text), hits, market_settings.usual_share)
    payload = market_json(result, market_settings.max_precedents)
    payload["settings"] = {"min_score": min_score, "max_matches": limit,
                           "usual_share": market_settings.usual_share}
    payload["truncated"] = len(hits) >= limit
    payload["compared"] = result.documents > 0
    if not payload["compared"]:
        payload["not_compared"] = not_compared(min_score, bool(validate.filters(body)))
    payload["query_reading"] = clause_label(text).to_dict()  # the lawyer's number, heading, capitals
    payload["timings_ms"] = {"search": _ms(searched - started),
                             "compare": _ms(time.perf_counter() - searched),
                             "total": _ms(time.perf_counter() - started)}
    log.info("market: %d terms, %d matches in %d documents, %.1f ms", result.your_terms,
             result.matches, result.documents, payload["timings_ms"]["total"])
    return jsonify(payload)


@bp.post("/market/document")
def market_document() -> Any:
    """Every clause of a document against the library; the clauses that stand out."""
    started = time.perf_counter()
    body = validate.json_body()
    market_settings = settings().market
    paragraphs = _paragraphs(body, market_settings.document_max_clauses)
    clauses = [(i, t) for i, t in paragraphs if len(t.split()) >= market_settings.document_min_words]
    pipeline = service().pipeline
    out: list[dict[str, Any]] = []
    timings: dict[str, float] = {}
    if clauses:  # else nothing long enough to compare: an empty answer, not an error
        out = _compare_each(pipeline, clauses, body, market_settings, timings)
    stand_outs = [c for c in out if c["stands_out"]]
    unmatched = [c for c in out if not c["compared"]]
    total = _ms(time.perf_counter() - started)
    log.info("market/document: %d paragraphs, %d clauses, %d without a precedent, %d stand out, %.1f ms",
             len(paragraphs), len(clauses), len(unmatched), len(stand_outs), total)
    # "compared" counts the clauses read (as before); "with_precedent" those a precedent was close
    # enough to compare: "none stands out" speaks only for those, never for a clause left unchecked.
    summary = {"paragraphs": len(paragraphs), "compared": len(clauses), "stand_out": len(stand_outs),
               "with_precedent": len(out) - len(unmatched), "without_precedent": len(unmatched)}
    answer: dict[str, Any] = {"summary": summary, "clauses": out, "timings_ms": {**timings, "total": total}}
    if unmatched:
        min_score = _search_args(body, [t for _, t in clauses], clauses=True)[0]
        answer["not_compared"] = not_compared(min_score, bool(validate.filters(body)))
    return jsonify(answer)


def not_compared(min_score: float, filtered: bool) -> dict[str, Any]:
    """Why a clause was not compared and what the lawyer can do: no precedent reached the
    relevance floor. Said in words, because "nothing stands out" would read as "in line with our
    precedents" when nothing was compared at all."""
    steps = ["Search for the clause (Find precedent in the pane, /api/v1/search) to see the nearest "
             "precedents and judge them yourself."]
    if filtered:
        steps.insert(0, "Clear the filters: they may leave out the precedents that would compare.")
    steps.append(f"Send a lower min_score (now {min_score:g}) to compare with less similar precedents.")
    return {"reason": "no_precedent", "min_score": min_score,
            "message": "No precedent in the library is close enough to compare: this says nothing about "
                       "whether your terms are usual.",
            "what_you_can_do": steps}


def _compare_each(pipeline: Any, clauses: list[tuple[int, str]], body: Mapping[str, Any],
                  market_settings: Any, timings: dict[str, float]) -> list[dict[str, Any]]:
    """Each clause against the library: one embedding batch, then one explorer search each."""
    min_score, limit, filters = _search_args(body, [t for _, t in clauses], clauses=True)
    started = time.perf_counter()
    vectors = pipeline.embedder.embed([t for _, t in clauses])
    timings["embed"] = _ms(time.perf_counter() - started)
    searching, comparing = 0.0, 0.0
    out = []
    for row, (index, text) in enumerate(clauses):
        started = time.perf_counter()
        hits = pipeline.matches([text], filters, min_score, limit, vectors=vectors[row:row + 1])
        searching += time.perf_counter() - started
        started = time.perf_counter()
        result = compare(extract(text), hits, market_settings.usual_share)
        comparing += time.perf_counter() - started
        findings = _findings(result)
        out.append({"index": index, "stands_out": bool(findings), "findings": findings,
                    "terms": [_term_json(t) for t in market_terms(result.yours)],
                    "documents": result.documents, "compared": result.documents > 0})
    timings["search"], timings["compare"] = _ms(searching), _ms(comparing)
    return out


def _search_args(body: Mapping[str, Any], texts: Sequence[str],
                 clauses: bool = False) -> tuple[float, int, Filters]:
    """Floor, depth and filters (walls added) as /variations takes them; ``clauses``: every text is
    a clause of a document (the clause floor, whatever a short paragraph's word count)."""
    retrieval = settings().retrieval
    floor = retrieval.explorer_min_score_clause if clauses else default_floor(texts, retrieval)
    min_score = body.get("min_score", floor)
    if isinstance(min_score, bool) or not isinstance(min_score, (int, float)) or not 0 < min_score <= 1:
        raise InvalidRequestError("'min_score' must be a number above 0 and at most 1.")
    limit = validate.integer(body, "max_matches", 1, MAX_MATCHES) or retrieval.explorer_max_matches
    filters = filters_from_mapping(validate.filters(body)) + tuple(access())
    return float(min_score), limit, filters


def _paragraphs(body: Mapping[str, Any], limit: int) -> list[tuple[int, str]]:
    """``paragraphs``: [{"index": n, "text": "..."}] as the pane reads them (document.js)."""
    raw = body.get("paragraphs")
    if not isinstance(raw, list) or not raw:
        raise InvalidRequestError("Send 'paragraphs': the document's paragraphs as "
                                  "[{\"index\": 0, \"text\": \"...\"}, ...].")
    if len(raw) > limit:
        # The lawyer reads the limit and what to do; the setting is named to IT, in the log.
        log.warning("market/document refused: %d paragraphs over PRECEDENT_MARKET_DOCUMENT_MAX_CLAUSES (%d)",
                    len(raw), limit)
        raise InvalidRequestError(f"The document has {len(raw):,} paragraphs; Compare terms reads up to {limit:,} "
                                  f"at a time. Select a part of it and compare that, or ask IT to raise the limit.")
    out = []
    max_chars = server_settings().max_text_chars
    for item in raw:
        if not (isinstance(item, dict) and isinstance(item.get("index"), int)
                and not isinstance(item.get("index"), bool) and isinstance(item.get("text"), str)):
            raise InvalidRequestError("Each paragraph must be {\"index\": a whole number, \"text\": a string}.")
        # isHeading is not a reason to skip: Common Paper's forms put whole clauses in "Heading 3"
        # paragraphs; the word count (document_min_words) leaves out real headings.
        if not item["text"].strip():
            continue
        validate.check_encodable(item["text"], "text")
        out.append((item["index"], item["text"][:max_chars]))
    return out


def _findings(result: Market) -> list[dict[str, Any]]:
    found = []
    for term in result.terms:
        if term.status in {"below", "above", "differs"}:
            usual = term.usual
            found.append({"kind": term.status, "dimension": term.dimension, "title": term.title,
                          "yours": term.yours_label, "usual": usual.label if usual else None,
                          "usual_documents": usual.documents if usual else 0,
                          "documents": term.documents})
    for name in result.missing:
        sub = next(s for s in result.subprovisions if s.name == name)
        found.append({"kind": "missing", "dimension": name, "title": sub.title,
                      "yours": None, "usual": None, "usual_documents": sub.documents,
                      "documents": result.documents})
    return found


# -- JSON shapes (docs/market.md) -----------------------------------------------------------------

def market_json(result: Market, max_precedents: int) -> dict[str, Any]:
    return {
        "summary": {"matches": result.matches, "documents": result.documents,
                    "terms": result.your_terms, "stands_out": result.stands_out,
                    "folded": result.folded},
        "yours": {"terms": [_term_json(t) for t in market_terms(result.yours)],
                  "caps": [c.to_json() for c in result.yours.caps],
                  "mutuality": result.yours.mutuality,
                  "subprovisions": list(result.yours.subprovisions)},
        "terms": [_market_json(m, max_precedents) for m in result.terms],
        "subprovisions": [{"name": s.name, "title": s.title, "documents": s.documents,
                           "yours": s.yours,
                           "precedents": [_precedent_json(p) for p in s.precedents[:max_precedents]]}
                          for s in result.subprovisions],
        "missing": result.missing,
    }


def _term_json(term: Term) -> dict[str, Any]:
    return {"type": term.type, "dimension": dimension(term), "title": title(dimension(term)),
            "label": term.label, "key": term.key, "role": term.role,
            "text": term.text, "start": term.start, "end": term.end,
            # "ten (12) days": words and digits differ; the label is the words' reading
            "disagree": term.disagree}


def _market_json(m: TermMarket, max_precedents: int) -> dict[str, Any]:
    return {"dimension": m.dimension, "title": m.title, "ordered": m.ordered,
            "documents": m.documents, "status": m.status,
            "yours": _term_json(m.yours) if m.yours else ({"label": m.yours_label} if m.yours_label else None),
            "placement": {"below": m.below, "same": m.same, "above": m.above},
            "buckets": [_bucket_json(b, max_precedents) for b in m.buckets]}


def _bucket_json(b: Bucket, max_precedents: int) -> dict[str, Any]:
    return {"label": b.label, "documents": b.documents, "yours": b.yours,
            "precedents": [_precedent_json(p) for p in b.precedents[:max_precedents]]}


def _precedent_json(p: Precedent) -> dict[str, Any]:
    hit: SearchHit = p.hit
    figure = None if p.term is None else {"text": p.term.text, "start": p.term.start, "end": p.term.end}
    return {"clause_id": hit.clause.clause_id, "text": hit.clause.text,
            "source": source_json(hit.clause), "score": hit.score, "figure": figure,
            "reading": clause_label(hit.clause.text, hit.clause.heading).to_dict()}


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)
