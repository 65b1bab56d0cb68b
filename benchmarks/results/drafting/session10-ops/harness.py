"""Fast loop: every task's operation request straight through DraftRouter (no index, no server)."""
import json, sys, logging
logging.disable(logging.CRITICAL)
from index_builder.model import Clause
from addin_server.draft.checks_base import DraftTask
from addin_server.draft.router import DraftRouter
out = sys.argv[1]
R = DraftRouter(None)
res = {}
for path in sys.argv[2:]:
    name = path.split('sets/')[1].replace('/', '_').replace('.jsonl', '')
    rows = []
    for line in open(path):
        t = json.loads(line)
        doc = t.get('document') or {}
        terms = [x for x in doc.get('terms') or [] if isinstance(x, str) and x]
        parties = [x for x in doc.get('parties') or [] if isinstance(x, str) and x]
        prec = tuple(Clause(f"p{n}", p['text'], "d") for n, p in enumerate(t['precedents'], 1))
        task = DraftTask(t['clause'], t['instruction'], prec, tuple(terms) if (terms or parties) else None, tuple(parties))
        try:
            d = R.draft(task, 'operation')
            acc = d.producer == 'operation'
            o = (d.result.answer or d.result.verified.text) if acc else None
            why = None
        except Exception as e:
            acc, o, why = False, None, f"{type(e).__name__}: {getattr(e, 'message', str(e))}"[:400]
        rows.append({'task_id': t['task_id'], 'accepted': acc, 'output': o, 'declined': why})
    res[name] = rows
json.dump(res, open(out, 'w'))
