"""What each SEMANTIC_THRESHOLD would lift, from the closeness recorded by closeness.py (drafting sets, joined
with the baseline's drafts.jsonl) and citation_closeness.py (the citation set).

    python benchmarks/results/drafting/session14-cite2/sweep.py CLOSE.jsonl CITATIONS.jsonl BASELINE_DIR
"""
from __future__ import annotations

import glob
import json
import sys

THRESHOLDS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.78, 0.8, 0.81, 0.85)


def main(close: str, citations: str, baseline: str) -> None:
    base = {}
    for path in glob.glob(f"{baseline}/*/drafts.jsonl"):
        for line in open(path):
            row = json.loads(line)
            base[row["draft_id"]] = row
    drafts = []
    for line in open(close):
        row = json.loads(line)
        b = base.get(row["draft_id"])
        if row["sound"] is None or not row["closeness"] or not b or "support" not in b["failed"]:
            continue
        # The draft loses its support flag only where every cited sentence the words fail comes up close.
        drafts.append((row["sound"], min(row["closeness"]), b["failed"] == ["support"]))
    pairs = [json.loads(line) for line in open(citations)]
    print("| threshold | sound support flags lifted (of which the draft's only failed check) | broken support flags lost |"
          " citation train: unsupported shown supported | held-out (spent) |")
    print("|---|---|---|---|---|")
    for t in THRESHOLDS:
        sound = [d for d in drafts if d[0] and d[1] >= t]
        broken = [d for d in drafts if not d[0] and d[1] >= t]
        lifted = {part: sum(1 for p in pairs if p["part"] == part and not p["words"] and p["label"] == 0
                            and p["closeness"] is not None and p["closeness"] >= t) for part in ("train", "held-out")}
        print(f"| {t} | {len(sound)} ({sum(d[2] for d in sound)}) | {len(broken)} | {lifted['train']} | {lifted['held-out']} |")
    print(f"\nsupport-flagged drafts reaching the rule (no veto): sound {sum(d[0] for d in drafts)}, "
          f"broken {sum(not d[0] for d in drafts)}; closeness sound {sorted(d[1] for d in drafts if d[0])}, "
          f"broken {sorted(d[1] for d in drafts if not d[0])}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
