"""Join a harness run (json from harness.py) with the blind reviews of heldout c..i.
Per accepted op: verdict of the reviewed draft with the same output (RIGHT/WRONG), or NEW (unreviewed output).
Usage: blind.py BASE.json [AFTER.json]"""
import json, sys
R = '/work/main/benchmarks/results/drafting'
def verdicts(s):
    d = f'{R}/heldout-{s}'
    key = json.load(open(f'{d}/blind_review_key.json'))
    if isinstance(key, dict): key = [dict(rid=k, **v) if isinstance(v, dict) else {'rid': k, 'code': v} for k, v in key.items()]
    inp = {json.loads(l)['rid']: json.loads(l) for l in open(f'{d}/blind_review_input.jsonl')}
    rev = {json.loads(l)['rid']: json.loads(l) for l in open(f'{d}/blind_review.jsonl')}
    out = {}
    for k in key:
        r = rev.get(k['rid'])
        if r is None: continue
        c = r.get('correct', r.get('draft_correct'))
        out.setdefault(k['task_id'], {})[(inp[k['rid']]['draft'] or '').strip()] = 'RIGHT' if c else 'WRONG'
    return out
def judge(run, s, V):
    rows = {r['task_id']: r for r in run[f'drafting-{s}_heldout']}
    res = {}
    for tid, r in rows.items():
        if not r['accepted']: continue
        res[tid] = V.get(tid, {}).get((r['output'] or '').strip(), 'NEW')
    return res
if __name__ == "__main__":
    base = None if __name__ != "__main__" else json.load(open(sys.argv[1])); after = json.load(open(sys.argv[2])) if len(sys.argv) > 2 else None
    T = dict(acc=0, right=0, wrong=0, new=0, a_acc=0, a_right_same=0, a_wrong_declined=0, a_wrong_still=0, a_right_lost=0, a_new=0)
    for s in 'cdefghi':
        V = verdicts(s); b = judge(base, s, V)
        line = f"{s}: base accepted {len(b)} right {sum(v=='RIGHT' for v in b.values())} wrong {sum(v=='WRONG' for v in b.values())} unreviewed {sum(v=='NEW' for v in b.values())}"
        T['acc'] += len(b); T['right'] += sum(v=='RIGHT' for v in b.values()); T['wrong'] += sum(v=='WRONG' for v in b.values()); T['new'] += sum(v=='NEW' for v in b.values())
        if after:
            a = judge(after, s, V)
            rs = [t for t, v in b.items() if v == 'RIGHT' and a.get(t) == 'RIGHT']
            wd = [t for t, v in b.items() if v == 'WRONG' and t not in a]
            ws = [t for t, v in b.items() if v == 'WRONG' and a.get(t) == 'WRONG']
            wc = [t for t, v in b.items() if v == 'WRONG' and a.get(t) == 'NEW']
            rl = [t for t, v in b.items() if v == 'RIGHT' and a.get(t) != 'RIGHT']
            nw = [t for t in a if a[t] == 'NEW']
            line += f" | after accepted {len(a)} right-same {len(rs)} wrong-declined {len(wd)} {wd} wrong-still {len(ws)} {ws} wrong-now-other-output {wc} RIGHT-LOST {rl} unreviewed {nw}"
            for k, v in (('a_acc', len(a)), ('a_right_same', len(rs)), ('a_wrong_declined', len(wd)), ('a_wrong_still', len(ws)), ('a_right_lost', len(rl)), ('a_new', len(nw))): T[k] += v
        print(line)
    print('TOTAL', T)
    if len(sys.argv) > 2:
        for k in base:
            bb = {r['task_id']: r for r in base[k]}; aa = {r['task_id']: r for r in after[k]}
            ch = [t for t in bb if (bb[t]['accepted'], bb[t]['output']) != (aa[t]['accepted'], aa[t]['output'])]
            if ch: print(k, 'changed:', ', '.join(f"{t}({'acc' if bb[t]['accepted'] else 'dec'}->{'acc' if aa[t]['accepted'] else 'dec'})" for t in ch))
