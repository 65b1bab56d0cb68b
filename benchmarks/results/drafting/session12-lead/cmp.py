import json, os, sys
from collections import Counter
B, A = sys.argv[1], sys.argv[2]
rows = []
for n in sorted(os.listdir(B)):
    if not os.path.isdir(f'{B}/{n}') or not os.path.exists(f'{A}/{n}/drafts.jsonl'): continue
    def stats(d):
        r = [json.loads(l) for l in open(f'{d}/{n}/drafts.jsonl')]
        o = [json.loads(l) for l in open(f'{d}/{n}/operations.jsonl')]
        br = [x for x in r if not x['sound']]; so = [x for x in r if x['sound']]
        return (sum(x['flagged'] for x in br), sum(x['named'] for x in br), len(br), sum(x['shown_passed'] for x in br),
                sum(x['flagged'] for x in so), len(so), sum(x['accepted'] for x in o), sum(bool(x.get('shown_passed')) for x in o if x['accepted'])), r, o
    sb, rb, ob = stats(B); sa, ra, oa = stats(A)
    ch_d = sum(1 for x, y in zip(rb, ra) if (x['flagged'], x['failed'], x['not_checked'], x['shown_passed']) != (y['flagged'], y['failed'], y['not_checked'], y['shown_passed']))
    ch_o = [x['task_id'] for x, y in zip(ob, oa) if (x['accepted'], x['output']) != (y['accepted'], y['output'])]
    print(f"| {n} | {sb[0]}/{sb[2]} → {sa[0]}/{sa[2]} | {sb[1]} → {sa[1]} | {sb[3]} → {sa[3]} | {sb[4]}/{sb[5]} → {sa[4]}/{sa[5]} | {sb[6]} → {sa[6]} | {sb[7]} → {sa[7]} | {ch_d} | {', '.join(ch_o) or '-'} |")
