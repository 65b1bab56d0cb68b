"""Every spent task's operation request straight through DraftRouter: output, parts said, check statuses."""
import json, sys, glob, logging
logging.disable(logging.CRITICAL)
from index_builder.model import Clause
from addin_server.draft.checks_base import DraftTask
from addin_server.draft.router import DraftRouter
R = DraftRouter(None)
out = {}
for path in sorted(glob.glob('/work/main/benchmarks/sets/drafting*/*.jsonl')):
    if 'drafting-q' in path or 'drafting-r' in path: continue
    for line in open(path):
        t = json.loads(line)
        if 'task_id' not in t: continue
        doc = t.get('document') or {}
        terms = [x for x in doc.get('terms') or [] if isinstance(x, str) and x]
        parties = [x for x in doc.get('parties') or [] if isinstance(x, str) and x]
        prec = tuple(Clause(f"p{n}", p['text'], "d") for n, p in enumerate(t['precedents'], 1))
        task = DraftTask(t['clause'], t['instruction'], prec, tuple(terms) if (terms or parties) else None, tuple(parties))
        try:
            d = R.draft(task, 'auto')
            row = {'producer': d.producer, 'out': d.result.answer or d.result.verified.text if d.producer == 'operation' else None,
                   'parts': [(p['kind'], p['label'], p['status'], p.get('by', ''), p['reason']) for p in d.parts],
                   'checks': {c.name: c.passed for c in d.checks}}
        except Exception as e:
            row = {'error': type(e).__name__}
        out[t['task_id']] = row
json.dump(out, open(sys.argv[1], 'w'))
