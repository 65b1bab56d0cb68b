import json,glob,re,sys
from index_builder.model import Clause
from addin_server.draft.checks_base import DraftTask, MARKER
from addin_server.draft.checks_terms import check_defined_terms
from addin_server.draft.instruction import read_instruction
sets=[f for f in sorted(glob.glob('/work/wt/cite13/benchmarks/sets/drafting*/*.jsonl')) if not re.search(r'drafting-[qr]',f)]
res={}
for f in glob.glob('/work/coord/ops12/*/drafts.jsonl'):
    for l in open(f):
        r=json.loads(l); res[r['draft_id']]=r
seen=set()
for f in sets:
    for l in open(f):
        t=json.loads(l)
        if 'drafts' not in t or t['task_id'] in seen: continue
        seen.add(t['task_id'])
        precs=tuple(Clause(str(p.get('clause_id','x')),p['text'],str(p.get('doc') or 'd')) for p in t['precedents'])
        doc=t.get('document') or {}
        task=DraftTask(t['clause'],t['instruction'],precs,tuple(doc['terms']) if doc.get('terms') is not None and (doc.get('terms') or doc.get('doc')) else (tuple(doc.get('terms') or ()) if doc else None),tuple(doc.get('parties') or ()))
        ins=read_instruction(t['instruction'],t['clause'],task.document_parties)
        for d in t['drafts']:
            r=res.get(d['draft_id'])
            if not r: continue
            import addin_server.draft.checks_terms as CT
            orig=CT._known_side_by_side; CT._known_side_by_side=lambda *a: False
            was=check_defined_terms(task,ins,MARKER.sub('',d['text']).strip()).passed is False
            CT._known_side_by_side=orig
            now=check_defined_terms(task,ins,MARKER.sub('',d['text']).strip()).passed is False
            if was!=now: print(d['draft_id'], 'sound' if d['sound'] else [x['fault'] for x in d['faults']], 'was',was,'now',now)
