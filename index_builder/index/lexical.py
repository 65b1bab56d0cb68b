"""BM25 over clause text, backed by bm25s (sparse precomputed scores, plain-array save)."""

from __future__ import annotations

import json
import logging
import re
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import bm25s
import numpy as np
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
    def build(cls, texts: Sequence[str], settings: BM25Settings, progress: bool = False) -> "BM25Index":
        tokenizer = Tokenizer(settings)
        retriever = bm25s.BM25(k1=settings.k1, b=settings.b, method="robertson")
        tokens = [tokenizer(t) for t in tqdm(texts, desc="Lexical index", unit="clause",
                                              disable=not progress, mininterval=1.0)]
        retriever.index(tokens, show_progress=False)
        return cls(retriever, tokenizer, len(texts))

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
    def load(cls, folder: Path) -> "BM25Index":
        meta = json.loads((folder / "tokenizer.json").read_text())
        settings = BM25Settings(k1=meta["k1"], b=meta["b"], stemmer=meta["stemmer"],
                                stopwords=meta["stopwords"], bigrams=bool(meta.get("bigrams")))
        retriever = bm25s.BM25.load(str(folder), show_progress=False, verbosity=0)
        return cls(retriever, Tokenizer(settings), int(meta["size"]))
