"""Tell the redraft model the lawyer's document's own terms (the one hook into redraft).

The pane sends the same summary it sends /conform (definitions, parties, section map); the
redraft view turns it into one more drafting instruction, so the model writes "Supplier"
and "Clause 12.3" where the precedents say "Provider" and "Section 8.4". The redraft prompt
and the redraft path are unchanged: this only extends the lawyer's instruction text, within
its length limit.
"""

from __future__ import annotations

from typing import Any

from index_builder.errors import InvalidRequestError
from addin_server.conform.model import TargetDocument

MAX_TERMS = 40


def with_document_terms(instructions: str, document: Any, limit: int) -> str:
    """``instructions`` plus a sentence naming the document's parties and defined terms."""
    if document is None:
        return instructions
    try:
        target = TargetDocument.from_json(document, 5000, 5000)
    except InvalidRequestError:
        return instructions  # a malformed summary never blocks a redraft
    terms = [d.term for d in target.definitions if d.term not in target.parties][:MAX_TERMS]
    while True:  # as many defined terms as fit within the instruction limit
        joined = _joined(instructions, _note(target, terms))
        if len(joined) <= limit or not terms:
            break
        terms = terms[:-1]
    return joined if joined and len(joined) <= limit else instructions


def _note(target: TargetDocument, terms: list[str]) -> str:
    parts = []
    if target.parties:
        parts.append("the parties are " + " and ".join(f"\u201c{p}\u201d" for p in target.parties[:4]))
    if terms:
        parts.append("its defined terms include " + ", ".join(f"\u201c{t}\u201d" for t in terms))
    if target.sections and target.reference_word != "Section":
        parts.append(f"it calls its sections \u201c{target.reference_word}\u201d")
    if not parts:
        return ""
    return ("Write it in the lawyer's document's own terms, not the precedents': " + "; ".join(parts)
            + ". Do not change what the precedents mean.")


def _joined(instructions: str, note: str) -> str:
    if not note:
        return ""
    return f"{instructions.strip()}\n{note}" if instructions.strip() else note
