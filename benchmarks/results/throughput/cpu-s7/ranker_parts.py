"""Where the learned ranker's 1.16 ms a pool goes: the per-hit parts timed alone on 300 captured
pools (var/pools.pkl, written by capture_pools.py: ranker_rows_cpu.py's pools with their glossary
definitions), best of 3, time.thread_time (issue 39, session 7)."""
import pickle, time, sys, math
import numpy as np
from index_builder.retrieve import ltr
pools, defs = pickle.load(open("var/pools.pkl", "rb"))
class E:
    def definitions(self, q): return defs[q]
ex = ltr.FeatureExtractor(E())
for t, p in pools: ex(t, p)
T = ex._terms
def prep(query):
    q_terms = ltr.content_terms(query); q_set = set(q_terms); pairs = list(zip(q_terms, q_terms[1:]))
    d_set = set(ltr.content_terms(" ".join(defs[query]))) - q_set
    capitals = {c.casefold() for c in ltr._CAPITAL.findall(query)} if len(q_terms) > 1 else set()
    return q_set, pairs, ltr._pairs_by_first(pairs), d_set, capitals
P = [(prep(t), p) for t, p in pools]
def v_prep():
    for t, p in pools: prep(t)
def v_terms():
    for _, p in P:
        for h in p: T.get(h.clause.clause_id, h.clause.text)
def v_sets():
    for (q, pairs, pc, d, c), p in P:
        for h in p:
            k = T.get(h.clause.clause_id, h.clause.text).positions.keys(); len(q & k); len(d & k)
def v_pairs():
    for (q, pairs, pc, d, c), p in P:
        for h in p:
            f = T.get(h.clause.clause_id, h.clause.text)
            if pairs: ltr._pair_distances(f, pc, 4)
def v_caps():
    for (q, pairs, pc, d, c), p in P:
        for h in p:
            f = T.get(h.clause.clause_id, h.clause.text)
            if c: ltr._capital_cover(c, f.folded)
def v_full():
    for t, p in pools: ex(t, p)
for name, f in [("prep", v_prep), ("terms", v_terms), ("terms+sets", v_sets), ("terms+pairs", v_pairs), ("terms+caps", v_caps), ("full", v_full)]:
    best = 9
    for _ in range(3):
        b = time.thread_time(); f(); best = min(best, time.thread_time() - b)
    print(name, round(best * 1000 / len(pools), 3), "ms a pool")
print("mean pairs", np.mean([len(x[0][1]) for x in P]), "capitals share", np.mean([bool(x[0][4]) for x in P]), "d_set share", np.mean([bool(x[0][3]) for x in P]))
