"""The guard on ACORD itself, in the set-up where the first guard failed: a ranker that knows
ACORD fold A only, taught by a simulated user who always picks the last result, events at a
quarter weight. The first guard (bare means on 7 valid queries) installed it at 65.18 vs
63.91; the paired, bootstrapped guard refuses it. Reads the shipped rows (ranker/rows.npz,
made by `precedent-bench ltr rows`) and ACORD under ../shared/data."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from index_builder.learn.guard import CrossFit, guard
from index_builder.learn.relearn import (EVENT_SHARE, ROWS_FILE, click_groups,
                                         estimate_propensities, fit, held_out, mean_ndcg5)


@pytest.mark.slow
def test_the_weak_fold_a_adversary_is_refused(acord_dir: Path) -> None:
    assert ROWS_FILE.is_file(), f"{ROWS_FILE} is shipped (remake: precedent-bench ltr rows)"
    from precedent_bench.retrieval.learning_simulation import (GUARD_MARGIN, SHIPPED, Lawyers,
                                                               folds_from_rows)
    by_fold, valid = folds_from_rows(ROWS_FILE, acord_dir)
    base = fit(by_fold["A"], [], SHIPPED)
    adversary = Lawyers(by_fold["B"], "clean", random.Random(7), adversarial=True)
    adversary.serve_with(base)
    lists = [adversary.session(n) for n in range(3000)]
    props = estimate_propensities(lists, "auto")
    train = click_groups([x for x in lists if not held_out(x["list_id"])], props)
    held = click_groups([x for x in lists if held_out(x["list_id"])], props)
    candidate = fit(by_fold["A"], train, SHIPPED, EVENT_SHARE)

    # What fooled the first guard: a lead on ACORD valid's 7 queries by bare means.
    predict = {name: (lambda x, m=m: m.predict(x, num_threads=1)) for name, m in
               (("current", base), ("candidate", candidate))}
    assert mean_ndcg5(valid, predict["candidate"]) > mean_ndcg5(valid, predict["current"])

    verdict = guard(base, candidate, GUARD_MARGIN, judged=valid + by_fold["C"],
                    crossfit=CrossFit(by_fold["A"], train, SHIPPED, EVENT_SHARE), held=held)
    assert not verdict.installed, verdict.reason
    assert verdict.judged.units >= 35  # valid + C scored directly, A cross-fitted, per query
    assert verdict.judged.lower_bound < -GUARD_MARGIN
    assert verdict.events.lower_bound > 0  # its own clickers' held-out lists favour it
