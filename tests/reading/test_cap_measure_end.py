"""Where a cap's measure ends is read from polarity.py's one list of exception words (session 10):
a defined cap's measure kept as words ended at "except" but ran on through "excluding", which
the measure read for its value ended at. Now both end at every exception word."""

from __future__ import annotations

import pytest

from index_builder.reading.caps import caps


@pytest.mark.parametrize("word", ["except", "excluding", "unless", "save", "notwithstanding"])
def test_a_defined_caps_measure_ends_at_any_exception_word(word: str) -> None:
    found = caps(f'"Liability Cap" means the Supplier\'s net worth, {word} goodwill.')
    assert [(c.kind, c.basis) for c in found] == [("other", "the Supplier's net worth")]


@pytest.mark.parametrize("word", ["except", "excluding", "unless", "save", "notwithstanding"])
def test_a_valued_measure_ends_at_the_same_words(word: str) -> None:
    found = caps(f"Each party's total liability shall not exceed $1,000,000, {word} for fraud.")
    assert [(c.kind, c.amount, c.text.endswith("$1,000,000")) for c in found] == [("fixed", 1_000_000.0, True)]
