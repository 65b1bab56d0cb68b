import json, sys, collections
a = [json.loads(l) for l in open(sys.argv[1])]; b = [json.loads(l) for l in open(sys.argv[2])]
assert len(a) == len(b), (len(a), len(b))
c = collections.Counter(); n = collections.Counter(); shown = collections.Counter()
for x, y in zip(a, b):
    assert (x["k"], x["id"]) == (y["k"], y["id"])
    n[x["k"]] += 1
    if x["v"] != y["v"]:
        c[x["k"]] += 1
        if shown[x["k"]] < int(sys.argv[3] if len(sys.argv) > 3 else 5):
            shown[x["k"]] += 1
            if isinstance(x["v"], dict):
                for k in x["v"]:
                    if x["v"][k] != y["v"].get(k): print(x["k"], x["id"], k, "\n   -", str(x["v"][k])[:300], "\n   +", str(y["v"][k])[:300])
            else:
                print(x["k"], x["id"], "\n   -", str(x["v"])[:300], "\n   +", str(y["v"])[:300])
print({k: f"{c[k]}/{n[k]} differ" for k in n})
