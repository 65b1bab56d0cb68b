"""Compare two dump.py outputs: python compare.py (reads /tmp/f8-dump-before.json and /tmp/f8-dump-after.json)."""
import json,sys
b=json.load(open('/tmp/f8-dump-before.json')); a=json.load(open('/tmp/f8-dump-after.json'))
def cnt(d,k): return sum(len(v[k]) for v in d['agreements'].values())
print('agreements', len(b['agreements']), len(a['agreements']))
for k in ('units','units_raw'):
    same=sum(b['agreements'][n][k]==a['agreements'][n][k] for n in b['agreements'])
    print(k, cnt(b,k), cnt(a,k), 'docs identical', same)
for k in ('terms','parties','self','prose','uses'):
    diff=[n for n in b['agreements'] if b['agreements'][n][k]!=a['agreements'][n][k]]
    print(k,'docs differ', len(diff), diff[:8])
fr=[(n,c) for n in b['agreements'] for c in b['agreements'][n]['figures_raw'] if b['agreements'][n]['figures_raw'][c]!=a['agreements'][n]['figures_raw'].get(c)]
print('agreement raw units with changed figures', len(fr), 'of', sum(len(v['figures_raw']) for v in b['agreements'].values()))
for n,c in fr[:30]: print('  ',n,c,b['agreements'][n]['figures_raw'][c],'->',a['agreements'][n]['figures_raw'].get(c))
fa=[k for k in b['acord'] if b['acord'][k]['figures']!=a['acord'][k]['figures']]
sa=[k for k in b['acord'] if b['acord'][k]['segments']!=a['acord'][k]['segments']]
print('acord texts', len(b['acord']), 'figures changed', len(fa), fa[:10], 'segments changed', len(sa), sa[:10])
print('acord segments', sum(len(v['segments']) for v in b['acord'].values()), sum(len(v['segments']) for v in a['acord'].values()))
for k in fa[:20]: print('  ',k,b['acord'][k]['figures'],'->',a['acord'][k]['figures'])
for n in b['agreements']:
    u1,u2=b['agreements'][n]['uses'],a['agreements'][n]['uses']
    d={t:(u1.get(t),u2.get(t)) for t in set(u1)|set(u2) if u1.get(t)!=u2.get(t)}
    if d: print('uses',n,d)
