"""ACORD judged candidates, featurised for learning to rank (quality.md steps 9-17).

``Data`` turns each (split, query form) into groups of feature rows of the judged candidates
in the pipeline's fused pool, cached under a folder. ``LeaveOneOutData`` does the same with
each query's own glossary aliases held out (step 17): the glossary is made from ACORD's
train/valid queries, so without this every train query would meet its own terms in it, which
a lawyer's new query often does not. Shared by ltr_benchmark.py, glossary_coverage.py,
owndraft_benchmark.py and learning_simulation.py.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from functools import lru_cache
from pathlib import Path
from typing import AbstractSet as Set, Mapping, Sequence

import numpy as np

from index_builder.evaluate.acord import load_acord
from index_builder.evaluate.evaluation import EvalQuery, eval_queries
from index_builder.retrieve.ltr_fit import fused_candidates
from index_builder.index.embedder import SentenceTransformerEmbedder
from index_builder.index.store import load_index
from index_builder.retrieve.glossary import DEFAULT_GLOSSARY, GLOSSARY, merged
from index_builder.retrieve.ltr import FEATURES, FeatureExtractor
from index_builder.retrieve.query_expansion import QueryExpander
from index_builder.retrieve.query_rewrite import retrieval_text
from index_builder.settings import load_settings

from precedent_bench.common import data

log = logging.getLogger("ltr")
FORMS = ("short", "medium", "long", "clause")
# Own-draft forms (issue 28, benchmarks/owndraft/): a clause written fresh for a need, and a
# 5-star clause rewritten as a lawyer's draft (its source left out of its ranking).
DRAFT_FORMS = ("fresh", "synth")
DRAFTS = data.SETS / "owndraft"
DEPTH = 1000
Group = tuple[EvalQuery, np.ndarray, np.ndarray, list[str]]  # query, features, grades, clause ids


def parent(query: EvalQuery) -> str:
    """The ACORD query a query or clause-as-query item comes from."""
    return query.query_id.split(" <- ")[0]


class Data:
    """Featurised judged candidates per (split, form), cached under ``cache``."""

    def __init__(self, data_dir: Path, index_dir: Path, cache: Path,
                 glossary: dict[str, str] | None = None,
                 rewrites: Mapping[str, str] | None = None, rewrite_dense: bool = True) -> None:
        self.settings = load_settings(overrides={"acord_dir": data_dir, "index_dir": index_dir})
        self.acord = load_acord(self.settings.acord_dir)
        self.index = load_index(self.settings.index_dir)
        self.corpus = {c.clause_id: c.text for c in self.index.clauses}
        self.glossary = dict(glossary if glossary is not None else DEFAULT_GLOSSARY)
        self.expander = QueryExpander(self.glossary,
                                      max_words=self.settings.retrieval.expansion_max_words)
        self.cache = cache
        # Query text -> LLM rewrite appended to short queries' retrieval text (step 16).
        self.rewrites = dict(rewrites or {})
        self.rewrite_dense = rewrite_dense  # False: the rewrite goes to BM25's text only
        self._embedder: SentenceTransformerEmbedder | None = None

    @property
    def tag(self) -> str:
        """Cache file suffix naming what makes the retrieval texts: a changed glossary or
        rewrite never reads features made with another one."""
        made_of = [self.expander.fingerprint, sorted(self.rewrites.items()), self.rewrite_dense,
                   type(self).__name__]
        return hashlib.sha256(json.dumps(made_of).encode()).hexdigest()[:10]

    def queries(self, split: str, form: str) -> list[EvalQuery]:
        if form in DRAFT_FORMS:
            return draft_queries(self.acord, split, form)
        mode, wording = ("clause", "short") if form == "clause" else ("query", form)
        return eval_queries(self.acord, split, wording, mode, self.corpus)

    def expander_for(self, query: EvalQuery) -> QueryExpander:
        """The glossary a query is expanded with (one for all; step 17 holds entries out)."""
        return self.expander

    def text(self, query: EvalQuery, form: str) -> str:
        return query.text if form == "clause" else retrieval_text(
            query.text, self.expander_for(query), self.rewrites)

    def dense_text(self, query: EvalQuery, form: str) -> str:
        if self.rewrite_dense or form == "clause":
            return self.text(query, form)
        return self.expander_for(query).expand(query.text)

    def vectors(self, split: str, form: str) -> np.ndarray:
        path = self.cache / f"qvec-{split}-{form}-{self.tag}.npy"
        if path.is_file():
            return np.load(path)
        if self._embedder is None:
            self._embedder = SentenceTransformerEmbedder(self.settings.embedding)
        vectors = self._embedder.embed([self.dense_text(q, form) for q in self.queries(split, form)])
        self.cache.mkdir(parents=True, exist_ok=True)
        np.save(path, vectors)
        return vectors

    def hits(self, split: str, form: str):  # type: ignore[no-untyped-def]
        """(query, fused candidate hits) for every query of a split and form."""
        vectors = self.vectors(split, form)
        for query, vector in zip(self.queries(split, form), vectors):
            yield query, fused_candidates(self.text(query, form), self.index.clauses,
                                          self.index.embeddings, self.index.bm25, vector, DEPTH,
                                          self.settings.retrieval.rrf_k, exclude=query.exclude)

    def groups(self, split: str, form: str) -> list[Group]:
        path = self.cache / f"feat-{split}-{form}-{self.tag}.npz"
        queries = self.queries(split, form)
        saved = np.load(path) if path.is_file() else None
        if saved is not None and saved["x"].shape[1] == len(FEATURES):
            offsets, ids = saved["offsets"], json.loads(str(saved["ids"]))
            return [(q, saved["x"][a:b], saved["y"][a:b], ids[a:b])
                    for q, a, b in zip(queries, offsets[:-1], offsets[1:])]
        extractor = FeatureExtractor(self.expander, self.settings.retrieval.rrf_k)
        groups, started = [], time.perf_counter()
        for query, hits in self.hits(split, form):
            # Set per query, not a new extractor: the extractor caches clause terms.
            extractor.expander = self.expander_for(query)
            judged = [i for i, h in enumerate(hits) if h.clause.clause_id in query.judged]
            ids = [hits[i].clause.clause_id for i in judged]
            groups.append((query, extractor(query.text, hits, judged),
                           np.array([query.judged[c] for c in ids], dtype=np.float32), ids))
        offsets = np.cumsum([0] + [len(g[2]) for g in groups])
        np.savez(path, x=np.vstack([g[1] for g in groups]), y=np.concatenate([g[2] for g in groups]),
                 offsets=offsets, ids=json.dumps([c for g in groups for c in g[3]]))
        log.info("featurised %s/%s: %d queries in %.0f s", split, form, len(groups),
                 time.perf_counter() - started)
        return groups


def draft_queries(acord, split: str, form: str) -> list[EvalQuery]:  # type: ignore[no-untyped-def]
    """The own-draft queries of a split (``benchmarks/owndraft/``), judged by ``judged_drafts``."""
    path = DRAFTS / ("fresh.jsonl" if form == "fresh" else "synthetic.jsonl")
    if not path.is_file():
        raise FileNotFoundError(f"{path} is made from the ACORD corpus and not kept in the "
                                f"repository: run `precedent-bench owndraft-set make`.")
    rows = data.jsonl(path)
    return judged_drafts(acord, split, rows)


def judged_drafts(acord, split: str, rows: Sequence[Mapping]) -> list[EvalQuery]:  # type: ignore[no-untyped-def]
    """Own-draft rows of a split as queries, judged with their ACORD query's judgments.

    A fresh draft is written for its query's need, so every judgment of that query applies.
    A synthetic draft keeps its 5-star source clause's provisions, so it asks for what the
    query asks for, as the clause-as-query form does; its source is left out of its ranking
    (it would be found by its own words) and of its judgments.
    """
    items = []
    for row in rows:
        if row["split"] != split:
            continue
        judged = dict(acord.qrels[split][row["parent"]])
        source = row.get("source", "")
        judged.pop(source, None)
        items.append(EvalQuery(f"{row['parent']} <- {row['id']}", row["text"], row["category"],
                               judged, exclude=source))
    return items


def alias_users(glossary: Mapping[str, str], texts: Mapping[str, str]) -> dict[str, set[str]]:
    """Per alias, the query ids whose (short) text uses it."""
    users: dict[str, set[str]] = {}
    for aliases, definition in glossary.items():
        for alias in aliases.split("|"):
            expander = QueryExpander({alias: definition})
            users[alias] = {q for q, text in texts.items() if expander.definitions(text)}
    return users


def held_out(glossary: Mapping[str, str], users: Mapping[str, set[str]],
             held: Set[str]) -> dict[str, str]:
    """The glossary less the aliases that only ``held`` queries use (entries left empty go)."""
    kept: dict[str, str] = {}
    for aliases, definition in glossary.items():
        left = [a for a in aliases.split("|") if not users.get(a) or not users[a] <= held]
        if left:
            kept["|".join(left)] = definition
    return kept


def without_own(glossary: Mapping[str, str], users: Mapping[str, set[str]],
                query_id: str) -> dict[str, str]:
    """The glossary less the aliases that only ``query_id`` uses."""
    return held_out(glossary, users, {query_id})


class LeaveOneOutData(Data):
    """``Data`` whose every query is expanded as if its own terms had never reached the glossary.

    Only the ACORD-derived entries (``GLOSSARY``) are held out. Entries from elsewhere (the
    one written without ACORD, in the default glossary) stay: they stand for what a firm's
    glossary knows before any of its lawyers' queries are seen.

    "Own" is per ACORD query and judged on its short wording, as step 8 built the glossary: an
    alias two queries use stays for both, even when both are in one held-out CV fold, unless
    ``folds`` asks to hold out per fold (step 17 measured both: the same picture). Everything
    made from one ACORD query is held out together: its medium and long wordings, and its
    5-star clauses as queries, whose text is never expanded but whose ``expansion_cover``
    feature reads the glossary's definitions of the terms in the clause (the glossary would
    otherwise carry that query's wording into its own clauses' features). At serving a clause
    meets the whole glossary.
    """

    def __init__(self, *args, folds: Sequence[Set[str]] = (), **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        seen = {q.query_id: q.text for split in ("train", "valid")
                for q in self.acord.split_queries(split)}
        self.users = alias_users(GLOSSARY, seen)
        self.extra = {k: v for k, v in self.glossary.items() if k not in GLOSSARY}
        self._for_group = lru_cache(maxsize=None)(self._expander)
        self.hold_out_by(folds)

    def hold_out_by(self, folds: Sequence[Set[str]]) -> None:
        """Hold out per group of queries (a CV fold: the aliases only the fold's queries use)
        for the queries in one of ``folds``; the others stay one by one."""
        self.folds = [frozenset(f) for f in folds]
        self._group = {p: fold for fold in self.folds for p in fold}

    @property
    def tag(self) -> str:
        if not self.folds:
            return super().tag
        folds = json.dumps(sorted(sorted(f) for f in self.folds))
        return hashlib.sha256(f"{super().tag}{folds}".encode()).hexdigest()[:10]

    def _expander(self, held: frozenset[str]) -> QueryExpander:
        return QueryExpander(merged(held_out(GLOSSARY, self.users, held), self.extra),
                             self.expander.max_words)

    def expander_for(self, query: EvalQuery) -> QueryExpander:
        return self._for_group(self._group.get(parent(query), frozenset({parent(query)})))
