# For each spent set with a blind review: accepted operations the review judged wrong, and whether
# the run in DIR still accepts them with the same output (same), another output (changed) or declines.
import json, sys, os
R = '/work/wt/i38-drafting8/benchmarks/results/drafting'
run = sys.argv[1]
names = {'c': 'drafting-c_heldout', 'd': 'drafting-d_heldout', 'e': 'drafting-e_heldout', 'f': 'drafting-f_heldout', 'g': 'drafting-g_heldout'}
tot = {}
for s, n in names.items():
    d = f'{R}/heldout-{s}'
    key = json.load(open(f'{d}/blind_review_key.json'))
    if isinstance(key, dict): key = [dict(rid=k, **v) if isinstance(v, dict) else {'rid': k, 'code': v} for k, v in key.items()]
    inp = {json.loads(l)['rid']: json.loads(l) for l in open(f'{d}/blind_review_input.jsonl')}
    rev = {json.loads(l)['rid']: json.loads(l) for l in open(f'{d}/blind_review.jsonl')}
    ops = {json.loads(l)['task_id']: json.loads(l) for l in open(f'{run}/{n}/operations.jsonl')}
    wrong = {}
    for k in key:
        r = rev.get(k['rid'])
        if r is None or r.get('correct', r.get('draft_correct')): continue
        wrong.setdefault(k['task_id'], k['rid'])
    acc = sum(o['accepted'] for o in ops.values())
    out = []
    for tid, rid in sorted(wrong.items()):
        o = ops[tid]
        draft = inp[rid].get('draft') or inp[rid].get('output')
        st = 'declined' if not o['accepted'] else ('same' if o['output'].strip() == (draft or '').strip() else 'changed')
        out.append(f'{tid}:{st}')
    still = sum(1 for x in out if not x.endswith('declined'))
    print(f'{s}: accepted {acc}; judged wrong {len(wrong)}; still accepted {still}: ' + ', '.join(out))
