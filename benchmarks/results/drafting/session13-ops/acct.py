"""Operations whose account (parts said, checks) changed between two runs."""
import json, os, sys
B, A = sys.argv[1], sys.argv[2]
for n in sorted(os.listdir(A)):
    if not os.path.exists(f'{A}/{n}/operations.jsonl') or not os.path.exists(f'{B}/{n}/operations.jsonl'): continue
    ob = {json.loads(l)['task_id']: json.loads(l) for l in open(f'{B}/{n}/operations.jsonl')}
    for l in open(f'{A}/{n}/operations.jsonl'):
        y = json.loads(l); x = ob.get(y['task_id'], {})
        px = [(p['label'], p['status']) for p in x.get('parts_said') or []]
        py = [(p['label'], p['status']) for p in y.get('parts_said') or []]
        cx = {c['name']: c['status'] for c in x.get('checks') or []}
        cy = {c['name']: c['status'] for c in y.get('checks') or []}
        if px != py or cx != cy or x.get('output') != y.get('output') or x.get('accepted') != y.get('accepted'):
            print(n, y['task_id'], 'acc', x.get('accepted'), '->', y.get('accepted'), 'out same' if x.get('output') == y.get('output') else 'OUT CHANGED')
            if px != py: print('   parts', px, '->', py)
            d = {k: (cx.get(k), cy.get(k)) for k in set(cx) | set(cy) if cx.get(k) != cy.get(k)}
            if d: print('   checks', d)
