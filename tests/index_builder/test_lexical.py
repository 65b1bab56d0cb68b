from dataclasses import replace

import numpy as np

from index_builder.index.lexical import BM25Index, Tokenizer
from index_builder.settings import BM25Settings

CLAUSES = ["Neither party shall be liable for indirect damages.",
           "The damages are liable to be indirect where a party shall pay.",
           "This Agreement is governed by the laws of New York."]


def test_tokens_are_stemmed_without_stop_words_and_with_bigrams():
    tokens = Tokenizer(BM25Settings())("Limitation of Liability caps")
    assert tokens[:3] == ["limit", "liabil", "cap"]
    assert tokens[3:] == ["limit_liabil", "liabil_cap"]
    assert Tokenizer(BM25Settings(bigrams=False))("Limitation of Liability") == ["limit", "liabil"]


def test_word_order_counts_with_bigrams_only():
    query = "liable for indirect damages"
    plain = BM25Index.build(CLAUSES, BM25Settings(bigrams=False)).scores(query)
    ordered = BM25Index.build(CLAUSES, BM25Settings()).scores(query)
    assert ordered[0] > ordered[1] and (ordered[0] - ordered[1]) > (plain[0] - plain[1])


def test_save_and_load_keep_the_tokenizer(tmp_path):
    for settings in (BM25Settings(), replace(BM25Settings(), bigrams=False, stemmer="")):
        folder = tmp_path / f"bm25-{settings.bigrams}"
        folder.mkdir()
        built = BM25Index.build(CLAUSES, settings)
        built.save(folder)
        loaded = BM25Index.load(folder)
        assert loaded.tokenizer.settings == settings
        assert np.allclose(loaded.scores("indirect damages"), built.scores("indirect damages"))
