import json,os,sys
B,A=sys.argv[1],sys.argv[2]
for n in sorted(os.listdir(A)):
    if not os.path.exists(f'{A}/{n}/drafts.jsonl') or not os.path.exists(f'{B}/{n}/drafts.jsonl'): continue
    rb={json.loads(l)['draft_id']:json.loads(l) for l in open(f'{B}/{n}/drafts.jsonl')}
    for l in open(f'{A}/{n}/drafts.jsonl'):
        y=json.loads(l); x=rb[y['draft_id']]
        if (x['flagged'],x['failed'],x['not_checked'],x['shown_passed'],x['named'])!=(y['flagged'],y['failed'],y['not_checked'],y['shown_passed'],y['named']):
            print(n, y['draft_id'], 'sound' if y['sound'] else 'broken:'+str(y.get('fault')), f"flag {x['flagged']}->{y['flagged']} named {x['named']}->{y['named']} passed {x['shown_passed']}->{y['shown_passed']} failed {x['failed']}->{y['failed']}")
            print('    OLD', x['reasons'].get('instruction','')[:160]); print('    NEW', y['reasons'].get('instruction','')[:160])
