"""Terms stored with the clause: a JSON value under one metadata key, on both engines.

The clause store already keeps every metadata key (embedded: the SQLite row; Milvus: the row's
``metadata`` JSON), so terms need no engine change. They are not a filter field
(``backend.STORED_ONLY``): one distinct value per clause would make a useless column.

A clause keeps its stored terms while its text and the extractor version are unchanged: a rebuild
re-extracts only the clauses of changed documents (reused clauses come back with their terms).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import replace
from typing import Iterable

from index_builder.model import Clause
from index_builder.terms.extract import VERSION, ClauseTerms, extract

log = logging.getLogger(__name__)

TERMS_KEY = "terms"
# Figures stored per clause: a runaway paragraph (thousands of "30 days") must not outgrow a
# Milvus JSON field (64 KB); the market reads a clause's first figures of each kind anyway.
MAX_STORED = 200


def _fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def terms_of(clause: Clause) -> ClauseTerms:
    """The stored terms when current for this text, else extracted now (old index, typed text)."""
    raw = clause.metadata.get(TERMS_KEY)
    if raw:
        try:
            data = json.loads(raw)
            if data.get("version") == VERSION and data.get("sha") == _fingerprint(clause.text):
                return ClauseTerms.from_json(data)
        except (ValueError, TypeError, KeyError):
            log.warning("clause %s: stored terms unreadable; extracting again", clause.clause_id)
    return extract(clause.text)


def stamp(clauses: Iterable[Clause]) -> tuple[list[Clause], int]:
    """The clauses with current terms in their metadata, and how many were extracted now."""
    out, extracted = [], 0
    for clause in clauses:
        raw = clause.metadata.get(TERMS_KEY)
        if raw and _current(raw, clause.text):
            out.append(clause)
            continue
        data = {**extract(clause.text).to_json(), "sha": _fingerprint(clause.text)}
        if len(data["terms"]) > MAX_STORED:
            log.info("clause %s: %d figures, the first %d stored", clause.clause_id,
                     len(data["terms"]), MAX_STORED)
            data["terms"] = data["terms"][:MAX_STORED]
        extracted += 1
        out.append(replace(clause, metadata={**clause.metadata,
                                              TERMS_KEY: json.dumps(data, separators=(",", ":"))}))
    return out, extracted


def _current(raw: str, text: str) -> bool:
    try:
        data = json.loads(raw)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("version") == VERSION and data.get("sha") == _fingerprint(text)
