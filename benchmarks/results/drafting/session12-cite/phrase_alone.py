import json, glob
from index_builder.model import Clause
from addin_server.draft.citations import verify
from addin_server.draft.support import phrase_cited_unsaid
S='/work/main/benchmarks/sets'
files=sorted(glob.glob(S+'/drafting/[ab]-*.jsonl'))+[f for f in sorted(glob.glob(S+'/drafting-[c-n]/*.jsonl')) if 'draws' not in f]
for f in files:
    for l in open(f):
        t=json.loads(l)
        if 'drafts' not in t: continue
        pre=tuple(Clause(f"p{n}", p['text'], 'd') for n,p in enumerate(t['precedents'],1))
        for d in t['drafts']:
            v=verify(d['text'], pre, t['clause'], asked=t['instruction'])
            hits=[(c.n,u) for c in v.comments if 1<=c.n<=len(pre) and (u:=phrase_cited_unsaid(c.sentence,c.n,pre[c.n-1].text,t['clause']+' '+t['instruction']))]
            print(json.dumps({'id':d['draft_id'],'sound':d['sound'],'fault':[x['fault'] for x in d.get('faults') or []],'hits':hits,'mids':0}))
