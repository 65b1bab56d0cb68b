"""Totals of a run folder (runsets.sh output) by group: python totals.py DIR [DIR...] -> a-i, j-m, n-p, q-u and v-z rows."""
import json, os, sys
def stats(d, n):
    r = [json.loads(l) for l in open(f'{d}/{n}/drafts.jsonl')]
    br = [x for x in r if not x['sound']]; so = [x for x in r if x['sound']]
    return [sum(x['flagged'] for x in br), sum(x['named'] for x in br), len(br), sum(x['shown_passed'] for x in br),
            sum(x['flagged'] for x in so), len(so)]
fresh = ('drafting-j', 'drafting-k', 'drafting-l', 'drafting-m')
newest = ('drafting-n', 'drafting-o', 'drafting-p')
latest = ('drafting-q', 'drafting-r', 'drafting-s', 'drafting-t', 'drafting-u')
next_ = ('drafting-v', 'drafting-w', 'drafting-x', 'drafting-y', 'drafting-z')
for d in sys.argv[1:]:
    tot = {'a-i': [0]*6, 'j-m': [0]*6, 'n-p': [0]*6, 'q-u': [0]*6, 'v-z': [0]*6}
    for n in sorted(os.listdir(d)):
        if not os.path.exists(f'{d}/{n}/drafts.jsonl'): continue
        g = 'v-z' if n.startswith(next_) else 'q-u' if n.startswith(latest) else 'n-p' if n.startswith(newest) else 'j-m' if n.startswith(fresh) else 'a-i'
        tot[g] = [a + b for a, b in zip(tot[g], stats(d, n))]
    for g, t in tot.items():
        if t[2]:
            print(f"{d} {g}: broken flagged {t[0]}/{t[2]}, named {t[1]}, shown passed {t[3]}, sound flagged {t[4]}/{t[5]}")
