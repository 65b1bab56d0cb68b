"""One segment's exact BM25 top k, compiled (numba) when numba is installed.

At ten million clauses a pasted clause's query terms have ~35 million postings; numpy
touches each of them ten times over (slices, casts, gathers, scatters), ~1.5 s a query on
these cores. This loop touches each once, and skips most of the frequent terms' postings
(MaxScore, see ``postings._segment_top``, whose results it reproduces exactly: same
summation order, same float32 arithmetic, same ties). It releases the interpreter's lock,
so server threads score segments at once. Without numba (``pip install precedent[scale]``)
``postings`` uses its numpy path.
"""

from __future__ import annotations

import logging

import numpy as np

log = logging.getLogger(__name__)

try:  # optional: the numpy path gives the same results, slower
    import numba
except ImportError:  # pragma: no cover - exercised where numba is absent
    numba = None


def _top(docs: np.ndarray, tf: np.ndarray, norm: np.ndarray, starts: np.ndarray,
         ends: np.ndarray, factor: np.ndarray, left: np.ndarray, mask: np.ndarray,
         masked: bool, k: int) -> tuple[np.ndarray, np.ndarray]:
    """``terms`` are given as (starts, ends, factor) rows, rarest first; ``left[i]`` bounds
    what terms i.. can add to a clause. Returns (positions, scores) of the best k allowed
    clauses with a score above zero, best first, ties to the lower position."""
    size = norm.shape[0]
    scores = np.zeros(size, dtype=np.float32)
    touched = np.empty(size, dtype=np.int32)
    count = 0
    total = left[0]
    threshold = np.float32(0.0)
    terms = starts.shape[0]
    done = terms
    since = 0  # postings read since the threshold was last worked out
    for i in range(terms):
        if threshold > 0 and left[i] < threshold:
            done = i
            break
        f = factor[i]
        for p in range(starts[i], ends[i]):
            d = docs[p]
            if scores[d] == 0:
                touched[count] = d
                count += 1
            t = np.float32(tf[p])
            scores[d] += f * (t / (t + norm[d]))
        since += ends[i] - starts[i]
        # The threshold can stop the loop only once the bounds read pass those left; it is
        # worked out again after a quarter of the clauses touched so far have been read
        # (amortised: its cost stays a fraction of the reading).
        if count >= k and total - left[i + 1] > left[i + 1] and 4 * since >= count:
            threshold = _kth(scores, touched, count, mask, masked, k)
            since = 0
    if done < terms:
        # Clauses still in reach: any other scores at most left[done] < threshold.
        candidates = np.empty(count, dtype=np.int32)
        n = 0
        for j in range(count):
            d = touched[j]
            if (not masked or mask[d]) and scores[d] + left[done] >= threshold:
                candidates[n] = d
                n += 1
        candidates = np.sort(candidates[:n])
        for i in range(done, terms):
            a = starts[i]
            b = ends[i]
            f = factor[i]
            if n * 16 > b - a:  # walk the postings beside the candidates
                p = a
                for j in range(n):
                    d = candidates[j]
                    while p < b and docs[p] < d:
                        p += 1
                    if p < b and docs[p] == d:
                        t = np.float32(tf[p])
                        scores[d] += f * (t / (t + norm[d]))
            else:  # binary search for each candidate
                lo = a
                for j in range(n):
                    d = candidates[j]
                    hi = b
                    while lo < hi:
                        mid = (lo + hi) // 2
                        if docs[mid] < d:
                            lo = mid + 1
                        else:
                            hi = mid
                    if lo < b and docs[lo] == d:
                        t = np.float32(tf[lo])
                        scores[d] += f * (t / (t + norm[d]))
            m = 0  # fewer terms left, fewer clauses in reach
            for j in range(n):
                d = candidates[j]
                if scores[d] + left[i + 1] >= threshold:
                    candidates[m] = d
                    m += 1
            n = m
        ids = candidates[:n]
    else:
        ids = np.empty(count, dtype=np.int32)
        n = 0
        for j in range(count):
            d = touched[j]
            if not masked or mask[d]:
                ids[n] = d
                n += 1
        ids = ids[:n]
    # Best first; equal scores by position. Only clauses at or above the k-th score are
    # sorted (a stable sort of them in position order).
    n = ids.shape[0]
    values = np.empty(n, dtype=np.float32)
    for j in range(n):
        values[j] = scores[ids[j]]
    if n > k:
        cut = np.partition(values.copy(), n - k)[n - k]
        m = 0
        for j in range(n):
            if values[j] >= cut:
                ids[m] = ids[j]
                values[m] = values[j]
                m += 1
        ids = ids[:m]
        values = values[:m]
    by_position = np.argsort(ids)
    ids = ids[by_position]
    values = values[by_position]
    order = np.argsort(-values, kind="mergesort")[:k]
    return ids[order].astype(np.int64), values[order]


def _kth(scores: np.ndarray, touched: np.ndarray, count: int, mask: np.ndarray, masked: bool,
         k: int) -> np.float32:
    """The k-th best score among the allowed clauses touched so far (0 if fewer than k)."""
    values = np.empty(count, dtype=np.float32)
    n = 0
    for j in range(count):
        d = touched[j]
        if not masked or mask[d]:
            values[n] = scores[d]
            n += 1
    if n < k:
        return np.float32(0.0)
    return np.partition(values[:n], n - k)[n - k]


if numba is not None:
    _kth = numba.njit(cache=True, nogil=True)(_kth)
    top = numba.njit(cache=True, nogil=True)(_top)
else:  # pragma: no cover
    top = None
