import json,glob,sys,re
from index_builder.model import Clause
from addin_server.draft.citations import verify
from addin_server.draft.checks_base import MARKER
from addin_server.draft.support_claims import claim_unbacked
sets=[f for f in sorted(glob.glob('/work/wt/cite13/benchmarks/sets/drafting*/*.jsonl')) if not re.search(r'drafting-[qr]',f)]
res={}
for f in glob.glob('/work/coord/ops12/*/drafts.jsonl'):
    for l in open(f):
        r=json.loads(l); res[r['draft_id']]=r
seen=set()
for f in sets:
    for l in open(f):
        t=json.loads(l)
        if 'drafts' not in t or t['task_id'] in seen: continue
        seen.add(t['task_id'])
        if not t['precedents']: continue
        precs=[Clause(str(p.get('clause_id','x')),p['text'],str(p.get('doc') or 'd')) for p in t['precedents']]
        for d in t['drafts']:
            if '[' not in d['text']: continue
            v=verify(d['text'],precs,t['clause'],asked=t['instruction'])
            for c in v.comments:
                if not 1<=c.n<=len(precs): continue
                why=claim_unbacked(c.sentence,c.n,precs[c.n-1].text,t['clause'],t['instruction'])
                if why:
                    r=res.get(d['draft_id'],{})
                    faults=[x['fault'] for x in d['faults']]
                    print('SOUND' if d['sound'] else 'BROKEN', d['draft_id'], faults, 'was:',r.get('failed'), '|', why[:160])
                    break
