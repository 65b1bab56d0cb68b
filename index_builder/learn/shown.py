"""What a lawyer was shown, as the learner needs it: clause ids, ranks and feature rows.

The feature rows are those the learned fusion scored the results with (retrieve/ltr.py),
computed once at search time, when the query text is at hand; afterwards only the numbers
are kept, so ``index-builder learn`` never needs (nor has) the query.

``swap_adjacent`` is the randomised intervention behind position-bias estimates: in a
small share of searches (``PRECEDENT_FEEDBACK_SWAP_SHARE``) two neighbouring results at
a random place trade places; comparing how often the same result is picked one place
lower tells how much the position alone draws the click (relearn.propensities).
"""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from typing import Any

from index_builder.learn.store import ShownItem
from index_builder.retrieve.ltr import FeatureExtractor
from index_builder.retrieve.pipeline import SearchOutcome

log = logging.getLogger(__name__)
SWAP_DEPTH = 10  # swaps happen among the first ten results, where the clicks are


def extractor_of(pipeline: Any) -> FeatureExtractor:
    """The serving ranker's extractor, else one over the pipeline's glossary (RRF servers)."""
    extractor = getattr(pipeline.rescorer, "extractor", None)
    if isinstance(extractor, FeatureExtractor):
        return extractor
    return FeatureExtractor(pipeline.expander, pipeline.settings.retrieval.rrf_k)


def ranker_version(pipeline: Any) -> str:
    """The learned ranker's version, or what orders results without one."""
    version = getattr(pipeline.rescorer, "version", "")
    if version:
        return str(version)
    return type(pipeline.rescorer).__name__ if pipeline.rescorer is not None else "rrf"


def shown_items(pipeline: Any, query: str, outcome: SearchOutcome) -> list[ShownItem]:
    """One item per result (position = served place) and per folded copy (position 0).

    Feature rows are those over the whole fused pool (per-query maxima need it), for the
    results only: the learned ranker's own (``outcome.feature_rows``) when it scored exactly
    that pool, else computed here; a search by examples alone has no query, so no rows.
    """
    rows = {}
    pool = outcome.candidates
    if query.strip() and outcome.feature_rows:  # the rows the ranker scored this pool with
        wanted_ids = {r.hit.clause.clause_id for r in outcome.results}
        rows = {cid: row for cid, row in outcome.feature_rows.items() if cid in wanted_ids}
    elif query.strip() and pool:
        index = {h.clause.clause_id: i for i, h in enumerate(pool)}
        wanted = [index[r.hit.clause.clause_id] for r in outcome.results
                  if r.hit.clause.clause_id in index]
        if wanted:
            matrix = extractor_of(pipeline)(query, pool, wanted)
            rows = {pool[i].clause.clause_id: matrix[j] for j, i in enumerate(wanted)}
    items = []
    for position, result in enumerate(outcome.results, 1):
        cid = result.hit.clause.clause_id
        items.append(ShownItem(position, result.rank, cid, rows.get(cid)))
        items.extend(ShownItem(0, result.rank, hit.clause.clause_id) for hit, _ in result.variants)
    return items


def swap_adjacent(outcome: SearchOutcome, rng: random.Random) -> tuple[SearchOutcome, int | None]:
    """The outcome with results p and p+1 exchanged (p random, 1-based), and p; ranks renumbered."""
    n = min(len(outcome.results), SWAP_DEPTH)
    if n < 2:
        return outcome, None
    p = rng.randrange(1, n)
    results = list(outcome.results)
    results[p - 1], results[p] = results[p], results[p - 1]
    renumbered = [replace(r, rank=i) for i, r in enumerate(results, 1)]
    return replace(outcome, results=renumbered), p
