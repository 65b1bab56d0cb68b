"""Validate the third caps tranche (tuning.jsonl, heldout.jsonl, draws.jsonl) and print its counts.

    python benchmarks/sets/caps3/check.py [--verify-source DATA]

The row, figure and cap checks and the counts table are caps2's (``benchmarks/sets/caps2/check.py``,
imported, not copied): the same keys in the same order, the first set's vocabulary, exact spans in
text order, lesser/greater-of parts. On top of them, listing every fault and exiting non-zero if any:

* no clause of this tranche is, or is a near copy of, a clause of an earlier labelled set (figures,
  caps2, drafting, drafting-c; ``sample.seen``);
* draws.jsonl is the pool's order (``sample.order``) for every half present, each labelled row is a
  kept draw of its half and each kept draw is labelled;
* with ``--verify-source``, each ACORD text equals the corpus text, and the whole of draws.jsonl is
  recomputed from the data (positions, ids, halves).

A half whose file is not committed yet (the held-out half is labelled after the tuning half) is
reported, not a fault.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from precedent_bench.common.sampling import count_lines, verify_source

import sample as caps3

HERE = Path(__file__).resolve().parent
FILES = {"tuning": HERE / "tuning.jsonl", "held-out": HERE / "heldout.jsonl"}
DRAWS = HERE / "draws.jsonl"
KEPT = {"cap", "no-cap-figures", "no-cap-no-figures"}
STATUSES = KEPT | {"rejected"}


def _caps2_check():
    """caps2's check module; its ``from sample import`` must find caps2's sampler, not this one."""
    own = sys.modules.get("sample")
    sys.modules["sample"] = caps3.caps2
    try:
        return sys.modules.get("caps2_check") or caps3._load("caps2_check", caps3.SETS / "caps2" / "check.py")
    finally:
        sys.modules["sample"] = own


caps2_check = _caps2_check()


def overlap_with_seen(rows: list[dict]) -> list[str]:
    """Clauses shared with an earlier labelled set, exactly or as a near copy."""
    ids, texts = caps3.seen()
    index, text_set = caps3.NearIndex(texts), set(texts)
    faults = []
    for row in rows:
        if row["id"] in ids or row["text"] in text_set:
            faults.append(f"{row['id']}: in an earlier set")
        elif index.near(caps3.caps2.shingles(row["text"])):
            faults.append(f"{row['id']}: near copy of a clause of an earlier set")
    return faults


def draw_faults(draws: list[dict], rows_by_split: dict[str, list[dict]]) -> list[str]:
    faults = []
    for d in draws:
        if d["status"] not in STATUSES or not d.get("reason"):
            faults.append(f"draw {d['draw']}: status {d['status']!r} / reason {d.get('reason')!r}")
    for split, rows in rows_by_split.items():
        kept = [d["id"] for d in draws if d["split"] == split and d["status"] in KEPT]
        labelled = [r["id"] for r in rows]
        if kept != labelled:
            faults.append(f"{split}: labelled rows {len(labelled)} differ from kept draws {len(kept)} (or their order)")
        caps = {d["id"] for d in draws if d["split"] == split and d["status"] == "cap"}
        for r in rows:
            if bool(r["caps"]) != (r["id"] in caps):
                faults.append(f"{r['id']}: caps labelled {len(r['caps'])} but draw status says "
                              f"{'cap' if r['id'] in caps else 'no cap'}")
            if r["id"] not in caps and bool(r["figures"]) != any(
                    d["id"] == r["id"] and d["status"] == "no-cap-figures" for d in draws):
                faults.append(f"{r['id']}: figures labelled {len(r['figures'])} but the draw status disagrees")
    return faults


def order_faults(draws: list[dict], data: Path) -> list[str]:
    """draws.jsonl against the pool's order recomputed from the data."""
    order = {r["position"] + 1: r for r in caps3.order(data)}
    faults = []
    halves = {d["split"] for d in draws}
    expected = [n for n, r in order.items() if r["split"] in halves]
    if sorted(d["draw"] for d in draws) != sorted(expected):
        faults.append(f"draws.jsonl holds {len(draws)} draws; the order has {len(expected)} in {sorted(halves)}")
    for d in draws:
        r = order.get(d["draw"])
        if r is None or r["id"] != d["id"] or r["split"] != d["split"]:
            faults.append(f"draw {d['draw']}: {d['id']} / {d['split']} is not the order's")
    return faults


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--verify-source", type=Path, metavar="DATA",
                        help="the shared data folder; checks ACORD texts and the draw order against it")
    args = parser.parse_args()
    rows_by_split = {split: [json.loads(line) for line in path.open(encoding="utf-8")]
                     for split, path in FILES.items() if path.exists()}
    missing = [split for split in FILES if split not in rows_by_split]
    draws = [json.loads(line) for line in DRAWS.open(encoding="utf-8")]
    rows = [r for split_rows in rows_by_split.values() for r in split_rows]
    faults = caps2_check.check(rows_by_split) + overlap_with_seen(rows) + draw_faults(draws, rows_by_split)
    if args.verify_source:
        faults += verify_source(rows, args.verify_source) + order_faults(draws, args.verify_source)
    for fault in faults:
        sys.stderr.write(fault + "\n")
    lines = count_lines("draws by half and status", Counter((d["split"], d["status"]) for d in draws))
    sys.stdout.write("\n".join(lines).lstrip("\n") + "\n\n")
    sys.stdout.write(caps2_check.counts(rows_by_split).lstrip("\n") + "\n")
    if missing:
        sys.stdout.write(f"\nnot committed yet: {', '.join(missing)}\n")
    sys.stdout.write(f"\n{len(rows)} clauses, {sum(1 for r in rows if r['caps'])} capping; {len(faults)} faults\n")
    return 1 if faults else 0


if __name__ == "__main__":
    raise SystemExit(main())
