"""The server's application object: the live search pipeline plus the LLM parts.

``PrecedentService`` is built once by ``build_service`` from the settings (tests build it
with fakes) and holds what every request shares: the live ``SearchPipeline`` (swapped when
a rebuild lands), the LLM client, reranker and redrafter. Search itself is the pipeline's:
the API, `index-builder search`, eval and annotate all run the same path. ``access`` on
every method is the caller's ethical walls as filters: applied inside each search and to
every look-up, so a walled clause is indistinguishable from one that does not exist.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from addin_server.draft.checks import DraftTask
from addin_server.draft.redraft import Redrafter, RedraftResult
from addin_server.draft.router import WITHOUT_MODEL, Drafted, DraftRouter
from addin_server.draft.verifier import SupportVerifier
from addin_server.llm.client import ChatClient, OpenAIChatClient
from addin_server.llm.tokens import TokenCounter
from addin_server.prompt_set import PromptSet, load_prompt_set
from addin_server.rerank import LLMReranker
from index_builder.errors import (
    AccessChangePendingError,
    LLMBusyError,
    LLMNotConfiguredError,
    LLMUnavailableError,
    NotFoundError,
)
from index_builder.index import open_store
from index_builder.index.backend import Filters, IndexStore
from index_builder.index.embedder import Embedder
from index_builder.index.heap import limit_arenas
from index_builder.retrieve.live import LivePipeline
from index_builder.model import Clause
from index_builder.retrieve.pipeline import (
    Example,
    SearchOutcome,
    SearchPipeline,
    SearchRequest,
    build_pipeline,
)
from index_builder.settings import LLMSettings, Settings
from index_builder.sources.ledger import ledger_for
from index_builder.sources.state import source_health
from index_builder.sources.watch import AccessWatch

log = logging.getLogger(__name__)

LLM_ORIGINS = ("configured", "local", "none")
PING_INTERVAL_S = 10.0
# How long a request waits for a newer index version when the one served predates access
# changes the ledger no longer lists; past it the caller gets 503 and tries again.
ACCESS_LOAD_WAIT_S = 120.0
CONTEXT_WINDOW = 2


@dataclass
class RedraftOutcome:
    result: RedraftResult
    timings_ms: dict[str, float]
    drafted: Drafted | None = None  # who wrote the draft and how it fared on the checks


class PrecedentService:
    """Search, rerank, redraft and clause look-up over the live index."""

    def __init__(self, live: LivePipeline, settings: Settings, llm: LLMSettings,
                 client: ChatClient | None, llm_origin: str,
                 reranker: LLMReranker | None, redrafter: Redrafter | None,
                 prompt_set: PromptSet, tokens: TokenCounter,
                 watch: AccessWatch | None = None) -> None:
        self.live = live
        # Access a sync narrowed after the served version was built (sources/watch.py).
        self.watch = watch
        self.settings = settings
        self.llm = llm
        self.client = client
        self.llm_origin = llm_origin
        self.reranker = reranker
        self.redrafter = redrafter
        # Operations need no model: the router runs them, and the model when one is set up.
        self.router = DraftRouter(redrafter)
        self.prompt_set = prompt_set  # every prompt, loaded and checked at start-up
        self.prompts = prompt_set.keys()  # what /health names
        self.tokens = tokens
        self._ping: tuple[float, dict[str, Any]] = (float("-inf"), {})
        self._closers: list[Callable[[], None]] = []  # the web layer's workers (deferred writes)

    def at_close(self, close: Callable[[], None]) -> None:
        """Run ``close`` when the service closes (before the embedder stops)."""
        self._closers.append(close)

    @property
    def pipeline(self) -> SearchPipeline:
        return self.live.current()

    def withheld(self, access: Filters) -> Filters:
        """The filter that keeps from this caller what a sync has since taken from them (read
        on every request: a revocation holds before the new index version is built or loaded)."""
        if self.watch is None:
            return ()
        try:
            return self.watch.filters(access, _params(self.pipeline.backend))
        except AccessChangePendingError:
            # This server has not looked for a new version since before two syncs narrowed
            # access (it was quiet): load the newest now rather than answer without the walls.
            self.live.load_newer_now(ACCESS_LOAD_WAIT_S)
            return self.watch.filters(access, _params(self.pipeline.backend))

    @property
    def rerank_by_default(self) -> bool:
        return self.pipeline.rerank_default

    def search(self, text: str, top_k: int | None = None, filters: Filters = (),
               rerank: bool | None = None, examples: Sequence[Example] = (),
               access: Filters = (), curation: bool = True, mode: str = "ranked",
               min_similarity: float | None = None) -> SearchOutcome:
        return self.pipeline.search(SearchRequest(text=text, top_k=top_k, filters=filters,
                                                  access=access, rerank=rerank,
                                                  examples=tuple(examples), curation=curation,
                                                  mode=mode, min_similarity=min_similarity))

    def clauses(self, clause_ids: Sequence[str], access: Filters = ()) -> list[Clause]:
        return self.pipeline.clauses(clause_ids, access)

    def clause_with_context(self, clause_id: str, access: Filters = ()
                            ) -> tuple[Clause, list[Clause], list[Clause]]:
        return self.pipeline.clause_with_context(clause_id, CONTEXT_WINDOW, access)

    def redraft(self, text: str, clause_ids: Sequence[str] | None, instructions: str,
                access: Filters = (), document_terms: Sequence[str] | None = None,
                prefer: str = "auto", model_note: str = "", document_parties: Sequence[str] = ()
                ) -> tuple[RedraftOutcome, SearchOutcome | None]:
        started = time.perf_counter()
        searched = None
        if clause_ids is not None:  # [] = no precedent chosen: redraft the clause alone
            precedents = self.clauses(clause_ids, access) if clause_ids else []
        else:
            searched = self.search(text, self.settings.server.redraft_precedents, access=access)
            precedents = [r.hit.clause for r in searched.results]
            if not precedents:
                raise NotFoundError("No precedent matches this text, so there is nothing to "
                                    "ground a redraft on. Try a longer selection.")
        task = DraftTask(text, instructions, tuple(precedents),
                         None if document_terms is None else tuple(document_terms),
                         tuple(document_parties), model_note=model_note)
        try:
            drafted = self.router.draft(task, prefer)
        except LLMNotConfiguredError:
            # The lawyer sees this; the setting names are in the log and /health for IT.
            log.info("Redraft refused: no LLM endpoint (PRECEDENT_LLM_BASE_URL) and no local model")
            raise
        except LLMBusyError:
            raise  # its message is already the lawyer's: busy, try again in a minute
        except LLMUnavailableError as exc:
            log.warning("Redraft failed: %s (%s)%s", exc.code, exc.message, _it_note(exc, self.settings.llm))
            raise type(exc)(_lawyer_message(exc)) from exc
        result = drafted.result
        timings = {**({"retrieval": searched.timings_ms["total"]} if searched else {}),
                   **result.timings_ms, **drafted.timings_ms,
                   "total": _ms(time.perf_counter() - started)}
        return RedraftOutcome(result, timings, drafted), searched

    def health(self, access: Filters = ()) -> dict[str, Any]:
        llm: dict[str, Any] = {"origin": self.llm_origin, "configured": self.client is not None,
                               "rerank_default": self.rerank_by_default,
                               "token_counting": self.tokens.name, "prompts": self.prompts}
        if self.client is not None:
            llm.update(base_url=_public_url(self.llm.base_url), provider=self.llm.provider,
                       rerank_model=self.llm.rerank_model, redraft_model=self.llm.redraft_model,
                       context_tokens=self.llm.context_tokens, **self._cached_ping())
            guard_state = getattr(self.client, "guard_state", None)
            if guard_state is not None:
                llm.update(guard_state())
        else:
            llm["reachable"] = False
        return {"index": self._index_info(access), "llm": llm,
                "capabilities": self._capabilities(llm),
                # Each followed DMS source: its last sync and lag (issue 25; no counts, no paths).
                "sources": source_health(self.settings.index_dir)}

    def _capabilities(self, llm: dict[str, Any]) -> dict[str, Any]:
        """What the pane may offer, in a lawyer's words; IT's detail stays under "llm"."""
        if self.client is None:
            reason = "The drafting assistant is not set up on this server."
        elif llm.get("breaker", {}).get("state") == "open":
            reason = "The drafting assistant has been failing; it is paused for a short while."
        elif not llm.get("reachable", True):
            reason = "The drafting assistant is not answering right now."
        else:
            reason = ""
        available = not reason
        # Degraded: the breaker is not closed, or most recent calls failed or timed out (8 of 8
        # timeouts before it has judged enough to open). Search still answers within the rerank
        # budget, in retrieval order; the pane should not order by the assistant by default.
        degraded = bool(reason) or bool(llm.get("breaker", {}).get("failing"))
        rerank_reason = reason or (
            "The drafting assistant has been slow or failing; results may come in search order."
            if degraded else "" if self.rerank_by_default else
            "Ordering by the assistant is off unless you ask for it.")
        return {"search": True,
                "rerank": {"available": available, "status": "degraded" if degraded else "ok",
                           "default": self.rerank_by_default and not degraded,
                           "reason": rerank_reason},
                # Drafting operations need no model: redraft works for their instructions.
                "redraft": {"available": True, "model": available, "reason": reason and (
                    f"{reason} Without it you can {WITHOUT_MODEL}.")}}

    def _cached_ping(self) -> dict[str, Any]:
        # Health may be polled by every open pane; one probe per interval is plenty.
        if time.monotonic() - self._ping[0] > PING_INTERVAL_S and self.client is not None:
            self._ping = (time.monotonic(), self.client.ping())
        return self._ping[1]

    def _index_info(self, access: Filters) -> dict[str, Any]:
        pipeline = self.pipeline
        backend = pipeline.backend
        # Counts are of what this caller may see: a walled matter's size is not disclosed.
        return {"version": backend.version, **backend.stats(access),
                "embedding_model": backend.model_id, "query_model": pipeline.embedder.model_id,
                "backend": self.settings.backend, **_batching(pipeline.embedder)}

    def close(self) -> None:
        """Stop rerank workers, the embedding batcher, and close the LLM connection pool."""
        for close in self._closers:
            close()
        if self.reranker:
            self.reranker.close()
        stop = getattr(self.pipeline.embedder, "close", None)
        if stop:
            stop()
        close = getattr(self.client, "close", None)
        if close:
            close()


def _batching(embedder: Any) -> dict[str, Any]:
    """This process's query batcher's counts (index/batcher.py: batches, texts, mean batch),
    behind the cache of vectors; {} without a batcher. Issue 39: a never-seen short search's
    model cost falls from ~6 to ~3 ms a text as its batches grow from 1 to 4, so the
    throughput benchmark reads how large they were."""
    for _ in range(4):
        stats = getattr(embedder, "stats", None)
        if stats is not None and hasattr(stats, "as_dict"):
            # By process: each worker of a multi-process server has its own batcher.
            return {"query_batches": {"process": os.getpid(), **stats.as_dict()}}
        embedder = getattr(embedder, "inner", None)
        if embedder is None:
            break
    return {}


def build_service(settings: Settings, embedder: Embedder | None = None,
                  llm: LLMSettings | None = None, llm_origin: str | None = None,
                  client: ChatClient | None = None, store: IndexStore | None = None
                  ) -> PrecedentService:
    """Open the live index and models named by the settings; ``llm`` overrides the endpoint."""
    # Before any thread allocates: glibc fixes its arena limit when the first one does.
    limit_arenas(settings.server.malloc_arenas)
    store = store or open_store(settings)
    # The index first: a missing index or an unreachable engine is reported at once, not
    # after the embedding model has loaded.
    backend = store.open()
    if embedder is None:
        from index_builder.index.batcher import query_embedder
        from index_builder.index.embed_cache import set_torch_threads

        # Requests run in parallel on the server's threads; a torch pool per request only
        # spins against them (one query 1.8 s with 2 threads, 0.1 s with 1, on 2 busy cores).
        set_torch_threads(1)
        # The model (or its recorded twin), the batcher, the vector cache (issue 39).
        embedder = query_embedder(settings.embedding, compile_now=True)
    llm = llm or settings.llm
    if client is None and llm.configured:
        client = OpenAIChatClient(llm)
    origin = llm_origin or ("configured" if client else "none")
    tokens = TokenCounter(llm.encoding)
    prompts = load_prompt_set(settings.server.prompts_dir, llm, tokens)
    reranker = (LLMReranker(client, prompts.rerank, llm, tokens, settings.rerank.budget_s)
                if client else None)
    # The model's second opinion on flagged citations, when asked for (off by default).
    verifier = (SupportVerifier(client, prompts.support, llm.redraft_model, llm.request_timeout_s)
                if client and llm.redraft_verify else None)
    redrafter = Redrafter(client, prompts.redraft, llm, tokens, verifier,
                          alone=prompts.redraft_alone) if client else None
    default = settings.rerank.default
    # "auto": on for a configured endpoint; the embedded model's rerank measured worse.
    rerank_default = default == "on" or (default == "auto" and origin == "configured")
    pipeline = build_pipeline(settings, embedder, backend, reranker, rerank_default)
    log.info("Index %s (%s): %d clauses; LLM: %s", pipeline.backend.version, store.describe(),
             pipeline.backend.stats()["clauses"], origin)
    live = LivePipeline(store, pipeline, settings.server.index_reload_s)
    return PrecedentService(live, settings, llm, client, origin, reranker, redrafter, prompts, tokens,
                            _watch(store))


def warm_up_messages(settings: Settings, llm: LLMSettings) -> list[dict[str, str]]:
    """The start of every redraft prompt (the prompt file's system turn, for the usual number
    of precedents, and the user turn's opening), for LocalLLMServer.warm: the embedded model's
    first redraft after start-up timed out (503 after 120 s; session 8) where later ones, their
    common start cached, took 7-27 s."""
    prompts = load_prompt_set(settings.server.prompts_dir, llm, TokenCounter(llm.encoding))
    variables = {name: "" for name in prompts.redraft.variables}
    variables["count"] = str(settings.server.redraft_precedents)
    return prompts.redraft.render(**variables)


def _it_note(exc: LLMUnavailableError, llm: Any) -> str:
    """What IT reads beside a failed redraft in the log: a timeout names the setting that bounds it."""
    if "timed out" not in exc.message:
        return ""
    return f"; a redraft attempt may take {llm.redraft_timeout_s:g} s (PRECEDENT_LLM_REDRAFT_TIMEOUT_S)"


def _lawyer_message(exc: LLMUnavailableError) -> str:
    # The cause is in the log; the lawyer gets what happened and what to do, no brackets. A timeout is
    # said as one: the assistant is up but slow (a new user was told "not available" after 120 s).
    if "timed out" in exc.message:
        return ("The drafting assistant took too long to answer, so no redraft was written. Precedent "
                "search still works. Try again, perhaps with a shorter selection or a simpler instruction; "
                "if it keeps happening, ask IT about the drafting assistant's speed or time limit.")
    return ("The drafting assistant is not available right now, so no redraft was written. "
            "Precedent search still works. Try the redraft again in a few minutes; if it keeps "
            "happening, ask IT to check the drafting assistant.")


def _public_url(url: str) -> str:
    """The endpoint without credentials or query (an Azure key can sit in a query string)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}" if parts.scheme else ""


def _watch(store: IndexStore) -> AccessWatch | None:
    ledger = ledger_for(store)
    return AccessWatch(ledger) if ledger is not None else None


def _params(backend: Any) -> dict[str, Any]:
    """A version's params (embedded: its index's; Milvus: the backend's own)."""
    index = getattr(backend, "index", None)
    return dict(getattr(index, "params", None) or getattr(backend, "params", None) or {})


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)
