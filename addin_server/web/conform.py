"""The lawyer's open document on the server, and a precedent conformed to it.

POST /api/v1/document: the pane sends the document's paragraphs once per version (text,
number, style, heading, table: what Word gives it); the server reads them with the
clause-reading core (index_builder/reading, the one reader of parties and terms), keeps the
reading for the caller (conform/documents.py) and answers with its id and what it read.
POST /api/v1/document/check: Check document's findings on it (conform/check.py).
POST /api/v1/conform: a precedent in that document's parties, terms and cross-references.

Signed in and audited like every /api/ route (web/auth.py and web/audit.py wrap them all);
walls come from context.access(). Nothing of a document is logged.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, current_app, jsonify, request

from index_builder.errors import InvalidRequestError, TextTooLongError
from index_builder.reading.document import Document
from index_builder.reading.labels import clause_label
from addin_server.conform import documents
from addin_server.conform.check import check_document
from addin_server.conform.service import conform_clauses
from addin_server.conform.suggest import with_suggestions
from addin_server.web import validate
from addin_server.web.context import access, caller_key, document_cache, service

log = logging.getLogger(__name__)

bp = Blueprint("conform", __name__, url_prefix="/api/v1")

MAX_OVERRIDES = 500


@bp.post("/document")
def document_view() -> Any:
    """Read the open document's paragraphs; its id and what was read (terms, parties, sections)."""
    conform = current_app.config["PRECEDENT_SETTINGS"].conform
    request.max_content_length = conform.document_max_bytes  # a whole document, not a clause
    declared = request.content_length or 0
    if declared > conform.document_max_bytes:
        raise TextTooLongError(documents.too_long(None, conform))
    body = validate.json_body()
    read = documents.read(documents.paragraphs_from(body.get("paragraphs"), conform))
    document_cache().put(caller_key(), read)
    log.info("document: %d paragraphs read: %d definitions, %d parties, %d sections", len(read.paragraphs),
             len(read.document.definitions), len(read.document.parties), len(read.document.sections))
    return jsonify(documents.profile_json(read))


@bp.post("/document/check")
def document_check_view() -> Any:
    """Check document: terms used but not defined, defined twice, unused, odd capitals, missing sections."""
    body = validate.json_body()
    read = _document(body)
    if read is None or not read.paragraphs:
        raise InvalidRequestError('Send "document": {"id": ...} from POST /api/v1/document.')
    findings = check_document(read.paragraphs, read.document)
    log.info("document check: %d paragraphs, %d findings", len(read.paragraphs), len(findings))
    return jsonify({"findings": findings, "profile": documents.profile_json(read)})


def _document(body: dict[str, Any]) -> documents.ReadDocument | None:
    conform = current_app.config["PRECEDENT_SETTINGS"].conform
    return documents.resolve(body.get("document"), document_cache(),
                             caller_key(), conform)


@bp.post("/conform")
def conform_view() -> Any:
    body = validate.json_body()
    settings = current_app.config["PRECEDENT_SETTINGS"]
    clause_ids = validate.clause_ids(body, validate.MAX_CLAUSE_IDS)
    if not clause_ids:
        raise InvalidRequestError("Send 'clause_ids': the precedent to conform (its id from the search results).")
    read = _document(body)
    target = read.document if read else Document()
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
    # The conformed text's number, heading and capitals (reading/labels.py), as a search result's.
    payload["reading"] = clause_label(result.text, clauses[0].heading).to_dict()
    payload["source"] = {"citation": clauses[0].citation(), "doc_id": clauses[0].doc_id}
    payload["document_sent"] = {"definitions": len(target.definitions), "parties": len(target.parties),
                                "sections": len(target.sections)}
    if not target.definitions and not target.parties:
        payload["notes"] = list(payload["notes"]) + [
            "Your document has no definitions or parties that Precedent could read, so only "
            "cross-references were checked."]
    return jsonify(payload)


def _suggested(result: Any, source: Any, target: Any, settings: Any) -> tuple[Any, str]:
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
