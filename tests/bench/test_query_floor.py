"""`precedent-bench query-floor`'s table: medians per model and shape, ratios to the first model."""

from __future__ import annotations

from precedent_bench.query_floor import report


def test_the_summary_takes_medians_and_divides_by_the_first_model() -> None:
    rows = [{"round": r, "model": m, "model_id": m + "-id", "shape": "clause", "batch": 32,
             "per_s": rate, "cpu_s_per_100": cpu, "load_before": 1.0, "load_after": 1.0}
            for r, m, rate, cpu in ((1, "a", 2.0, 8.0), (1, "b", 5.0, 4.0), (1, "b", 7.0, 2.0),
                                    (1, "a", 4.0, 8.0), (2, "a", 3.0, 8.0), (2, "b", 6.0, 3.0))]
    result = {"when": "now", "cpus": 2, "models": {"a": "a-id", "b": "b-id"},
              "texts": {"clause": {"count": 128, "words": 110.0}}, "rows": rows}
    table = report(result, ["a", "b"])
    assert "| a-id | clause | 32 | 3.0 | 1.00x | 8.000 | 1.00x |" in table
    assert "| b-id | clause | 32 | 6.0 | 2.00x | 3.000 | 2.67x |" in table
    assert table.count("| 1 | b-id | clause | 32 |") == 2  # every measured row is listed
