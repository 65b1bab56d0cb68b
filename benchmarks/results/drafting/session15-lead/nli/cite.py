"""Spent sets: does the NLI model tell a citation its precedent backs from one it does not?"""
import json, re, glob
from exp import sents, cover  # run from this folder (or /tmp/nli), PYTHONPATH at the repository root
MARK=re.compile(r'\[(\d+)\]')
out=open('/tmp/nli/cite.jsonl','w')
for f in sorted(glob.glob('/work/main/benchmarks/sets/drafting*/*.jsonl')):
    if 'draws' in f: continue
    for l in open(f):
        t=json.loads(l); P=t.get('precedents') or []
        if not P: continue
        for d in t['drafts']:
            faults=[x['fault'] for x in d.get('faults',[])]
            if not (d['sound'] or 'unsupported_citation' in faults): continue
            scores=[]
            for s in sents(d['text']):
                ns=[int(n) for n in MARK.findall(s)]
                if not ns: continue
                h=MARK.sub('',s).strip()
                for n in ns:
                    if 1<=n<=len(P):
                        prem=sents(P[n-1]['text']); sc,_=cover(prem,[h]); scores.append(sc)
            if scores:
                out.write(json.dumps({'draft_id':d['draft_id'],'sound':d['sound'],'min':min(scores),'scores':scores})+'\n'); out.flush()
