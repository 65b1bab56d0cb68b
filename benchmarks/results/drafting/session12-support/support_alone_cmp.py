import json,sys
a={json.loads(l)['id']:json.loads(l) for l in open(sys.argv[1])}
b={json.loads(l)['id']:json.loads(l) for l in open(sys.argv[2])}
def tot(r):
    s=[x for x in r.values() if x['sound']]; u=[x for x in r.values() if 'unsupported_citation' in x['fault']]
    jm=lambda x: x['id'][0] in 'jklm'
    return (sum(x['ok'] is False for x in s if not jm(x)), sum(x['ok'] is False for x in s if jm(x)), sum(x['ok'] is False for x in u if not jm(x)),len([x for x in u if not jm(x)]), sum(x['ok'] is False for x in u if jm(x)), len([x for x in u if jm(x)]), sum(x['ok'] is False for x in r.values() if not x['sound']))
print('sound flagged a-i, j-m; uc caught a-i/n, j-m/n; broken flagged by support', tot(a), '->', tot(b))
for k in a:
    if k in b and a[k]['ok']!=b[k]['ok']: print(k, a[k]['sound'], a[k]['fault'], a[k]['ok'],'->',b[k]['ok'], (b[k]['why'] or a[k]['why'])[:150])
