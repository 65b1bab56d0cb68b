"""Do answers change when a query is embedded in a batch of 4 (with 3 other never-seen texts)
rather than alone? Top-10 ids on never-seen short texts, and NDCG@5 on ACORD train+valid."""
import csv, json, math, random, sys
from dataclasses import replace
from pathlib import Path
import numpy as np
from index_builder.settings import load_settings
from index_builder.index import embedder as emb, load_embedder
from index_builder.retrieve.pipeline import SearchRequest, build_pipeline
from precedent_bench.unseen import library_texts, unseen

settings = load_settings(overrides={"index_dir": "/work/wt/i39-batch/var/acord-index"})
model = load_embedder(replace(emb.query_settings(settings.embedding), threads=1))
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 40_000)
fillers = texts[-3000:]
rng = random.Random(39)

class Alone:
    model_id, dimension = model.model_id, model.dimension
    def embed(self, ts, *, show_progress=False):
        return np.stack([model.embed([t])[0] for t in ts])

class InFours:
    model_id, dimension = model.model_id, model.dimension
    def embed(self, ts, *, show_progress=False):
        return np.stack([model.embed([t] + rng.sample(fillers, 3))[0] for t in ts])

pipes = {"alone": build_pipeline(settings, Alone()), "fours": build_pipeline(settings, InFours())}
def top(name, q, k=10):
    out = pipes[name].search(SearchRequest(text=q, rerank=False, top_k=k))
    return [r.hit.clause.clause_id for r in out.results]

n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
same = 0; diff = []
for q in texts[:n]:
    a, b = top("alone", q), top("fours", q)
    same += a == b
    if a != b: diff.append((q, a, b))
print(f"never-seen short texts: top-10 identical {same} of {n}")
for q, a, b in diff[:5]:
    print("  differs:", len(q.split()), "words; first diff at", next(i for i, (x, y) in enumerate(zip(a + [None]*10, b + [None]*10)) if x != y))

# ACORD train+valid with the repo's own eval queries and metric (index_builder/evaluate)
from index_builder.evaluate.acord import load_acord
from index_builder.evaluate.evaluation import eval_queries, score_ranking
acord = load_acord(Path("/work/shared/data/acord"))
corpus = {json.loads(l)["_id"]: json.loads(l)["text"] for l in open("/work/shared/data/acord/corpus.jsonl")}
for mode, wording in (("query", "short"), ("query", "medium"), ("query", "long"), ("clause", "short")):
    qs = [q for split in ("train", "valid") for q in eval_queries(acord, split, wording, mode, corpus)]
    if mode == "clause":
        qs = qs[:int(sys.argv[2]) if len(sys.argv) > 2 else 150]
    nd = {"alone": [], "fours": []}; same_q = 0
    for q in qs:
        tops = {name: [c for c in top(name, q.text, 11) if c != q.exclude][:10] for name in nd}
        for name in nd:
            nd[name].append(score_ranking(tops[name], q.judged)["ndcg@5"])
        same_q += tops["alone"] == tops["fours"]
    print(f"ACORD train+valid {mode} {wording} ({len(qs)}): top-10 identical {same_q} of {len(qs)}; "
          f"NDCG@5 alone {np.mean(nd['alone']):.2f} in fours {np.mean(nd['fours']):.2f}", flush=True)
