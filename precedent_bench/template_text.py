"""Count what ingest/template.py (with reading/template.py) leaves out of clause text, over real agreements and ACORD.

    precedent-bench template-text [--contracts ../shared/data/contracts] [--acord ../shared/data/acord]

Before is the segmenter's output as it was indexed until now; after is what the index keeps.
It prints the counts and, for each kind, a random sample (seeded) to read by eye; the ACORD
figure is how many of its clause texts the same rules would touch (a note stripped, a line
read as a menu value, a unit whose fields dominate).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

from index_builder.ingest.outline import place
from precedent_bench.catalogue import subparser
from precedent_bench.common.data import ACORD, CONTRACTS, RESULTS
from index_builder.ingest.readers import READERS
from index_builder.ingest.segment import segment
from index_builder.ingest.template import without_template_text
from index_builder.reading.template import field_share, strip_notes


def contracts(folder: Path) -> tuple[Counter[str], dict[str, list[str]]]:
    """Units before and after, and the units of each kind (text) for sampling."""
    counts: Counter[str] = Counter()
    kinds: dict[str, list[str]] = {"note stripped, clause kept": [], "drafting-note row": [],
                                   "placeholder row": []}
    for path in sorted(folder.rglob("*.docx")):
        drafts = segment(place(READERS[".docx"](path).blocks))
        kept, left = without_template_text(drafts)
        counts["documents"] += 1
        counts["units before"] += len(drafts)
        counts["units after"] += len(kept)
        counts["notes to the drafter removed"] += left.notes
        counts["documents touched"] += bool(left.notes or left.rows)
        kept_texts = {d.text for d in kept}
        for draft in drafts:
            stripped, n = strip_notes(draft.text)
            label = f"{path.name}#{draft.section or draft.parts[0].block.index}"
            if n:
                counts["units holding a note (before)"] += 1
            if stripped and field_share(stripped) >= 0.5:
                counts["units mostly placeholders (before)"] += 1
            if draft.text in kept_texts:
                continue
            cleaned = "\n".join(t for t in (strip_notes(p.text)[0] for p in draft.parts) if t)
            if cleaned in kept_texts:
                kinds["note stripped, clause kept"].append(f"{label}\n{draft.text}")
            elif n:
                kinds["drafting-note row"].append(f"{label}\n{draft.text}")
            else:
                kinds["placeholder row"].append(f"{label}\n{draft.text}")
        for reason, n in left.rows.items():
            counts[f"left out: {reason}"] += n
    return counts, kinds


def acord(folder: Path) -> tuple[int, int, list[str]]:
    """ACORD texts, and those the rules touch (with their ids)."""
    touched, total = [], 0
    with (folder / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            total += 1
            text = row.get("text", "")
            if strip_notes(text)[1] or any(strip_notes(p)[1] for p in text.split("\n")) \
                    or field_share(text) >= 0.5:
                touched.append(row["_id"])
    return total, len(touched), touched


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--contracts", type=Path, default=CONTRACTS)
    parser.add_argument("--acord", type=Path, default=ACORD)
    parser.add_argument("--samples", type=int, default=20, help="units of each kind to print")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=RESULTS / "ingest-notes" / "counts.json")


def run(args: argparse.Namespace) -> None:
    counts, kinds = contracts(args.contracts)
    total, n_touched, touched = acord(args.acord)
    rng = random.Random(args.seed)
    samples = {kind: rng.sample(units, min(args.samples, len(units))) for kind, units in kinds.items()}
    for key, value in counts.items():
        print(f"{key}: {value}")
    for kind, units in kinds.items():
        print(f"\n=== {kind}: {len(units)} (sample of {len(samples[kind])})")
        for unit in samples[kind]:
            print("--", unit.replace("\n", " / ")[:600])
    print(f"\nACORD: {n_touched} of {total} texts touched {touched[:20]}")
    # The samples are the agreements' words: printed to read, never written to the results.
    report = {"contracts": dict(counts), "kinds": {k: len(v) for k, v in kinds.items()},
              "acord": {"texts": total, "touched": n_touched, "ids": touched}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {args.out}")
