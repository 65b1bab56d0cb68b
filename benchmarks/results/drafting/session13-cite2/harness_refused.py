import json, glob, re
import addin_server.draft.checks_terms as T
from addin_server.draft.support import stems, word_roots
def old(term, asked):
    head = re.split(r"\s+of\s+", term)[0].split()[-1]
    have, roots = set(stems(asked)), word_roots(asked)
    return any(w in have or len(w) >= 5 and w[:5] in roots for w in stems(head))
for f in sorted(glob.glob('benchmarks/sets/drafting*/*.jsonl')):
    if 'draws' in f: continue
    for l in open(f):
        d = json.loads(l)
        asked = T._without_figures(d['instruction'])
        hit=set()
        for x in d.get('drafts', []):
            for term in set(re.findall(r"\b[A-Z][a-z]+(?:\s+(?:of\s+)?[A-Z][A-Za-z]+)*", x['text'])):
                if old(term, asked) != T._names_the_ask(term, asked):
                    hit.add((x['draft_id'], term))
        if hit: print(f.split('/')[-2]+'/'+f.split('/')[-1], d['task_id'], sorted(hit)[:6])
