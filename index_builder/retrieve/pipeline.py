"""The search pipeline: the one path every entry point takes, so what we measure is what we serve.

    query ─► expansion ─► dense + lexical (backend, filters inside) ─► fusion
          ─► [first-stage rescorer] ─► variation folding ─► [rerank of the head] ─► top k

The API (addin_server/service.py), `index-builder search`, `index-builder eval` and
`addin-server annotate` all build a ``SearchPipeline`` and call ``search``. Services it
needs come in through small protocols: a ``SearchBackend`` (index/backend.py), an
``Embedder``, an optional rescorer (the cross-encoder, a learned ranker), an optional
``Reranker`` (the LLM, injected by the server: this package never imports the server) and an
optional ``Curator`` (the knowledge team's marks, read from the usage database by the server).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, Sequence

from index_builder.errors import FeedbackUnavailableError, InvalidRequestError, NotFoundError
from index_builder.index.backend import Filters, Scored, SearchBackend, clause_matches
from index_builder.index.embedder import Embedder
from index_builder.ingest.definitions import UNIT, unit_filters
from index_builder.model import Clause, Rating, RerankOutcome, SearchHit
from index_builder.retrieve.combine import CombineWeights, combined_order
from index_builder.retrieve.curated import Curator, curated_order
from index_builder.retrieve.fusion import reciprocal_rank_fusion, weighted_fusion
from index_builder.retrieve.matches import dense_matches
from index_builder.retrieve.query_expansion import QueryExpander
from index_builder.retrieve.examples import Combination, example_runs, without_examples
from index_builder.retrieve.result_cache import LRU, Retrieved
from index_builder.retrieve.spans import Span, best_spans
from index_builder.retrieve.strict import MODES, near_copies
from index_builder.retrieve.variations import PairCache, group_variations
from index_builder.settings import Settings

log = logging.getLogger(__name__)

RETRIEVERS = ("dense", "bm25")


@dataclass(frozen=True)
class Example:
    """A clause the lawyer points at as "more like this": by id, or as text."""

    clause_id: str = ""
    text: str = ""


@dataclass(frozen=True)
class SearchRequest:
    """One search. ``access`` carries the caller's walls: applied everywhere, never shown."""

    text: str = ""
    top_k: int | None = None
    filters: Filters = ()
    access: Filters = ()
    rerank: bool | None = None  # None: the pipeline's default
    examples: tuple[Example, ...] = ()
    depth: int | None = None  # candidates per retriever; None: settings.retrieval.candidate_depth
    # Matching passages inside long results: for the lawyer's page; they never change the
    # ranking, so evaluation (1,000 results a query) leaves them out.
    spans: bool = True
    # Knowledge-team marks reorder the page (retrieve/curated.py); False: the plain order.
    curation: bool = True
    # "ranked" (the default ranking) or "strict": precedents whose words are at least
    # ``min_similarity`` similar to ``text`` (retrieve/strict.py); None: the server's default.
    mode: str = "ranked"
    min_similarity: float | None = None


class Rescorer(Protocol):
    """Reorders fused candidates before folding (cross-encoder, learned ranker)."""

    def rescore(self, query: str, hits: list[SearchHit]) -> list[SearchHit]: ...

    def rescore_with_rows(self, query: str, hits: list[SearchHit]
                          ) -> tuple[list[SearchHit], dict[str, Any]]:
        """``rescore``, and the feature row each hit was scored with by clause id ({} for a
        rescorer without features): the feedback store records them (learn/shown.py)."""
        ...


class Reranker(Protocol):
    """Rates the head of the ranking (the LLM). Never raises for a bad answer: it reports."""

    def rerank_detailed(self, query: str, hits: Sequence[SearchHit]) -> RerankOutcome: ...


@dataclass
class Ranked:
    hit: SearchHit  # as retrieval placed it
    rank: int
    rating: Rating | None  # the reranker's rating (``.score`` 0-4), None when not rated
    variants: list[tuple[SearchHit, float]] = field(default_factory=list)  # minor variations
    spans: list[Span] = field(default_factory=list)  # best 1-3 sentence window(s) of a long clause
    match: Any | None = None  # strict mode: a StrictMatch (similarity, identical); None otherwise


@dataclass
class SearchOutcome:
    results: list[Ranked]
    rerank_status: str  # "applied", "skipped", "unavailable"
    rerank_reason: str = ""
    timings_ms: dict[str, float] = field(default_factory=dict)
    candidates: list[SearchHit] = field(default_factory=list)  # the fused pool, for facets
    mode: str = "ranked"  # or "strict" (retrieve/strict.py)
    # The learned ranker's feature row of each candidate, by clause id, when the ranker scored
    # exactly ``candidates`` (no examples dropped from the pool); {} otherwise. The feedback
    # store records these for the results shown (learn/shown.py) instead of computing them again.
    feature_rows: dict[str, Any] = field(default_factory=dict)
    # The knowledge team's marks read for the page when it was curated ({clause_id: Mark});
    # None when they were not read, so the cards' labels (web/recording.py) read them only then.
    marks: dict[str, Any] | None = None


class SearchPipeline:
    """Search one backend version with one embedder under fixed settings."""

    def __init__(self, backend: SearchBackend, embedder: Embedder, settings: Settings,
                 reranker: Reranker | None = None, rescorer: Rescorer | None = None,
                 rerank_default: bool = False, retrievers: Sequence[str] = RETRIEVERS,
                 curation: Curator | None = None, expander: QueryExpander | None = None) -> None:
        unknown = set(retrievers) - set(RETRIEVERS)
        if unknown or not retrievers:
            raise InvalidRequestError(f"Retrievers must be among {RETRIEVERS}, got {retrievers}.")
        self.backend = backend
        self.embedder = embedder
        self.settings = settings
        self.reranker = reranker
        self.rescorer = rescorer
        self.rerank_default = rerank_default
        self.retrievers = tuple(retrievers)
        # learn/curation.Curation (marks_for(clauses) -> {clause_id: Mark}); None: no marks.
        self.curation = curation
        # The glossary expansion; a learned ranker reads the same one (build_pipeline).
        self.expander = expander if expander is not None else query_expander(settings)
        # Folding scores by clause-id pair: ids fix the texts within this backend's version, and
        # a swapped-in version gets a new pipeline (with_backend), so a new cache.
        self._fold_cache = PairCache()
        # Repeated searches of this version and ranker (result_cache.py).
        self._results = LRU(settings.retrieval.result_cache)
        self._spans_cache = LRU(settings.retrieval.result_cache)

    def with_backend(self, backend: SearchBackend) -> "SearchPipeline":
        """The same pipeline over another version (a rebuilt index swapped in)."""
        return self._with(backend=backend)

    def release_caches(self) -> None:
        """Empty this pipeline's search caches: it was swapped out and serves only the
        requests that took it before the swap (their searches still work, uncached)."""
        self._fold_cache.clear()
        self._results.clear()  # up to PRECEDENT_RESULT_CACHE searches, ~80 kB each
        self._spans_cache.clear()

    def with_rescorer(self, rescorer: Rescorer | None) -> "SearchPipeline":
        """The same pipeline with another first-stage ranker (a relearned one swapped in)."""
        return self._with(rescorer=rescorer)

    def with_curation(self, curation: Curator | None) -> "SearchPipeline":
        """The same pipeline reading the knowledge team's marks from ``curation``."""
        return self._with(curation=curation)

    def _with(self, **changed: Any) -> "SearchPipeline":
        """A new pipeline (with its own, empty caches) with some collaborators replaced."""
        parts = {"backend": self.backend, "embedder": self.embedder, "settings": self.settings,
                 "reranker": self.reranker, "rescorer": self.rescorer,
                 "rerank_default": self.rerank_default, "retrievers": self.retrievers,
                 "curation": self.curation, "expander": self.expander}
        return SearchPipeline(**{**parts, **changed})

    # -- the path ---------------------------------------------------------------------------
    def search(self, request: SearchRequest) -> SearchOutcome:
        started = time.perf_counter()
        # Clauses unless the request names definitions (every entry point: API, CLI, annotate).
        request = replace(request, filters=unit_filters(request.filters, self.backend.fields()))
        top_k = request.top_k or self.settings.retrieval.top_k
        examples = self._examples(request)
        query = request.text.strip()
        if not query and not examples:
            raise InvalidRequestError("The query is empty: select some text or type a phrase.")
        if request.mode != "ranked":
            return self._strict(query, examples, request, top_k, started)
        wanted = self.rerank_default if request.rerank is None else request.rerank
        rerank_depth = self.settings.rerank.depth if wanted and self.reranker else 0
        wanted_depth = max(top_k, rerank_depth)
        # Everything up to the page is a function of these within this version and ranker
        # (result_cache.py); walls (access) are in the key, marks and rerank are not cached.
        key = (query, request.examples, request.filters, request.access, request.depth, wanted_depth)
        found = self._results.get(key)
        if found is None:
            texts = self._texts(query, examples)
            vectors = self.embedder.embed(texts) if "dense" in self.retrievers else None
            pool, rows = self._pool(query, examples, request, wanted_depth, vectors, texts)
            found = Retrieved(vectors, tuple(pool), rows, tuple(self._fold(pool, wanted_depth)))
            self._results.put(key, found)
        vectors, candidates, feature_rows = found.vectors, list(found.candidates), found.feature_rows
        groups = found.groups
        retrieved = time.perf_counter()
        leaders = [g.leader for g in groups]
        variants = {g.leader.clause.clause_id: g.variants for g in groups if g.variants}
        timings = {"retrieval": _ms(retrieved - started)}
        rerank_query = query or examples[0].text

        def ranked(pairs: Sequence[tuple[SearchHit, Any]]) -> list[Ranked]:
            spans_started = time.perf_counter()
            page = [h for h, _ in pairs[:top_k]]
            own_words = ([query] if query else []) + [e.text for e in examples]
            spans = (self._spans(own_words, vectors, page) if request.spans
                     else [[] for _ in page])
            if any(spans):
                timings["spans"] = _ms(time.perf_counter() - spans_started)
            return [Ranked(h, rank, r, variants.get(h.clause.clause_id, []), s)
                    for rank, ((h, r), s) in enumerate(zip(pairs[:top_k], spans), 1)]

        def done(pairs: Sequence[tuple[SearchHit, Any]], status: str, reason: str) -> SearchOutcome:
            marks = None
            if request.curation:
                page, marks = self._curated(pairs[:top_k])
                pairs = page + list(pairs[top_k:])
            results = ranked(pairs)
            timings["total"] = _ms(time.perf_counter() - started)
            return SearchOutcome(results, status, reason, timings, candidates,
                                 feature_rows=feature_rows, marks=marks)

        plain = [(h, None) for h in leaders]
        if not wanted:
            return done(plain, "skipped", "Rerank is off for this request." if request.rerank is False
                        else "Rerank is off on this server.")
        if self.reranker is None:
            return done(plain, "unavailable", "No language model is set up on this server.")
        head = leaders[:rerank_depth]
        if not head:
            return done([], "skipped", "No candidates to rerank.")
        outcome = self.reranker.rerank_detailed(rerank_query, head)
        timings["rerank"] = _ms(time.perf_counter() - retrieved)
        if outcome.status != "applied":
            return done(plain, outcome.status, outcome.reason)
        ordered = self._combined(head, outcome.ranked) + [(h, None) for h in leaders[len(head):]]
        return done(ordered, outcome.status, outcome.reason)

    def _strict(self, query: str, examples: Sequence[Example], request: SearchRequest,
                top_k: int, started: float) -> SearchOutcome:
        """Strict mode: the precedents whose words are (nearly) the lawyer's, most similar first.

        The same retrieval as every search (filters and walls inside the engine), a deeper
        pool and no rescoring (the order is the similarity's); precedents with identical
        words fold into one result, their copies listed as its variants.
        """
        if request.mode not in MODES:
            raise InvalidRequestError(f"'mode' must be one of {', '.join(MODES)}.")
        if examples or not query:
            raise InvalidRequestError("Strict mode compares your own wording: send the paragraph "
                                      "as 'text', without examples.")
        follow = self.settings.follow
        threshold = (follow.strict_min_similarity if request.min_similarity is None
                     else request.min_similarity)
        depth = max(request.depth or follow.strict_depth, top_k)
        texts = self._texts(query, ())
        vectors = self.embedder.embed(texts) if "dense" in self.retrievers else None
        r = self.settings.retrieval
        runs = example_runs(self.backend, self.embedder, texts, depth,
                            tuple(request.filters) + tuple(request.access),
                            Combination(r.examples_dense, r.examples_lexical, r.rrf_k),
                            self.retrievers, vectors)
        pool = self._fuse(runs, depth)
        retrieved = time.perf_counter()
        matches = near_copies(query, pool, threshold)
        groups = group_variations(matches, lambda m: m[0].clause.text, top_k, 1.0)
        results = [Ranked(g.leader[0], rank, None, [(m[0], s) for m, s in g.variants], [],
                          g.leader[1]) for rank, g in enumerate(groups, 1)]
        timings = {"retrieval": _ms(retrieved - started),
                   "strict": _ms(time.perf_counter() - retrieved),
                   "total": _ms(time.perf_counter() - started)}
        return SearchOutcome(results, "skipped", "Strict mode orders precedents by how much of "
                             "the wording is the same.", timings, pool, mode="strict")

    def _combined(self, head: list[SearchHit], ranked: Sequence[tuple[SearchHit, Rating]]
                  ) -> list[tuple[SearchHit, Rating | None]]:
        """The head ordered by LLM rating combined with retrieval position (retrieve/combine.py)."""
        r = self.settings.rerank
        ratings = {hit.clause.clause_id: rating for hit, rating in ranked}
        scores = [_score(ratings.get(h.clause.clause_id)) for h in head]
        weights = CombineWeights(r.llm_weight, round(1.0 - r.llm_weight, 6), "position", r.llm_scale)
        return [(head[i], ratings.get(head[i].clause.clause_id))
                for i in combined_order([h.score for h in head], scores, weights)]

    def _curated(self, page: Sequence[tuple[SearchHit, Any]]
                 ) -> tuple[list[tuple[SearchHit, Any]], dict[str, Any] | None]:
        """The page reordered by the knowledge team's marks: deprecated never first, approved
        lifted within its LLM rating (retrieve/curated.py); and the marks read (None: not read)."""
        if self.curation is None or not page:
            return list(page), None
        try:
            marks = self.curation.marks_for([h.clause for h, _ in page])
        except FeedbackUnavailableError as exc:  # a broken usage database never stops search
            log.warning("Curation marks unavailable: %s", exc.message)
            return list(page), None
        # A rating the model did not give (timeout, unreadable answer) is no tier.
        tier = lambda pair: None if _score(pair[1]) is None else round(pair[1].score)  # noqa: E731
        return curated_order(page, marks, lambda pair: pair[0].clause.clause_id, tier,
                             self.settings.learning.curation_lift), marks

    def candidates(self, query: str, examples: Sequence[Example], request: SearchRequest,
                   wanted: int, vectors: Any = None) -> list[SearchHit]:
        """The fused, rescored candidate pool (examples excluded), best first.

        Several query texts (the typed query and the examples) are combined inside each
        retriever as ``settings.retrieval.examples_dense``/``examples_lexical`` say
        (retrieve/examples.py); ``vectors`` are the texts' embeddings when already made.
        """
        return self._pool(query, examples, request, wanted, vectors)[0]

    def _pool(self, query: str, examples: Sequence[Example], request: SearchRequest,
              wanted: int, vectors: Any = None, texts: Sequence[str] | None = None
              ) -> tuple[list[SearchHit], dict[str, Any]]:
        """``candidates`` and the learned ranker's feature rows of exactly that pool ({} if none);
        ``texts`` are the expanded query texts when search() has made them already."""
        r = self.settings.retrieval
        depth = max(request.depth or r.candidate_depth, wanted)
        filters = tuple(request.filters) + tuple(request.access)
        texts = self._texts(query, examples) if texts is None else texts
        # Each example may come back as a candidate and is dropped below: ask for that many more.
        deeper = depth + len(examples)
        combination = Combination(r.examples_dense, r.examples_lexical, r.rrf_k)
        runs: dict[str, Scored] = example_runs(self.backend, self.embedder, texts, deeper, filters,
                                               combination, self.retrievers, vectors)
        hits = self._fuse(runs, deeper)
        rows: dict[str, Any] = {}
        if self.rescorer is not None and query:
            # The rescorer reads the user's own words: definitions help recall, not judgement.
            hits, rows = self.rescorer.rescore_with_rows(query, hits)
        if examples:
            hits = without_examples(hits, [e.clause_id for e in examples if e.clause_id],
                                    [e.text for e in examples if not e.clause_id])
        pool = hits[:depth]
        # Rows depend on the pool's maxima: only rows over this very pool are handed on.
        if len(pool) != len(rows) or any(h.clause.clause_id not in rows for h in pool):
            rows = {}
        return pool, rows

    def _texts(self, query: str, examples: Sequence[Example]) -> list[str]:
        """The query texts both retrievers read: the (expanded) typed query, then the examples."""
        text = self.expander.expand(query) if (self.expander and query) else query
        return ([text] if text else []) + [e.text for e in examples]

    def _spans(self, texts: Sequence[str], vectors: Any, hits: Sequence[SearchHit]) -> list[list[Span]]:
        """The best sentence window of each long result (none when spans are off).

        ``texts`` are the lawyer's own words (query and examples, no glossary expansion) for
        the lexical scorer; the dense scorer uses the query vectors already made.
        """
        r = self.settings.retrieval
        dense = r.span_scorer == "dense"
        if not r.span_max or not hits or (dense and vectors is None):
            return [[] for _ in hits]
        key = (tuple(texts), tuple(h.clause.clause_id for h in hits))
        found = self._spans_cache.get(key)
        if found is None:
            found = tuple(tuple(s) for s in best_spans(
                vectors, [h.clause.text for h in hits], self.embedder, max_spans=r.span_max,
                min_sentences=r.span_min_sentences, scorer=r.span_scorer, query_texts=texts))
            self._spans_cache.put(key, found)
        return [list(s) for s in found]

    def _fuse(self, runs: dict[str, Scored], depth: int) -> list[SearchHit]:
        scores = {name: dict(run) for name, run in runs.items()}
        ranks = {name: {cid: rank for rank, (cid, _) in enumerate(run, 1)}
                 for name, run in runs.items()}
        if len(runs) == 1:
            fused = dict(next(iter(scores.values())))
        elif self.settings.retrieval.fusion == "weighted":
            w = self.settings.retrieval.dense_weight
            fused = weighted_fusion(scores, {"dense": w, "bm25": 1 - w})
        else:
            fused = reciprocal_rank_fusion(scores, k=self.settings.retrieval.rrf_k, ranks=ranks)
        ids = list(fused)
        # Best fused score first, ties by insertion order in the index, then by the order the
        # runs gave (a stable sort's): plain tuples sort without a key call per id (issue 39).
        keyed = sorted(zip([-f for f in fused.values()], _positions(self.backend, ids),
                           range(len(ids))))[:depth]
        ordered = [ids[i] for _, _, i in keyed]
        clauses = self.backend.get(ordered)
        # One pass over the runs per hit (two dict comprehensions each were a third of the
        # fusion's time on a search's 100 hits, issue 39); the same keys in the same order.
        named = [(name, ranks[name], scores[name]) for name in runs]
        hits = []
        for rank, (cid, clause, (negated, _, _)) in enumerate(zip(ordered, clauses, keyed), 1):
            if clause is None:
                continue
            by_rank: dict[str, int] = {}
            by_score: dict[str, float] = {}
            for name, run_ranks, run_scores in named:
                place = run_ranks.get(cid)
                if place is not None:
                    by_rank[name] = place
                    by_score[name] = float(run_scores[cid])
            hits.append(SearchHit(clause, float(-negated), rank, by_rank, by_score))
        return hits

    def _fold(self, hits: list[SearchHit], wanted: int) -> list[Any]:
        """``wanted`` distinct wordings, each with its near copies among the candidates.

        Folding comes before rerank so the LLM never rates the same wording twice; it runs
        over the whole pool because a library with 16 copies of one clause needs that many
        candidates to fill a top ten with distinct wordings.
        """
        threshold = self.settings.retrieval.variation_threshold
        return group_variations(hits, lambda h: h.clause.text, wanted, threshold,
                                key_of=lambda h: h.clause.clause_id, cache=self._fold_cache)

    def _examples(self, request: SearchRequest) -> list[Example]:
        """Examples with their text; an id the caller may not see is unknown, like a wrong id."""
        if not request.examples:
            return []
        ids = [e.clause_id for e in request.examples if e.clause_id]
        found = dict(zip(ids, self.clauses(ids, request.access))) if ids else {}
        return [Example(e.clause_id, found[e.clause_id].text if e.clause_id else e.text)
                for e in request.examples]

    # -- every match past a floor (the explorer, the market) ---------------------------------
    def matches(self, texts: Sequence[str], filters: Filters, min_score: float, limit: int,
                vectors: Any = None, access: Filters = ()) -> list[SearchHit]:
        """Clauses at least ``min_score`` similar to any text, best first, up to ``limit``
        (retrieve/matches.py); ``access``: the caller's walls, applied inside the search."""
        return dense_matches(self.backend, self.embedder, texts, tuple(filters) + tuple(access),
                             min_score, limit, vectors)

    # -- clause look-ups under the same walls -------------------------------------------------
    def clauses(self, clause_ids: Sequence[str], access: Filters = ()) -> list[Clause]:
        """The clauses by id; NotFoundError names ids that are unknown *or walled off*."""
        found = self.backend.get(clause_ids)
        missing = [cid for cid, clause in zip(clause_ids, found)
                   if clause is None or not _allowed(clause, access)]
        if missing:
            raise NotFoundError(f"Unknown clause id(s): {', '.join(missing[:10])}. Search again; "
                                f"the index may have been rebuilt.")
        return [c for c in found if c is not None]

    def clause_with_context(self, clause_id: str, window: int, access: Filters = ()
                            ) -> tuple[Clause, list[Clause], list[Clause]]:
        clause = self.clauses([clause_id], access)[0]
        # Definition units sit beside the clauses they come from, on the same paragraphs: a
        # clause's neighbours are clauses (and a definition's are definitions), so ask wider.
        unit = clause.metadata.get(UNIT, "")
        before, after = self.backend.neighbours(clause_id, window * 4)
        keep = lambda cs: [c for c in cs if _allowed(c, access)  # noqa: E731
                           and c.metadata.get(UNIT, "") == unit]
        return clause, keep(before)[-window:] if window else [], keep(after)[:window]


def _score(rating: Rating | None) -> float | None:
    return None if rating is None else rating.score


def _allowed(clause: Clause, access: Filters) -> bool:
    return clause_matches(clause, access) if access else True


def _positions(backend: SearchBackend, ids: list[str]) -> list[int]:
    positions = getattr(backend, "positions", None)
    return positions(ids) if positions else list(range(len(ids)))


def hits_only(outcome: SearchOutcome) -> list[SearchHit]:
    """The served ranking as plain hits (rank = served position), for eval and the CLI."""
    return [replace(r.hit, rank=r.rank) for r in outcome.results]


def served_list(outcome: SearchOutcome) -> list[SearchHit]:
    """Everything the lawyer is shown, in reading order: each result, then its nested copies.

    What eval scores. A folded copy is on the page ("also in 3 other documents", each one a
    click away), so it counts where it is shown, right under the wording it repeats; dropping
    it would score folding as if it hid precedent.
    """
    flat = []
    for result in outcome.results:
        flat.append(result.hit)
        flat.extend(hit for hit, _ in result.variants)
    return [replace(hit, rank=rank) for rank, hit in enumerate(flat, 1)]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def build_pipeline(settings: Settings, embedder: Embedder, backend: SearchBackend | None = None,
                   reranker: Reranker | None = None, rerank_default: bool = False,
                   retrievers: Sequence[str] = RETRIEVERS, cross_encoder: bool = True,
                   curation: Curator | None = None) -> SearchPipeline:
    """The configured pipeline over the live version (or ``backend``): every entry point's."""
    from index_builder.index import open_store
    from index_builder.index.embedder import query_twin, settings_for_model_id
    from index_builder.retrieve.cross_encoder import load_reranker

    backend = backend or open_store(settings).open()
    # The same model, or a recorded quantised twin of it (embedder.QUERY_TWINS, issue 39).
    if "dense" in retrievers and query_twin(backend.model_id, embedder.model_id) is None:
        from index_builder.errors import ConfigError

        raise ConfigError(
            f"The index {backend.version} was embedded with {backend.model_id} but queries would "
            f"be embedded with {embedder.model_id}: set {settings_for_model_id(backend.model_id)} "
            f"or rebuild the index with `index-builder build`.")
    expander = query_expander(settings)
    rescorer = load_reranker(settings.rerank) if cross_encoder else None
    if (rescorer is None and set(retrievers) == set(RETRIEVERS)
            and settings.retrieval.fusion == "rrf"):
        # Learned fusion needs both retrievers' scores; single-retriever runs (the paper's
        # dense row) and an explicitly chosen weighted fusion keep their own order. It reads
        # the pipeline's own glossary expansion.
        from index_builder.retrieve.ltr import load_ranker, ranker_folder

        folder = ranker_folder(settings.retrieval.ranker)
        if folder is not None:
            rescorer = load_ranker(folder, expander, settings.retrieval.rrf_k)
    return SearchPipeline(backend, embedder, settings, reranker, rescorer, rerank_default,
                          retrievers, curation, expander)


def query_expander(settings: Settings) -> QueryExpander | None:
    """The glossary expansion the settings ask for (``PRECEDENT_QUERY_EXPANSION``), or None."""
    r = settings.retrieval
    return QueryExpander(max_words=r.expansion_max_words) if r.query_expansion == "glossary" else None
