"""The shapes conforming returns: plain frozen dataclasses, JSON out. The documents it reads
are the clause-reading core's (index_builder.reading.document.Document)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from index_builder.errors import InvalidRequestError
from index_builder.reading.document import REFERENCE_WORDS, Definition, Document, Section
from index_builder.reading.parties import Party, role_of


def document_from_summary(data: Any, max_definitions: int, max_sections: int) -> Document:
    """A document summary an API client read itself ({"definitions", "parties", "sections",
    "reference_word"}), checked field by field; a wrong shape is a 400 saying what to send.
    The pane sends its paragraphs instead, and the server reads them (web/document.py)."""
    if data is None:
        return Document()
    if not isinstance(data, dict):
        raise InvalidRequestError('"document" must be an object: {"id": ...} from /api/v1/document, or '
                                  '"definitions", "parties" and "sections".')
    defs = _list(data, "definitions", max_definitions)
    sections = _list(data, "sections", max_sections)
    parties = [p.strip() for p in _list(data, "parties", 50) if isinstance(p, str) and p.strip()][:50]
    word = data.get("reference_word", "Section")
    definitions = tuple(Definition(_str(d, "term", 120), _str(d, "text", 2000), _str(d, "section", 20))
                        for d in defs if _str(d, "term", 120))
    texts = {d.term: d.text for d in definitions}
    return Document(
        definitions=definitions,
        parties=tuple(Party(p, role_of(p, texts.get(p, ""), parties), "sent", -1) for p in parties),
        sections=tuple(Section(_str(s, "number", 20), _str(s, "heading", 200)) for s in sections
                       if _str(s, "number", 20)),
        reference_word=word if isinstance(word, str) and word in REFERENCE_WORDS else "Section",
    )


def _list(data: dict, key: str, limit: int) -> list:
    value = data.get(key) or []
    if not isinstance(value, list):
        raise InvalidRequestError(f'"document.{key}" must be a list.')
    if len(value) > limit:
        raise InvalidRequestError(f'"document.{key}" has {len(value)} entries; at most {limit} are read. '
                                  f"Send the first {limit}.")
    return value


def _str(item: Any, key: str, limit: int) -> str:
    if not isinstance(item, dict):
        return ""
    value = item.get(key, "")
    return value.strip()[:limit] if isinstance(value, str) else ""


@dataclass(frozen=True)
class TermMapping:
    """One precedent term and what it becomes in the lawyer's document."""

    source: str
    target: str  # "" when nothing matches (then see missing_terms)
    method: str  # exact | role | definition | name | none
    confidence: float
    apply: bool  # applied to the text; False = shown as a suggestion, left as the precedent has it
    occurrences: int
    reason: str = ""
    alternatives: tuple[str, ...] = ()


@dataclass(frozen=True)
class CrossReference:
    text: str  # as written in the precedent: "Section 8.4 (Exceptions)"
    number: str
    heading: str
    target: str  # the document's number when a section with that heading exists, else ""
    status: str  # mapped | suggested (same heading, another level: shown, not applied) | flagged | lawyer


@dataclass(frozen=True)
class MissingTerm:
    """A term the precedent uses that the document does not define, with the precedent's definition."""

    term: str
    definition: str  # "" when the precedent's own document does not define it either
    source: str
    # Why it needs the lawyer beyond "not defined" (a term built on a party the text renames:
    # "built on “Provider”, which becomes “Supplier” ..."); "" for any other undefined term.
    note: str = ""


@dataclass(frozen=True)
class Substitution:
    start: int  # offsets in the precedent's text
    end: int
    original: str
    replacement: str
    kind: str  # term | cross-reference


@dataclass(frozen=True)
class ConformResult:
    text: str
    mappings: tuple[TermMapping, ...] = ()
    cross_references: tuple[CrossReference, ...] = ()
    missing_terms: tuple[MissingTerm, ...] = ()
    substitutions: tuple[Substitution, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
