import json, sys
IGN = {"seconds", "command", "commit", "cost", "when"}
def strip(x):
    if isinstance(x, dict): return {k: strip(v) for k, v in x.items() if k not in IGN}
    if isinstance(x, list): return [strip(v) for v in x]
    return x
for n in ("caps2-tuning", "caps2-held-out", "caps3-tuning", "caps3-held-out", "figures-tuning", "figures-held-out"):
    a = strip(json.load(open(f"bench-before/{n}/figures.json"))); b = strip(json.load(open(f"bench-after/{n}/figures.json")))
    print(n, "identical" if a == b else "DIFFERENT", len(json.dumps(a)))
