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
import threading
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Mapping, NamedTuple, Sequence

import numpy as np

from index_builder.errors import ConfigError, ModelLoadError
from index_builder.model import SearchHit, search_hit
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

    Each entry is what the features read of a clause alone: its content terms in order as
    ids of one vocabulary (int32, ~4 bytes a term: a search gathers its ~100 candidates' ids
    into one array and compares them with the query's at once), its word count and its
    casefolded text (where the query's capitalised names are looked for). Every search scores
    ~100 candidates, mostly clauses it has scored before, so none of this is recomputed.
    """

    def __init__(self, size: int = 50_000) -> None:
        self._cache: dict[str, _Terms] = {}
        self._size = size
        self.vocabulary: dict[str, int] = {}
        self._lock = threading.Lock()

    def get(self, clause_id: str, text: str) -> "_Terms":
        # Keyed by text too: a rebuilt index may give an id new wording (str hashes are cached).
        key = f"{clause_id}\x00{hash(text)}"
        found = self._cache.get(key)
        if found is None:
            found = _Terms(self._ids(content_terms(text)), len(text.split()), text.casefold())
            if len(self._cache) >= self._size:
                self._cache.clear()
            self._cache[key] = found
        return found

    def _ids(self, terms: list[str]) -> np.ndarray:
        vocabulary = self.vocabulary
        if any(t not in vocabulary for t in terms):
            with self._lock:  # two threads must never give two terms one id
                for term in terms:
                    if term not in vocabulary:
                        vocabulary[term] = len(vocabulary)
        return np.fromiter(map(vocabulary.__getitem__, terms), dtype=np.int64, count=len(terms)
                           ).astype(np.int32)

    def known(self, terms: Sequence[str]) -> list[int]:
        """The ids of a query's terms; a term no clause has had gets an id no clause has (-1,
        -2, ...), so the query never grows the vocabulary."""
        vocabulary = self.vocabulary
        return [vocabulary.get(t, -1 - i) for i, t in enumerate(terms)]


class _Terms(NamedTuple):
    ids: np.ndarray  # the content terms in order, as vocabulary ids (int32)
    words: int
    folded: str  # the text casefolded, where the query's capitalised names are looked for


def _present(ids: np.ndarray, owner: np.ndarray, wanted: Sequence[int], rows: int) -> np.ndarray:
    """rows x len(wanted): whether row ``owner[p]`` holds ``wanted[j]`` at some place ``p``."""
    found = np.zeros((rows, len(wanted)), dtype=bool)
    if len(wanted) and len(ids):
        order = np.argsort(np.asarray(wanted, dtype=np.int64), kind="stable")
        ranked = np.asarray(wanted, dtype=np.int64)[order]
        at = np.minimum(np.searchsorted(ranked, ids), len(ranked) - 1)
        hit = ranked[at] == ids
        found[owner[hit], order[at[hit]]] = True
    return found


def _pair_cover(ids: np.ndarray, owner: np.ndarray, pairs: Mapping[tuple[int, int], int],
                rows: int, window: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row, how many of the query's pairs (a, b) (with their counts) have some b 1 place
    after some a, and 1..``window`` places after: the same counts as the nearest b after each
    a (the definition the ranker was trained with), for all rows at once."""
    codes = list(pairs)
    counts = np.array([pairs[c] for c in codes], dtype=np.int64)
    wanted = [a * _PAIR_BASE + b for a, b in codes]
    near = np.zeros((rows, len(codes)), dtype=bool)
    adjacent = near
    wide = ids.astype(np.int64)
    for d in range(1, window + 1):
        if len(ids) <= d:
            break
        same = owner[d:] == owner[:-d]
        found = _present((wide[:-d] * _PAIR_BASE + wide[d:])[same], owner[:-d][same], wanted, rows)
        if d == 1:
            adjacent = found
        near = near | found
    return adjacent @ counts, near @ counts


# Pair codes a * base + b: unique for any vocabulary id (and a query's negative unknowns).
_PAIR_BASE = 1 << 31


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
        """Rows for ``hits`` (or only the hits at ``subset``; per-query maxima use them all).

        The text-match columns are counted for all rows at once over the candidates' term ids
        (issue 39: per-row Python was most of the ranker's time on a never-seen search); every
        column is the same float64 arithmetic as the row-by-row definition, rounded to float32
        once, so the rows are bit for bit the ones the ranker was trained with.
        """
        subset = list(range(len(hits))) if subset is None else list(subset)
        n = len(subset)
        if not hits or not n:
            return np.zeros((n, len(FEATURES)), dtype=np.float32)
        q_terms = content_terms(query)
        q_set = set(q_terms)
        pairs = list(zip(q_terms, q_terms[1:]))
        definitions = self.expander.definitions(query) if self.expander else []
        d_set = set(content_terms(" ".join(definitions))) - q_set
        capitals = {c.casefold() for c in _CAPITAL.findall(query)} if len(q_terms) > 1 else set()
        q_words = max(1, len(query.split()))
        bm25 = [h.retriever_scores.get("bm25") for h in hits]
        dense = [h.retriever_scores.get("dense") for h in hits]
        best_bm25 = max((s for s in bm25 if s is not None), default=0.0) or 1.0
        best_dense = max((s for s in dense if s is not None), default=0.0)
        nan, log, log1p, rrf_k = math.nan, math.log, math.log1p, self.rrf_k

        chosen = [hits[i] for i in subset]
        clauses = [self._terms.get(h.clause.clause_id, h.clause.text) for h in chosen]
        lengths = [len(c.ids) for c in clauses]
        ids = np.concatenate([c.ids for c in clauses]) if sum(lengths) else np.zeros(0, np.int32)
        owner = np.repeat(np.arange(n), lengths)
        q_ids = dict(zip(q_terms, self._terms.known(q_terms)))
        d_list = sorted(d_set)
        d_ids = dict(zip(d_list, self._terms.known(d_list)))

        columns = np.empty((len(FEATURES), n), dtype=np.float64)
        b = [bm25[i] for i in subset]
        d = [dense[i] for i in subset]
        ranks = [h.retriever_ranks for h in chosen]
        words = [c.words for c in clauses]
        columns[0] = [x if x is not None else nan for x in b]
        columns[1] = [(x or 0.0) / best_bm25 for x in b]
        columns[2] = [x if x is not None else nan for x in d]
        columns[3] = [best_dense - x if x is not None else nan for x in d]
        columns[4] = [log(r["bm25"]) if "bm25" in r else nan for r in ranks]
        columns[5] = [log(r["dense"]) if "dense" in r else nan for r in ranks]
        columns[6] = [sum(1.0 / (rrf_k + v) for v in r.values()) for r in ranks]
        if q_set:
            columns[7] = _present(ids, owner, [q_ids[t] for t in q_set], n).sum(axis=1) / len(q_set)
        else:
            columns[7] = 0.0
        if pairs:
            counted = Counter((q_ids[a], q_ids[b]) for a, b in pairs)
            adjacent, near = _pair_cover(ids, owner, counted, n, _WINDOW)
            columns[8] = adjacent / len(pairs)
            columns[9] = near / len(pairs)
        else:
            columns[8] = columns[9] = 0.0
        if d_set:
            columns[10] = _present(ids, owner, [d_ids[t] for t in d_list], n).sum(axis=1) / len(d_set)
        else:
            columns[10] = nan
        columns[11] = [_capital_cover(capitals, c.folded) for c in clauses] if capitals else nan
        columns[12] = [log1p(w) for w in words]
        columns[13] = log1p(q_words)
        columns[14] = [log((1 + w) / (1 + q_words)) for w in words]
        return columns.T.astype(np.float32, order="C")


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
    return search_hit(hit.clause, score, rank, hit.retriever_ranks, hit.retriever_scores)


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
