"""Filters as Milvus boolean expressions, and clauses as Milvus rows (and back).

Injection-proof by construction: no user-supplied string ever enters an expression. Each row
stores, for every filterable field, a *token* of its casefolded value ("h" + 32 hex digits of
SHA-1): in the ``keys`` JSON field under a hashed key for one-valued fields, and in an ARRAY
field per list-valued field; a filter asks for the tokens of its casefolded values. Clause
and document ids are looked up through tokens too (``clause_key``, ``doc_key``). So an
expression only ever holds our field names, hex digits and numbers. (Escaping raw values
would not do: milvus-lite 2.5.1 decodes backslash-quote and backslash-backslash in string
literals but not unicode or hex escapes, so some values could not be written at all.)

Values compare case-insensitively because both sides are casefolded (``backend.normalise``)
before they are tokenised; filters test equality only, so nothing is lost.

milvus-lite 2.5.1 has no ``not`` operator (it answers "unsupported expr proto node"), so a
negated condition is written without one: ``keys[...] not in [...]`` for one-valued fields
(a clause without the key passes, as in the reference semantics), and for list-valued
fields one flag per (field, value) in the ``flags`` JSON field, tested with
``flags["f_<sha1>"] not in [1]``.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Iterable, Mapping, Sequence

from index_builder.index.backend import (
    CORE_FIELDS,
    LIST_FIELDS,
    STORED_ONLY,
    Condition,
    Filters,
    clause_field_values,
    normalise,
)
from index_builder.model import Clause

# Matches nothing: ordinals start at 0. Used for a positive condition with no values.
NEVER = "ordinal < 0"
# Milvus VARCHAR limit (bytes); longer clause texts are cut for the searchable copy.
MAX_TEXT_BYTES = 65_535
MAX_LIST_VALUES = 4_096  # Milvus ARRAY capacity
_SAFE = re.compile(r"[A-Za-z0-9_.:\-]*")


def literal(value: str) -> str:
    """A Milvus string literal for one of *our* strings (tokens, version names, catalog keys)."""
    if not _SAFE.fullmatch(value):
        raise ValueError("only tokens and generated names go into Milvus expressions")
    return f'"{value}"'


def literals(values: Iterable[str]) -> str:
    return "[" + ", ".join(literal(v) for v in values) + "]"


def row_key(generation: int, clause_id: str) -> str:
    """A row's primary key: generation and token, so that it can go into an expression.

    A look-up by key is the cheapest query (100 clauses at 100k rows: 9 ms by key, 27 ms by
    ``clause_key``; at 1M milvus-lite scans either way, 350 against 541 ms: scale.md).
    Versions written before this held ``generation:clause id``, which may not be quoted
    safely; readers fall back to ``clause_key`` for those.
    """
    return f"{int(generation)}:{token(clause_id)}"


def safe(value: str) -> bool:
    """Whether ``literal`` takes this string."""
    return bool(_SAFE.fullmatch(value))


def token(value: str) -> str:
    """What a value is stored and searched as: its SHA-1, so expressions never hold user text."""
    return "h" + hashlib.sha1(value.encode("utf-8")).hexdigest()[:32]


def key_name(field: str) -> str:
    """The JSON key under which a one-valued field's casefolded value is stored."""
    return "k_" + hashlib.sha1(field.encode("utf-8")).hexdigest()[:20]


def flag_name(field: str, value: str) -> str:
    """The JSON key flagging that a list-valued field holds ``value`` (casefolded)."""
    return "f_" + hashlib.sha1(f"{field}\x00{value}".encode("utf-8")).hexdigest()[:20]


def expression(filters: Filters, array_fields: Sequence[str]) -> str:
    """All conditions joined with ``and``; "" for no filter. Fields must be checked first."""
    parts = [p for p in (_condition(c, array_fields) for c in filters) if p]
    return " and ".join(f"({p})" for p in parts)


def _condition(condition: Condition, array_fields: Sequence[str]) -> str:
    normalised = sorted({normalise(v) for v in condition.values})
    values = [token(v) for v in normalised]
    if not values:  # "one of nothing" never holds; "none of nothing" always does
        return "" if condition.negate else NEVER
    if condition.field == "document":
        doc_id, title = (_scalar(name, values, condition.negate) for name in ("doc_id", "doc_title"))
        return f"{doc_id} and {title}" if condition.negate else f"{doc_id} or {title}"
    if condition.field in LIST_FIELDS:
        if condition.negate:
            return " and ".join(f'flags["{flag_name(condition.field, v)}"] not in [1]'
                                for v in normalised)
        if condition.field in array_fields:
            return f"array_contains_any({condition.field}, {literals(values)})"
        return " or ".join(f'flags["{flag_name(condition.field, v)}"] in [1]' for v in normalised)
    return _scalar(condition.field, values, condition.negate)


def _scalar(field: str, values: list[str], negate: bool) -> str:
    return f'keys["{key_name(field)}"] {"not in" if negate else "in"} {literals(values)}'


# -- rows -------------------------------------------------------------------------------------
CLAUSE_FIELDS = ["clause_id", "ordinal", "text", "doc_id", "doc_title", "source_path", "section",
                 "heading", "paragraph_start", "paragraph_end", "metadata", "ordered"]


def clause_row(clause: Clause, ordinal: int, ordered: bool, vector: Sequence[float],
               text_key: str, array_fields: Sequence[str]) -> dict[str, Any]:
    """One Milvus row: the clause, its casefolded filter values, flags and vector."""
    keys = {key_name(name): token(value)
            for name in (*CORE_FIELDS, *clause.metadata)
            if name not in LIST_FIELDS and name not in STORED_ONLY
            for value in clause_field_values(clause, name)[:1]}
    flags: dict[str, int] = {}
    lists: dict[str, list[str]] = {}
    for name in LIST_FIELDS:
        values = sorted(set(clause_field_values(clause, name)))
        if len(values) > MAX_LIST_VALUES:
            raise ValueError(f"clause {clause.clause_id} has {len(values)} {name} values; "
                             f"at most {MAX_LIST_VALUES} fit a Milvus array")
        lists[name] = [token(v) for v in values]
        flags.update({flag_name(name, v): 1 for v in values})
    row = {
        "clause_id": clause.clause_id,
        "clause_key": token(clause.clause_id),
        "doc_key": token(clause.doc_id),
        "ordinal": ordinal,
        "text": truncate_utf8(clause.text, MAX_TEXT_BYTES),
        "text_sha256": text_key,
        "doc_id": clause.doc_id,
        "doc_title": clause.doc_title,
        "source_path": clause.source_path,
        "section": clause.section,
        "heading": clause.heading,
        "paragraph_start": int(clause.paragraph_start),
        "paragraph_end": int(clause.paragraph_end),
        "ordered": ordered,
        "metadata": dict(clause.metadata),
        "keys": keys,
        "flags": flags,
        "dense": [float(x) for x in vector],
    }
    row.update({name: lists[name] for name in array_fields})
    return row


def clause_from_row(row: Mapping[str, Any]) -> Clause:
    """The Clause a row was made from (its text cut at 64 KB if it was longer)."""
    metadata = row.get("metadata") or {}
    if isinstance(metadata, str):  # some client versions hand JSON fields back as text
        metadata = json.loads(metadata)
    return Clause(
        clause_id=str(row["clause_id"]), text=str(row["text"]), doc_id=str(row["doc_id"]),
        doc_title=str(row["doc_title"]), source_path=str(row["source_path"]),
        section=str(row["section"]), heading=str(row["heading"]),
        paragraph_start=int(row["paragraph_start"]), paragraph_end=int(row["paragraph_end"]),
        metadata={str(k): str(v) for k, v in metadata.items()})


def truncate_utf8(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` UTF-8 bytes without splitting a character."""
    data = text.encode("utf-8")
    return text if len(data) <= limit else data[:limit].decode("utf-8", errors="ignore")
