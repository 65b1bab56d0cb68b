"""Validate the second caps tranche (tuning.jsonl, heldout.jsonl) and print its counts.

    python benchmarks/sets/caps2/check.py [--verify-source DATA]

Checks, listing every fault found and exiting non-zero if there is any:

* every row has the first set's keys in its order, a known source, an id made of source and
  clause_id, stratum "caps", the split of the file it is in, a draw named in sample.py;
* every figure and cap uses the first set's vocabulary (kinds, units, roles, written forms, ISO
  currencies), every figure span is the occurrence-th exact substring of its clause (occurrence
  given exactly when the span occurs more than once), figures are in text order, every cap and
  part span is an exact substring, lesser/greater-of caps have two or more parts and no nesting;
* no clause appears twice, and none overlaps the first set (benchmarks/sets/figures): no shared
  id, no shared text, no near copy by sample.py's rule;
* with ``--verify-source``, each ACORD text equals the corpus text it was copied from.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from precedent_bench.common.sampling import (CAP_KINDS, CURRENCY, count_lines, figure_field_faults,
                                             verify_source, walk_cap)

from sample import CAP_KINDS as DRAW_KINDS
from sample import first_set, near, shingles

HERE = Path(__file__).resolve().parent
FILES = {"tuning": HERE / "tuning.jsonl", "held-out": HERE / "heldout.jsonl"}

CAP_KEYS = ["kind", "amount", "currency", "multiple", "period_months", "basis", "parts", "whose", "span"]
DRAWS = {"random"} | {f"kind:{k}" for k in DRAW_KINDS}
ROW_KEYS = ["id", "source", "clause_id", "text", "draw", "stratum", "split", "figures", "caps", "notes"]


def _starts(text: str, span: str) -> list[int]:
    return [i for i in range(len(text)) if text.startswith(span, i)] if span else []


def _check_figures(row: dict) -> list[str]:
    bad, last = [], -1
    for f in row["figures"]:
        bad += figure_field_faults(f)
        starts = _starts(row["text"], f.get("span", ""))
        occurrence = f.get("occurrence")
        if not starts:
            bad.append(f"span not in text: {f.get('span')!r}")
            continue
        if (len(starts) > 1) != (occurrence is not None):
            bad.append(f"span {f['span']!r} occurs {len(starts)} times but occurrence is {occurrence!r}")
            continue
        if occurrence is not None and not 1 <= occurrence <= len(starts):
            bad.append(f"span {f['span']!r}: occurrence {occurrence} of {len(starts)}")
            continue
        start = starts[(occurrence or 1) - 1]
        if start < last:
            bad.append(f"figure {f['span']!r} out of text order")
        last = start
    return bad


def _check_cap(row: dict, c: dict, nested: bool = False) -> list[str]:
    bad = []
    if list(c) != CAP_KEYS:
        return [f"cap keys {list(c)}"]
    if c["kind"] not in CAP_KINDS:
        bad.append(f"cap kind {c['kind']!r}")
    if not c["span"] or c["span"] not in row["text"]:
        bad.append(f"cap span not in text: {c['span'][:60]!r}")
    parts = c["parts"]
    if c["kind"] in ("lesser_of", "greater_of"):
        if len(parts) < 2:
            bad.append(f"{c['kind']} with {len(parts)} parts")
    elif parts:
        bad.append(f"{c['kind']} with parts")
    if nested and parts:
        bad.append("nested lesser/greater inside a part")
    if c["kind"] == "fixed" and c["currency"] is None:
        bad.append("fixed cap without a currency")
    if c["currency"] is not None and not CURRENCY.fullmatch(c["currency"]):
        bad.append(f"cap currency {c['currency']!r}")
    if c["amount"] is not None and (c["kind"] != "fixed" or not isinstance(c["amount"], (int, float))):
        bad.append(f"amount {c['amount']!r} on a {c['kind']} cap")
    if c["multiple"] is not None and (c["kind"] != "multiple" or not isinstance(c["multiple"], (int, float))):
        bad.append(f"multiple {c['multiple']!r} on a {c['kind']} cap")
    if c["period_months"] is not None and (c["kind"] not in ("fees_period", "multiple")
                                           or not isinstance(c["period_months"], (int, float))):
        bad.append(f"period_months {c['period_months']!r} on a {c['kind']} cap")
    for p in parts:
        bad += _check_cap(row, p, nested=True)
    return bad


def check(rows_by_split: dict[str, list[dict]]) -> list[str]:
    """Every fault in the set, as lines naming the clause."""
    faults, seen_ids, seen_texts = [], set(), set()
    for split, rows in rows_by_split.items():
        for row in rows:
            where = row.get("id", "?")
            if list(row) != ROW_KEYS:
                faults.append(f"{where}: keys {list(row)}")
                continue
            if row["id"] in seen_ids or row["text"] in seen_texts:
                faults.append(f"{where}: appears twice")
            seen_ids.add(row["id"])
            seen_texts.add(row["text"])
            if row["split"] != split or row["stratum"] != "caps" or row["draw"] not in DRAWS:
                faults.append(f"{where}: split {row['split']!r} / stratum {row['stratum']!r} / draw {row['draw']!r}")
            if row["id"] != f"{row['source']}:{row['clause_id']}" or row["source"] not in ("acord", "contracts"):
                faults.append(f"{where}: id does not match source and clause_id")
            faults += [f"{where}: {b}" for b in _check_figures(row)]
            faults += [f"{where}: {b}" for c in row["caps"] for b in _check_cap(row, c)]
    return faults


def overlap_with_first_set(rows: list[dict]) -> list[str]:
    """Clauses shared with the first labelled set, exactly or as a near copy."""
    first = first_set()
    first_texts = set(first.values())
    first_shingles = [shingles(t) for t in first.values()]
    faults = []
    for row in rows:
        if row["id"] in first or row["text"] in first_texts:
            faults.append(f"{row['id']}: in the first set")
        elif any(near(shingles(row["text"]), f) for f in first_shingles):
            faults.append(f"{row['id']}: near copy of a first-set clause")
    return faults


def counts(rows_by_split: dict[str, list[dict]]) -> str:
    """The counts table, as plain text."""
    rows = [r for split in rows_by_split.values() for r in split]
    lines = []

    def table(title: str, counter: Counter) -> None:
        lines.extend(count_lines(title, counter))

    table("clauses by split and whether they cap liability",
          Counter((r["split"], "caps" if r["caps"] else "no cap") for r in rows))
    table("clauses by source and whether they cap liability",
          Counter((r["source"], "caps" if r["caps"] else "no cap") for r in rows))
    table("clauses by draw and whether they cap liability",
          Counter((r["draw"], "caps" if r["caps"] else "no cap") for r in rows))
    table("capping clauses by first cap kind and split",
          Counter((r["caps"][0]["kind"], r["split"]) for r in rows if r["caps"]))
    top = [c for r in rows for c in r["caps"]]
    table(f"caps ({len(top)} top level) by kind", Counter(c["kind"] for c in top))
    table("caps by kind, parts of lesser/greater included",
          Counter(c["kind"] for t in top for c in walk_cap(t)))
    table("caps by kind and split, parts included",
          Counter((c["kind"], r["split"]) for r in rows for t in r["caps"] for c in walk_cap(t)))
    valued = Counter()
    for t in top:
        for c in walk_cap(t):
            if c["kind"] == "fixed":
                valued["fixed with an amount" if c["amount"] is not None else "fixed, placeholder amount"] += 1
            if c["kind"] == "multiple":
                valued["multiple with a number" if c["multiple"] is not None else "multiple, no number"] += 1
            if c["kind"] == "fees_period":
                valued["fees_period with months" if c["period_months"] is not None else "fees_period, no length"] += 1
    table("caps with a stated value (parts included)", valued)
    cap_amounts = [(r["split"], f["written"]) for r in rows if r["caps"] for f in r["figures"]
                   if f["kind"] == "amount" and f["role"] == "cap"]
    table("cap amounts in capping clauses, by written form and split", Counter(cap_amounts))
    table("cap figures by kind and written form",
          Counter((f["kind"], f["written"]) for r in rows for f in r["figures"] if f["role"] in ("cap", "look_back")))
    figures = [f for r in rows for f in r["figures"]]
    table(f"figures ({len(figures)}) by kind", Counter(f["kind"] for f in figures))
    table("figures by role", Counter(f["role"] for f in figures))
    table("figures by written form", Counter(f["written"] for f in figures))
    table("cap whose", Counter("named party" if c["whose"] not in ("each party", "both", None) else c["whose"]
                               for c in top))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--verify-source", type=Path, metavar="DATA",
                        help="the shared data folder; checks ACORD texts against its corpus")
    args = parser.parse_args()
    rows_by_split = {split: [json.loads(line) for line in path.open(encoding="utf-8")]
                     for split, path in FILES.items()}
    rows = [r for split_rows in rows_by_split.values() for r in split_rows]
    faults = check(rows_by_split) + overlap_with_first_set(rows)
    if args.verify_source:
        faults += verify_source(rows, args.verify_source)
    for fault in faults:
        sys.stderr.write(fault + "\n")
    sys.stdout.write(counts(rows_by_split).lstrip("\n") + "\n")
    sys.stdout.write(f"\n{len(rows)} clauses, {sum(1 for r in rows if r['caps'])} capping; {len(faults)} faults\n")
    return 1 if faults else 0


if __name__ == "__main__":
    raise SystemExit(main())
