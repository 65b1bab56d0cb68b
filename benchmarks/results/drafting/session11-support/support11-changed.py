import json,sys,glob,os
A,B=sys.argv[1],sys.argv[2]
for f in sorted(glob.glob(A+'/*/drafts.jsonl')):
  s=f.split('/')[-2]; g=os.path.join(B,s,'drafts.jsonl')
  if not os.path.exists(g): continue
  a={json.loads(l)['draft_id']:json.loads(l) for l in open(f)}
  b={json.loads(l)['draft_id']:json.loads(l) for l in open(g)}
  for k,x in a.items():
    y=b.get(k)
    if not y or x['failed']==y['failed']: continue
    tag='SOUND' if x['sound'] else 'BROKEN:'+str(x['fault'])
    ev=''
    if x['sound'] and not x['flagged'] and y['flagged']: ev='NEW-SOUND-FLAG'
    if x['sound'] and x['flagged'] and not y['flagged']: ev='sound-unflagged'
    if not x['sound'] and x['flagged'] and not y['flagged']: ev='BROKEN-LOST'
    if not x['sound'] and not x['flagged'] and y['flagged']: ev='broken-gained'
    r=(y['reasons'].get('support') or x['reasons'].get('support') or '')
    print(ev or '-', tag, k, x['failed'],'->',y['failed'], '|', r[:150])
