"""Rewrite short queries into clause language with an LLM, cached on disk (quality.md, step 16).

A three-word query ("cap on liability") shares few words with the clauses that answer it;
the glossary (query_expansion.py) appends definitions for the terms it knows. This module
asks a language model instead to write the sentence a contract clause would use, and appends
that to the retrieval text in the same way. A model call costs seconds on a CPU, so every
rewrite is kept in a JSONL file keyed by model id, prompt key (which includes a hash of the
prompt file) and query text: re-runs of an evaluation, and repeated queries when serving,
never call the model twice for the same question.

The model is reached through a plain ``complete(query) -> answer`` callable so that this
package does not depend on the server's LLM client; the benchmark
(`precedent-bench query-rewrite`) builds one from precedent_bench/retrieval/rewrite.prompt and the embedded model.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Mapping

from index_builder.retrieve.query_expansion import QueryExpander

log = logging.getLogger(__name__)

# A small model sometimes keeps writing after the clause (a second clause, an explanation):
# the first sentences carry the wording, the rest only dilutes the query.
MAX_SENTENCES = 2
MAX_CHARS = 600
_SENTENCE_END = re.compile(r"(?<=[.;!?])\s+")


@dataclass(frozen=True)
class Rewrite:
    """One cached rewrite and what produced it."""

    model: str
    prompt: str  # PromptTemplate.key: name@version#file-hash
    query: str
    text: str
    seconds: float = 0.0


def rewrite_key(model: str, prompt: str, query: str) -> str:
    """The cache key: a change of model, prompt file or query text is a different rewrite."""
    return hashlib.sha256(f"{model}\n{prompt}\n{query.strip()}".encode("utf-8")).hexdigest()


class RewriteCache:
    """Rewrites in a JSONL file, one object a line; appended to, never rewritten in place."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._rows: dict[str, Rewrite] = {}
        if self.path.is_file():
            for number, line in enumerate(self.path.read_text("utf-8").splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    row = Rewrite(**json.loads(line))
                except (json.JSONDecodeError, TypeError) as exc:
                    # A line cut short by a killed run: skip it, the query is rewritten again.
                    log.warning("%s line %d unreadable (%s); skipped", self.path, number, exc)
                    continue
                self._rows[rewrite_key(row.model, row.prompt, row.query)] = row

    def __len__(self) -> int:
        return len(self._rows)

    def get(self, model: str, prompt: str, query: str) -> Rewrite | None:
        return self._rows.get(rewrite_key(model, prompt, query))

    def put(self, rewrite: Rewrite) -> None:
        self._rows[rewrite_key(rewrite.model, rewrite.prompt, rewrite.query)] = rewrite
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps(asdict(rewrite)) + "\n")

    def texts(self, model: str, prompt: str) -> dict[str, str]:
        """Query text -> rewrite for one model and prompt (what an evaluation appends)."""
        return {r.query: r.text for r in self._rows.values() if r.model == model and r.prompt == prompt}


def clean_rewrite(answer: str) -> str:
    """The model's answer as one line of clause text: no quotes or labels, at most two sentences."""
    text = " ".join(answer.replace("```", " ").split())
    text = re.sub(r"^(?:clause|answer|sentence)\s*:\s*", "", text, flags=re.IGNORECASE)
    text = text.strip(" \"'“”‘’")
    sentences = _SENTENCE_END.split(text)
    return " ".join(sentences[:MAX_SENTENCES])[:MAX_CHARS].strip()


class QueryRewriter:
    """Rewrites queries of at most ``max_words`` words through ``complete``, cache first."""

    def __init__(self, complete: Callable[[str], str], model: str, prompt: str,
                 cache: RewriteCache, max_words: int = 30) -> None:
        self.complete = complete
        self.model = model
        self.prompt = prompt
        self.cache = cache
        self.max_words = max_words

    def wanted(self, query: str) -> bool:
        """Whether a query is short enough to rewrite (whole clauses are clause language already)."""
        return 0 < len(query.split()) <= self.max_words

    def rewrite(self, query: str) -> str:
        """The rewrite of a short query ('' for a long one); calls the model only on a cache miss."""
        if not self.wanted(query):
            return ""
        cached = self.cache.get(self.model, self.prompt, query)
        if cached is not None:
            return cached.text
        started = time.monotonic()
        text = clean_rewrite(self.complete(query))
        seconds = time.monotonic() - started
        self.cache.put(Rewrite(self.model, self.prompt, query, text, round(seconds, 2)))
        log.debug("rewrote %r in %.1f s", query, seconds)
        return text


def retrieval_text(query: str, expander: QueryExpander, rewrites: Mapping[str, str]) -> str:
    """The text both retrievers see: the glossary expansion, then the rewrite if there is one.

    The rewrite only applies where the expander would expand (queries of at most
    ``expander.max_words`` words), so whole clauses are never changed.
    """
    expanded = expander.expand(query)
    rewrite = rewrites.get(query, "") if len(query.split()) <= expander.max_words else ""
    return f"{expanded}. {rewrite}" if rewrite else expanded
