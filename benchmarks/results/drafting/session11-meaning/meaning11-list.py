import json, glob, os, sys
base = sys.argv[1] if len(sys.argv)>1 else '/work/coord/base11'
# map set dir name -> task file
def taskfile(n):
    s, h = n.replace('_','-').rsplit('-',1)
    return f'/work/main/benchmarks/sets/{s}/{h}.jsonl'
for d in sorted(glob.glob(base+'/*/drafts.jsonl')):
    n = d.split('/')[-2]
    tf = taskfile(n)
    tasks = {}
    if os.path.exists(tf):
        for l in open(tf):
            t = json.loads(l); tasks[t['task_id']] = t
    for l in open(d):
        r = json.loads(l)
        if r['sound'] and 'meaning' in r['failed']:
            print(n, r['draft_id'], '|', r['reasons'].get('meaning'))
