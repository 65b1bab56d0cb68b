"""`precedent-bench throughput`'s report: medians per tree, B / A, served / floor, clients' CPU."""

from __future__ import annotations

from precedent_bench.throughput import report


def _phase(per_s: float, p95: float, client_ms: float) -> dict:
    return {"per_s": per_s, "p50_ms": 100.0, "p95_ms": p95, "server_p50_ms": 50.0,
            "server_cpu_ms_per_request": 20.0, "client_cpu_ms_per_request": client_ms,
            "mean_batch": 2.5, "sent": 1000, "busy_with_retry_after": 0, "lost": 0, "load_before": 1.0, "load_after": 1.5}


def test_the_report_gives_ratios_floors_and_the_clients_share() -> None:
    runs = [{"run": n, "code": code, "phases": {"short": _phase(rate, p95, client)}}
            for n, (code, rate, p95, client) in enumerate(
                [("A", 20.0, 900.0, 1.0), ("B", 30.0, 500.0, 0.7), ("B", 32.0, 480.0, 0.75),
                 ("A", 22.0, 880.0, 1.1)], 1)]
    floors = [{"run": n, "code": code, "shape": "short", "model_id": "m", "per_s": floor,
               "load_before": 1.0, "load_after": 1.0}
              for n, (code, floor) in enumerate([("A", 100.0), ("B", 200.0), ("B", 200.0), ("A", 100.0)], 1)]
    result = {"when": "2026-11-28 06:00 UTC", "cores": 2, "clients": 20, "seconds": 30.0,
              "commits": {"A": "aaa", "B": "bbb"}, "candidate_env": {},
              "texts": {"short": {"mean_words": 9.0}, "clause": {"mean_words": 117.0}},
              "runs": runs, "floors": floors}
    table = report(result)
    # texts a model call embedded (the query batcher's mean batch over the phase): 2.5
    assert "| 2 | B | short | 30.0 | 100.0 | 500.0 | 50.0 | 20.0 | 0.7 | 2.5 | 1000 | 0 | 0 | 1.0 / 1.5 |" in table
    # medians 21 and 31 searches/s; floors 100 and 200 texts/s
    assert "| short | 21.0 | 31.0 | 1.48x | 890.0 | 490.0 | 100.0 | 200.0 | 0.21 | 0.15 | 0 / 0 |" in table


def test_a_tree_whose_health_says_no_batches_leaves_the_cell_empty() -> None:
    phase = {**_phase(20.0, 900.0, 1.0), "mean_batch": None}
    result = {"when": "2026-11-28 06:00 UTC", "cores": 2, "clients": 20, "seconds": 30.0,
              "commits": {"A": "aaa", "B": "bbb"}, "candidate_env": {},
              "texts": {"short": {"mean_words": 9.0}, "clause": {"mean_words": 117.0}},
              "runs": [{"run": 1, "code": "A", "phases": {"short": phase}}], "floors": []}
    assert "| 1 | A | short | 20.0 | 100.0 | 900.0 | 50.0 | 20.0 | 1.0 |  | 1000 | 0 | 0 | 1.0 / 1.5 |" in report(result)
