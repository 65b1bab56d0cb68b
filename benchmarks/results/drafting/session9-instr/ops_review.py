# Every accepted operation of a run on the six spent held-out halves (c..h), against the blind
# reviews of those halves: right (a review read this very draft and judged it correct), WRONG (a
# review judged this draft wrong), or unreviewed (a draft no review read: read it by hand).
# usage: python ops_review.py RUN_DIR [--all]   (RUN_DIR as written by /work/coord/runsets.sh)
import json, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
R = os.path.normpath(os.path.join(HERE, '..'))


def reviews(s):
    d = f'{R}/heldout-{s}'
    key = json.load(open(f'{d}/blind_review_key.json'))
    inp = {json.loads(l)['rid']: json.loads(l) for l in open(f'{d}/blind_review_input.jsonl')}
    rev = {json.loads(l)['rid']: json.loads(l) for l in open(f'{d}/blind_review.jsonl')}
    out = {}
    for k in key:
        r, i = rev.get(k['rid']), inp.get(k['rid'])
        if r is None or i is None:
            continue
        draft = (i.get('draft') or i.get('output') or '').strip()
        ok = r.get('correct', r.get('draft_correct'))
        out[(k['task_id'], draft)] = (ok, r.get('reason', ''))
    return out


def main(run, show_all=False):
    tot = {'right': 0, 'WRONG': 0, 'unreviewed': 0}
    for s in 'cdefgh':
        rv = reviews(s)
        wrong_tasks = {t for (t, _), (ok, _) in rv.items() if not ok}
        right_tasks = {t for (t, _), (ok, _) in rv.items() if ok}
        if not os.path.exists(f'{run}/drafting-{s}_heldout/operations.jsonl'):
            continue
        ops = [json.loads(l) for l in open(f'{run}/drafting-{s}_heldout/operations.jsonl')]
        rows = []
        for o in ops:
            if not o['accepted']:
                if show_all and (o['task_id'] in right_tasks):
                    rows.append(f"  declined (a review judged a draft right): {o['task_id']} {o.get('declined', {}) and (o['declined'] or {}).get('message', '')[:150]}")
                continue
            v = rv.get((o['task_id'], (o['output'] or '').strip()))
            st = 'unreviewed' if v is None else ('right' if v[0] else 'WRONG')
            tot[st] += 1
            rows.append(f"  {st:10} {o['task_id']:16} {o['operation']:10} shown_passed={o.get('shown_passed')}")
        print(f'{s}: accepted {sum(o["accepted"] for o in ops)}')
        print('\n'.join(rows))
    print('total', tot)


if __name__ == '__main__':
    main(sys.argv[1], '--all' in sys.argv)
