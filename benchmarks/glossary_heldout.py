"""Held-out check of the glossary (benchmarks/results/quality.md, step 7).

The glossary author had read all ACORD short queries, test included. This keeps only the
entries that some train/valid query uses, as if the glossary had been written from those
alone, and scores the test split with the full, the reduced and no glossary.

    python benchmarks/glossary_heldout.py   (about a minute)
"""
import json, logging
from dataclasses import replace
from index_builder.acord import load_acord
from index_builder.embedder import SentenceTransformerEmbedder
from index_builder.evaluation import eval_queries, run_queries, score_runs
from index_builder.glossary import GLOSSARY
from index_builder.query_expansion import QueryExpander
from index_builder.retrieval import HybridRetriever
from index_builder.settings import load_settings
from index_builder.store import load_index

logging.disable(logging.WARNING)
s = load_settings({}, {"index_dir": "var/acord-index", "acord_dir": "../shared/data/acord"})
acord = load_acord(s.acord_dir)
index = load_index(s.index_dir)
emb = SentenceTransformerEmbedder(s.embedding)
seen = [q.text for q in acord.queries.values() if q.split in ("train", "valid")]
kept = {aliases: d for aliases, d in GLOSSARY.items()
        if any(d in QueryExpander({aliases: d}).definitions(t) for t in seen)}
print(f"glossary entries: {len(GLOSSARY)}; used by a train/valid query: {len(kept)}")
test_only = [a for a in GLOSSARY if a not in kept and any(GLOSSARY[a] in QueryExpander({a: GLOSSARY[a]}).definitions(q.text) for q in acord.split_queries("test"))]
print("entries that only test queries use:", len(test_only), test_only[:12])
for name, glossary in (("full", GLOSSARY), ("train/valid terms only", kept), ("none", {})):
    r = HybridRetriever(index, emb, replace(s.retrieval, candidate_depth=1000, query_expansion="none"))
    ex = QueryExpander(glossary)
    qs = eval_queries(acord, "test")
    runs, _ = run_queries(qs, lambda t: r.search(ex.expand(t), top_k=1000, depth=1000), progress=False)
    m = score_runs(qs, runs).overall
    print(f"{name:>24}: test short NDCG@5 {m['ndcg@5']:.1f}  NDCG@10 {m['ndcg@10']:.1f}  4* {m['p@5_4star']:.1f}")
