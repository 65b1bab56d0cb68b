import json,glob,sys
from addin_server.draft.instruction import read_instruction
out={}
for f in sorted(glob.glob('benchmarks/sets/drafting*/*.jsonl')):
    for l in open(f):
        t=json.loads(l)
        if 'instruction' not in t: continue
        tid=t.get('id') or t.get('task_id')
        ins=read_instruction(t['instruction'], t.get('clause',''), t.get('parties',()))
        out[tid]=[(p.kind,p.text,repr(dict(p.params))) for p in ins.parts]+[list(ins.problems)]
json.dump(out,open(sys.argv[1],'w'),indent=0)
print(len(out))
