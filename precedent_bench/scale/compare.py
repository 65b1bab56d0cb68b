"""`scale-compressed compare`: whether two builds of one library wrote the same index.

Two builds may cut the library into segments at other documents (a build over worker
processes plans its shards ahead; a serial one fills a segment as it reads), so this compares
clause by clause, whatever segment holds it: the packed row (text and metadata, from which
the filter columns are made), the stored float32 vector, the IVF-PQ list and code (the same
quantiser encodes the same vector the same way), and BM25 (statistics are the version's: the
same clauses with the same postings score the same), as top-20 lists for sample queries.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Sequence

import faiss
import numpy as np


def clause_digests(backend: Any) -> dict[str, tuple[str, str, str]]:
    """clause id -> (row digest, vector digest, IVF list and code digest), live clauses only."""
    out: dict[str, tuple[str, str, str]] = {}
    alive = backend._alive
    start = 0
    for segment in backend.segments:
        codes = _codes(segment.folder / "dense.ivf")
        vectors = segment.vectors()
        rows = segment.table.at(list(range(segment.size)))
        for local, clause in enumerate(rows):
            if alive is not None and not alive[start + local]:
                continue
            row = json.dumps([clause.text, clause.doc_id, clause.heading, clause.section,
                              sorted(clause.metadata.items())], ensure_ascii=False)
            out[clause.clause_id] = (_digest(row.encode()), _digest(np.asarray(vectors[local]).tobytes()),
                                     codes[local])
        start += segment.size
    return out


def _codes(path: Path) -> dict[int, str]:
    index = faiss.read_index(str(path))
    lists = faiss.extract_index_ivf(index).invlists
    size = lists.code_size
    out: dict[int, str] = {}
    for number in range(lists.nlist):
        n = lists.list_size(number)
        if not n:
            continue
        ids = faiss.rev_swig_ptr(lists.get_ids(number), n).copy()
        codes = faiss.rev_swig_ptr(lists.get_codes(number), n * size).copy().reshape(n, size)
        for local, code in zip(ids, codes):
            out[int(local)] = f"{number}:{code.tobytes().hex()}"
    return out


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def compare(a: Any, b: Any, queries: Sequence[str]) -> dict[str, Any]:
    """What differs between two served versions (``a``, ``b``: SegmentedBackend)."""
    first, second = clause_digests(a), clause_digests(b)
    shared = first.keys() & second.keys()
    differ = {part: sum(1 for c in shared if first[c][i] != second[c][i])
              for i, part in enumerate(("rows", "vectors", "ivfpq_codes"))}
    bm25 = sum(1 for q in queries
               if [(c, round(s, 4)) for c, s in a.lexical([q], 20)]
               != [(c, round(s, 4)) for c, s in b.lexical([q], 20)])
    return {"clauses": [len(first), len(second)], "only_in_first": len(first.keys() - shared),
            "only_in_second": len(second.keys() - shared), "differ": differ,
            "bm25_queries": len(queries), "bm25_top20_differ": bm25,
            "segments": [[s.size for s in a.segments], [s.size for s in b.segments]],
            "same": not (first.keys() ^ second.keys()) and not any(differ.values()) and bm25 == 0}
