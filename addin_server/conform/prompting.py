"""Tell the redraft model the lawyer's document's own terms (the one hook into redraft).

The pane sends the same summary it sends /conform (definitions, parties, section map); the
redraft view turns it into one more drafting instruction, so the model writes "Supplier"
and "Clause 12.3" where the precedents say "Provider" and "Section 8.4". The redraft prompt
and the redraft path are unchanged: this only extends the lawyer's instruction text, within
its length limit.
"""

from __future__ import annotations

from index_builder.reading.document import Document

MAX_TERMS = 40


def with_document_terms(instructions: str, target: Document | None, limit: int) -> str:
    """``instructions`` plus a sentence naming the document's parties and defined terms."""
    if target is None:
        return instructions
    terms = [t for t in target.terms if t not in target.party_names][:MAX_TERMS]
    while True:  # as many defined terms as fit within the instruction limit
        joined = _joined(instructions, _note(target, terms))
        if len(joined) <= limit or not terms:
            break
        terms = terms[:-1]
    return joined if joined and len(joined) <= limit else instructions


def _note(target: Document, terms: list[str]) -> str:
    parts = []
    if target.parties:
        parts.append("the parties are " + " and ".join(f"\u201c{p}\u201d" for p in target.party_names[:4]))
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
