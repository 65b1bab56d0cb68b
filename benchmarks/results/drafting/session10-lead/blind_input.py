"""Blind-review input for accepted operations: python blind_input.py OUTDIR code=RUNDIR/operations.jsonl ...
RID_PREFIX salts the ids per tranche (session 10 used "k"). Writes OUTDIR/blind_review_input.jsonl (no label, no task id, no code) and blind_review_key.json."""
import hashlib, json, os, sys
out, pairs = sys.argv[1], [a.split('=', 1) for a in sys.argv[2:]]
rows, key = [], []
for code, path in pairs:
    for line in open(path):
        o = json.loads(line)
        if not o['accepted']:
            continue
        rid = hashlib.sha256(f"{os.environ.get('RID_PREFIX', 'k')}|{code}|{o['task_id']}".encode()).hexdigest()[:10]
        rows.append({'rid': rid, 'instruction': o['instruction'], 'clause': o['clause'],
                     'precedents': o.get('precedents') or [], 'document': o.get('document'),
                     'draft': o['output'],
                     'what_the_product_said_it_did': [{'part': p.get('label'), 'status': p.get('status'), 'reason': p.get('reason')} for p in o.get('parts_said') or []],
                     'notes': o.get('notes') or [], 'checks_failed': o.get('checks_failed') or []})
        key.append({'code': code, 'task_id': o['task_id'], 'rid': rid, 'marked_passed': not o.get('checks_failed'),
                    'shown_passed': bool(o.get('shown_passed'))})
rows.sort(key=lambda r: r['rid']); key.sort(key=lambda k: k['rid'])
with open(f'{out}/blind_review_input.jsonl', 'w') as f:
    for r in rows: f.write(json.dumps(r, ensure_ascii=False) + '\n')
json.dump(key, open(f'{out}/blind_review_key.json', 'w'), indent=1)
print(len(rows), 'accepted operations')
