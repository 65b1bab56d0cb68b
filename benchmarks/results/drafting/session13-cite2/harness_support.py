import json, glob, re, sys
from addin_server.draft.support_claims import _condition_turned, _MARKERS
from index_builder.reading.sentences import sentence_spans
for f in sorted(glob.glob('benchmarks/sets/drafting*/*.jsonl')):
    if 'draws' in f: continue
    for l in open(f):
        d = json.loads(l)
        for x in d.get('drafts', []):
            t = x['text']
            for a, b in sentence_spans(t):
                s = t[a:b]
                for n in set(re.findall(r"\[(\d+)\]", s)):
                    i = int(n) - 1
                    if i >= len(d['precedents']): continue
                    r = _condition_turned(_MARKERS.sub("", s), d['precedents'][i]['text'], d['clause'])
                    if r: print(x['draft_id'], x['sound'], [q['fault'] for q in x['faults']], r)
