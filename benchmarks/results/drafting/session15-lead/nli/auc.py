import json, numpy as np
r=[json.loads(l) for l in open('scores.jsonl')]
def auc(pos,neg):
    if not pos or not neg: return float('nan')
    pos=np.array(pos); neg=np.array(neg)
    return float(((pos[:,None]<neg[None,:]).mean()+0.5*(pos[:,None]==neg[None,:]).mean()))  # low score = broken
print(len(r))
for key in ('fwd','bwd'):
  for cats in (None,('plain','shorten'),('multi',),('period','carve_out','conform','mutual','flip')):
    sel=[x for x in r if cats is None or x['category'] in cats]
    snd=[x[key] for x in sel if x['sound']]
    for f in ('reversed_meaning','wrong_direction','partly_done','uncited_addition', None):
        brk=[x[key] for x in sel if not x['sound'] and (f is None or x['fault']==f)]
        print(key, cats, f, len(brk), len(snd), 'AUC(broken lower)=%.3f'%auc(brk,snd))
# misses: broken unflagged
miss=[x for x in r if not x['sound'] and not x['flagged']]
snd=[x for x in r if x['sound'] and not x['flagged']]
for th in (0.01,0.02,0.03,0.05):
    print('th',th,'misses caught',sum(min(x['fwd'],x['bwd'])<th for x in miss),'/',len(miss),' unflagged sound newly flagged',sum(min(x['fwd'],x['bwd'])<th for x in snd),'/',len(snd))
