"""Which rule lets each pair of the citation set through, by kind (session 8, fixes8; read-only).

    PYTHONPATH=$PWD python benchmarks/results/citations/session8/by_kind.py
"""
from collections import Counter
from addin_server.draft import support as S
from precedent_bench.drafting.citation_support import CONTRACTS, build_examples, is_test, load_documents
ex=build_examples(load_documents(CONTRACTS))
now=Counter(); alt=Counter(); n=Counter(); why=Counter()
for e in ex:
    part='held-out' if is_test(e.family) else 'train'
    s=S.score_support(e.sentence,e.clause)
    f=S.features(e.sentence,e.clause,"")
    n[(part,e.kind)]+=1
    now[(part,e.kind)]+=s.supported
    above=s.score>=S.THRESHOLD
    para = (not above) and f.coverage>=S.PARAPHRASE_COVERAGE and not f.amount and not f.party and not S._opposed(e.sentence, e.clause[f.passage[0]:f.passage[1]])
    if s.supported and not above: why[(part,e.kind,'paraphrase rule' if para else 'own-words rule')]+=1
    if s.supported and above: why[(part,e.kind,'score')]+=1
    alt[(part,e.kind)]+= s.supported and not (para and f.negation)
for k in sorted(n): print(k, n[k], 'passed now', now[k], 'if the paraphrase rule required equal negations', alt[k])
for k in sorted(why): print(' ', k, why[k])
