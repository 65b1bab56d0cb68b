"""Held-out check of the glossary (benchmarks/results/quality.md, step 7).

The glossary's author had read all ACORD short queries, test included. This keeps only the
entries that some train/valid query uses, as if the glossary had been written from those
alone, and scores the test split with the full glossary, the reduced one and none.

    python benchmarks/glossary_heldout.py [--data ../shared/data/acord]   (about a minute)
"""

from __future__ import annotations

import argparse
import logging
from dataclasses import replace
from pathlib import Path
from typing import Mapping

from index_builder.evaluate.acord import Acord, load_acord
from index_builder.index.embedder import SentenceTransformerEmbedder
from index_builder.evaluate.evaluation import eval_queries, run_queries, score_runs
from index_builder.retrieve.glossary import GLOSSARY
from index_builder.retrieve.query_expansion import QueryExpander
from index_builder.retrieve.hybrid import HybridRetriever
from index_builder.settings import load_settings
from index_builder.index.store import load_index


def used_by(queries: list[str], glossary: Mapping[str, str]) -> dict[str, str]:
    """The entries whose definition some query would receive."""
    return {aliases: definition for aliases, definition in glossary.items()
            if any(QueryExpander({aliases: definition}).definitions(q) for q in queries)}


def score_test(acord: Acord, retriever: HybridRetriever, glossary: Mapping[str, str]) -> dict[str, float]:
    expander = QueryExpander(glossary)
    queries = eval_queries(acord, "test")
    runs, _ = run_queries(queries, lambda t: retriever.search(expander.expand(t), top_k=1000, depth=1000),
                          progress=False)
    return score_runs(queries, runs).overall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/acord"))
    parser.add_argument("--index", type=Path, default=Path("var/acord-index"))
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    settings = load_settings(overrides={"index_dir": args.index, "acord_dir": args.data})
    acord = load_acord(settings.acord_dir)
    # Expansion is applied here, per glossary, so the retriever itself must not expand.
    plain = replace(settings.retrieval, candidate_depth=1000, query_expansion="none")
    retriever = HybridRetriever(load_index(settings.index_dir),
                                SentenceTransformerEmbedder(settings.embedding), plain)
    seen = used_by([q.text for q in acord.queries.values() if q.split in ("train", "valid")], GLOSSARY)
    test_only = set(used_by([q.text for q in acord.split_queries("test")], GLOSSARY)) - set(seen)
    print(f"glossary entries: {len(GLOSSARY)}; used by a train/valid query: {len(seen)}; "
          f"used only by test queries: {len(test_only)}")
    for name, glossary in (("full", GLOSSARY), ("train/valid terms only", seen), ("none", {})):
        m = score_test(acord, retriever, glossary)
        print(f"{name:>24}: test short NDCG@5 {m['ndcg@5']:.1f}  NDCG@10 {m['ndcg@10']:.1f}  "
              f"4-star P@5 {m['p@5_4star']:.1f}")


if __name__ == "__main__":
    main()
