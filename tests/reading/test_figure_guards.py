"""The figure readers' cheap guards (figures._READERS and the per-pattern ones in _amounts /
_percentages) only skip work: with every guard forced open, the same figures come out, on the
labelled sets' real clauses (ACORD, © The Atticus Project, CC BY 4.0; agreements as their README
says) and on wordings each guard must let through."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from index_builder.reading import figures as F

SETS = Path(__file__).resolve().parents[2] / "benchmarks" / "sets"
WORDINGS = [
    "a fee of RMB1 million", "USD $10MM", "EUR 2.5 million", "100 000 €", "seven cents (7 cents)",
    "One Hundred and No/100 Dollars ($100.00)", "ONE (1) MILLION DOLLARS ($1,000,000)", "25 basis points (0.25%)",
    "fifty percent (50%)", "8 per cent", "THREE TIMES (3X) the fees", "3 x the fees", "twice the fees",
    "multiplied by (a) twenty-four (24)", "one-half of the amount", "within 48 hours", "12 quarters",
    "US$1,O00,000", "£250,000", "HK$ 5,000", "four hundred thousand ($400,000) dollars", "no figure here",
]


def _texts() -> list[str]:
    rows = []
    for name in ("figures", "caps2"):
        with (SETS / name / "tuning.jsonl").open(encoding="utf-8") as handle:
            rows += [json.loads(line)["text"] for line in handle]
    return rows[::3] + WORDINGS


def test_guards_change_no_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _texts()
    guarded = [F.figures(t) for t in texts]
    always = re.compile("")  # matches every text: each reader and pattern runs
    monkeypatch.setattr(F, "_READERS", tuple((reader, always) for reader, _ in F._READERS))
    monkeypatch.setattr(F, "_AFTER_NEEDS", always)
    monkeypatch.setattr(F, "_PAIR_NEEDS", always)
    monkeypatch.setattr(F, "_CENTS_NEEDS", "")
    monkeypatch.setattr(F, "_BASIS_NEEDS", "")
    assert [F.figures(t) for t in texts] == guarded
    assert any(guarded[-len(WORDINGS):-1])
