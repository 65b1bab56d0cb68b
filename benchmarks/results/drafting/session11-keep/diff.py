import json,sys,os
base,new=sys.argv[1],sys.argv[2]
for s in sorted(os.listdir(new)):
    p=os.path.join(new,s,'drafts.jsonl')
    if not os.path.exists(p): continue
    b={json.loads(l)['draft_id']:json.loads(l) for l in open(os.path.join(base,s,'drafts.jsonl'))}
    for l in open(p):
        d=json.loads(l); o=b.get(d['draft_id'])
        if not o: continue
        if (o['flagged'],o.get('shown_passed'),o.get('named'))!=(d['flagged'],d.get('shown_passed'),d.get('named')) or o['reasons'].get('meaning')!=d['reasons'].get('meaning'):
            print(s,d['draft_id'],'sound' if d['sound'] else 'broken', 'flag',o['flagged'],'->',d['flagged'],'named',o.get('named'),'->',d.get('named'),'passed',o.get('shown_passed'),'->',d.get('shown_passed'))
            print('    ',d['reasons'].get('meaning','')[:230])
