"""The reference rater: `precedent-bench rerank --reference`, a check of a rerank prompt's
wiring and of the workbench itself, with no language model.

Why: a rerank A/B can only show a worse edit when the model's ratings carry a signal. The
embedded Qwen2.5-Coder-1.5B's do not on ACORD (the shipped prompt orders the judged heads
+1.0 NDCG@5 better than retrieval order, sd 6.7 over 16 valid + train queries; the ACORD
paper found the same of small models), so no edit can lose what it never had. A prompt
engineer without a capable endpoint still needs to know that an edit does not break what a
capable model reads.

What: a loopback OpenAI-compatible server (addin_server/llm/scripted.py) that answers a
rerank prompt as a model following it would, with a relevance signal that needs no model
that reads instructions: the cosine of the query's and the clause's embeddings (the
project's embedder, MiniLM). It reads from the prompt what such a model reads:

- the scale: the digit the system message calls "highly relevant" is the top (the highest
  digit when no line says so), so a reversed scale reverses its ratings;
- the query and the clause: inside the last message's ``<query>`` and ``<clause>`` tags; a
  prompt that drops or renames them gets "I cannot rate this.", which the reranker reports
  as unparseable, as it would a confused model's answer.

Wording, tone and examples change nothing here: that is the real model's part, measured
with the configured endpoint or the embedded model.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any, Callable

import numpy as np

from addin_server.llm.client import OpenAIChatClient
from addin_server.llm.scripted import Reply, ScriptedLLMServer, rating_logprobs
from index_builder.settings import LLMSettings, Settings

from precedent_bench.cache import AnswerStore, CachedChatClient
from precedent_bench.models import BenchModel

log = logging.getLogger(__name__)

NAME = "reference rater (MiniLM cosine, follows the prompt's scale and tags; no LLM)"
_SCALE_LINE = re.compile(r"^\s*(\d)\s*=\s*(.+)$", re.MULTILINE)
_QUERY = re.compile(r"<query>\s*(.*?)\s*</query>", re.DOTALL)
_CLAUSE = re.compile(r"<clause>\s*(.*?)\s*</clause>", re.DOTALL)
# Cosine of MiniLM vectors for (query, clause) pairs runs from about -0.1 (unrelated) to 0.9
# (near copies): mapped linearly onto the scale, so the order of ratings is the cosine's.
_LOW, _HIGH = -0.1, 0.9


def scale_of(system: str) -> tuple[int, int]:
    """(lowest, highest) digit of the stated scale, the top first when a line names it."""
    lines = [(int(d), text.lower()) for d, text in _SCALE_LINE.findall(system)]
    digits = sorted({d for d, _ in lines}) or [0, 4]
    top = next((d for d, text in lines if "highly relevant" in text), max(digits))
    bottom = min(digits) if top == max(digits) else max(digits)
    return bottom, top


class ReferenceRater:
    """The responder: ``embed`` turns texts into unit vectors (thread-safe use is its own)."""

    def __init__(self, embed: Callable[[list[str]], np.ndarray]) -> None:
        self.embed = embed
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> Reply:
        messages = body.get("messages", [])
        system = next((m["content"] for m in messages if m.get("role") == "system"), "")
        last = messages[-1]["content"] if messages else ""
        query, clause = _QUERY.findall(last), _CLAUSE.findall(last)
        if not query or not clause:
            return Reply(content="I cannot rate this.")
        with self._lock:
            vectors = np.asarray(self.embed([query[-1], clause[-1]]), dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1)
        cosine = float(vectors[0] @ vectors[1] / max(norms[0] * norms[1], 1e-9))
        bottom, top = scale_of(system)
        share = min(max((cosine - _LOW) / (_HIGH - _LOW), 0.0), 1.0)
        value = bottom + share * (top - bottom)  # on a reversed scale top < bottom
        low = int(np.floor(min(value, max(bottom, top))))
        high = min(low + 1, max(bottom, top))
        probabilities = {str(low): 1.0 - (value - low)}
        if high != low:
            probabilities[str(high)] = value - low
        content = max(probabilities, key=lambda d: probabilities[d])
        return Reply(content=content, logprobs=rating_logprobs(probabilities))


def open_reference(settings: Settings, store: AnswerStore,
                   embed: Callable[[list[str]], np.ndarray] | None = None) -> BenchModel:
    """The reference rater behind the answer cache, as a BenchModel (``embed``: tests' fake)."""
    if embed is None:
        from index_builder.index import load_embedder

        embedder = load_embedder(settings.embedding)
        embed = embedder.embed
    server = ScriptedLLMServer(ReferenceRater(embed)).start()
    llm = LLMSettings(base_url=server.url, api_key="reference", rerank_model="reference",
                      redraft_model="reference", request_timeout_s=60.0, deadline_s=120.0,
                      max_attempts=1)
    # The namespace names the signal, not the port: a re-run is answered from the cache.
    client = CachedChatClient(lambda: OpenAIChatClient(llm), store,
                              namespace=f"reference-rater:{settings.embedding.model}")
    return BenchModel(client, llm, NAME, server.stop)
