"""The search's CPU savings (issue 29) leave what a lawyer sees and what the learner records unchanged.

The golden file was written by the code before the savings (commit 97ca5a0: the ranker's
features computed twice, LightGBM's predictor rebuilt per call, no per-version caches) over
the mini ACORD library plus near copies, with the hashing embedder: for each query, the
served results (clause id, score, rank) and their folded copies with their similarity.
"""

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from index_builder.index.build import build_index
from index_builder.learn.shown import shown_items
from index_builder.index import clausedb
from index_builder.model import Clause, SearchHit
from index_builder.retrieve.ltr import (_CAPITAL, _WINDOW, FEATURES, FeatureExtractor,
                                        LearnedFusion, _ClauseTerms, _pair_distances,
                                        _pairs_by_first, content_terms)
from index_builder.retrieve.query_expansion import QueryExpander
from index_builder.retrieve.pipeline import Example, SearchRequest, build_pipeline
from index_builder.settings import load_settings

GOLDEN = Path(__file__).parent / "search_cost_golden.json"


def served(outcome) -> list:
    return [[r.hit.clause.clause_id, round(r.hit.score, 9), r.rank,
             [[v.clause.clause_id, s] for v, s in r.variants]] for r in outcome.results]


def near_copies(mini_acord: Path, out: Path) -> Path:
    """A second library of near copies of the first clauses (renumbered, one word changed),
    so the results have folded variations too."""
    rows = [json.loads(line) for line in (mini_acord / "corpus.jsonl").read_text().splitlines()]
    out.mkdir()
    with (out / "corpus.jsonl").open("w") as f:
        for n, row in enumerate(rows[:12]):
            words = row["text"].split()
            words[len(words) // 2] = "such"
            for copy in range(1 + n % 3):
                f.write(json.dumps({"_id": f"copy-{n}-{copy}", "title": "",
                                    "text": f"{copy + 2}.{n} " + " ".join(words)}) + "\n")
    return out


@pytest.fixture(scope="module")
def mini(tmp_path_factory, mini_acord, embedder_factory):
    folder = tmp_path_factory.mktemp("cost")
    settings = load_settings({}, {"index_dir": folder / "index"})
    embedder = embedder_factory()
    build_index(settings, [mini_acord, near_copies(mini_acord, folder / "copies")], embedder,
                progress=False)
    queries = [json.loads(line)["text"] for line in (mini_acord / "queries.jsonl").read_text().splitlines()]
    clauses = [json.loads(line)["text"] for line in (mini_acord / "corpus.jsonl").read_text().splitlines()]
    return build_pipeline(settings, embedder), queries + clauses[:6]


def test_results_are_those_of_the_code_before_the_savings(mini):
    pipeline, texts = mini
    assert isinstance(pipeline.rescorer, LearnedFusion)
    golden = json.loads(GOLDEN.read_text())
    assert len(golden) == len(texts) == 10
    for _ in range(2):  # the second pass reads through the caches the first one filled
        got = [served(pipeline.search(SearchRequest(text=t, top_k=5))) for t in texts]
        assert got == golden


def test_the_recorded_rows_are_the_rows_the_ranker_scored_with(mini):
    pipeline, texts = mini
    fresh = FeatureExtractor(pipeline.expander, pipeline.settings.retrieval.rrf_k)
    for text in texts:
        outcome = pipeline.search(SearchRequest(text=text, top_k=5))
        assert outcome.feature_rows  # handed on by the ranker, not computed again
        items = [i for i in shown_items(pipeline, text, outcome) if i.position]
        pool = outcome.candidates
        where = {h.clause.clause_id: n for n, h in enumerate(pool)}
        expected = fresh(text, pool, [where[i.clause_id] for i in items])
        for item, row in zip(items, expected):
            assert np.array_equal(np.asarray(item.features), row, equal_nan=True)


def test_a_search_by_examples_computes_its_rows_over_its_own_pool(mini):
    pipeline, texts = mini
    first = pipeline.search(SearchRequest(text=texts[0], top_k=3)).results[0].hit.clause.clause_id
    outcome = pipeline.search(SearchRequest(text=texts[1], top_k=3, examples=(Example(first),)))
    assert outcome.feature_rows == {}  # the example left the pool: the ranker's maxima differ
    items = [i for i in shown_items(pipeline, texts[1], outcome) if i.position]
    assert items and all(i.features is not None and not math.isnan(i.features[-1]) for i in items)


def _pairs_in_order(positions, pairs, window):
    """The definition the ranker was trained with (ltr.py before issue 29), kept as the reference."""
    if not pairs:
        return 0.0
    found = 0
    for a, b in pairs:
        pa, pb = positions.get(a), positions.get(b)
        if pa and pb:
            later = set(pb)
            found += any(p + d in later for p in pa for d in range(1, window + 1))
    return found / len(pairs)


def test_pair_features_equal_their_definition_on_random_texts():
    rng = random.Random(29)
    vocabulary = "liability cap fee fees party notice term terminate breach cure days law".split()
    cache = _ClauseTerms()
    for n in range(400):
        clause = " ".join(rng.choice(vocabulary) for _ in range(rng.randrange(0, 40)))
        query = " ".join(rng.choice(vocabulary) for _ in range(rng.randrange(1, 12)))
        terms = cache.get(f"c{n}", clause)
        q = content_terms(query)
        pairs = list(zip(q, q[1:]))
        adjacent, near = _pair_distances(terms, _pairs_by_first(pairs), _WINDOW)
        if pairs:
            assert adjacent / len(pairs) == _pairs_in_order(terms.positions, pairs, 1)
            assert near / len(pairs) == _pairs_in_order(terms.positions, pairs, _WINDOW)


def _reference_rows(extractor, query, hits, subset):
    """The ranker's rows by their definition, one hit at a time from the text (ltr.py caches
    clause terms, bisects pairs and converts rows once)."""
    q_terms = content_terms(query)
    q_set, pairs = set(q_terms), list(zip(q_terms, q_terms[1:]))
    definitions = extractor.expander.definitions(query) if extractor.expander else []
    d_set = set(content_terms(" ".join(definitions))) - q_set
    capitals = {c.casefold() for c in _CAPITAL.findall(query)} if len(q_terms) > 1 else set()
    q_words = max(1, len(query.split()))
    bm25 = [h.retriever_scores.get("bm25") for h in hits]
    dense = [h.retriever_scores.get("dense") for h in hits]
    best_bm25 = max((s for s in bm25 if s is not None), default=0.0) or 1.0
    best_dense = max((s for s in dense if s is not None), default=0.0)
    nan = math.nan
    rows = []
    for i in subset:
        text, ranks = hits[i].clause.text, hits[i].retriever_ranks
        positions = {}
        for place, term in enumerate(content_terms(text)):
            positions.setdefault(term, []).append(place)
        words, b, d = len(text.split()), bm25[i], dense[i]
        folded = text.casefold()
        rows.append((
            b if b is not None else nan, (b or 0.0) / best_bm25,
            d if d is not None else nan, best_dense - d if d is not None else nan,
            math.log(ranks["bm25"]) if "bm25" in ranks else nan,
            math.log(ranks["dense"]) if "dense" in ranks else nan,
            sum(1.0 / (extractor.rrf_k + r) for r in ranks.values()),
            len(q_set & positions.keys()) / len(q_set) if q_set else 0.0,
            _pairs_in_order(positions, pairs, 1), _pairs_in_order(positions, pairs, _WINDOW),
            len(d_set & positions.keys()) / len(d_set) if d_set else nan,
            sum(c in folded for c in capitals) / len(capitals) if capitals else nan,
            math.log1p(words), math.log1p(q_words), math.log((1 + words) / (1 + q_words))))
    return np.array(rows, dtype=np.float32).reshape(len(rows), len(FEATURES))


def test_the_ranker_rows_equal_their_row_by_row_definition_bit_for_bit():
    rng = random.Random(39)
    vocabulary = ("liability cap fee fees party notice term terminate breach cure days law "
                  "Company Customer New York Licensor the of shall").split()
    expander = QueryExpander({"cap on liability": "aggregate liability shall not exceed fees"})
    extractor = FeatureExtractor(expander)
    for n in range(300):
        hits = []
        for rank in range(1, rng.randrange(1, 30)):
            text = " ".join(rng.choice(vocabulary) for _ in range(rng.randrange(0, 40)))
            scores = {name: round(rng.uniform(-1, 20), 6) for name in ("dense", "bm25")
                      if rng.random() < 0.8}
            hits.append(SearchHit(Clause(f"c{n}-{rank}", text, "doc"), 1.0 / rank, rank,
                                  {name: rng.randrange(1, 100) for name in scores}, scores))
        query = rng.choice(["cap on liability ", ""]) + " ".join(
            rng.choice(vocabulary + ["unseen", "words"]) for _ in range(rng.randrange(1, 14)))
        subset = sorted(rng.sample(range(len(hits)), rng.randrange(0, len(hits) + 1)))
        for chosen in (None, subset):
            got = extractor(query, hits, chosen)
            want = _reference_rows(extractor, query, hits, range(len(hits)) if chosen is None else chosen)
            assert got.dtype == np.float32
            assert np.array_equal(got, want, equal_nan=True), (query, n)


def test_the_clause_cache_empties_when_full_and_never_loses_a_clause(mini, monkeypatch):
    pipeline, _ = mini
    table = pipeline.backend.index.table
    assert isinstance(table, clausedb.ClauseTable)
    monkeypatch.setattr(clausedb, "CACHED_CLAUSES", 5)
    ids = list(table.all_ids())
    for start in range(0, len(ids), 4):
        chunk = ids[start:start + 7] + ["no-such-clause"]
        got = table.by_ids(chunk)
        assert [c.clause_id if c else None for c in got] == chunk[:-1] + [None]
        assert table.positions_of(chunk)[:-1] == [ids.index(cid) for cid in chunk[:-1]]
        assert len(table._clauses) <= 8
