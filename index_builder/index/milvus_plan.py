"""Which rows a Milvus version can keep, and which it must retire or insert (pure functions).

A Milvus index keeps its versions as generations of rows in one collection (see milvus.py):
a row is seen by generation ``g`` when ``born <= g < dead``. A rebuild that changed 1% of the
documents should write 1% of the rows, so the new generation keeps every row whose document
is exactly as before and re-writes whole documents otherwise. Whole documents, because a
clause's neighbours are read as a contiguous run of ``ordinal`` within its document: a changed
document gets a fresh run of ordinals after the last one used.

"Exactly as before" is decided by a digest of everything a row is made of except its place
(ordinal, generation) and its vector, which follows from the text and the model.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Callable, Iterator, Mapping, Sequence

from index_builder.model import Clause

FOREVER = 2**62  # ``dead`` of a row no generation has retired yet


@dataclass(frozen=True)
class LiveRow:
    """What the writer needs to know about one row of the live generation."""

    row_id: str
    clause_id: str
    doc_id: str
    ordinal: int
    digest: str
    dead: int = FOREVER


@dataclass
class Plan:
    """How to turn the live generation into the new one."""

    insert: list[int] = field(default_factory=list)  # positions in the new clause list
    ordinals: list[int] = field(default_factory=list)  # one per inserted clause
    retire_docs: list[str] = field(default_factory=list)  # documents whose live rows are retired
    revive: list[str] = field(default_factory=list)  # kept clause ids carrying a stale dead mark
    kept: int = 0
    ordinal_end: int = 0  # one past the highest ordinal in use


def row_digest(clause: Clause, ordered: bool, text_key: str) -> str:
    """A digest of everything a clause's row holds but its place and its vector."""
    fields = [clause.clause_id, text_key, clause.doc_id, clause.doc_title, clause.source_path,
              clause.section, clause.heading, clause.paragraph_start, clause.paragraph_end,
              ordered, sorted(clause.metadata.items())]
    return hashlib.sha256(json.dumps(fields, ensure_ascii=False).encode("utf-8")).hexdigest()


def plan_generation(live: Sequence[LiveRow], clauses: Sequence[Clause], digests: Sequence[str],
                    ordinal_end: int) -> Plan:
    """Keep documents whose rows are unchanged (same clauses, same order); re-write the rest."""
    old: dict[str, list[LiveRow]] = {}
    for row in sorted(live, key=lambda r: r.ordinal):
        old.setdefault(row.doc_id, []).append(row)
    new: dict[str, list[int]] = {}
    for position, clause in enumerate(clauses):
        new.setdefault(clause.doc_id, []).append(position)
    plan = Plan(ordinal_end=max([ordinal_end, *(r.ordinal + 1 for r in live)]))
    for doc_id, positions in new.items():
        rows = old.get(doc_id, [])
        wanted = [(clauses[p].clause_id, digests[p]) for p in positions]
        if rows and wanted == [(r.clause_id, r.digest) for r in rows]:
            plan.kept += len(rows)
            plan.revive += [r.clause_id for r in rows if r.dead != FOREVER]
            continue
        if rows:
            plan.retire_docs.append(doc_id)
        for p in positions:
            plan.insert.append(p)
            plan.ordinals.append(plan.ordinal_end)
            plan.ordinal_end += 1
    plan.retire_docs += [doc_id for doc_id in old if doc_id not in new]
    return plan


def plan_carried(live: Sequence[LiveRow], kept: frozenset[str], inserted: int,
                 ordinal_end: int) -> Plan:
    """The plan for a build that carried ``kept`` documents over unread: their rows stay,
    every other live document is retired, and the ``inserted`` new clauses (the builder's,
    in order) take fresh ordinals."""
    plan = Plan(ordinal_end=max([ordinal_end, *(r.ordinal + 1 for r in live)]))
    retired = set()
    for row in live:
        if row.doc_id in kept:
            plan.kept += 1
            if row.dead != FOREVER:
                plan.revive.append(row.clause_id)
        else:
            retired.add(row.doc_id)
    plan.retire_docs = sorted(retired)
    plan.insert = list(range(inserted))
    plan.ordinals = list(range(plan.ordinal_end, plan.ordinal_end + inserted))
    plan.ordinal_end += inserted
    return plan


class ClausesOnDemand(Mapping[str, list[Clause]]):
    """doc id -> clauses of the live version, read whole the first time one is asked for
    (only when a build cannot carry documents over: a new wall policy, an id clash)."""

    def __init__(self, documents: set[str], read: Callable[[], dict[str, list[Clause]]]) -> None:
        self._documents = documents
        self._read = read
        self._clauses: dict[str, list[Clause]] | None = None

    def __getitem__(self, doc_id: str) -> list[Clause]:
        if doc_id not in self._documents:
            raise KeyError(doc_id)
        if self._clauses is None:
            self._clauses = self._read()
        return self._clauses.get(doc_id, [])

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._documents

    def __iter__(self) -> Iterator[str]:
        return iter(self._documents)

    def __len__(self) -> int:
        return len(self._documents)
