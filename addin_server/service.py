"""The pipeline behind the API: retrieve -> (rerank) -> results, and precedents -> redraft.

``PrecedentService`` holds the app-wide resources (index, retriever, LLM parts) and is
built once by ``build_service`` from the settings; tests build it with fakes.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from index_builder.index.embedder import Embedder
from index_builder.model import Clause, SearchHit
from index_builder.retrieve.hybrid import Filters, HybridRetriever, build_retriever
from index_builder.index.store import ClauseIndex, load_index
from index_builder.retrieve.variations import group_variations

from index_builder.errors import LLMNotConfiguredError, LLMUnavailableError, NotFoundError
from index_builder.index.live import LiveIndex
from addin_server.llm.client import ChatClient, OpenAIChatClient
from addin_server.llm.tokens import TokenCounter
from addin_server.draft.prompts import REDRAFT_VARIABLES, load_prompt
from addin_server.draft.redraft import Redrafter, RedraftResult
from addin_server.rerank import LLMReranker, Rating, load_rerank_prompt
from index_builder.settings import LLMSettings, Settings

log = logging.getLogger(__name__)

LLM_ORIGINS = ("configured", "local", "none")
PING_INTERVAL_S = 10.0


@dataclass
class Ranked:
    hit: SearchHit  # as retrieval placed it
    rank: int
    rating: Rating | None  # None when rerank was not applied
    variants: list[tuple[SearchHit, float]] = field(default_factory=list)  # minor variations


@dataclass
class SearchOutcome:
    results: list[Ranked]
    rerank_status: str  # "applied", "skipped", "unavailable"
    rerank_reason: str = ""
    timings_ms: dict[str, float] = field(default_factory=dict)


@dataclass
class RedraftOutcome:
    result: RedraftResult
    timings_ms: dict[str, float]


class PrecedentService:
    """Search, rerank, redraft and clause look-up over one loaded index."""

    def __init__(self, live: LiveIndex, settings: Settings,
                 llm: LLMSettings, client: ChatClient | None, llm_origin: str) -> None:
        self.live = live
        self.settings = settings
        self.llm = llm
        self.client = client
        self.llm_origin = llm_origin
        counter = TokenCounter(llm.encoding)
        self.tokens = counter
        rerank_prompt = load_rerank_prompt(settings.server.prompts_dir / "rerank.prompt")
        redraft_prompt = load_prompt(settings.server.prompts_dir / "redraft.prompt", REDRAFT_VARIABLES)
        self.prompts = {"rerank": rerank_prompt.key, "redraft": redraft_prompt.key}
        self.reranker = (LLMReranker(client, rerank_prompt, llm, counter, settings.rerank.budget_s)
                         if client else None)
        self.redrafter = Redrafter(client, redraft_prompt, llm, counter) if client else None
        self._ping: tuple[float, dict[str, Any]] = (float("-inf"), {})

    @property
    def index(self) -> ClauseIndex:
        return self.live.current()[0]

    @property
    def retriever(self) -> HybridRetriever:
        return self.live.current()[1]

    @property
    def rerank_by_default(self) -> bool:
        if self.settings.rerank.default == "auto":
            return self.llm_origin == "configured"
        return self.settings.rerank.default == "on"

    def search(self, text: str, top_k: int, filters: Filters | None,
               rerank: bool | None) -> SearchOutcome:
        started = time.perf_counter()
        wanted = self.rerank_by_default if rerank is None else rerank
        depth = max(top_k, self.settings.rerank.depth) if wanted else top_k
        hits, variants = self._major_variations(text, depth, filters)
        retrieved = time.perf_counter()
        timings = {"retrieval": _ms(retrieved - started)}

        def ranked(pairs: Sequence[tuple[SearchHit, Rating | None]]) -> list[Ranked]:
            return [Ranked(h, rank, r, variants.get(h.clause.clause_id, []))
                    for rank, (h, r) in enumerate(pairs[:top_k], 1)]

        if not wanted:
            reason = ("Rerank is off for this request." if rerank is False else
                      "Rerank is off by default on this server (PRECEDENT_RERANK_DEFAULT).")
            return SearchOutcome(ranked([(h, None) for h in hits]), "skipped", reason,
                                 {**timings, "total": timings["retrieval"]})
        if self.reranker is None:
            return SearchOutcome(ranked([(h, None) for h in hits]), "unavailable",
                                 "No language model is configured on this server.",
                                 {**timings, "rerank": 0.0, "total": timings["retrieval"]})
        head = hits[: self.settings.rerank.depth]
        if not head:
            return SearchOutcome([], "skipped", "No candidates to rerank.",
                                 {**timings, "total": timings["retrieval"]})
        outcome = self.reranker.rerank_detailed(text, head)
        timings["rerank"] = _ms(time.perf_counter() - retrieved)
        ordered = [(h, r) for h, r in outcome.ranked] + [(h, None) for h in hits[len(head):]]
        if outcome.status != "applied":
            ordered = [(h, None) for h in hits]
        timings["total"] = _ms(time.perf_counter() - started)
        return SearchOutcome(ranked(ordered), outcome.status, outcome.reason, timings)

    def _major_variations(self, text: str, wanted: int, filters: Filters | None
                          ) -> tuple[list[SearchHit], dict[str, list[tuple[SearchHit, float]]]]:
        """``wanted`` distinct clauses, each with the near copies found among the candidates.

        Grouping comes before rerank so the LLM never rates the same wording twice.
        """
        threshold = self.settings.retrieval.variation_threshold
        # All the candidates retrieval computes anyway: a library with 16 copies of one
        # clause needs that many to fill a top ten with distinct wordings.
        pool = max(wanted, self.retriever.settings.candidate_depth) if threshold > 0 else wanted
        hits = self.retriever.search(text, top_k=pool, filters=filters)
        groups = group_variations(hits, lambda h: h.clause.text, wanted, threshold)
        return ([g.leader for g in groups],
                {g.leader.clause.clause_id: g.variants for g in groups if g.variants})

    def clauses(self, clause_ids: Sequence[str]) -> list[Clause]:
        index = self.index
        found = {cid: index.get(cid) for cid in clause_ids}
        missing = [cid for cid, clause in found.items() if clause is None]
        if missing:
            raise NotFoundError(f"Unknown clause id(s): {', '.join(missing[:10])}. Search again; "
                                f"the index may have been rebuilt.")
        return [c for c in found.values() if c is not None]

    def clause_with_context(self, clause_id: str,
                            window: int = 2) -> tuple[Clause, list[Clause], list[Clause]]:
        index = self.index
        clause = index.get(clause_id)
        if clause is None:
            raise NotFoundError(f"Unknown clause id {clause_id!r}.")
        before, after = index.neighbours(clause_id, window)
        return clause, before, after

    def redraft(self, text: str, clause_ids: Sequence[str] | None,
                instructions: str) -> tuple[RedraftOutcome, SearchOutcome | None]:
        started = time.perf_counter()
        if self.redrafter is None:
            raise LLMNotConfiguredError(
                "Redrafting needs a language model, and none is set up on this server. Precedent "
                "search still works. Ask IT to set PRECEDENT_LLM_BASE_URL or enable the local model.")
        searched = None
        if clause_ids:
            precedents = self.clauses(clause_ids)
        else:
            searched = self.search(text, self.settings.server.redraft_precedents, None, None)
            precedents = [r.hit.clause for r in searched.results]
            if not precedents:
                raise NotFoundError("No precedent matches this text, so there is nothing to "
                                    "ground a redraft on. Try a longer selection.")
        try:
            result = self.redrafter.redraft(text, precedents, instructions)
        except LLMUnavailableError as exc:
            raise type(exc)(_lawyer_message(exc)) from exc
        timings = {**({"retrieval": searched.timings_ms["total"]} if searched else {}),
                   **result.timings_ms, "total": _ms(time.perf_counter() - started)}
        return RedraftOutcome(result, timings), searched

    def health(self) -> dict[str, Any]:
        llm: dict[str, Any] = {"origin": self.llm_origin, "configured": self.client is not None,
                               "rerank_default": self.rerank_by_default,
                               "token_counting": self.tokens.name, "prompts": self.prompts}
        if self.client is not None:
            llm.update(base_url=_public_url(self.llm.base_url), provider=self.llm.provider,
                       rerank_model=self.llm.rerank_model, redraft_model=self.llm.redraft_model,
                       context_tokens=self.llm.context_tokens, **self._cached_ping())
        else:
            llm["reachable"] = False
        return {"index": self._index_info(), "llm": llm}

    def _cached_ping(self) -> dict[str, Any]:
        # Health may be polled by every open pane; one probe per interval is plenty.
        if time.monotonic() - self._ping[0] > PING_INTERVAL_S and self.client is not None:
            self._ping = (time.monotonic(), self.client.ping())
        return self._ping[1]

    def _index_info(self) -> dict[str, Any]:
        index, retriever = self.live.current()
        return {"version": index.path.name, "clauses": len(index.clauses),
                "documents": len(index.documents), "embedding_model": index.model_id,
                "query_model": retriever.embedder.model_id, "built_at": index.params.get("built_at")}

    def close(self) -> None:
        """Stop rerank workers and close the LLM connection pool."""
        if self.reranker:
            self.reranker.close()
        close = getattr(self.client, "close", None)
        if close:
            close()


def build_service(settings: Settings, embedder: Embedder | None = None,
                  llm: LLMSettings | None = None, llm_origin: str | None = None,
                  client: ChatClient | None = None) -> PrecedentService:
    """Load the index and models named by the settings; ``llm`` overrides the endpoint."""
    index = load_index(settings.index_dir)
    if embedder is None:
        from index_builder.index.embedder import SentenceTransformerEmbedder

        embedder = SentenceTransformerEmbedder(settings.embedding)
    # The index builder's configured pipeline: expansion, hybrid, its cross-encoder if built.
    retriever = build_retriever(index, embedder, settings)
    llm = llm or settings.llm
    if client is None and llm.configured:
        client = OpenAIChatClient(llm)
    origin = llm_origin or ("configured" if client else "none")
    log.info("Index %s: %d clauses; LLM: %s", index.path, len(index.clauses), origin)
    live = LiveIndex(settings.index_dir, retriever, settings.server.index_reload_s)
    return PrecedentService(live, settings, llm, client, origin)


def _lawyer_message(exc: LLMUnavailableError) -> str:
    return ("The drafting assistant is not available right now, so no redraft was written "
            f"({exc.message.rstrip('.')}). Precedent search still works. Try the redraft again "
            "in a few minutes, or ask IT to check the language model server.")


def _public_url(url: str) -> str:
    """The endpoint without credentials or query (an Azure key can sit in a query string)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}" if parts.scheme else ""


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)
