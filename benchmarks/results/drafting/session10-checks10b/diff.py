"""Per-draft differences between two runsets outputs: flagged / named / shown_passed and failed checks."""
import json, sys, pathlib
a, b = map(pathlib.Path, sys.argv[1:3])
tot = {}
for d in sorted(p for p in b.iterdir() if p.is_dir()):
    old = {r["draft_id"]: r for r in map(json.loads, open(a / d.name / "drafts.jsonl"))}
    for r in map(json.loads, open(d / "drafts.jsonl")):
        o = old.get(r["draft_id"])
        if not o:
            continue
        for check in set(o["failed"]) | set(r["failed"]):
            k = (("sound" if r["sound"] else "broken"), check)
            tot[k] = tot.get(k, 0) + (check in r["failed"]) - (check in o["failed"])
        if (o["flagged"], o["named"], o["shown_passed"], sorted(o["failed"])) != (r["flagged"], r["named"], r["shown_passed"], sorted(r["failed"])):
            print(d.name, r["draft_id"], "sound" if r["sound"] else "broken",
                  f"flagged {o['flagged']}->{r['flagged']} named {o['named']}->{r['named']} shown {o['shown_passed']}->{r['shown_passed']}",
                  sorted(o["failed"]), "->", sorted(r["failed"]))
print({k: v for k, v in sorted(tot.items()) if v})
