"""Definitions as precedent: each “X” means ... sentence of a contract as its own searchable unit.

A lawyer drafting a definition searches definitions, not clauses: ``definition_units`` turns
the definitions inside a document's clauses into extra Clause records (``unit`` =
"definition", ``term`` = the term) beside the clauses they come from, with the same source,
section and paragraphs. ``unit_filters`` keeps the two apart at search time: a search names
``unit`` "definition" or "clause", and one that names neither gets clauses only.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterable, Sequence

from index_builder.model import Clause, Condition, Filters
from index_builder.reading.defined_terms import MEANS_LINE, defined_terms, means_definition
from index_builder.reading.paragraphs import without_number

UNIT = "unit"
DEFINITION = "definition"
CLAUSE = "clause"
_MIN_CHARS = 20


def definition_units(clauses: Sequence[Clause]) -> list[Clause]:
    """One unit per term a line of these clauses defines with "means" (not a passing (the “X”))."""
    out: list[Clause] = []
    taken = {c.clause_id for c in clauses}
    for clause in clauses:
        if clause.metadata.get(UNIT) == DEFINITION:
            continue
        for line in clause.text.splitlines():
            if not MEANS_LINE.search(line):
                continue
            text = without_number(line.strip())
            for term in defined_terms(text):
                if len(text) < _MIN_CHARS or not MEANS_LINE.search(text, text.find(term)):
                    continue
                clause_id = _unique(f"{clause.clause_id}#def:{_slug(term)}", taken)
                metadata = {**clause.metadata, UNIT: DEFINITION, "term": term}
                metadata.pop("defines", None)
                out.append(replace(clause, clause_id=clause_id, text=text, heading=term, metadata=metadata))
    return out


def unit_filters(filters: Filters, fields: Iterable[str]) -> Filters:
    """Filters with the unit made explicit: "clause" means "not a definition", none means clauses."""
    if UNIT not in set(fields):
        return tuple(c for c in filters if c.field != UNIT)  # an index built before definitions
    out, named = [], False
    for condition in filters:
        if condition.field != UNIT:
            out.append(condition)
            continue
        named = True
        values = {v.casefold() for v in condition.values}
        if DEFINITION in values and CLAUSE not in values:
            out.append(Condition(UNIT, (DEFINITION,), condition.negate))
        elif CLAUSE in values and DEFINITION not in values:
            out.append(Condition(UNIT, (DEFINITION,), not condition.negate))
    if not named:
        out.append(Condition(UNIT, (DEFINITION,), negate=True))
    return tuple(out)


def looks_like_definition(text: str) -> bool:
    """True for a selection that defines a term (“X” means ...): search definitions for it."""
    return means_definition(text) and len(text) < 3000


def search_unit(filters: dict | None, text: str, auto: bool) -> tuple[dict | None, dict | None]:
    """A search's filters with the unit decided by the query when ``auto`` and no unit is
    named: a selected definition searches definitions ({"unit": "definition", "term": "X"}
    says so), anything else clauses."""
    if not auto or (filters and UNIT in filters) or not looks_like_definition(text):
        return filters, None
    return {**(filters or {}), UNIT: DEFINITION}, {UNIT: DEFINITION, "term": defined_terms(text)[0]}


def _slug(term: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-") or "term"


def _unique(candidate: str, taken: set[str]) -> str:
    n, out = 2, candidate
    while out in taken:
        out, n = f"{candidate}-{n}", n + 1
    taken.add(out)
    return out
