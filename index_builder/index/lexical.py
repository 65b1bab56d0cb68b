"""BM25 over clause text, backed by bm25s (sparse precomputed scores, plain-array save)."""

from __future__ import annotations

import json
import logging
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import bm25s
import numpy as np
import scipy.sparse as sp
from tqdm import tqdm

from index_builder.errors import ConfigError
from index_builder.settings import BM25Settings

log = logging.getLogger(__name__)

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


class Tokenizer:
    """Lower-cases, splits on non-alphanumerics, drops stop words, stems; adds bigrams.

    Bigrams ("limit_liabil") give BM25 some of the word order that bag-of-words loses: they
    helped whole clauses as queries on ACORD (benchmarks/results/quality.md, step 6).

    The same instance must tokenise the corpus and the queries, so its settings are saved
    with the index and checked when it is loaded.
    """

    def __init__(self, settings: BM25Settings) -> None:
        self.settings = settings
        self._stopwords = _stopwords(settings.stopwords)
        self._stem = _stemmer(settings.stemmer)

    def __call__(self, text: str) -> list[str]:
        words = [w for w in _TOKEN.findall(text.lower()) if w not in self._stopwords]
        terms = self._stem(words) if self._stem else words
        if self.settings.bigrams:
            terms = terms + [f"{a}_{b}" for a, b in zip(terms, terms[1:])]
        return terms


def _stopwords(name: str) -> frozenset[str]:
    if not name:
        return frozenset()
    if name != "en":
        raise ConfigError(f"Unknown BM25 stop word list {name!r}: use 'en' or ''.")
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN)


@lru_cache(maxsize=4)
def _stemmer(language: str):  # type: ignore[no-untyped-def]
    if not language:
        return None
    import Stemmer  # PyStemmer

    try:
        return Stemmer.Stemmer(language).stemWords
    except KeyError:
        raise ConfigError(
            f"PRECEDENT_BM25_STEMMER={language!r} is not a PyStemmer language "
            f"(try 'english' or '')."
        ) from None


class BM25Index:
    """Okapi BM25 scores for every clause, in clause order."""

    def __init__(self, retriever: bm25s.BM25, tokenizer: Tokenizer, size: int) -> None:
        self._retriever = retriever
        self.tokenizer = tokenizer
        self.size = size

    @classmethod
    def build(cls, texts: Iterable[str], settings: BM25Settings, progress: bool = False,
              total: int | None = None) -> "BM25Index":
        """Okapi BM25 (bm25s's "robertson" variant, the same scores) over ``texts``.

        bm25s's own ``index()`` keeps every token of every text as a Python string (about
        9 GB at 1M clauses); this tokenises into int32 ids chunk by chunk and computes the
        same score matrix with numpy, so a 1M-clause build stays within a few GB.
        """
        tokenizer = Tokenizer(settings)
        vocab: dict[str, int] = {}
        rows, cols, counts, lengths = [], [], [], []
        done = 0
        chunk: list[np.ndarray] = []
        with tqdm(total=total, desc="Lexical index", unit="clause", disable=not progress,
                  mininterval=1.0) as bar:
            for text in texts:
                terms = tokenizer(text)
                chunk.append(np.fromiter((vocab.setdefault(t, len(vocab)) for t in terms),
                                         dtype=np.int64, count=len(terms)))
                if len(chunk) == _CHUNK:
                    _count_terms(chunk, done, rows, cols, counts, lengths)
                    done += len(chunk)
                    bar.update(len(chunk))
                    chunk = []
            _count_terms(chunk, done, rows, cols, counts, lengths)
            done += len(chunk)
            bar.update(len(chunk))
        scores = _robertson(np.concatenate(rows) if rows else np.zeros(0, np.int32),
                            np.concatenate(cols) if cols else np.zeros(0, np.int32),
                            np.concatenate(counts) if counts else np.zeros(0, np.float32),
                            np.concatenate(lengths) if lengths else np.zeros(0, np.int64),
                            len(vocab), settings)
        vocab[""] = len(vocab)  # bm25s's "empty token", which it also appends
        retriever = bm25s.BM25(k1=settings.k1, b=settings.b, method="robertson")
        retriever.scores = scores
        retriever.vocab_dict = vocab
        retriever.unique_token_ids_set = set(vocab.values())
        retriever.nonoccurrence_array = None  # robertson has none
        return cls(retriever, tokenizer, done)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of the query against every clause (zeros when no term matches)."""
        tokens = self.tokenizer(query)
        if not tokens:
            return np.zeros(self.size, dtype=np.float32)
        return np.asarray(self._retriever.get_scores(tokens), dtype=np.float32)

    def save(self, folder: Path) -> None:
        self._retriever.save(str(folder), show_progress=False)
        settings = self.tokenizer.settings
        meta = {"size": self.size, "k1": settings.k1, "b": settings.b,
                "stemmer": settings.stemmer, "stopwords": settings.stopwords,
                "bigrams": settings.bigrams}
        (folder / "tokenizer.json").write_text(json.dumps(meta, indent=2))

    @classmethod
    def load(cls, folder: Path, mmap: bool = False) -> "BM25Index":
        """The saved index; ``mmap`` leaves the score matrix on disk (pages read on demand)."""
        meta = json.loads((folder / "tokenizer.json").read_text())
        settings = BM25Settings(k1=meta["k1"], b=meta["b"], stemmer=meta["stemmer"],
                                stopwords=meta["stopwords"], bigrams=bool(meta.get("bigrams")))
        retriever = bm25s.BM25.load(str(folder), mmap=mmap, show_progress=False, verbosity=0)
        return cls(retriever, Tokenizer(settings), int(meta["size"]))


_CHUNK = 20_000  # texts per counting step: bounds the temporary arrays


def _count_terms(chunk: list[np.ndarray], first: int, rows: list[np.ndarray],
                 cols: list[np.ndarray], counts: list[np.ndarray], lengths: list[np.ndarray]) -> None:
    """Append (text, term, frequency) triples of a chunk of tokenised texts, and their lengths."""
    if not chunk:
        return
    sizes = np.fromiter((len(ids) for ids in chunk), dtype=np.int64, count=len(chunk))
    lengths.append(sizes)
    if not sizes.sum():
        return
    local = np.repeat(np.arange(len(chunk), dtype=np.int64), sizes)
    keys, freq = np.unique((local << 32) | np.concatenate(chunk), return_counts=True)
    rows.append((keys >> 32).astype(np.int32) + first)
    cols.append((keys & 0xFFFFFFFF).astype(np.int32))
    counts.append(freq.astype(np.float32))


def _robertson(rows: np.ndarray, cols: np.ndarray, tf: np.ndarray, lengths: np.ndarray,
               vocabulary: int, settings: BM25Settings) -> dict[str, Any]:
    """bm25s's score matrix (CSC: per term, the texts holding it and their scores).

    The arithmetic follows bm25s.scoring (robertson idf clipped at 0, robertson tfc, float64
    then stored as float32) so scores equal those of ``bm25s.BM25.index``.
    """
    n_docs = len(lengths)
    df = np.bincount(cols, minlength=vocabulary).astype(np.float64)
    idf = np.log(np.maximum((n_docs - df + 0.5) / (df + 0.5), 1.0)).astype(np.float32)
    average = lengths.mean() if n_docs else 1.0
    k1, b = settings.k1, settings.b
    data = np.empty(len(rows), dtype=np.float32)
    for start in range(0, len(rows), 1 << 24):  # float64 temporaries a slice at a time
        part = slice(start, start + (1 << 24))
        ratio = (b * lengths[rows[part]].astype(np.float64)) / average
        tfc = tf[part] / (k1 * ((1 - b) + ratio) + tf[part])
        data[part] = idf[cols[part]] * tfc
    # (row, col) pairs arrive in row order; CSR -> CSC keeps rows ascending within each term.
    indptr = np.zeros(n_docs + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n_docs), out=indptr[1:])
    matrix = sp.csr_matrix((data, cols, indptr), shape=(n_docs, vocabulary)).tocsc()
    return {"data": matrix.data.astype(np.float32, copy=False),
            "indices": matrix.indices.astype(np.int32, copy=False),
            "indptr": matrix.indptr.astype(np.int64, copy=False), "num_docs": n_docs}
