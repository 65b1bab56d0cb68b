"""Learned fusion: a small learning-to-rank model reorders the fused candidates.

RRF throws the retrievers' scores away and weighs both lists equally; which one to trust
depends on the query (a three-word phrase or a whole clause) and on how the clause matches
it (the phrase in order, a few terms scattered, only the glossary's words). The model sees,
for each candidate, the two retrievers' scores and ranks and a few text-match features
(below) and predicts a relevance score; it is a LightGBM lambdarank model trained on ACORD's
train and valid judgments (``index_builder/retrieve/ltr_fit.py``; benchmarks/results/quality/quality.md,
step 9), each query featurised with its own glossary terms held out, as a new query meets the
glossary (step 17), and saved as LightGBM's plain-text model beside a JSON file naming its features.

``LearnedFusion`` is a first-stage rescorer: ``rescore(query, hits)`` returns the same hits,
reordered, with ``score`` set to the model's output and ``rank`` renumbered. Features only
use the query's own words, the hit's retriever scores and ranks, and the clause text, so
any index (a firm's library, not only ACORD) can be rescored.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
from bisect import bisect_right
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Mapping, NamedTuple, Sequence

import numpy as np

from index_builder.errors import ConfigError, ModelLoadError
from index_builder.model import SearchHit
from index_builder.retrieve.query_expansion import QueryExpander

log = logging.getLogger(__name__)

FORMAT = "precedent-ltr-1"
MODEL_FILE = "model.txt"
META_FILE = "ranker.json"
# The ranker trained on ACORD train+valid, shipped with the package (well under 1 MB);
# `precedent-bench ltr train --out index_builder/retrieve/ranker` regenerates it.
BUILTIN = Path(__file__).parent / "ranker"
FEATURES = (
    "bm25",  # BM25 score of the (expanded) query
    "bm25_rel",  # ... divided by the best BM25 score among the candidates
    "dense",  # cosine of the (expanded) query and the clause
    "dense_gap",  # best dense score among the candidates minus this one
    "bm25_logrank",
    "dense_logrank",
    "rrf",  # 1/(60+rank) summed, the fusion this model replaces
    "term_cover",  # share of the query's content words in the clause
    "bigram_cover",  # share of the query's adjacent word pairs adjacent in the clause
    "window_cover",  # share of those pairs in order within a few words (proximity)
    "expansion_cover",  # share of the glossary definition's content words in the clause
    "capital_cover",  # share of the query's capitalised terms (defined terms, places) in the clause
    "clause_words",  # log word count of the clause
    "query_words",  # log word count of the query: phrase vs whole clause
    "length_ratio",  # log(clause words / query words)
)
_WORD = re.compile(r"[a-z0-9]+")
_CAPITAL = re.compile(r"\b[A-Z][A-Za-z]+(?:\s+[A-Z][A-Za-z]+)*")
_WINDOW = 4  # "in order within a few words": up to 3 words between the pair
_STOPWORDS = frozenset("""a an and any are as at be by for from has have in is it its of on or
such that the their this to with which shall will may than other clause clauses""".split())


@lru_cache(maxsize=1)
def _stem():  # type: ignore[no-untyped-def]
    import Stemmer  # PyStemmer, a dependency of the lexical index

    return Stemmer.Stemmer("english").stemWord


def content_terms(text: str) -> list[str]:
    """Lower-cased, stemmed words without stop words, in order."""
    stem = _stem()
    return [stem(w) for w in _WORD.findall(text.casefold()) if w not in _STOPWORDS]


class _ClauseTerms:
    """Per-clause terms, cached by clause id and text (bounded: cleared when full).

    Each entry: term -> positions, the stemmed terms in order (sharing the dict's strings)
    and the word count: every search scores ~100 candidates, mostly clauses it has scored
    before, so none of this is recomputed per search.
    """

    def __init__(self, size: int = 50_000) -> None:
        self._cache: dict[str, _Terms] = {}
        self._size = size

    def get(self, clause_id: str, text: str) -> "_Terms":
        # Keyed by text too: a rebuilt index may give an id new wording (str hashes are cached).
        key = f"{clause_id}\x00{hash(text)}"
        found = self._cache.get(key)
        if found is None:
            positions: dict[str, list[int]] = {}
            for i, term in enumerate(content_terms(text)):
                positions.setdefault(term, []).append(i)
            terms = [""] * sum(len(p) for p in positions.values())
            for term, places in positions.items():
                for i in places:
                    terms[i] = term
            found = _Terms(positions, terms, len(text.split()), text.casefold())
            if len(self._cache) >= self._size:
                self._cache.clear()
            self._cache[key] = found
        return found


class _Terms(NamedTuple):
    positions: dict[str, list[int]]  # each term's places, ascending
    terms: list[str]
    words: int
    folded: str  # the text casefolded, where the query's capitalised names are looked for


def _pair_distances(clause: _Terms, pairs: Mapping[str, list[tuple[str, int]]], window: int
                    ) -> tuple[int, int]:
    """How many of the query's pairs (with their counts) are adjacent, and within ``window``.

    ``pairs`` maps a pair's first term to its second terms and counts, so only pairs whose
    first term the clause has are looked at (a pasted clause as query has ~100 pairs, a
    candidate a few of them). A pair (a, b) is within d when some b follows some a 1..d
    places later; both counts in one pass over the few places of a.
    """
    adjacent = near = 0
    positions = clause.positions
    for a in pairs.keys() & positions.keys():
        pa = positions[a]
        for b, count in pairs[a]:
            pb = positions.get(b)
            if pb is None:
                continue
            # The nearest b after each a, by bisection of b's ascending places: a whole clause
            # as the query has ~100 pairs, and slicing the clause's terms for each was a tenth
            # of its search (issue 39). The same distance as the first b in each a's window.
            best = window + 1
            for p in pa:
                i = bisect_right(pb, p)
                if i < len(pb) and pb[i] - p < best:
                    best = pb[i] - p
                    if best == 1:
                        break
            if best == 1:
                adjacent += count
            if best <= window:
                near += count
    return adjacent, near


def _pairs_by_first(pairs: Sequence[tuple[str, str]]) -> dict[str, list[tuple[str, int]]]:
    """The query's word pairs as first term -> [(second term, how many times)]."""
    out: dict[str, list[tuple[str, int]]] = {}
    for (a, b), count in Counter(pairs).items():
        out.setdefault(a, []).append((b, count))
    return out


def _capital_cover(capitals: set[str], folded: str) -> float:
    return sum(map(folded.__contains__, capitals)) / len(capitals)


class FeatureExtractor:
    """The feature matrix of one query's candidates, one row per hit, columns ``FEATURES``."""

    def __init__(self, expander: QueryExpander | None = None, rrf_k: int = 60) -> None:
        self.expander = expander
        self.rrf_k = rrf_k
        self._terms = _ClauseTerms()

    def __call__(self, query: str, hits: Sequence[SearchHit],
                 subset: Sequence[int] | None = None) -> np.ndarray:
        """Rows for ``hits`` (or only the hits at ``subset``; per-query maxima use them all)."""
        subset = range(len(hits)) if subset is None else subset
        if not hits:
            return np.zeros((len(subset), len(FEATURES)), dtype=np.float32)
        q_terms = content_terms(query)
        q_set = set(q_terms)
        pairs = list(zip(q_terms, q_terms[1:]))
        definitions = self.expander.definitions(query) if self.expander else []
        d_set = set(content_terms(" ".join(definitions))) - q_set
        capitals = {c.casefold() for c in _CAPITAL.findall(query)} if len(q_terms) > 1 else set()
        q_words = max(1, len(query.split()))
        pair_counts = _pairs_by_first(pairs)
        bm25 = [h.retriever_scores.get("bm25") for h in hits]
        dense = [h.retriever_scores.get("dense") for h in hits]
        best_bm25 = max((s for s in bm25 if s is not None), default=0.0) or 1.0
        best_dense = max((s for s in dense if s is not None), default=0.0)
        nan, log, log1p, rrf_k = np.nan, math.log, math.log1p, self.rrf_k
        q_count, d_count, pair_count = len(q_set), len(d_set), len(pairs)
        log_q_words = log1p(q_words)
        # The rows as Python tuples, converted once: assigning each tuple into the float32
        # matrix was a fifth of the features' time on a search's 100 hits (issue 39); the
        # same float64 -> float32 rounding either way.
        built = []
        for i in subset:
            hit = hits[i]
            clause = self._terms.get(hit.clause.clause_id, hit.clause.text)
            keys, c_words = clause.positions.keys(), clause.words
            ranks = hit.retriever_ranks
            adjacent, near = _pair_distances(clause, pair_counts, _WINDOW) if pairs else (0, 0)
            b, d = bm25[i], dense[i]
            built.append((
                b if b is not None else nan,
                (b or 0.0) / best_bm25,
                d if d is not None else nan,
                best_dense - d if d is not None else nan,
                log(ranks["bm25"]) if "bm25" in ranks else nan,
                log(ranks["dense"]) if "dense" in ranks else nan,
                sum(1.0 / (rrf_k + r) for r in ranks.values()),
                len(q_set & keys) / q_count if q_set else 0.0,
                adjacent / pair_count if pairs else 0.0,
                near / pair_count if pairs else 0.0,
                len(d_set & keys) / d_count if d_set else nan,
                _capital_cover(capitals, clause.folded) if capitals else nan,
                log1p(c_words),
                log_q_words,
                log((1 + c_words) / (1 + q_words)),
            ))
        rows = np.array(built, dtype=np.float32).reshape(len(built), len(FEATURES))
        return rows


class LearnedFusion:
    """First-stage rescorer: orders fused candidates by a trained ranking model."""

    def __init__(self, booster, extractor: FeatureExtractor, meta: Mapping,  # type: ignore[no-untyped-def]
                 source: Path | None = None) -> None:
        self.booster = booster
        self.extractor = extractor
        self.meta = dict(meta)
        # The folder it was read from, links resolved: `index-builder learn` installs by
        # switching a ``current`` link, and the server compares against this (moved_ranker).
        self.source = source
        self._predict = _kept_predictor(booster)

    @property
    def version(self) -> str:
        return str(self.meta.get("version", ""))

    def scores(self, query: str, hits: Sequence[SearchHit]) -> np.ndarray:
        """The model's score for each hit (higher is better)."""
        if not hits:
            return np.zeros(0)
        return np.asarray(self._predict(self.extractor(query, hits)))

    def rescore(self, query: str, hits: list[SearchHit]) -> list[SearchHit]:
        """The hits reordered by the model; ties keep the fused order."""
        return self.rescore_with_rows(query, hits)[0]

    def rescore_with_rows(self, query: str, hits: list[SearchHit]
                          ) -> tuple[list[SearchHit], dict[str, np.ndarray]]:
        """``rescore`` and the feature row each hit was scored with, by clause id.

        The rows are what the feedback store records for the results shown
        (learn/shown.py): handing them on spares computing them twice per search.
        """
        if len(hits) < 2 or not query.strip():
            return hits, {}
        matrix = self.extractor(query, hits)
        scores = np.asarray(self._predict(matrix), dtype=np.float64)
        # Best first, ties in the fused order: a stable sort of the negated scores orders as
        # ``sorted(range(n), key=lambda i: (-scores[i], i))`` did, without a NumPy scalar per
        # comparison (issue 39).
        order = np.argsort(-scores, kind="stable").tolist()
        values = scores.tolist()
        rows = {h.clause.clause_id: matrix[i] for i, h in enumerate(hits)}
        return [_rescored(hits[i], values[i], rank) for rank, i in enumerate(order, 1)], rows


def _rescored(hit: SearchHit, score: float, rank: int) -> SearchHit:
    """``replace(hit, score=, rank=)`` without its per-call field introspection, a fifth of
    the ranker's own time on a search's 100 hits (issue 39); a test keeps the fields in step."""
    return SearchHit(hit.clause, score, rank, hit.retriever_ranks, hit.retriever_scores)


def _kept_predictor(booster):  # type: ignore[no-untyped-def]
    """``booster.predict`` on one thread, without rebuilding LightGBM's predictor every call.

    LightGBM 4 builds a new predictor inside every ``Booster.predict``: 5.6 of its 7.9 ms on
    a search's 100 rows here (issue 29). The predictor wraps the same booster handle, so
    keeping one is as thread-safe as calling ``predict``; it is a private class, so any other
    LightGBM version falls back to ``Booster.predict``.
    """
    try:
        from lightgbm.basic import _InnerPredictor

        inner = _InnerPredictor.from_booster(booster, {"num_threads": 1})
        return inner.predict
    except (ImportError, AttributeError, TypeError):
        return lambda rows: booster.predict(rows, num_threads=1)


def save_ranker(booster, folder: Path, meta: Mapping) -> Path:  # type: ignore[no-untyped-def]
    """Write the model as LightGBM text plus a JSON file with the feature names and provenance."""
    folder.mkdir(parents=True, exist_ok=True)
    booster.save_model(str(folder / MODEL_FILE), num_iteration=booster.best_iteration or None)
    (folder / META_FILE).write_text(json.dumps(
        {"format": FORMAT, "features": list(FEATURES), **meta}, indent=2, sort_keys=True) + "\n")
    return folder


def ranker_folder(value: str | Path) -> Path | None:
    """The folder a PRECEDENT_RANKER value names: "builtin", a path, or "" / "none" for off."""
    text = str(value).strip()
    if text.casefold() in ("", "none", "off", "rrf"):
        return None
    return BUILTIN if text.casefold() == "builtin" else Path(text).expanduser()


def load_ranker(folder: Path | str, expander: QueryExpander | None = None,
                rrf_k: int = 60) -> LearnedFusion:
    """A ``LearnedFusion`` from a folder written by ``save_ranker``.

    ``expander`` must be the pipeline's own (the model was trained with its definitions).
    A link (``learned-ranker/current``) is resolved first, so the model and its metadata
    come from one version even while `index-builder learn` switches the link.
    """
    folder = Path(folder).resolve()
    meta_path, model_path = folder / META_FILE, folder / MODEL_FILE
    if not meta_path.is_file() or not model_path.is_file():
        raise ModelLoadError(
            f"No learned ranker at {folder} (needs {MODEL_FILE} and {META_FILE}). Train one with "
            f"`precedent-bench ltr train --out {folder}` or set "
            f"PRECEDENT_RANKER='' to fuse with RRF.")
    meta = json.loads(meta_path.read_text())
    if meta.get("format") != FORMAT or tuple(meta.get("features", ())) != FEATURES:
        raise ConfigError(
            f"The ranker at {folder} was trained with other features ({meta.get('format')}); "
            f"retrain it with `precedent-bench ltr train --out {folder}`.")
    try:
        import lightgbm
    except ImportError:
        raise ModelLoadError("The learned ranker needs LightGBM: pip install lightgbm") from None
    booster = lightgbm.Booster(model_file=str(model_path))
    # The version /health and the audit trail name: set by `index-builder learn`, else a
    # digest of the model file (the shipped ranker).
    meta.setdefault("version", "sha-" + hashlib.sha256(model_path.read_bytes()).hexdigest()[:12])
    log.info("Loaded learned ranker %s (%d trees)", folder, booster.num_trees())
    trained_with = meta.get("glossary_fingerprint")
    if trained_with and (expander is None or trained_with != expander.fingerprint):
        # Not an error: a firm may add its own entries. But the expansion features then mean
        # something the model never saw, so say how to match them.
        log.warning("The learned ranker at %s was trained with another glossary (or "
                    "PRECEDENT_EXPANSION_MAX_WORDS, or with expansion on) than the one served; "
                    "retrain it with `precedent-bench ltr train --out %s` to fit "
                    "this glossary.", folder, folder)
    return LearnedFusion(booster, FeatureExtractor(expander, rrf_k), meta, folder)


def moved_ranker(rescorer: object, setting: str | Path) -> Path | None:
    """The folder PRECEDENT_RANKER now resolves to, when it is not the one ``rescorer`` was
    read from (a ranker installed by `index-builder learn` since); None when unchanged, when
    the server does not serve a learned ranker, or while the folder is missing."""
    source = getattr(rescorer, "source", None)
    folder = ranker_folder(setting)
    if source is None or folder is None:
        return None
    try:
        resolved = folder.resolve(strict=True)
    except OSError:
        return None
    return None if resolved == source else resolved
