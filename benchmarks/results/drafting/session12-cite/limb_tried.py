import json, sys, glob, re
from index_builder.model import Clause
from index_builder.reading import polarity as P
from addin_server.draft.citations import verify
from addin_server.draft.checks_base import MARKER
from addin_server.draft.support import stems
S='/work/main/benchmarks/sets'
files=sorted(glob.glob(S+'/drafting/[ab]-*.jsonl'))+[f for f in sorted(glob.glob(S+'/drafting-[c-n]/*.jsonl')) if 'draws' not in f]
LIMB=re.compile(r"[,;:]|\((?![\w.]{1,4}\))|(?<!\(\w)(?<!\(\w\w)\)")
MODE=sys.argv[1]
def closed(sentence):
    out=[]
    for m in MARKER.finditer(sentence):
        rest=MARKER.sub('', sentence[m.end():])
        end = not re.search(r"\w{2,}", rest)
        if end and MODE=='mid': continue
        before=MARKER.sub('', sentence[:m.start()])
        out.append(LIMB.split(before)[-1])
    return out
POL=re.compile(P.negation_or_exception(nor=True).pattern if hasattr(P.negation_or_exception(nor=True),'pattern') else 'zzzz', re.I)
def judge(limb, prec, own):
    have=set(stems(prec)); roots={w[:5] for w in re.findall(r"[a-z]{5,}", prec.lower())}
    ownroots={w[:5] for w in re.findall(r"[a-z]{5,}", own.lower())}; ownst=set(stems(own))
    out=[]
    for w in re.findall(r"[\w’'-]+", limb):
        if POL.fullmatch(w): continue
        for s in stems(w):
            if s in have or s[:5] in roots or s in ownst or (len(w)>=5 and w[:5].lower() in ownroots): continue
            out.append(w)
    return out
for f in files:
    for l in open(f):
        t=json.loads(l)
        if 'drafts' not in t: continue
        pre=tuple(Clause(f"p{n}", p['text'], 'd') for n,p in enumerate(t['precedents'],1))
        for d in t['drafts']:
            v=verify(d['text'], pre, t['clause'], asked=t['instruction'])
            hits=[]; mids=0
            for c in v.comments:
                if not 1<=c.n<=len(pre): continue
                for limb in closed(c.sentence):
                    mids+=1
                    r=judge(limb, pre[c.n-1].text, t['clause']+' '+t['instruction'])
                    if r: hits.append((c.n, limb[-70:], r))
            faults=[x['fault'] for x in d.get('faults') or []]
            print(json.dumps({'id':d['draft_id'],'sound':d['sound'],'fault':faults,'hits':hits,'mids':mids}))
