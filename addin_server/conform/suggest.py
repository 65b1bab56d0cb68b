"""An optional AI suggestion for precedent terms the deterministic mapping left unmatched.

Only ever a suggestion: it comes back as ``method`` "llm" with ``apply`` False, so the pane
shows it unticked; an answer that is not one of the document's own terms is dropped; a slow
or failing model leaves the mapping as it was (the lawyer loses nothing).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Sequence

from index_builder.errors import PrecedentError
from index_builder.reading.document import Document
from addin_server.conform.model import ConformResult, TermMapping
from addin_server.draft.prompts import PromptTemplate
from addin_server.llm.untrusted import neutralise

log = logging.getLogger(__name__)

# Loaded and checked with every other prompt at start-up (addin_server/prompt_set.py).
PROMPT_FILE = "conform.prompt"
VARIABLES = ("term", "definition", "candidates")
MAX_TERMS = 8  # model calls per request
MAX_CANDIDATES = 80


def with_suggestions(result: ConformResult, source: Document, target: Document, client,
                     prompt: PromptTemplate, model: str, timeout_s: float) -> ConformResult:
    """``result`` with an AI suggestion on each unmatched term that has a definition."""
    candidates = list(dict.fromkeys([*target.party_names, *(d.term for d in target.definitions)]))[:MAX_CANDIDATES]
    if not candidates:
        return result
    own = {d.term.lower(): d.text for d in source.definitions}
    by_lower = {c.lower(): c for c in candidates}
    asked = 0
    mappings: list[TermMapping] = []
    for m in result.mappings:
        if m.method != "none" or not own.get(m.source.lower()) or asked >= MAX_TERMS:
            mappings.append(m)
            continue
        asked += 1
        answer = _ask(client, prompt, model, timeout_s, m.source, own[m.source.lower()], candidates)
        chosen = by_lower.get(answer.strip().strip(".\"“”").lower()) if answer else None
        mappings.append(replace(m, target=chosen, method="llm", confidence=0.0, apply=False,
                                reason="suggested by AI: check before applying") if chosen else m)
    log.info("conform suggestions: %d asked, %d suggested", asked,
             sum(m.method == "llm" for m in mappings))
    return replace(result, mappings=tuple(mappings))


def _ask(client, prompt: PromptTemplate, model: str, timeout_s: float, term: str, definition: str,
         candidates: Sequence[str]) -> str:
    messages = prompt.render(term=neutralise(term), definition=neutralise(definition[:1500]),
                             candidates="; ".join(neutralise(c) for c in candidates))
    try:
        return client.complete(messages, model=model, max_tokens=20, timeout_s=timeout_s,
                               deadline_s=timeout_s).text
    except PrecedentError as exc:  # unavailable, timed out, refused: no suggestion
        log.warning("conform suggestion unavailable: %s", exc.__class__.__name__)
        return ""
