"""Matching spans: the 1-3 sentence window(s) of a long precedent that best match the query.

Contract Discovery (Borchmann et al., 2020) found windows of one to three sentences the best
unit for pointing at the part of a long clause that answers a query. Each sentence is
embedded once; a window's vector is the normalised mean of its sentences' vectors, so a
clause of n sentences costs n embeddings, not 3n. A window scores its best cosine against
the query vectors (one row per query text or example). Offsets are character positions in
the clause text, end exclusive, trimmed to the sentence text.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import fsum
from functools import lru_cache
from typing import Protocol, Sequence

import numpy as np

from index_builder.reading.sentences import sentence_spans

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
    """(start, end) of each sentence, whitespace trimmed, in order: the clause-reading core's
    one splitter (index_builder/reading/sentences.py), which keeps what it splits."""
    return sentence_spans(text)


SCORERS = ("dense", "lexical")
# Lexical windows: each sentence beyond the first must add this share of the clause's
# query-term weight to be worth reading.
_EXTRA_SENTENCE_COST = 0.1


def best_spans(query_vectors: np.ndarray | None, texts: Sequence[str], embedder: Embedder | None,
               max_spans: int = 1, window: int = 3, min_sentences: int = 4,
               scorer: str = "dense", query_texts: Sequence[str] = ()) -> list[list[Span]]:
    """For each text, up to ``max_spans`` non-overlapping best windows, best first.

    Texts with fewer than ``min_sentences`` sentences are short enough to read whole and get
    no spans (an empty list). ``scorer="dense"``: all sentences of all texts are embedded in
    one batch and a window scores its best cosine to a query row. ``scorer="lexical"``: no
    model; a window scores the share of the clause's query-term weight it holds (terms
    stemmed, stop words dropped, a term weighs more the fewer sentences of the clause use
    it), best over ``query_texts``, less ``_EXTRA_SENTENCE_COST`` per extra sentence.
    """
    if scorer not in SCORERS:
        raise ValueError(f"Span scorer must be one of {SCORERS}, got {scorer!r}.")
    split = [sentences(t) for t in texts]
    long = [i for i, s in enumerate(split) if len(s) >= min_sentences]
    out: list[list[Span]] = [[] for _ in texts]
    if not long:
        return out
    if scorer == "lexical":
        queries = [set(_terms(q)) for q in query_texts if q.strip()]
        for i in long:
            score = _lexical_scorer(*_sentence_weights(texts[i]), queries)
            out[i] = _choose(split[i], score, max_spans, window)
        return out
    pieces = [texts[i][s:e] for i in long for s, e in split[i]]
    vectors = np.asarray(embedder.embed(pieces), dtype=np.float32)  # type: ignore[union-attr]
    rows = np.atleast_2d(np.asarray(query_vectors, dtype=np.float32))
    row = 0
    for i in long:
        count = len(split[i])
        out[i] = _choose(split[i], _dense_scorer(vectors[row:row + count], rows), max_spans, window)
        row += count
    return out


def _dense_scorer(vectors: np.ndarray, queries: np.ndarray):  # type: ignore[no-untyped-def]
    def score(first: int, last: int) -> float:
        mean = vectors[first:last + 1].sum(axis=0)
        norm = float(np.linalg.norm(mean))
        return float((queries @ (mean / norm)).max()) if norm else 0.0
    return score


@lru_cache(maxsize=20_000)
def _sentence_weights(text: str) -> tuple[tuple[frozenset[str], ...], dict[str, float]]:
    """Each sentence's terms and each term's weight in the clause: functions of the text
    alone, and the page's results come back search after search (issue 39). Read-only."""
    sets = tuple(frozenset(_terms(text[a:b])) for a, b in sentence_spans(text))
    df: dict[str, int] = {}
    for terms in sets:
        for term in terms:
            df[term] = df.get(term, 0) + 1
    return sets, {t: float(np.log1p(len(sets) / n)) for t, n in df.items()}


def _lexical_scorer(sets: Sequence[frozenset[str]], weight: dict[str, float],  # type: ignore[no-untyped-def]
                    queries: list[set[str]]):
    # Sums of a set's weights in exact arithmetic (fsum): summed in the set's order, which
    # follows the process's string hashes, two windows holding the same terms could score a
    # rounding apart, and which one was marked changed from one server start to the next.
    totals = [fsum(weight[t] for t in q if t in weight) for q in queries]
    # Each query's terms in each sentence, once: a window holds the union of its sentences'
    # (q & (a | b) is (q & a) | (q & b)), and fsum sums a set exactly in any order, so each
    # window scores as over the union of its sentences' whole term sets, from a few terms
    # instead of a few hundred (issue 39: every long clause of a page tries ~3n windows).
    matched = [(tuple(frozenset(q & terms) for terms in sets), total)
               for q, total in zip(queries, totals) if total > 0]

    def score(first: int, last: int) -> float:
        shares = []
        for per_sentence, total in matched:
            held = per_sentence[first].union(*per_sentence[first + 1:last + 1])
            shares.append(fsum(weight[t] for t in held) / total if held else 0.0)
        return max(0.0, max(shares, default=0.0) - _EXTRA_SENTENCE_COST * (last - first))
    return score


@lru_cache(maxsize=1)
def _tokenizer():  # type: ignore[no-untyped-def]
    from index_builder.index.lexical import Tokenizer
    from index_builder.settings import BM25Settings

    return Tokenizer(BM25Settings(bigrams=False))


def _terms(text: str) -> list[str]:
    return _tokenizer()(text)


def _choose(bounds: list[tuple[int, int]], score, max_spans: int,  # type: ignore[no-untyped-def]
            window: int) -> list[Span]:
    scored = []
    for first in range(len(bounds)):
        for size in range(1, window + 1):
            last = first + size - 1
            if last >= len(bounds):
                break
            scored.append((score(first, last), first, last))
    # Best first; on a tie the shorter, earlier window (less to read).
    scored.sort(key=lambda item: (-item[0], item[2] - item[1], item[1]))
    chosen: list[tuple[float, int, int]] = []
    for value, first, last in scored:
        if value <= 0:
            break  # nothing of the query in the rest: no span is better than a wrong one
        if all(last < f or first > l for _, f, l in chosen):
            chosen.append((value, first, last))
            if len(chosen) == max_spans:
                break
    return [Span(bounds[f][0], bounds[l][1], round(v, 4)) for v, f, l in chosen]
