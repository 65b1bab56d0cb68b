"""Do answers change when the query model runs on fixed-shape compiles? (issue 39, session 8;
session 7's script, run on this branch's code.)

The served pipeline (learned ranker, folding, spans; no LLM) over the same index twice: A's
query model as shipped (dynamic shapes), B's with PRECEDENT_QUERY_SHAPES=SHAPES. Each query is
embedded alone (MODE=alone) or in a pair with the next query of its list (MODE=pairs: B's
2xL shapes, as the batcher's calls of two texts run; A always alone). Compared: the page as
served (each result's id, then its folded copies' ids) on never-seen short texts, and on ACORD
train + valid (test never opened) in every query shape and the own drafts: pages identical, and
NDCG@5 of the top ten with the paired difference's 95% bootstrap interval.
    python benchmarks/results/throughput/cpu-s8/shape_answers.py INDEX SHAPES TEXTS MODE
"""
import json, os, sys, time
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

index, shapes, count, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
settings = load_settings(overrides={"index_dir": index})
query = emb.query_settings(settings.embedding)
query = replace(query, threads=max(query.threads, query.query_workers))
from index_builder.settings.search import parse_query_shapes
models = {"A": load_embedder(query), "B": load_embedder(query)}
models["B"].use_fixed_shapes(parse_query_shapes(shapes), 1)  # as query_embedder does
partner: dict[str, str] = {}


class Alone:
    def __init__(self, model, pairs):
        self.model, self.model_id, self.dimension, self.pairs = model, model.model_id, model.dimension, pairs
    def embed(self, ts, *, show_progress=False):
        if self.pairs:
            return np.stack([self.model.embed([t, partner.get(t, t)])[0] for t in ts])
        return np.stack([self.model.embed([t])[0] for t in ts])


pipes = {"A": build_pipeline(settings, Alone(models["A"], False)),
         "B": build_pipeline(settings, Alone(models["B"], mode == "pairs"))}
expander = pipes["A"].expander
def page(name, text, k=10):
    out = pipes[name].search(SearchRequest(text=text, rerank=False, top_k=k))
    return [(r.hit.clause.clause_id, tuple(v.clause.clause_id for v, _ in r.variants)) for r in out.results]
def partners(texts):
    full = [expander.expand(t) if expander else t for t in texts]
    for a, b in zip(full, full[1:] + full[:1]):
        partner[a] = b

print(time.strftime("%H:%M UTC", time.gmtime()), "shapes", shapes, "mode", mode, flush=True)
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", count, seed=77)
partners(texts)
same = sum(page("A", t) == page("B", t) for t in texts)
print(f"never-seen short texts: pages identical {same} of {len(texts)}", flush=True)
acord = load_acord(Path("/work/shared/data/acord"))
corpus = {json.loads(l)["_id"]: json.loads(l)["text"] for l in open("/work/shared/data/acord/corpus.jsonl")}
rng = np.random.default_rng(39)
forms = [("query", "short"), ("query", "medium"), ("query", "long"), ("clause", "short"), ("fresh", ""), ("synth", "")]
pooled = []
for mode_, wording in forms:
    if mode_ in ("fresh", "synth"):
        try:
            qs = [q for split in ("train", "valid") for q in draft_queries(acord, split, mode_)]
        except FileNotFoundError as exc:
            print(mode_, "not run:", exc); continue
    else:
        qs = [q for split in ("train", "valid") for q in eval_queries(acord, split, wording, mode_, corpus)]
    if not qs:
        print(mode_, "no queries"); continue
    partners([q.text for q in qs])
    nd = {"A": [], "B": []}; same_q = 0
    for q in qs:
        pages = {name: page(name, q.text, 11) for name in nd}
        tops = {name: [c for c, _ in pages[name] if c != q.exclude][:10] for name in nd}
        for name in nd:
            nd[name].append(score_ranking(tops[name], q.judged)["ndcg@5"])
        same_q += pages["A"] == pages["B"]
    diff = np.array(nd["B"]) - np.array(nd["A"]); pooled.extend(diff)
    boots = [diff[rng.integers(0, len(diff), len(diff))].mean() for _ in range(2000)]
    low, high = np.percentile(boots, [2.5, 97.5])
    print(f"ACORD train+valid {mode_} {wording} ({len(qs)}): pages identical {same_q} of {len(qs)}; "
          f"NDCG@5 A {np.mean(nd['A']):.2f} B {np.mean(nd['B']):.2f}; B - A {diff.mean():+.2f} [{low:+.2f}, {high:+.2f}]; "
          f"queries moved {int(np.sum(diff != 0))}", flush=True)
pooled = np.array(pooled)
boots = [pooled[rng.integers(0, len(pooled), len(pooled))].mean() for _ in range(2000)]
low, high = np.percentile(boots, [2.5, 97.5])
print(f"all {len(pooled)} queries: B - A {pooled.mean():+.2f} [{low:+.2f}, {high:+.2f}]")
print(time.strftime("%H:%M UTC", time.gmtime()), "done")
