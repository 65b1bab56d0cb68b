"""Per set and over all sets: sound drafts flagged by each check, and broken drafts by fault (flagged / right fault), before -> after."""
import json, os, sys
from collections import Counter
B, A = sys.argv[1], sys.argv[2]
sets = [n for n in sorted(os.listdir(A)) if os.path.exists(f'{A}/{n}/drafts.jsonl') and os.path.exists(f'{B}/{n}/drafts.jsonl')]
def tally(d, names):
    by_check, by_fault, tot = Counter(), Counter(), Counter()
    for n in names:
        for r in map(json.loads, open(f'{d}/{n}/drafts.jsonl')):
            if r['sound']:
                tot['sound'] += 1; tot['sound flagged'] += r['flagged']
                for c in r['failed']: by_check[c] += 1
            else:
                f = r['fault']; by_fault[(f, 'n')] += 1; by_fault[(f, 'flagged')] += r['flagged']; by_fault[(f, 'named')] += r['named']
                tot['broken'] += 1; tot['flagged'] += r['flagged']; tot['named'] += r['named']; tot['shown passed'] += r['shown_passed']
                tot['not checked'] += (not r['flagged'] and not r['shown_passed'])
    return by_check, by_fault, tot
for label, names in (('validation: drafting-h (both halves)', [n for n in sets if 'drafting-h' in n]),
                     ('development: every other set', [n for n in sets if 'drafting-h' not in n])):
    (cb, fb, tb), (ca, fa, ta) = tally(B, names), tally(A, names)
    print(f'\n### {label} ({", ".join(names)})\n')
    print('| | before | after |\n|---|---|---|')
    for k in ('broken', 'flagged', 'named', 'shown passed', 'not checked', 'sound', 'sound flagged'):
        print(f'| {k} | {tb[k]} | {ta[k]} |')
    print('\n| sound drafts flagged by check | before | after |\n|---|---|---|')
    for c in sorted(set(cb) | set(ca)):
        print(f'| {c} | {cb[c]} | {ca[c]} |')
    print('\n| broken by fault: drafts | flagged before → after | right fault before → after |\n|---|---|---|')
    for f in sorted({k[0] for k in fb} | {k[0] for k in fa}, key=str):
        print(f'| {f} ({fb[(f, "n")]}) | {fb[(f, "flagged")]} → {fa[(f, "flagged")]} | {fb[(f, "named")]} → {fa[(f, "named")]} |')
