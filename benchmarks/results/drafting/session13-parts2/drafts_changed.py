import json, os, sys
B, A = sys.argv[1], sys.argv[2]
for n in sorted(os.listdir(A)):
    if not os.path.exists(f'{A}/{n}/drafts.jsonl') or not os.path.exists(f'{B}/{n}/drafts.jsonl'): continue
    rb = {json.loads(l)['draft_id']: json.loads(l) for l in open(f'{B}/{n}/drafts.jsonl')}
    for l in open(f'{A}/{n}/drafts.jsonl'):
        y = json.loads(l); x = rb.get(y['draft_id'])
        if x is None: continue
        if (x['flagged'], x['failed'], x['not_checked'], x['shown_passed'], x['named']) != (y['flagged'], y['failed'], y['not_checked'], y['shown_passed'], y['named']):
            tag = 'SOUND' if y['sound'] else 'BROKEN ' + str(y['fault'])
            print(f"{y['draft_id']:22} {tag:28} failed {x['failed']}->{y['failed']} nc {x['not_checked']}->{y['not_checked']} sp {x['shown_passed']}->{y['shown_passed']} named {x['named']}->{y['named']}")
