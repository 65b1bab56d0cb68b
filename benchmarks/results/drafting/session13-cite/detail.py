import json, os, sys
from collections import Counter
B, A = sys.argv[1], sys.argv[2]
def grp(n): return 'n-p' if n.startswith(('drafting-n','drafting-o','drafting-p')) else 'j-m' if n.startswith(('drafting-j','drafting-k','drafting-l','drafting-m')) else 'a-i'
tot = {}
changes=[]
for n in sorted(os.listdir(B)):
    if not os.path.isdir(f'{B}/{n}') or not os.path.exists(f'{A}/{n}/drafts.jsonl'): continue
    rb=[json.loads(l) for l in open(f'{B}/{n}/drafts.jsonl')]; ra=[json.loads(l) for l in open(f'{A}/{n}/drafts.jsonl')]
    g=grp(n)
    for x,y in zip(rb,ra):
        assert x['draft_id']==y['draft_id']
        for tag,r in (('b',x),('a',y)):
            t=tot.setdefault((g,tag),Counter())
            if r['fault'] in ('unsupported_citation','uncited_addition','undefined_term'):
                t[r['fault']+' n']+=1; t[r['fault']+' flagged']+=r['flagged']; t[r['fault']+' named']+=r['named']
            if r['sound']:
                for c in ('support','additions','defined_terms'): t['sound '+c]+= c in r['failed']
            else:
                t['broken shown_passed']+=r['shown_passed']
        if (x['flagged'],x['named'],x['failed'],x['shown_passed'])!=(y['flagged'],y['named'],y['failed'],y['shown_passed']):
            changes.append(f"{y['draft_id']} {'SOUND' if y['sound'] else y['fault']}: flagged {x['flagged']}->{y['flagged']} named {x['named']}->{y['named']} sp {x['shown_passed']}->{y['shown_passed']} failed {x['failed']}->{y['failed']}")
keys=sorted({k for c in tot.values() for k in c})
for g in ('a-i','j-m','n-p'):
    print(g)
    for k in keys:
        b=tot.get((g,'b'),Counter())[k]; a=tot.get((g,'a'),Counter())[k]
        print(f"  {k}: {b} -> {a}")
print('\n'.join(changes))
