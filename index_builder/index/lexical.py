"""BM25 over clause text, backed by bm25s (sparse precomputed scores, plain-array save)."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import filterfalse
from pathlib import Path
from typing import Any, Iterable, Sequence

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
    helped whole clauses as queries on ACORD (benchmarks/results/quality/quality.md, step 6).

    The same instance must tokenise the corpus and the queries, so its settings are saved
    with the index and checked when it is loaded.
    """

    def __init__(self, settings: BM25Settings) -> None:
        self.settings = settings
        self._stopwords = _stopwords(settings.stopwords)
        self._stem = _stemmer(settings.stemmer)

    def __call__(self, text: str) -> list[str]:
        # filterfalse and map over C callables: no Python frame per word (a build
        # tokenises every clause; the terms are the same as a comprehension's).
        words = list(filterfalse(self._stopwords.__contains__, _TOKEN.findall(text.lower())))
        terms = self._stem(words) if self._stem else words
        if self.settings.bigrams:
            terms = terms + list(map("_".join, zip(terms, terms[1:])))
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


@dataclass(frozen=True)
class CorpusStats:
    """What a clause's BM25 score depends on besides the clause: the corpus's size, mean
    length and each term's document frequency (``df``, by the base index's term ids)."""

    documents: int
    average_length: float
    vocab: dict[str, int]
    df: np.ndarray


class BM25Index:
    """Okapi BM25 scores for every clause, in clause order."""

    def __init__(self, retriever: bm25s.BM25, tokenizer: Tokenizer, size: int,
                 average_length: float | None = None, df: np.ndarray | None = None) -> None:
        self._retriever = retriever
        self.tokenizer = tokenizer
        self.size = size
        self._average_length = average_length
        self._df = df

    @classmethod
    def build(cls, texts: Iterable[str], settings: BM25Settings, progress: bool = False,
              total: int | None = None, stats: CorpusStats | None = None,
              vocab: dict[str, int] | None = None) -> "BM25Index":
        """Okapi BM25 (bm25s's "robertson" variant, the same scores) over ``texts``.

        bm25s's own ``index()`` keeps every token of every text as a Python string (about
        9 GB at 1M clauses); this tokenises into int32 ids chunk by chunk and computes the
        same score matrix with numpy, so a 1M-clause build stays within a few GB.

        With ``stats`` (a base index's), the texts are scored as that index scores its own:
        same idf per term, same mean length. An incremental build appends such a tail
        instead of re-tokenising the library; like Lucene's segments, the statistics then
        lag the changes until the next full build rewrites them.
        """
        tokenizer = Tokenizer(settings)
        vocab = {} if vocab is None else vocab  # term ids to start from (``extend``)
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
        all_lengths = np.concatenate(lengths) if lengths else np.zeros(0, np.int64)
        all_cols = np.concatenate(cols) if cols else np.zeros(0, np.int32)
        df = np.bincount(all_cols, minlength=len(vocab)).astype(np.int64)
        if stats is None:
            documents, average = done, float(all_lengths.mean()) if done else 1.0
            idf_df = df
        else:
            documents, average = stats.documents, stats.average_length
            idf_df = df.copy()  # a term the base holds counts as the base counted it
            base_ids = np.fromiter((stats.vocab.get(t, -1) for t in vocab), dtype=np.int64,
                                   count=len(vocab))
            known = (base_ids >= 0) & (base_ids < len(stats.df))
            idf_df[known] = stats.df[base_ids[known]]
        scores = _robertson(np.concatenate(rows) if rows else np.zeros(0, np.int32), all_cols,
                            np.concatenate(counts) if counts else np.zeros(0, np.float32),
                            all_lengths, idf_df, documents, average, settings)
        vocab[""] = len(vocab)  # bm25s's "empty token", which it also appends
        retriever = bm25s.BM25(k1=settings.k1, b=settings.b, method="robertson")
        retriever.scores = scores
        retriever.vocab_dict = vocab
        retriever.unique_token_ids_set = set(vocab.values())
        retriever.nonoccurrence_array = None  # robertson has none
        return cls(retriever, tokenizer, done, average, df)

    def extend(self, texts: Sequence[str], stats: CorpusStats, progress: bool = False
               ) -> "BM25Index":
        """This tail with ``texts`` appended, scored with the base's ``stats`` as its rows were:
        an append tokenises only its new clauses, however long the tail has grown."""
        vocab = {t: i for t, i in self._retriever.vocab_dict.items() if t != ""}
        old_terms = len(vocab)
        more = BM25Index.build(texts, self.tokenizer.settings, progress, total=len(texts),
                               stats=stats, vocab=vocab)
        terms = len(vocab) - 1  # build appended bm25s's "" id last
        old = self._retriever.scores
        matrix = sp.csc_matrix((np.asarray(old["data"]), np.asarray(old["indices"]),
                                np.asarray(old["indptr"])), shape=(self.size, old_terms))
        new = more._retriever.scores
        added = sp.csc_matrix((new["data"], new["indices"], new["indptr"]),
                              shape=(more.size, terms))
        matrix.resize((self.size, terms))
        merged = sp.vstack([matrix, added], format="csc")
        more._retriever.scores = {"data": merged.data.astype(np.float32, copy=False),
                                  "indices": merged.indices.astype(np.int32, copy=False),
                                  "indptr": merged.indptr.astype(np.int64, copy=False),
                                  "num_docs": self.size + more.size}
        more.size += self.size
        return more

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of the query against every clause (zeros when no term matches)."""
        return self.term_scores(self.tokenizer(query))

    def term_scores(self, tokens: Sequence[str]) -> np.ndarray:
        """BM25 score of already tokenised query terms against every clause."""
        ids = self._retriever.get_tokens_ids(list(tokens))
        if not ids:
            return np.zeros(self.size, dtype=np.float32)
        return np.asarray(self._retriever.get_scores(ids), dtype=np.float32)

    def stats(self) -> CorpusStats:
        """This index's corpus statistics, for scoring a tail alike (``build(stats=...)``)."""
        if self._average_length is None or self._df is None:
            raise ValueError("this BM25 index predates saved statistics; rebuild it in full")
        return CorpusStats(self.size, self._average_length, self._retriever.vocab_dict, self._df)

    def save(self, folder: Path) -> None:
        self._retriever.save(str(folder), show_progress=False)
        settings = self.tokenizer.settings
        meta = {"size": self.size, "k1": settings.k1, "b": settings.b,
                "stemmer": settings.stemmer, "stopwords": settings.stopwords,
                "bigrams": settings.bigrams, "average_length": self._average_length}
        if self._df is not None:
            np.save(folder / "df.npy", self._df, allow_pickle=False)
        (folder / "tokenizer.json").write_text(json.dumps(meta, indent=2))

    @classmethod
    def load(cls, folder: Path, mmap: bool = False) -> "BM25Index":
        """The saved index; ``mmap`` leaves the score matrix on disk (pages read on demand)."""
        meta = json.loads((folder / "tokenizer.json").read_text())
        retriever = bm25s.BM25.load(str(folder), mmap=mmap, show_progress=False, verbosity=0)
        if mmap:
            # Plain ndarray views of the same mapped pages: every slice of an np.memmap builds
            # a memmap object (__array_finalize__ was 10% of a search's CPU, issue 29).
            retriever.scores = {name: np.asarray(value) if isinstance(value, np.memmap) else value
                                for name, value in retriever.scores.items()}
        df = (np.asarray(np.load(folder / "df.npy", mmap_mode="r"))
              if (folder / "df.npy").is_file() else None)
        return cls(retriever, Tokenizer(settings_of(meta)), int(meta["size"]),
                   meta.get("average_length"), df)


def settings_of(meta: dict[str, Any]) -> BM25Settings:
    """The tokeniser and Okapi settings a saved index was built with."""
    return BM25Settings(k1=meta["k1"], b=meta["b"], stemmer=meta["stemmer"],
                        stopwords=meta["stopwords"], bigrams=bool(meta.get("bigrams")))


class TailedBM25:
    """A base index and the tail an incremental build appended, scored as one index.

    The tail was built with the base's statistics, so a clause scores the same whichever
    part holds it; positions run through the base, then the tail.
    """

    def __init__(self, base: BM25Index, tail: BM25Index) -> None:
        self.base, self.tail = base, tail
        self.tokenizer = base.tokenizer
        self.size = base.size + tail.size

    def scores(self, query: str) -> np.ndarray:
        tokens = self.tokenizer(query)
        return np.concatenate([self.base.term_scores(tokens), self.tail.term_scores(tokens)])


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
               df: np.ndarray, documents: int, average: float, settings: BM25Settings
               ) -> dict[str, Any]:
    """bm25s's score matrix (CSC: per term, the texts holding it and their scores).

    The arithmetic follows bm25s.scoring (robertson idf clipped at 0, robertson tfc, float64
    then stored as float32) so scores equal those of ``bm25s.BM25.index``. ``df``,
    ``documents`` and ``average`` are the statistics scored against (this corpus's own, or
    a base index's for a tail).
    """
    n_docs = len(lengths)
    vocabulary = len(df)
    df = df.astype(np.float64)
    idf = np.log(np.maximum((documents - df + 0.5) / (df + 0.5), 1.0)).astype(np.float32)
    average = average or 1.0
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
