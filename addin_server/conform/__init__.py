"""Conforming a precedent to the lawyer's document: its parties, defined terms, cross-references.

    result = conform(text, source_document(clauses), read_document(paragraphs), settings.conform)

Deterministic: a precedent term maps to the document's term when the document defines the
same term (exact), when both name the same party role (role), or when their definitions
say the same thing (definition); anything less sure is shown to the lawyer and not applied.
See docs/conform.md.
"""

from addin_server.conform.model import ConformResult, CrossReference, MissingTerm, TermMapping
from addin_server.conform.conform import conform, source_document

__all__ = ["ConformResult", "CrossReference", "MissingTerm", "TermMapping", "conform", "source_document"]
