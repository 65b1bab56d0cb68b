"""Support check alone on every draft of the spent sets: python h.py OUT.jsonl"""
import json, sys, glob
from index_builder.model import Clause
from addin_server.draft.checks_base import DraftTask
from addin_server.draft.citations import verify
from addin_server.draft.checks_support import check_support
from addin_server.draft.instruction import read_instruction
from addin_server.draft.parts import allowances
from addin_server.draft import compare as C
S='/work/main/benchmarks/sets'
files=sorted(glob.glob(S+'/drafting/[ab]-*.jsonl'))+[f for f in sorted(glob.glob(S+'/drafting-[c-m]/*.jsonl')) if 'draws' not in f]
out=open(sys.argv[1],'w')
for f in files:
    for l in open(f):
        t=json.loads(l)
        if 'drafts' not in t: continue
        pre=tuple(Clause(f"p{n}", p['text'], 'd') for n,p in enumerate(t['precedents'],1))
        doc=t.get('document') or {}
        task=DraftTask(t['clause'], t['instruction'], pre, tuple(doc.get('terms') or ()) or None, tuple(doc.get('parties') or ()))
        ins=read_instruction(task.instruction, task.clause, task.document_parties)
        for d in t['drafts']:
            v=verify(d['text'], pre, task.clause, asked=task.instruction)
            r=check_support(v, pre, task.clause, ins, None)
            out.write(json.dumps({'id':d['draft_id'],'sound':d['sound'],'fault':[x['fault'] for x in d.get('faults') or []],'ok':r.passed,'why':r.reason})+'\n')
