"""precedent-bench figures: the product sees each clause's text and nothing else; scoring is outside."""

from __future__ import annotations

import index_builder.terms as terms
from precedent_bench import figures as bench

ROW = {"id": "acord:x", "source": "acord",
       "text": "Either party may terminate on thirty (30) days notice. Liability shall not exceed $5,000.",
       "figures": [{"kind": "period", "value": 30, "unit": "day", "currency": None, "span": "thirty (30) days",
                    "role": "notice", "written": "both"},
                   {"kind": "amount", "value": 5000, "unit": None, "currency": "USD", "span": "$5,000",
                    "role": "cap", "written": "digits"}],
       "caps": [{"kind": "fixed", "amount": 5000, "currency": "USD", "multiple": None, "period_months": None,
                 "basis": None, "parts": [], "whose": None, "span": "Liability shall not exceed $5,000"}],
       "notes": "SENTINEL-LABEL"}


def test_the_product_is_called_with_the_clause_text_only(monkeypatch) -> None:
    seen = []
    real = terms.extract

    def recording(*args, **kwargs):
        seen.append((args, kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(terms, "extract", recording)
    report = bench.score([ROW])
    assert seen == [((ROW["text"],), {})]  # one call, the text alone: no label can reach it
    assert report["figures"]["all"]["tp"] == 2 and report["caps"]["kind_value_right"] == 1
    assert report["invented"] == 0


def test_an_unlabelled_figure_not_written_in_the_clause_is_invented() -> None:
    def reader(text: str) -> bench.Reading:
        return bench.Reading([bench.Got("amount", 999.0, None, "USD", 0, 6, text[:6])], [])

    report = bench.score([{**ROW, "figures": [], "caps": []}], reader)
    assert report["invented"] == 1 and report["figures"]["all"]["fp"] == 1


def test_a_figure_counts_only_where_its_span_overlaps_the_label() -> None:
    def reader(text: str) -> bench.Reading:  # the right value, read from the wrong place
        return bench.Reading([bench.Got("period", 30.0, "day", None, 0, 6, text[:6])], [])

    report = bench.score([{**ROW, "figures": ROW["figures"][:1], "caps": []}], reader)
    assert report["figures"]["all"]["tp"] == 0 and report["figures"]["all"]["fn"] == 1


def test_a_set_is_named_or_given_by_its_folder(tmp_path) -> None:
    import argparse

    import pytest

    (tmp_path / "tuning.jsonl").write_text("", encoding="utf-8")
    assert bench.set_dir(str(tmp_path)) == tmp_path
    assert bench.set_dir("caps2") == bench.SETS / "caps2"  # the second caps tranche, by name
    with pytest.raises(argparse.ArgumentTypeError, match="no labelled set"):
        bench.set_dir(str(tmp_path / "missing"))
