import json, os, sys
from collections import Counter
# per-check sound flags and broken flags, summed over every set folder in each run dir given
for d in sys.argv[1:]:
    s, b = Counter(), Counter()
    for n in sorted(os.listdir(d)):
        f = f'{d}/{n}/drafts.jsonl'
        if not os.path.exists(f): continue
        for l in open(f):
            x = json.loads(l)
            for c in x['failed']:
                (s if x['sound'] else b)[c] += 1
    print(d, 'sound:', dict(sorted(s.items())), 'broken:', dict(sorted(b.items())))
