import json, os, sys
B, A = sys.argv[1], sys.argv[2]
tot = [0,0,0,0]
for n in sorted(os.listdir(B)):
    if not os.path.isdir(f'{B}/{n}') or not os.path.exists(f'{A}/{n}/drafts.jsonl'): continue
    rb = {json.loads(l)['draft_id']: json.loads(l) for l in open(f'{B}/{n}/drafts.jsonl')}
    ra = {json.loads(l)['draft_id']: json.loads(l) for l in open(f'{A}/{n}/drafts.jsonl')}
    for k, x in rb.items():
        y = ra[k]
        if x['sound']:
            tot[0] += x['flagged']; tot[1] += y['flagged']
            if y['flagged'] and not x['flagged']: print('NEW SOUND FLAG', n, k, y['failed'], (y['reasons'].get('meaning') or '')[:160])
        else:
            tot[2] += x['flagged']; tot[3] += y['flagged']
            if x['flagged'] and not y['flagged']: print('BROKEN LOST', n, k, x['fault'], x['failed'], '|', (x['reasons'].get('meaning') or '')[:160])
            elif not x['flagged'] and y['flagged']: print('BROKEN GAINED', n, k, x['fault'], y['failed'])
print('sound flagged', tot[0], '->', tot[1], ' broken flagged', tot[2], '->', tot[3])
