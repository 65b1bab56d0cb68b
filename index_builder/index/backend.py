"""The storage seam: what the retrieval pipeline and the index builder need from an engine.

Two engines implement it: ``embedded`` (FAISS + bm25s files under the index folder, the
default) and ``milvus`` (milvus-lite in tests and on one machine, a Milvus cluster for a
firm). Everything above this module speaks in clause ids, ``Filters`` and these protocols,
never in FAISS rows or Milvus expressions.

Filters are data: a tuple of ``Condition``s, all of which must hold. A condition names a
field and a set of values; a clause matches when its value (or, for a list-valued field such
as ``access_groups``, any of its values) is among them, or, with ``negate``, when none is.
Backends apply filters *inside* the search, so a filter that matches one clause in ten
thousand still finds it; they never filter a top-k after the fact.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

import numpy as np

from index_builder.errors import InvalidRequestError
from index_builder.model import Clause, Condition, Filters

# Fields every backend can filter on; metadata keys found at index time are added to them.
CORE_FIELDS = ("clause_id", "doc_id", "doc_title", "source_path", "section", "heading")
# List-valued fields: a clause matches when any of its values is allowed.
LIST_FIELDS = ("access_groups", "denied_groups", "party_roles")
# List fields a user may never filter on, see or count: they are the walls themselves.
WALL_FIELDS = ("access_groups", "denied_groups")
# "document" is a friendly alias: the document's id or its title.
ALIASES = ("document",)
# Metadata kept with the clause but never a filter field or column (one value per clause):
# the extracted terms (index_builder/terms), read back with the clause.
STORED_ONLY = frozenset({"terms"})


def filters_from_mapping(mapping: Mapping[str, Any] | None) -> Filters:
    """``{"type": ["nda", "msa"], "doc_id": "x"}`` -> Filters (any of the values, every field)."""
    if not mapping:
        return ()
    out = []
    for name, wanted in mapping.items():
        values = wanted if isinstance(wanted, (list, tuple, set, frozenset)) else [wanted]
        out.append(Condition(str(name), tuple(sorted({str(v) for v in values}))))
    return tuple(out)


def check_fields(filters: Filters, known: Iterable[str]) -> None:
    """Refuse a filter on a field the index does not hold, naming the ones it does."""
    known = set(known) | set(ALIASES)
    for condition in filters:
        if condition.field not in known:
            raise InvalidRequestError(
                f"Unknown filter field {condition.field!r}. Known fields: "
                f"{', '.join(sorted(known - set(WALL_FIELDS)))}.")


def normalise(value: str) -> str:
    """Filter values compare case-insensitively (a lawyer types "new york" for "New York")."""
    return value.casefold().strip()


def clause_field_values(clause: Clause, name: str) -> tuple[str, ...]:
    """The normalised value(s) a clause has for a filter field (several for list fields)."""
    if name == "document":
        return (normalise(clause.doc_id), normalise(clause.doc_title))
    if name in CORE_FIELDS:
        return (normalise(str(getattr(clause, name))),)
    if name in LIST_FIELDS:
        raw = clause.metadata.get(name, "")
        return tuple(normalise(v) for v in raw.split(",") if v.strip())
    value = clause.metadata.get(name)
    return () if value is None else (normalise(value),)


def clause_matches(clause: Clause, filters: Filters) -> bool:
    """Reference semantics of Filters, for backends that test clauses one by one and for tests."""
    for condition in filters:
        wanted = {normalise(v) for v in condition.values}
        hit = any(v in wanted for v in clause_field_values(clause, condition.field))
        if hit == condition.negate:
            return False
    return True


Scored = list[tuple[str, float]]  # (clause id, score), best first


class SearchBackend(Protocol):
    """One index version, open for reading: two retrievers and a clause store."""

    version: str  # the version this reader serves (folder name or Milvus collection)
    model_id: str  # the embedding model its vectors came from
    dimension: int

    def dense(self, vectors: np.ndarray, k: int, filters: Filters = ()) -> Scored:
        """Clauses nearest to the query vector(s); several rows = their best score per clause."""
        ...

    def lexical(self, texts: Sequence[str], k: int, filters: Filters = ()) -> Scored:
        """BM25 over the clause text; several texts = their summed scores per clause."""
        ...

    def positions(self, clause_ids: Sequence[str]) -> list[int]:
        """Insertion order of the clauses in this version (the tie-break for equal scores)."""
        ...

    def get(self, clause_ids: Sequence[str]) -> list[Clause | None]:
        """The clauses, in the order asked; None for an id the version does not hold."""
        ...

    def neighbours(self, clause_id: str, window: int) -> tuple[list[Clause], list[Clause]]:
        """Clauses just before and after this one in the same source document; none when the
        source has no document order (a BEIR corpus is a bag of clauses from many contracts)."""
        ...

    def fields(self) -> set[str]:
        """Names that filters may use."""
        ...

    def facets(self, names: Sequence[str], filters: Filters = ()) -> dict[str, dict[str, int]]:
        """For each field, value -> number of documents holding it, among matching clauses."""
        ...

    def stats(self, filters: Filters = ()) -> dict[str, int]:
        """{"clauses": n, "documents": m} among the clauses the filters allow."""
        ...

    def close(self) -> None: ...


@dataclass
class VersionData:
    """An index version as the builder hands it to a writer (or reads it back).

    Complete, unless ``kept`` names documents to carry over unchanged from version ``base``
    (only to a store whose ``previous`` offered it, see ``PreviousVersion.holders``): then
    ``clauses`` and ``embeddings`` hold the other documents' clauses alone.
    """

    params: dict[str, Any]
    clauses: list[Clause]
    documents: dict[str, dict[str, Any]]  # every document of the version, in library order
    embeddings: np.ndarray  # float32, one row per clause, L2-normalised
    version: str = ""
    kept: frozenset[str] = frozenset()
    base: str = ""


def completed(data: VersionData, clauses_of: Callable[[str], list[Clause]],
              vectors_of: Callable[[str, list[Clause]], np.ndarray]) -> VersionData:
    """``data`` made complete, in library order: each kept document's clauses and vectors
    taken from the live version (``clauses_of``, ``vectors_of``), the others' from ``data``.
    For a store that cannot append what a build carried over (a rewrite, a fresh collection)."""
    fresh: dict[str, list[int]] = {}
    for row, clause in enumerate(data.clauses):
        fresh.setdefault(clause.doc_id, []).append(row)
    clauses: list[Clause] = []
    parts: list[np.ndarray] = [data.embeddings[:0]]
    for doc_id in data.documents:
        if doc_id in data.kept:
            carried = clauses_of(doc_id)
            clauses += carried
            parts.append(vectors_of(doc_id, carried))
        elif doc_id in fresh:
            clauses += [data.clauses[r] for r in fresh[doc_id]]
            parts.append(data.embeddings[fresh[doc_id]])
    return VersionData(data.params, clauses, data.documents,
                       np.concatenate(parts).astype(np.float32, copy=False))


@dataclass
class PreviousVersion:
    """What the live version holds, keyed for an incremental rebuild."""

    version: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    documents: dict[str, dict[str, Any]] = field(default_factory=dict)
    clauses_by_doc: Mapping[str, list[Clause]] = field(default_factory=dict)
    vectors: Mapping[str, np.ndarray] = field(default_factory=dict)  # text sha256 -> vector
    # Set by a store that can carry unchanged documents over without the builder reading
    # them (VersionData.kept): which live document holds each clause id (None: none).
    holders: Callable[[Sequence[str]], list[str | None]] | None = None


def text_key(text: str) -> str:
    """The key under which a clause text's vector is reused across builds, on every engine."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class IndexStore(Protocol):
    """Versions of one index on one engine: write a new one, switch atomically, open the live one."""

    def live_version(self) -> str:
        """The version readers should serve now (cheap: called on requests)."""
        ...

    def open(self, version: str | None = None) -> SearchBackend:
        """A reader for a version (default: the live one)."""
        ...

    def previous(self, model_id: str) -> PreviousVersion:
        """The live version's contents for reuse; vectors only when embedded by ``model_id``."""
        ...

    def write(self, data: VersionData) -> str:
        """Write a complete new version, make it live atomically, prune old ones; its name."""
        ...

    def describe(self) -> str:
        """Where this store lives, for messages (never credentials)."""
        ...
