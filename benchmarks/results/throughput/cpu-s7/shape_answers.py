"""Do answers change when the query model runs on fixed-shape compiles (PRECEDENT_QUERY_SHAPES)
rather than its dynamic-shape one? (issue 39, session 7)

The served pipeline (learned ranker, folding, spans; no LLM) twice over the same index: A's
query model as shipped, B's the same model with SHAPES; each query embedded alone. Compared:
the page as served (each result's id, then its folded copies' ids) on never-seen short
texts, and on ACORD train + valid (test never opened) in every query shape and the own
drafts: pages identical, and NDCG@5 of the top ten (this script's cut, not the quality
benchmark's 1,000 deep) with the paired difference's 95% bootstrap interval.
    python benchmarks/results/throughput/cpu-s7/shape_answers.py INDEX SHAPES TEXTS

Needs the PRECEDENT_QUERY_SHAPES code of commits 338f5a7/eb82459 (reverted in 227b5a3); not run.
"""
import json, sys, time
from dataclasses import replace
from pathlib import Path
import numpy as np
from index_builder.settings import load_settings
from index_builder.index import embedder as emb, load_embedder
from index_builder.retrieve.pipeline import SearchRequest, build_pipeline
from index_builder.evaluate.acord import load_acord
from index_builder.evaluate.evaluation import eval_queries, score_ranking
from precedent_bench.retrieval.ltr_data import draft_queries
from precedent_bench.unseen import library_texts, unseen

index, shapes, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
settings = load_settings(overrides={"index_dir": index})
query = emb.query_settings(settings.embedding)
models = {"A": load_embedder(query), "B": load_embedder(replace(query, query_shapes=shapes))}

class Alone:
    def __init__(self, model):
        self.model, self.model_id, self.dimension = model, model.model_id, model.dimension
    def embed(self, ts, *, show_progress=False):
        return np.stack([self.model.embed([t])[0] for t in ts])

pipes = {name: build_pipeline(settings, Alone(model)) for name, model in models.items()}
def page(name, text, k=10):
    out = pipes[name].search(SearchRequest(text=text, rerank=False, top_k=k))
    return [(r.hit.clause.clause_id, tuple(v.clause.clause_id for v, _ in r.variants)) for r in out.results]

print(time.strftime("%H:%M UTC", time.gmtime()), "shapes", shapes)
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", count, seed=77)
same = sum(page("A", t) == page("B", t) for t in texts)
print(f"never-seen short texts: pages identical {same} of {len(texts)}", flush=True)
acord = load_acord(Path("/work/shared/data/acord"))
corpus = {json.loads(l)["_id"]: json.loads(l)["text"] for l in open("/work/shared/data/acord/corpus.jsonl")}
rng = np.random.default_rng(39)
forms = [("query", "short"), ("query", "medium"), ("query", "long"), ("clause", "short"), ("fresh", ""), ("synth", "")]
for mode, wording in forms:
    if mode in ("fresh", "synth"):
        try:
            qs = [q for split in ("train", "valid") for q in draft_queries(acord, split, mode)]
        except FileNotFoundError as exc:
            print(mode, "not run:", exc); continue
    else:
        qs = [q for split in ("train", "valid") for q in eval_queries(acord, split, wording, mode, corpus)]
    if not qs:
        print(mode, "no queries"); continue
    nd = {"A": [], "B": []}; same_q = 0
    for q in qs:
        pages = {name: page(name, q.text, 11) for name in nd}
        tops = {name: [c for c, _ in pages[name] if c != q.exclude][:10] for name in nd}
        for name in nd:
            nd[name].append(score_ranking(tops[name], q.judged)["ndcg@5"])
        same_q += pages["A"] == pages["B"]
    diff = np.array(nd["B"]) - np.array(nd["A"])
    boots = [diff[rng.integers(0, len(diff), len(diff))].mean() for _ in range(2000)]
    low, high = np.percentile(boots, [2.5, 97.5])
    print(f"ACORD train+valid {mode} {wording} ({len(qs)}): pages identical {same_q} of {len(qs)}; "
          f"NDCG@5 A {np.mean(nd['A']):.2f} B {np.mean(nd['B']):.2f}; B - A {diff.mean():+.2f} [{low:+.2f}, {high:+.2f}]", flush=True)
print(time.strftime("%H:%M UTC", time.gmtime()), "done")
