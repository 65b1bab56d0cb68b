"""Dump index_builder.terms.extract for every text of the caps/figures sets + ACORD corpus."""
import dataclasses, json, sys
from pathlib import Path
from index_builder.terms import extract

out = open(sys.argv[1], "w")
texts = []
for name in ("caps2", "caps3", "figures"):
    for split in ("tuning", "heldout"):
        for line in open(f"benchmarks/sets/{name}/{split}.jsonl"):
            row = json.loads(line)
            texts.append((f"{name}/{split}/{row['id']}", row["text"]))
for p in sys.argv[2:]:
    for line in open(p):
        row = json.loads(line)
        texts.append((f"corpus/{row['_id']}", row["text"]))
for key, text in texts:
    r = extract(text)
    out.write(json.dumps({"k": key, "r": repr(r)}) + "\n")
print(len(texts))
