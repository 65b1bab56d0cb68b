"""Glossary provenance check (benchmarks/results/quality/quality.md, steps 7-8).

Issue 13's rule: no glossary entry or alias may exist because of a test query. This lists,
for the shipped glossary, the entries some train/valid query uses and any alias that only
test queries use (the command fails if there is one), then scores a split with and without
the glossary through the served pipeline (RRF, no learned ranker, no folding).

    precedent-bench glossary-heldout [--split valid] [--data ../shared/data/acord]

Step 7 ran this on test with the first, 63-entry glossary: 65.1 NDCG@5 with all of it,
61.5 with the train/valid-used entries, 59.1 with none; step 8 made the second the default.
The rule covers the ACORD-derived entries (``GLOSSARY``); the served glossary adds the one
written without ACORD (step 17), which the scores below include.
"""

from __future__ import annotations

import argparse
import logging
from dataclasses import replace
from pathlib import Path
from typing import Mapping

from index_builder.evaluate.acord import load_acord
from index_builder.evaluate.runner import EvalConfig, eval_pipeline, run_acord_eval
from index_builder.index.embedder import SentenceTransformerEmbedder
from index_builder.retrieve.glossary import GLOSSARY
from index_builder.retrieve.query_expansion import QueryExpander
from index_builder.settings import load_settings

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import ACORD
from precedent_bench.common.indexes import ACORD_INDEX

log = logging.getLogger("glossary")


def used_by(queries: list[str], glossary: Mapping[str, str]) -> dict[str, str]:
    """The entries whose definition some query would receive."""
    return {aliases: definition for aliases, definition in glossary.items()
            if any(QueryExpander({aliases: definition}).definitions(q) for q in queries)}


def test_only_aliases(seen: list[str], test: list[str], glossary: Mapping[str, str]) -> list[str]:
    """Aliases that some test query uses and no train/valid query does."""
    found = []
    for aliases, definition in glossary.items():
        for alias in aliases.split("|"):
            expander = QueryExpander({alias: definition})
            if (any(expander.definitions(q) for q in test)
                    and not any(expander.definitions(q) for q in seen)):
                found.append(alias)
    return found


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--data", type=Path, default=ACORD)
    parser.add_argument("--index", type=Path, default=ACORD_INDEX)
    parser.add_argument("--split", choices=("train", "valid", "test"), default="valid")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    settings = load_settings(overrides={"index_dir": args.index, "acord_dir": args.data})
    acord = load_acord(settings.acord_dir)
    seen = [q.text for q in acord.queries.values() if q.split in ("train", "valid")]
    test = [q.text for q in acord.queries.values() if q.split == "test"]
    bad = test_only_aliases(seen, test, GLOSSARY)
    log.info("glossary entries: %d; used by a train/valid query: %d; aliases only test queries "
             "use: %d %s", len(GLOSSARY), len(used_by(seen, GLOSSARY)), len(bad), bad or "")
    embedder = SentenceTransformerEmbedder(settings.embedding)
    base = replace(settings.retrieval, ranker="none", variation_threshold=0.0)
    for expansion in ("glossary", "none"):
        s = replace(settings, retrieval=replace(base, query_expansion=expansion))
        config = EvalConfig(split=args.split)
        m = run_acord_eval(s, config, eval_pipeline(s, config, embedder), progress=False).overall
        log.info("%s short, expansion %s: NDCG@5 %.1f NDCG@10 %.1f 4-star P@5 %.1f", args.split,
                 expansion, m["ndcg@5"], m["ndcg@10"], m["p@5_4star"])
    return 1 if bad else 0
