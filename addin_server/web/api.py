"""The JSON API under /api/v1: precedents, redraft, clauses, health.

Request fields are checked by web/validate.py, so bad input is a 4xx with a message that
says what to send, never a 500. The caller's walls (``access()``) go into every service call.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, g, jsonify, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from addin_server.conform import documents
from addin_server.conform.prompting import with_document_terms
from addin_server.draft.router import PREFERENCES
from addin_server.web import follow, recording, validate
from addin_server.web.context import access, caller_key, document_cache, server_settings, service, settings
from addin_server.web.serialize import clause_json, redraft_json, search_ids, search_json
from index_builder.errors import InvalidRequestError, NotFoundError
from index_builder.index.backend import filters_from_mapping
from index_builder.ingest.definitions import search_unit

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.post("/precedents")
def precedents() -> Any:
    body = validate.json_body()
    server = server_settings()
    options = follow.search_options(body)  # before any work: a refused cursor search costs nothing
    examples = validate.examples(body)  # "more like these": ids or texts, beside or instead of text
    text = validate.text(body, server) if body.get("text") is not None or not examples else ""
    top_k = validate.integer(body, "top_k", 1, server.max_top_k)
    # "unit": "auto" (the pane): a selected definition searches the library's definitions.
    filters, unit = search_unit(validate.filters(body), text, validate.choice(body, "unit", ("", "auto")) == "auto")
    outcome = service().search(text, top_k, filters_from_mapping(filters),
                               validate.boolean(body, "rerank"), examples=examples, access=access(),
                               curation=body.get("curation") is not False, **options)
    payload = recording.served_json(outcome, text)  # + list_id and curation marks (issue 27)
    if unit:
        payload["unit"] = unit
    g.audit_payload = payload  # the audit trail reads its clause ids without parsing the JSON again
    # ... and without walking it: a search answer's ids are its results' and their copies', in
    # the order the walk finds them (a tenth of the request's own Python was that walk, issue 39).
    g.audit_clause_ids = search_ids(payload)
    return jsonify(payload)


@bp.post("/redraft")
def redraft() -> Any:
    body = validate.json_body()
    server = server_settings()
    text = validate.text(body, server)
    clause_ids = validate.clause_ids(body, server.max_redraft_precedents)
    instructions = validate.string(body, "instructions", server.max_instructions_chars)
    prefer = validate.choice(body, "producer", PREFERENCES)
    # Issue 23/38: the open document as the server read it (the pane names it by id), or a
    # summary an API client sent: its parties and terms guide the model (conform/prompting.py),
    # its defined terms let the checks flag a term it lacks; the lawyer's instruction alone is
    # what operations and checks read. A document the server no longer holds never blocks a redraft.
    # Its parties let the operations and checks read who the clause binds by the document's own names.
    document = _document(body)
    terms = validate.document_terms(body)
    read = document.document if document is not None and document.id else None
    # Its defined terms and its parties (a party's name is its term too), when it defines any:
    # a page that only uses a word three times says too little to call another word undefined.
    if terms is None and read is not None and (read.definitions or any(p.how != "used" for p in read.parties)):
        terms = list(dict.fromkeys(t for t in (*read.party_names, *read.terms) if len(t) <= 100))[:validate.MAX_DOCUMENT_TERMS]
    note = with_document_terms("", document.document if document else None, server.max_instructions_chars)
    parties = list(document.document.party_names) if document is not None else []
    outcome, searched = service().redraft(text, clause_ids, instructions, access=access(),
                                          document_terms=terms, prefer=prefer, model_note=note,
                                          document_parties=parties)
    payload = redraft_json(outcome.result, outcome.timings_ms, outcome.drafted)
    if searched is not None:  # the precedents were chosen by search: show how
        payload["rerank"] = search_json(searched)["rerank"]
    return jsonify(payload)


@bp.get("/clauses/<path:clause_id>")
def clause(clause_id: str) -> Any:
    found, before, after = service().clause_with_context(clause_id, access=access())
    item = clause_json(found)
    return jsonify({"clause": item, "context": {"before": [clause_json(c) for c in before],
                                                "after": [clause_json(c) for c in after]},
                    # Corpora without document order (ACORD) never offer other clauses as context.
                    "context_available": bool(before or after)})


@bp.get("/health")
def health() -> Any:
    info = service().health(access())
    # Issue 31: whether the pane may follow the cursor.
    info["capabilities"]["follow"] = follow.capability(settings().follow)
    # Server processes sharing the port (PRECEDENT_WORKERS; one where the platform cannot
    # fork) and how many serve now (one killed is being started again).
    balance = current_app.config.get("PRECEDENT_BALANCE")
    processes = {"processes": balance.count, "serving": balance.serving_now()} if balance is not None \
        else {"processes": 1, "serving": 1}
    return jsonify({"status": "ok", **info, **recording.health_info(), "server": processes})


@bp.route("/<path:unknown>", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
def unknown_route(unknown: str) -> Any:
    # Without this, the static files' catch-all would answer a POST here with 405; with it,
    # a known endpoint asked with the wrong method must still get 405, not 404.
    adapter = current_app.url_map.bind_to_environ(request.environ)
    for method in ("GET", "POST"):
        try:
            endpoint, _ = adapter.match(request.path, method=method)
        except HTTPException:
            continue
        if endpoint != "api.unknown_route":
            raise MethodNotAllowed(valid_methods=[method])
    raise NotFoundError(f"There is no API endpoint /api/v1/{unknown}.")


def _document(body: dict[str, Any]) -> documents.ReadDocument | None:
    conform = settings().conform
    try:
        return documents.resolve(body.get("document"), document_cache(),
                                 caller_key(), conform)
    except (documents.DocumentNotReadError, InvalidRequestError):
        return None
