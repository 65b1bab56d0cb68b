"""The live embedded version as the next build reads it: documents now, clauses and vectors
only when asked.

Reading a million clauses back (JSON rows to ``Clause`` objects) and a dict of a million
vectors took a minute and several GB before a build could start, although a build that
changed 1% of the documents needs the old clauses of those documents alone. A format 4
version answers these look-ups from its own files instead: the clauses of one document from
SQLite (positions from the ``doc_id`` column), a text's vector from ``text_keys.npy`` and
the dense index (loaded on the first vector asked for), and which document holds a clause
id from SQLite.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator, Mapping, Sequence

import faiss
import numpy as np

from index_builder.index.backend import PreviousVersion
from index_builder.index.clausedb import CLAUSE_DB, COLUMNS, ClauseTable, Columns
from index_builder.index.dense_files import stored_vectors
from index_builder.index.store import ALIVE, TEXT_KEYS
from index_builder.model import Clause


class CarriedVersion:
    """One format 4 version folder, open for a build's look-ups."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.params = json.loads((self.folder / "params.json").read_text("utf-8"))
        self.documents = json.loads((self.folder / "documents.json").read_text("utf-8"))
        self.table = ClauseTable(self.folder / CLAUSE_DB)
        columns = Columns.load(self.folder / COLUMNS)
        alive = (np.load(self.folder / ALIVE) if (self.folder / ALIVE).is_file()
                 else np.ones(columns.size, dtype=bool))
        self._doc_codes = np.asarray(columns.codes["doc_id"])
        self._doc_values = columns.values["doc_id"]
        live = np.flatnonzero(alive)
        codes = self._doc_codes[live]
        order = np.argsort(codes, kind="stable")  # positions by document, in document order
        starts = np.flatnonzero(np.r_[True, codes[order][1:] != codes[order][:-1]]) \
            if len(order) else np.zeros(0, dtype=np.int64)
        ends = np.r_[starts[1:], len(order)]
        self._positions = {self._doc_values[int(codes[order[a]])]: live[order[a:b]]
                           for a, b in zip(starts, ends)}
        self._keys = np.load(self.folder / TEXT_KEYS)
        if not len(alive) == len(self._keys) == columns.size or len(live) != len(self.table):
            raise ValueError(f"{self.folder} has mismatched parts")
        self._live = live
        self._by_key: dict[bytes, int] | None = None
        self._dense: faiss.Index | None = None
        self._vectors: np.ndarray | None = None

    def previous(self, model_id: str) -> PreviousVersion:
        reuse = self.params.get("embedding_model") == model_id
        return PreviousVersion(self.folder.name, self.params, self.documents,
                               _DocumentClauses(self), _Vectors(self) if reuse else {},
                               holders=self.holders)

    def positions(self, doc_id: str) -> np.ndarray:
        """The live positions of a document's clauses, in order."""
        return self._positions.get(doc_id, np.zeros(0, dtype=np.int64))

    def clauses(self, doc_id: str) -> list[Clause]:
        return self.table.at([int(p) for p in self.positions(doc_id)])

    def holders(self, clause_ids: Sequence[str]) -> list[str | None]:
        """The document holding each clause id in this version (None: no live clause has it)."""
        found = self.table.positions_of(clause_ids)  # dead positions are not in the table
        return [None if p is None else self._doc_values[int(self._doc_codes[p])] for p in found]

    def vectors(self) -> np.ndarray:
        """Every position's vector (read-only), loading the dense index the first time."""
        if self._vectors is None:
            self._dense = faiss.read_index(str(self.folder / "dense.faiss"))
            self._vectors = stored_vectors(self._dense)
        return self._vectors

    def take_dense(self) -> faiss.Index | None:
        """The dense index if a look-up loaded it, handed over to be extended (reading 1.7 GB
        again at 1M clauses costs seconds); this version's views of its vectors go with it,
        since adding to the index may move them."""
        dense, self._dense, self._vectors = self._dense, None, None
        return dense

    def position_of_text(self, key: str) -> int | None:
        if self._by_key is None:
            # Raw bytes, not the array's items: numpy drops a digest's trailing zero bytes.
            raw = np.ascontiguousarray(self._keys[self._live]).tobytes()
            self._by_key = {raw[i * 32:(i + 1) * 32]: int(p) for i, p in enumerate(self._live)}
        return self._by_key.get(bytes.fromhex(key))

    def close(self) -> None:
        self.table.close()


class _DocumentClauses(Mapping[str, list[Clause]]):
    """doc id -> its clauses in the carried version, read from SQLite when asked."""

    def __init__(self, version: CarriedVersion) -> None:
        self._version = version

    def __getitem__(self, doc_id: str) -> list[Clause]:
        if doc_id not in self._version._positions:
            raise KeyError(doc_id)
        return self._version.clauses(doc_id)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._version._positions

    def __iter__(self) -> Iterator[str]:
        return iter(self._version._positions)

    def __len__(self) -> int:
        return len(self._version._positions)


class _Vectors(Mapping[str, np.ndarray]):
    """text key (sha256 hex) -> the vector the carried version holds for that text."""

    def __init__(self, version: CarriedVersion) -> None:
        self._version = version

    def __getitem__(self, key: str) -> np.ndarray:
        position = self._version.position_of_text(key)
        if position is None:
            raise KeyError(key)
        return self._version.vectors()[position]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._version.position_of_text(key) is not None

    def __iter__(self) -> Iterator[str]:
        self._version.position_of_text("00")  # builds the look-up
        return (k.hex() for k in (self._version._by_key or {}))

    def __len__(self) -> int:
        self._version.position_of_text("00")
        return len(self._version._by_key or {})
