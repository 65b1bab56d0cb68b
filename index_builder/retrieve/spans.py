"""Matching spans: the 1-3 sentence window(s) of a long precedent that best match the query.

Contract Discovery (Borchmann et al., 2020) found windows of one to three sentences the best
unit for pointing at the part of a long clause that answers a query. Each sentence is
embedded once; a window's vector is the normalised mean of its sentences' vectors, so a
clause of n sentences costs n embeddings, not 3n. A window scores its best cosine against
the query vectors (one row per query text or example). Offsets are character positions in
the clause text, end exclusive, trimmed to the sentence text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, Sequence

import numpy as np

# A sentence ends at . ! ? (with closing quotes or brackets) before whitespace and a
# capital, digit, bracket or quote, or at a line break ...
_END = re.compile(r"""[.!?]['"\u2019\u201d)\]]*\s+(?=[A-Z0-9(\["'\u201c\u2018])|\n+""")
# ... but not after an abbreviation, an initial or a number such as "Section 2." or "No.".
_NO_END = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|viz|cf|vs|inc|ltd|llc|l\.l\.c|co|corp|no|nos|sec|art|para|cl|"
    r"mr|mrs|ms|dr|st|u\.s|u\.k|n\.a|approx|incl|min|max|jan|feb|mar|apr|jun|jul|aug|sep|sept|"
    r"oct|nov|dec)|\b[A-Za-z]|(?:^|(?<=\s))\d+(?:\.\d+)*|"
    r"\b(?:section|article|clause|exhibit|schedule)\s+[\w.]+)[.]$",
    re.I)


class Embedder(Protocol):
    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray: ...


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    score: float

    def to_dict(self) -> dict[str, float | int]:
        return {"start": self.start, "end": self.end, "score": self.score}


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, whitespace trimmed, in order."""
    return list(_sentences(text))


@lru_cache(maxsize=20_000)
def _sentences(text: str) -> tuple[tuple[int, int], ...]:
    # Each search splits its long results again; the same clauses come back search after search.
    bounds, start = [], 0
    for match in _END.finditer(text):
        head = text[start:match.start() + 1].rstrip()
        if match.group().strip() and _NO_END.search(head):
            continue
        bounds.append((start, match.start() + len(match.group().rstrip())))
        start = match.end()
    bounds.append((start, len(text)))
    return tuple(trimmed for s, e in bounds if (trimmed := _trim(text, s, e)))


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


def best_spans(query_vectors: np.ndarray, texts: Sequence[str], embedder: Embedder,
               max_spans: int = 1, window: int = 3, min_sentences: int = 4) -> list[list[Span]]:
    """For each text, up to ``max_spans`` non-overlapping best windows, best first.

    Texts with fewer than ``min_sentences`` sentences are short enough to read whole and get
    no spans (an empty list). All sentences of all texts are embedded in one batch.
    """
    split = [sentences(t) for t in texts]
    long = [i for i, s in enumerate(split) if len(s) >= min_sentences]
    pieces = [texts[i][s:e] for i in long for s, e in split[i]]
    if not pieces:
        return [[] for _ in texts]
    vectors = np.asarray(embedder.embed(pieces), dtype=np.float32)
    queries = np.atleast_2d(np.asarray(query_vectors, dtype=np.float32))
    out: list[list[Span]] = [[] for _ in texts]
    row = 0
    for i in long:
        count = len(split[i])
        out[i] = _choose(split[i], vectors[row:row + count], queries, max_spans, window)
        row += count
    return out


def _choose(bounds: list[tuple[int, int]], vectors: np.ndarray, queries: np.ndarray,
            max_spans: int, window: int) -> list[Span]:
    scored = []
    for first in range(len(bounds)):
        for size in range(1, window + 1):
            last = first + size - 1
            if last >= len(bounds):
                break
            mean = vectors[first:last + 1].sum(axis=0)
            norm = float(np.linalg.norm(mean))
            score = float((queries @ (mean / norm)).max()) if norm else 0.0
            scored.append((score, first, last))
    # Best first; on a tie the shorter, earlier window (less to read).
    scored.sort(key=lambda item: (-item[0], item[2] - item[1], item[1]))
    chosen: list[tuple[float, int, int]] = []
    for score, first, last in scored:
        if all(last < f or first > l for _, f, l in chosen):
            chosen.append((score, first, last))
            if len(chosen) == max_spans:
                break
    return [Span(bounds[f][0], bounds[l][1], round(s, 4)) for s, f, l in chosen]
