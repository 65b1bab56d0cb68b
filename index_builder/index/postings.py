"""BM25 over segments: per segment, term frequencies on disk; scores at query time.

The whole-version lexical index (``lexical.BM25Index``) precomputes every score into one
matrix and keeps a Python dict of the vocabulary: at ten million clauses that is ~8.5 GB of
matrix, a build that needs ~13 GB for its triples, and GBs of vocabulary. A segmented
version instead keeps, per segment (``write_postings``), plain arrays memory-mapped by the
reader:

    lexical/terms.npy    uint64, 64-bit hashes of the segment's terms, sorted
    lexical/starts.npy   int64, where each term's postings start (one more than terms)
    lexical/docs.npy     int32, the clause (segment position) of each posting, ascending per term
    lexical/tf.npy       uint8, its term frequency (clipped at 255: BM25 has saturated long before)
    lexical/tf_max.npy   uint8, each term's highest frequency (a bound for pruning)
    lexical/lengths.npy  uint32, terms per clause
    lexical/lexical.json tokeniser and Okapi settings, clause count, total length

and ``SegmentedBM25`` scores a query with the statistics of *all* the version's segments at
query time (document frequency summed over segments, mean length over all clauses), as
Lucene does: a segment appended later never leaves older ones scored with stale statistics.
The scores are the robertson variant of ``lexical._robertson`` (same idf clipping, same
length normalisation), so one segment scores as ``BM25Index`` does. Positions of retired
clauses still count in the statistics until their segment is dropped, as Lucene's deleted
documents do until a merge.

Terms are looked up by hash (``np.searchsorted``), not through a dictionary: two terms that
share a 64-bit hash (odds ~1e-5 over a 20M-term vocabulary) are scored as one term.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections import Counter, defaultdict
from dataclasses import asdict
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
import scipy.sparse as sp

from index_builder.index import postings_kernel as kernel
from index_builder.index.lexical import Tokenizer, _count_terms, settings_of
from index_builder.settings import BM25Settings

log = logging.getLogger(__name__)

FOLDER = "lexical"
_CHUNK = 20_000
_TF_MAX = 255


def term_hash(term: str) -> int:
    """A term's 64-bit identity (stable across processes, unlike ``hash``)."""
    return int.from_bytes(hashlib.blake2b(term.encode("utf-8"), digest_size=8).digest(), "little")


def write_postings(folder: Path, texts: Iterable[str], settings: BM25Settings) -> None:
    """Term frequencies of ``texts`` (one per segment position) under ``folder/lexical``."""
    tokenizer = Tokenizer(settings)
    # term -> id in order of first appearance: a miss takes the next id (len before the
    # insert), so ids are looked up by ``map`` without a Python frame per term (a third of
    # the stage's time in a generator before, at the same ids).
    vocab: defaultdict[str, int] = defaultdict()
    vocab.default_factory = vocab.__len__
    term_id = vocab.__getitem__
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    lengths: list[np.ndarray] = []
    chunk: list[np.ndarray] = []
    done = 0
    for text in texts:
        terms = tokenizer(text)
        chunk.append(np.fromiter(map(term_id, terms), dtype=np.int64, count=len(terms)))
        if len(chunk) == _CHUNK:
            _count_terms(chunk, done, rows, cols, counts, lengths)
            done += len(chunk)
            chunk = []
    _count_terms(chunk, done, rows, cols, counts, lengths)
    done += len(chunk)
    hashes = np.fromiter(map(term_hash, vocab), dtype=np.uint64, count=len(vocab))
    del vocab
    # Term ids become ranks of their hashes, so the matrix's columns come out in hash order;
    # two terms of one hash become one column (sum_duplicates adds their frequencies).
    unique, rank = np.unique(hashes, return_inverse=True)
    doc = np.concatenate(rows) if rows else np.zeros(0, np.int32)
    col = rank[np.concatenate(cols)].astype(np.int32) if cols else np.zeros(0, np.int32)
    tf = np.concatenate(counts) if counts else np.zeros(0, np.float32)
    del rows, cols, counts
    matrix = sp.csc_matrix((tf, (doc, col)), shape=(done, len(unique)))
    del doc, col, tf
    matrix.sum_duplicates()  # also sorts each term's clauses
    out = Path(folder) / FOLDER
    out.mkdir(parents=True)
    np.save(out / "terms.npy", unique.astype(np.uint64), allow_pickle=False)
    np.save(out / "starts.npy", matrix.indptr.astype(np.int64), allow_pickle=False)
    np.save(out / "docs.npy", matrix.indices.astype(np.int32), allow_pickle=False)
    tf = np.minimum(matrix.data, _TF_MAX).astype(np.uint8)
    np.save(out / "tf.npy", tf, allow_pickle=False)
    # Each term's highest frequency: its score bound in ``top``'s pruning.
    peak = np.zeros(len(unique), dtype=np.uint8)
    filled = np.flatnonzero(np.diff(matrix.indptr) > 0)
    if len(filled):
        peak[filled] = np.maximum.reduceat(tf, matrix.indptr[filled])
    np.save(out / "tf_max.npy", peak, allow_pickle=False)
    all_lengths = np.concatenate(lengths) if lengths else np.zeros(0, np.int64)
    np.save(out / "lengths.npy", all_lengths.astype(np.uint32), allow_pickle=False)
    meta = {**asdict(settings), "size": done, "total_length": int(all_lengths.sum()),
            "hash": "blake2b-64"}
    (out / "lexical.json").write_text(json.dumps(meta, indent=2))


class _Segment:
    """One segment's postings, memory-mapped."""

    def __init__(self, folder: Path) -> None:
        folder = Path(folder) / FOLDER
        self.meta = json.loads((folder / "lexical.json").read_text("utf-8"))
        # Plain ndarray views of the mapped files: slicing an np.memmap builds a memmap object
        # each time (its __array_finalize__ was a fifth of a query's time).
        load = lambda name: np.asarray(np.load(folder / name, mmap_mode="r"))  # noqa: E731
        self.terms, self.starts = load("terms.npy"), load("starts.npy")
        self.docs, self.tf, self.tf_max = load("docs.npy"), load("tf.npy"), load("tf_max.npy")
        self.lengths = np.asarray(load("lengths.npy"))
        self.size = int(self.meta["size"])
        if len(self.lengths) != self.size or len(self.starts) != len(self.terms) + 1:
            raise ValueError(f"{folder} has mismatched parts")
        self.norm: np.ndarray = np.zeros(0, np.float32)

    def find(self, hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For each query hash: found?, postings start, postings end, highest frequency."""
        at = np.searchsorted(self.terms, hashes)
        at = np.minimum(at, max(len(self.terms) - 1, 0))
        found = (self.terms[at] == hashes) if len(self.terms) else np.zeros(len(hashes), bool)
        starts = np.where(found, self.starts[at], 0)
        ends = np.where(found, self.starts[at + 1], 0)
        peak = np.where(found, self.tf_max[at], 0) if len(self.terms) else np.zeros(len(hashes))
        return found, starts, ends, peak.astype(np.float32)


class SegmentedBM25:
    """Okapi BM25 over the segments of one version, positions running through them in order."""

    def __init__(self, folders: Sequence[Path], compiled: bool = True) -> None:
        self.compiled = compiled  # the numba loop when installed (tests compare both paths)
        self.segments = [_Segment(f) for f in folders]
        if not self.segments:
            raise ValueError("a segmented version has at least one segment")
        self.settings = settings_of(self.segments[0].meta)
        if any(settings_of(s.meta) != self.settings for s in self.segments):
            raise ValueError("segments were tokenised with different BM25 settings")
        self.tokenizer = Tokenizer(self.settings)
        self.offsets = np.cumsum([0] + [s.size for s in self.segments])
        self.size = int(self.offsets[-1])
        if kernel.top is None and self.size >= 1_000_000:
            log.warning("BM25 over %d clauses runs in numpy: `pip install precedent[scale]` "
                        "(numba) scores it about twice as fast", self.size)
        self.documents = self.size
        total = sum(int(s.meta["total_length"]) for s in self.segments)
        self.average_length = total / self.size if self.size else 1.0
        k1, b = self.settings.k1, self.settings.b
        for segment in self.segments:  # the length part of each clause's denominator, once
            ratio = segment.lengths.astype(np.float64) * (b / (self.average_length or 1.0))
            segment.norm = (k1 * ((1 - b) + ratio)).astype(np.float32)
        if kernel.top is not None and compiled:  # load (or compile) the loop now, not on a request
            empty = np.zeros(0, dtype=np.int64)
            first = self.segments[0]
            kernel.top(first.docs, first.tf, first.norm, empty, empty, np.zeros(0, np.float32),
                       np.zeros(1), _NO_MASK, False, 1)

    def query_terms(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Hashes of the query's distinct terms and how often each occurs (over all texts:
        several texts score as the sum of their scores)."""
        counts: Counter[int] = Counter()
        for text in texts:
            counts.update(term_hash(t) for t in self.tokenizer(text))
        hashes = np.fromiter(counts.keys(), dtype=np.uint64, count=len(counts))
        weights = np.fromiter(counts.values(), dtype=np.float32, count=len(counts))
        return hashes, weights

    def top(self, texts: Sequence[str], k: int, mask: np.ndarray | None = None
            ) -> list[tuple[int, float]]:
        """The best ``k`` positions with a score above zero, best first (ties: lower position);
        ``mask`` (bool per position) leaves the others out before the cut."""
        hashes, weights = self.query_terms(texts)
        if not len(hashes) or k <= 0:
            return []
        looked = [segment.find(hashes) for segment in self.segments]
        factor = self._factors(looked, weights)
        best_positions: list[np.ndarray] = []
        best_scores: list[np.ndarray] = []
        floor = self.settings.k1 * (1 - self.settings.b)
        for number, (segment, (found, starts, ends, peak)) in enumerate(zip(self.segments, looked)):
            offset = int(self.offsets[number])
            part = None if mask is None else mask[offset:offset + segment.size]
            terms = _ordered(found, factor)
            left = _left(factor[terms] * peak[terms] / (peak[terms] + floor))
            if kernel.top is not None and self.compiled:
                positions, scores = kernel.top(
                    segment.docs, segment.tf, segment.norm, starts[terms].astype(np.int64),
                    ends[terms].astype(np.int64), factor[terms], left,
                    _NO_MASK if part is None else part, part is not None, k)
            else:
                positions, scores = _segment_top(segment, terms, starts, ends, factor, left, k,
                                                 part)
            best_positions.append(positions + offset)
            best_scores.append(scores)
        positions = np.concatenate(best_positions)
        scores = np.concatenate(best_scores)
        order = np.lexsort((positions, -scores))[:k]
        return [(int(positions[i]), float(scores[i])) for i in order]

    def _factors(self, looked: list[Any], weights: np.ndarray) -> np.ndarray:
        """Each query term's idf (over every segment) times its count in the query."""
        df = sum((ends - starts) for _, starts, ends, _ in looked)
        idf = np.log(np.maximum((self.documents - df + 0.5) / (df + 0.5), 1.0))
        return (idf * weights).astype(np.float32)

    def scores(self, text: str) -> np.ndarray:
        """Every position's score (small versions and tests; ``top`` is the search path)."""
        hashes, weights = self.query_terms([text])
        out = np.zeros(self.size, dtype=np.float32)
        if not len(hashes):
            return out
        looked = [segment.find(hashes) for segment in self.segments]
        factor = self._factors(looked, weights)
        for number, (segment, (found, starts, ends, _)) in enumerate(zip(self.segments, looked)):
            offset = int(self.offsets[number])
            terms = _ordered(found, factor)
            scores = np.zeros(segment.size, dtype=np.float32)
            _accumulate(segment, terms, starts, ends, factor, scores)
            out[offset:offset + segment.size] = scores
        return out


def _ordered(found: np.ndarray, factor: np.ndarray) -> np.ndarray:
    """The query terms a segment holds, rarest (highest idf) first: one order for every
    segment and both paths, so a clause's score is summed in the same order wherever it lies
    (verbatim repeats then tie exactly, and ties go to the earlier position)."""
    terms = np.flatnonzero(found & (factor > 0))
    return terms[np.argsort(-factor[terms], kind="stable")]


def _contributions(segment: _Segment, term: int, starts: np.ndarray, ends: np.ndarray,
                   factor: np.ndarray, docs: np.ndarray | None = None,
                   rows: slice | np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(clauses, score contributions) of one query term in one segment: all of its postings,
    or those at ``rows`` of its postings."""
    a, b = int(starts[term]), int(ends[term])
    where = slice(a, b) if rows is None else rows
    ids = segment.docs[where] if docs is None else docs
    tf = segment.tf[where].astype(np.float32)
    return ids, factor[term] * (tf / (tf + segment.norm[ids]))


def _accumulate(segment: _Segment, terms: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                factor: np.ndarray, scores: np.ndarray) -> None:
    """Add every posting of ``terms`` into ``scores`` (float32, one per clause of the segment)."""
    for term in terms:
        ids, add = _contributions(segment, int(term), starts, ends, factor)
        scores[ids] += add  # a clause appears once in a term's postings


def _left(bounds: np.ndarray) -> np.ndarray:
    """What query terms i.. can add to a clause's score at most, for each i (one more than
    there are terms: 0 at the end); a hair over the float32 sums so rounding never prunes."""
    bounds = bounds.astype(np.float64) * (1 + 1e-5) + 1e-6
    return np.concatenate([np.cumsum(bounds[::-1])[::-1], [0.0]])


_NO_MASK = np.zeros(0, dtype=bool)


def _segment_top(segment: _Segment, terms: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                 factor: np.ndarray, left: np.ndarray, k: int, mask: np.ndarray | None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """One segment's exact best ``k`` (positions in the segment, scores), unordered.

    Term at a time with MaxScore pruning: ``terms`` come rarest first (short postings, high
    bounds: ``_ordered``); once the bounds of the terms left add up to less than the k-th
    best score so far, no clause those terms alone could reach can enter the top k, so the
    remaining terms (the frequent ones, with the longest postings) are looked up only for
    the clauses still in reach (binary search in their postings) instead of being read whole.
    A term's bound is its factor times its highest tf / (tf + k1 (1 - b)): no length makes
    a clause's share of that term larger.
    """
    scores = np.zeros(segment.size, dtype=np.float32)
    in_best = np.zeros(segment.size, dtype=bool)  # the k best allowed clauses so far
    best = np.zeros(0, dtype=np.int64)
    threshold = 0.0
    done = 0
    for done, term in enumerate(terms):
        if threshold > 0 and left[done] < threshold:
            break
        ids, add = _contributions(segment, int(term), starts, ends, factor)
        scores[ids] += add
        # Only clauses of this term's postings gained, and only those now above the k-th best
        # can join the best k (the threshold only rises).
        gained = ids[scores[ids] > threshold]
        if mask is not None:
            gained = gained[mask[gained]]
        pool = np.concatenate([best, gained[~in_best[gained]]])
        if len(pool) > k:
            pool = pool[np.argpartition(-scores[pool], k - 1)[:k]]
        in_best[best] = False
        in_best[pool] = True
        best = pool
        threshold = float(scores[best].min()) if len(best) == k else 0.0
    else:
        done = len(terms)
    if done < len(terms):  # the rest only for clauses still in reach of the top k
        candidates = np.flatnonzero(scores >= threshold - left[done])
        if mask is not None:
            candidates = candidates[mask[candidates]]
        for step, term in enumerate(terms[done:], done):
            a, b = int(starts[term]), int(ends[term])
            if len(candidates) * 16 > b - a:  # as cheap to read the postings whole
                ids, add = _contributions(segment, int(term), starts, ends, factor)
                scores[ids] += add
            else:
                postings = segment.docs[a:b]
                at = np.searchsorted(postings, candidates)
                inside = at < len(postings)
                hit = np.zeros(len(candidates), dtype=bool)
                hit[inside] = postings[at[inside]] == candidates[inside]
                if hit.any():
                    ids, add = _contributions(segment, int(term), starts, ends, factor,
                                              docs=candidates[hit], rows=a + at[hit])
                    scores[ids] += add
            # Fewer terms left, less in reach: the threshold only rises.
            candidates = candidates[scores[candidates] >= threshold - left[step + 1]]
        hit = candidates
    else:
        hit = np.flatnonzero(scores > 0)
        if mask is not None:
            hit = hit[mask[hit]]
    hit = _best(hit[scores[hit] > 0], scores, k)
    return hit.astype(np.int64), scores[hit]


def _best(ids: np.ndarray, scores: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` of ``ids`` (ascending) with the highest scores; of equal scores at the cut,
    the earliest positions (a partition alone would pick any of them)."""
    if len(ids) <= k:
        return ids
    values = scores[ids]
    cut = np.partition(values, len(ids) - k)[len(ids) - k]
    above = ids[values > cut]
    return np.concatenate([above, ids[values == cut][:k - len(above)]])


def idf_of(documents: int, df: int) -> float:
    """The robertson idf, clipped at zero (for tests and explanations)."""
    return math.log(max((documents - df + 0.5) / (df + 0.5), 1.0))
