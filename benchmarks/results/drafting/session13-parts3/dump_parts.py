import json,glob,sys
from addin_server.draft.instruction import read_instruction
out={}
for f in sorted(glob.glob('/work/wt/parts13c/benchmarks/sets/drafting*/*.jsonl')):
    for line in open(f):
        t=json.loads(line)
        if 'instruction' not in t: continue
        try: ins=read_instruction(t['instruction'], t['clause'], t.get('document',{}).get('parties',[]))
        except Exception as e: out[t['task_id']]=repr(e); continue
        out[t['task_id']]=[(p.kind,p.text) for p in ins.parts]
json.dump(out,open(sys.argv[1],'w'))
