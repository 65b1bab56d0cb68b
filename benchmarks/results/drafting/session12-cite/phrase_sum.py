import json,collections,sys
rows=[json.loads(l) for l in open(sys.argv[1])]
c=collections.Counter()
for r in rows:
    k='sound' if r['sound'] else ('UC' if 'unsupported_citation' in r['fault'] else ('UA' if 'uncited_addition' in r['fault'] else 'other'))
    c[k,'mid']+=r['mids']>0; c[k,'hit']+=bool(r['hits'])
    if r['hits']: print(k, r['id'], r['fault'], r['hits'])
print(c)
