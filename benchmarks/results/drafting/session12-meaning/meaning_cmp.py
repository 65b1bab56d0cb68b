"""per set: reversed_meaning flagged/named/n, sound flagged by meaning, and the drafts whose meaning verdict changed"""
import json, os, sys
B, A = sys.argv[1], sys.argv[2]
tot = {}
for n in sorted(os.listdir(B)):
    if not os.path.isdir(f"{B}/{n}") or not os.path.exists(f"{A}/{n}/drafts.jsonl"):
        continue
    def st(d):
        r = [json.loads(l) for l in open(f"{d}/{n}/drafts.jsonl")]
        rv = [x for x in r if x["fault"] == "reversed_meaning"]
        return r, (sum(x["flagged"] for x in rv), sum(x["named"] for x in rv), len(rv),
                   sum("meaning" in x["failed"] for x in r if x["sound"]), sum(x["shown_passed"] for x in r if not x["sound"]))
    rb, b = st(B); ra, a = st(A)
    print(f"| {n} | {b[0]}/{b[2]} → {a[0]}/{a[2]} | {b[1]} → {a[1]} | {b[3]} → {a[3]} | {b[4]} → {a[4]} |")
    for x, y in zip(rb, ra):
        if ("meaning" in x["failed"], x["flagged"]) != ("meaning" in y["failed"], y["flagged"]) or \
                ("meaning" in x["not_checked"]) != ("meaning" in y["not_checked"]):
            print(f"    {y['draft_id']} sound={y['sound']} fault={y['fault']} {x['failed']}->{y['failed']} nc {x['not_checked']}->{y['not_checked']}")
