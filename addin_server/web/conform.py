"""POST /api/v1/conform: a precedent in the open document's parties, terms and cross-references.

Signed in and audited like every /api/ route (web/auth.py and web/audit.py wrap them all);
walls come from context.access(). The body carries the document's definitions, parties and
section map only (document-profile.js summaryForServer); nothing of it is logged.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, current_app, jsonify

from index_builder.errors import InvalidRequestError
from addin_server.conform.model import TargetDocument
from addin_server.conform.service import conform_clauses
from addin_server.conform.suggest import with_suggestions
from addin_server.web import validate
from addin_server.web.context import access, service

log = logging.getLogger(__name__)

bp = Blueprint("conform", __name__, url_prefix="/api/v1")

MAX_OVERRIDES = 500


@bp.post("/conform")
def conform_view() -> Any:
    body = validate.json_body()
    settings = current_app.config["PRECEDENT_SETTINGS"]
    clause_ids = validate.clause_ids(body, validate.MAX_CLAUSE_IDS)
    if not clause_ids:
        raise InvalidRequestError("Send 'clause_ids': the precedent to conform (its id from the search results).")
    target = TargetDocument.from_json(body.get("document"), settings.conform.max_definitions,
                                      settings.conform.max_sections)
    text = validate.string(body, "text", settings.server.max_text_chars) if body.get("text") is not None else None
    if text is not None and not text.strip():
        raise InvalidRequestError("'text' is empty: send the draft to conform, or leave 'text' out to conform the precedent.")
    result, clauses, source = conform_clauses(service().pipeline, clause_ids, target, settings.conform,
                                              access(), text=text, overrides=_overrides(body))
    notes: list[str] = []
    if validate.boolean(body, "suggest"):
        result, note = _suggested(result, source, target, settings)
        notes += [note] if note else []
    payload = result.to_json()
    payload["notes"] = list(payload["notes"]) + notes
    payload["clause_id"] = clauses[0].clause_id
    payload["source"] = {"citation": clauses[0].citation(), "doc_id": clauses[0].doc_id}
    payload["document_sent"] = {"definitions": len(target.definitions), "parties": len(target.parties),
                                "sections": len(target.sections)}
    if not target.definitions and not target.parties:
        payload["notes"] = list(payload["notes"]) + [
            "Your document has no definitions or parties that Precedent could read, so only "
            "cross-references were checked."]
    return jsonify(payload)


def _suggested(result: Any, source: Any, target: TargetDocument, settings: Any) -> tuple[Any, str]:
    """AI suggestions for unmatched terms (shown, never applied); a note when there is no model."""
    client = service().client
    if client is None:
        return result, "No drafting assistant is connected, so there are no AI suggestions."
    prompt = service().prompt_set.conform  # loaded and checked at start-up (prompt_set.py)
    return with_suggestions(result, source, target, client, prompt, settings.llm.redraft_model,
                            settings.llm.request_timeout_s), ""


def _overrides(body: dict[str, Any]) -> dict[str, str]:
    value = body.get("overrides") or {}
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise InvalidRequestError("'overrides' must map a precedent term to your term (\"\" to keep it), "
                                  'e.g. {"Provider": "Supplier"}.')
    if len(value) > MAX_OVERRIDES:
        raise InvalidRequestError(f"At most {MAX_OVERRIDES} overrides.")
    return {k.strip(): v.strip()[:120] for k, v in value.items() if k.strip()}
