import json,sys
a=[json.loads(l) for l in open(sys.argv[1]+'/drafts.jsonl')]; b=[json.loads(l) for l in open(sys.argv[2]+'/drafts.jsonl')]
for x,y in zip(a,b):
    k=lambda r:(r['flagged'],r['failed'],r['not_checked'],r['shown_passed'])
    if k(x)!=k(y): print(x['draft_id'], x['sound'], x['fault'], k(x), '->', k(y), '|', y['reasons'].get('meaning','')[:100] if 'meaning' in y['failed'] else '')
