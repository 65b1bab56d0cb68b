"""Paired bootstrap intervals and the plain verdicts built on them."""

from __future__ import annotations

import random

import pytest

from precedent_bench.stats import Delta, Paired, compare, paired_interval, verdict


def test_identical_prompts_give_a_zero_width_interval_at_zero() -> None:
    assert paired_interval([0.0] * 20) == (0.0, 0.0, 0.0)


def test_a_consistent_gain_has_an_interval_above_zero() -> None:
    rng = random.Random(1)
    deltas = [0.2 + rng.uniform(-0.1, 0.1) for _ in range(40)]
    mean, low, high = paired_interval(deltas, resamples=2000)
    assert 0.1 < low < mean < high < 0.3


def test_noise_around_zero_straddles_zero() -> None:
    rng = random.Random(2)
    mean, low, high = paired_interval([rng.gauss(0, 1) for _ in range(30)], resamples=2000)
    assert low < 0 < high


def test_the_interval_is_paired_not_two_sample() -> None:
    # Scores vary a lot between items but B is always exactly 0.05 better: only a paired
    # comparison sees that at once.
    items = [Paired(f"t{i}", "c", a, a + 0.05) for i, a in enumerate([0.1, 0.9, 0.4, 0.7, 0.2, 0.6])]
    overall = compare(items, resamples=2000)[0]
    assert (overall.low, overall.high) == pytest.approx((0.05, 0.05))
    assert overall.direction == "better"


def test_compare_gives_overall_then_each_category() -> None:
    items = [Paired(f"m{i}", "mutual", 0.5, 0.9) for i in range(6)] + \
            [Paired(f"s{i}", "shorten", 0.5, 0.5 + (0.1 if i % 2 else -0.1)) for i in range(6)]
    deltas = compare(items, resamples=2000)
    assert [d.group for d in deltas] == ["all", "mutual", "shorten"]
    assert [d.n for d in deltas] == [12, 6, 6]
    assert deltas[1].direction == "better" and deltas[2].direction == "same"


def test_verdict_names_where_b_differs_and_says_no_difference_elsewhere() -> None:
    d = lambda g, n, delta, low, high: Delta(g, n, 0.5, 0.5 + delta, delta, low, high, 0.95)  # noqa: E731
    text = verdict([d("all", 30, 0.05, 0.01, 0.09), d("make-mutual", 10, 0.18, 0.07, 0.29),
                    d("shorten", 10, -0.01, -0.05, 0.03), d("plain", 10, 0.0, -0.02, 0.02)])
    assert text == ("B is better overall, +0.05 [+0.01, +0.09] over 30 items; B is better on "
                    "make-mutual, +0.18 [+0.07, +0.29]; no difference elsewhere (2 categories).")


def test_verdict_says_when_there_are_too_few_items() -> None:
    text = verdict([Delta("all", 3, 0.5, 0.6, 0.1, 0.0, 0.2, 0.95),
                    Delta("tiny", 3, 0.5, 0.6, 0.1, 0.0, 0.2, 0.95)])
    assert text.startswith("Too few items overall") and "too few items to tell on tiny" in text
