"""Validate the figures set (tuning.jsonl, heldout.jsonl) and print its counts.

    python benchmarks/sets/figures/check.py [--verify-source DATA]

Every span must be an exact substring of its clause (the occurrence-th one where a span repeats),
every kind, unit, role and written form must come from the set's vocabulary, and no clause may
appear twice. ``--verify-source`` also checks each ACORD text against the corpus it was copied from.
Exits non-zero on the first file with a fault, after listing every fault found.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from precedent_bench.common.sampling import (CAP_KINDS, CURRENCY, count_lines, figure_field_faults,
                                             verify_source, walk_cap)

HERE = Path(__file__).resolve().parent
FILES = {"tuning": HERE / "tuning.jsonl", "held-out": HERE / "heldout.jsonl"}

ROW_KEYS = ["id", "source", "clause_id", "text", "draw", "stratum", "split", "figures", "caps", "notes"]


def _span_ok(text: str, span: str, occurrence: int) -> bool:
    starts = [i for i in range(len(text)) if text.startswith(span, i)]
    return bool(span) and len(starts) >= occurrence


def _check_figure(row: dict, f: dict) -> list[str]:
    bad = []
    bad += figure_field_faults(f)
    if not _span_ok(row["text"], f.get("span", ""), f.get("occurrence", 1)):
        bad.append(f"span not in text: {f.get('span')!r} (occurrence {f.get('occurrence', 1)})")
    return bad


def _check_cap(row: dict, c: dict, nested: bool = False) -> list[str]:
    bad = []
    if c.get("kind") not in CAP_KINDS:
        bad.append(f"cap kind {c.get('kind')!r}")
    if not _span_ok(row["text"], c.get("span", ""), 1):
        bad.append(f"cap span not in text: {c.get('span', '')[:60]!r}")
    parts = c.get("parts", [])
    if (c.get("kind") in ("lesser_of", "greater_of")) != bool(parts):
        bad.append(f"{c.get('kind')} with {len(parts)} parts")
    if c.get("kind") == "fixed" and c.get("currency") is None:
        bad.append("fixed cap without a currency")
    if c.get("currency") is not None and not CURRENCY.fullmatch(c["currency"]):
        bad.append(f"cap currency {c['currency']!r}")
    if nested and parts:
        bad.append("nested lesser/greater inside a part")
    for p in parts:
        bad += _check_cap(row, p, nested=True)
    return bad


def check(rows_by_split: dict[str, list[dict]]) -> list[str]:
    """Every fault in the set, as lines naming the clause."""
    faults, seen = [], set()
    for split, rows in rows_by_split.items():
        for row in rows:
            where = row.get("id", "?")
            if list(row) != ROW_KEYS:
                faults.append(f"{where}: keys {list(row)}")
                continue
            if row["id"] in seen:
                faults.append(f"{where}: appears twice")
            seen.add(row["id"])
            if row["split"] != split or row["stratum"] not in ("figures", "caps"):
                faults.append(f"{where}: split {row['split']!r} / stratum {row['stratum']!r}")
            if row["id"] != f"{row['source']}:{row['clause_id']}" or row["source"] not in ("acord", "contracts"):
                faults.append(f"{where}: id does not match source and clause_id")
            faults += [f"{where}: {b}" for f in row["figures"] for b in _check_figure(row, f)]
            faults += [f"{where}: {b}" for c in row["caps"] for b in _check_cap(row, c)]
    return faults


def counts(rows_by_split: dict[str, list[dict]]) -> str:
    """The counts table, as plain text."""
    rows = [r for split in rows_by_split.values() for r in split]
    lines = []

    def table(title: str, counter: Counter) -> None:
        lines.extend(count_lines(title, counter))

    table("clauses by stratum, source and whether they bear a figure",
          Counter((r["stratum"], r["source"], "figures" if r["figures"] else "no figure") for r in rows))
    table("clauses by stratum and split", Counter((r["stratum"], r["split"]) for r in rows))
    table("clauses that cap liability, by stratum and split",
          Counter((r["stratum"], r["split"]) for r in rows if r["caps"]))
    table("clauses that bear a figure, by stratum and split",
          Counter((r["stratum"], r["split"]) for r in rows if r["figures"]))
    table("clauses by draw", Counter((r["stratum"], r["draw"]) for r in rows))
    figures = [f for r in rows for f in r["figures"]]
    table(f"figures ({len(figures)}) by kind", Counter(f["kind"] for f in figures))
    table("figures by written form", Counter(f["written"] for f in figures))
    table("figures by role", Counter(f["role"] for f in figures))
    table("amounts by currency", Counter(f["currency"] for f in figures if f["kind"] == "amount"))
    table("periods by unit", Counter(f["unit"] for f in figures if f["kind"] == "period"))
    top = [c for r in rows for c in r["caps"]]
    table(f"caps ({len(top)} top level) by kind", Counter(c["kind"] for c in top))
    table("caps by kind, parts of lesser/greater included",
          Counter(c["kind"] for t in top for c in walk_cap(t)))
    table("caps by kind and split (top level)",
          Counter((c["kind"], r["split"]) for r in rows for c in r["caps"]))
    valued = Counter()
    for t in top:
        for c in walk_cap(t):
            if c["kind"] == "fixed" and c["amount"] is not None:
                valued["fixed with an amount"] += 1
            if c["kind"] == "multiple" and c["multiple"] is not None:
                valued["multiple with a number"] += 1
            if c["kind"] == "fees_period" and c["period_months"] is not None:
                valued["fees_period with months"] += 1
    table("caps with a stated value (parts included)", valued)
    cap_figures = Counter(f["written"] for r in rows if r["caps"] for f in r["figures"]
                          if f["kind"] == "amount" and f["role"] == "cap")
    table("cap amounts by written form", cap_figures)
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--verify-source", type=Path, metavar="DATA",
                        help="the shared data folder; checks ACORD texts against its corpus")
    args = parser.parse_args()
    rows_by_split = {split: [json.loads(line) for line in path.open(encoding="utf-8")]
                     for split, path in FILES.items()}
    faults = check(rows_by_split)
    if args.verify_source:
        faults += verify_source([r for rows in rows_by_split.values() for r in rows], args.verify_source)
    for fault in faults:
        sys.stderr.write(fault + "\n")
    sys.stdout.write(counts(rows_by_split).lstrip("\n") + "\n")
    sys.stdout.write(f"\n{len(faults)} faults\n")
    return 1 if faults else 0


if __name__ == "__main__":
    raise SystemExit(main())
