"""Captures 300 never-seen short texts' fused pools (ranker off) and their glossary definitions to
var/pools.pkl, for ranker_parts.py (issue 39, session 7)."""
import logging, pickle, sys
from dataclasses import replace
from pathlib import Path
from index_builder.index.batcher import query_embedder
from index_builder.retrieve.pipeline import SearchRequest, build_pipeline
from index_builder.settings import load_settings
from precedent_bench.unseen import library_texts, unseen
logging.disable(logging.WARNING)
settings = load_settings(overrides={"index_dir": Path("/work/wt/i39-batch/var/acord-index"), "acord_dir": Path("/work/shared/data/acord")})
embedder = query_embedder(settings.embedding)
plain = build_pipeline(replace(settings, retrieval=replace(settings.retrieval, ranker="none")), embedder)
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", 300, seed=71)
pools = [(t, plain.candidates(t, [], SearchRequest(text=t), 10)) for t in texts]
pickle.dump((pools, {t: plain.expander.definitions(t) for t, _ in pools}), open("var/pools.pkl", "wb"))
