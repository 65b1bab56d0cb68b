"""Show two drafting runs identical draft by draft and operation by operation.

    python identity.py BEFORE_DIR AFTER_DIR

Each folder holds one sub-folder per set (drafts.jsonl, operations.jsonl), as runsets.sh writes them.
Per draft it compares `failed`, `not_checked`, `reasons` and `parts_said`; per operation `output` and its
account (`accepted`, `status`, `operation`, `label`, `parts_said`, `changes`, `notes`, `checks`,
`checks_failed`, `declined`); then whole records, so any other difference shows too. Exit 1 on a difference.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

DRAFT_FIELDS = ("failed", "not_checked", "reasons", "parts_said")
OP_FIELDS = ("output", "accepted", "status", "operation", "label", "parts_said", "changes", "notes", "checks",
             "checks_failed", "declined")


def _rows(path: Path, key: str) -> dict[str, dict]:
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    keyed = {r[key]: r for r in rows}
    assert len(keyed) == len(rows), f"{path}: {key} repeats"
    return keyed


def _compare(a: dict[str, dict], b: dict[str, dict], fields: tuple[str, ...], where: str) -> tuple[int, list[str]]:
    diffs = [f"{where}: only in one run: {sorted(set(a) ^ set(b))[:5]}"] if set(a) != set(b) else []
    for k in sorted(set(a) & set(b)):
        for f in fields:
            if a[k].get(f) != b[k].get(f):
                diffs.append(f"{where} {k}: {f} differs")
        if a[k] != b[k] and not any(a[k].get(f) != b[k].get(f) for f in fields):
            diffs.append(f"{where} {k}: another field differs: "
                         f"{sorted(f for f in a[k].keys() | b[k].keys() if a[k].get(f) != b[k].get(f))}")
    return len(set(a) & set(b)), diffs


def main(before: Path, after: Path) -> int:
    done = [{p.name for p in d.iterdir() if (p / "summary.json").exists()} for d in (before, after)]
    sets, missing = sorted(done[0] & done[1]), sorted(done[0] ^ done[1])
    n_drafts = n_ops = 0
    diffs: list[str] = []
    for s in sets:
        nd, dd = _compare(_rows(before / s / "drafts.jsonl", "draft_id"), _rows(after / s / "drafts.jsonl", "draft_id"),
                          DRAFT_FIELDS, f"{s} draft")
        no, do = _compare(_rows(before / s / "operations.jsonl", "task_id"),
                          _rows(after / s / "operations.jsonl", "task_id"), OP_FIELDS, f"{s} operation")
        n_drafts, n_ops, diffs = n_drafts + nd, n_ops + no, diffs + dd + do
        print(f"{s:28} drafts {nd:4}  operations {no:3}  differences {len(dd) + len(do)}")
    print(f"{len(sets)} sets, {n_drafts} drafts, {n_ops} operations compared; {len(diffs)} differences"
          + (f"; sets in one run only: {missing}" if missing else ""))
    for d in diffs[:50]:
        print(" ", d)
    return 1 if diffs or missing else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
