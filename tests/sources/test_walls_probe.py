"""The walls probe's arithmetic (precedent-bench walls): which answers count as leaks."""

from __future__ import annotations

from precedent_bench.walls import Answer, RunResult, _summarise


def test_leaks_are_counted_by_when_the_search_was_sent() -> None:
    revoked_at, started, done = 10.0, 11.0, 13.0
    answers = [Answer(9.0, 0, 200, 3, 40.0),   # before the revocation: the lawyer saw it
               Answer(11.5, 0, 200, 3, 40.0),  # during the sync, before the listing was saved
               Answer(12.5, 1, 200, 2, 50.0),  # after the listing, before done
               Answer(13.0, 0, 200, 1, 60.0),  # sent as the sync reported done: a leak
               Answer(15.2, 1, 200, 2, 70.0),  # the last leak
               Answer(16.0, 0, 503, 0, 5.0),
               Answer(17.0, 1, 200, 0, 45.0)]
    result = RunResult("embedded", "sharepoint", 1)
    _summarise(result, answers, revoked_at, started, done, pages=[12.0])
    assert (result.baseline_seen, result.answers_after_done) == (1, 4)
    assert (result.leaked_answers_after_done, result.leaked_clauses_after_done) == (2, 3)
    assert result.last_leak_after_done_s == 2.2
    assert (result.leaked_answers_during_sync, result.leaked_answers_after_listing) == (2, 3)
    assert result.errors == 1 and result.notes == ["statuses: 503"]
    assert result.sync_s == 2.0 and result.listing_s == 1.0
