import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
ch=[k for k in a if a[k]!=b[k]]
print(len(ch), 'changed')
for k in ch:
    if len(sys.argv)>3 and sys.argv[3]=='kinds':
        ka=[p[0] for p in a[k][:-1]]; kb=[p[0] for p in b[k][:-1]]
        print(k, ka, '->', kb)
    else:
        print('=====',k)
        for p in a[k][:-1]: print('  -', p[0], '|', p[1][:160])
        for p in b[k][:-1]: print('  +', p[0], '|', p[1][:160])
