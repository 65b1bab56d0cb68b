"""Every negation / exception / limit reader the polarity refactor moved, run over every text of the spent
labelled sets (22,759 distinct strings; drafting-i never opened): run under each tree's PYTHONPATH, then compare.

    PYTHONPATH=/work/wt/main-bf1d0ff python eq.py /tmp/old.json
    PYTHONPATH=$PWD python eq.py /tmp/new.json
    python eq.py --compare /tmp/old.json /tmp/new.json
"""
import json, re, sys, glob
if sys.argv[1] == '--compare':
    o, n = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
    print('texts', o['n'], n['n'], '| word sets equal:', o['sets'] == n['sets'], '| pattern strings equal:', o['strings'] == n['strings'])
    for k in o:
        if k not in ('sets', 'strings', 'n'):
            print(k, {w: sum(a != b for a, b in zip(o[k][w], n[k][w])) for w in ('search', 'match', 'spans')})
    sys.exit(0)
texts = []
for f in sorted(glob.glob('/work/main/benchmarks/sets/**/*.jsonl', recursive=True)):
    if 'drafting-i/' in f: continue  # never open drafting-i
    for line in open(f):
        def walk(x):
            if isinstance(x, str) and len(x) > 3: texts.append(x)
            elif isinstance(x, dict): [walk(v) for v in x.values()]
            elif isinstance(x, list): [walk(v) for v in x]
        walk(json.loads(line))
texts = sorted(set(texts))
from addin_server.draft import support, compare_base as cb, compare_logic as cl, carve_out as co, parts_carve_out as pc
from index_builder.reading import caps, binding, logic
new = 'index_builder.reading.polarity' in sys.modules
pats = {'support._EXCEPTION': support._EXCEPTION, 'cb._LIMIT_PHRASES': cb._LIMIT_PHRASES, 'cb._NON_NOUNS': cb._NON_NOUNS,
        'cl._NEGATIVE_WORD': cl._NEGATIVE_WORD, 'co._EXCEPTION': co._EXCEPTION, 'pc._EXCEPTION_WORDS': pc._EXCEPTION_WORDS,
        'pc._AN_EXCEPTION': pc._AN_EXCEPTION, 'pc._KEEPS_LIMIT': pc._KEEPS_LIMIT, 'pc._LIFTS_LIMIT': pc._LIFTS_LIMIT,
        'caps._LIMIT': caps._LIMIT, 'logic._TURN': logic._TURN}
if new:
    from index_builder.reading import polarity as P
    pats |= {'inline.checks_support': P.negation_or_exception(nor=True), 'inline.additions53': P.negation_or_exception(),
             'inline.additions87': P.negation_or_exception(nothing=False), 'inline.meaning': P.turning_word}
else:
    pats |= {'inline.checks_support': re.compile(r"\b(?:not|no|nor|except|unless|exclud\w*|does not|nothing)\b", re.I),
             'inline.additions53': re.compile(r"\b(?:not|no|except|unless|exclud\w*|does not|nothing)\b", re.I),
             'inline.additions87': re.compile(r"\b(?:not|no|except|unless|exclud\w*)\b", re.I),
             'inline.meaning': re.compile(r"\b(?:shall|will|must|may|not|only|except|unless)\b", re.I)}
out = {'sets': {k: sorted(v) for k, v in {'support._NEGATORS': support._NEGATORS, 'support._LIMITING': support._LIMITING,
       'cb._NEG': cb._NEG, 'cb._ONLY': cb._ONLY, 'cb._EXCEPT': cb._EXCEPT}.items()},
       'strings': {'caps._NEG': caps._NEG, 'binding._NEG': binding._NEG}, 'n': len(texts)}
for k, p in pats.items():
    out[k] = {'search': [bool(p.search(t)) for t in texts], 'match': [bool(p.match(t)) for t in texts],
              'spans': [[m.span() for m in p.finditer(t)] for t in texts]}
json.dump(out, open(sys.argv[1], 'w'))
