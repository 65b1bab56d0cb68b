"""Checks on a loaded prompt beyond its placeholders: token budget and citation format.

``load_prompt`` (prompts.py) already refuses a file whose placeholders differ from what
the code fills. This adds what a prompt engineer can get wrong without a syntax error:

- the **token budget** for the configured model: the template's fixed text, the largest
  inputs the code puts in and the answer must fit the context window. A template that
  leaves no room at all is an error (every call would fail); one that leaves room for
  fewer inputs than the code would send is a warning (clauses cut, precedents left out);
- for the redraft prompt, instructions that **contradict the citation format** the checker
  verifies (``[n]`` after each sentence, n in 1..$count): telling the model not to cite,
  to use footnotes, letters or source names, or to list sources at the end. The checker
  would then remove or flag every citation, and the lawyer sees an unsupported draft.

Warnings are logged at start-up and printed by ``precedent-bench check-prompts``; only an
impossible budget stops the server.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from index_builder.errors import PromptError
from index_builder.settings import LLMSettings

from addin_server.draft.prompts import PromptTemplate
from addin_server.llm.tokens import TokenCounter

# As in redraft.py: tiktoken only approximates other models' tokenizers.
CONTEXT_MARGIN = 0.10
PER_MESSAGE_TOKENS = 8
MIN_PRECEDENTS = 2  # fewer than this in the room left: the grounding is thin
SUPPORT_SENTENCE_TOKENS = 120  # a long sentence of a redraft


@dataclass(frozen=True)
class Budget:
    """How one template spends the model's context window, in tokens."""

    context: int
    fixed: int  # the template's own text and chat wrapping
    inputs: int  # the largest inputs the code fills in (beyond precedents, for redraft)
    answer: int

    @property
    def room(self) -> int:
        """What is left after fixed text, inputs and the answer (negative: over budget)."""
        return int(self.context * (1 - CONTEXT_MARGIN)) - self.fixed - self.inputs - self.answer


def budget(prompt: PromptTemplate, kind: str, llm: LLMSettings, counter: TokenCounter) -> Budget:
    """The budget of a rerank, redraft or support template for these LLM settings."""
    fixed = counter.count(prompt.fixed_text()) + PER_MESSAGE_TOKENS * len(prompt.turns)
    if kind == "rerank":
        return Budget(llm.context_tokens, fixed, llm.rerank_query_tokens + llm.rerank_clause_tokens, 1)
    if kind == "redraft":
        # The lawyer's clause is about one precedent's size; precedents take the room left.
        return Budget(llm.context_tokens, fixed, llm.redraft_clause_tokens, llm.redraft_max_tokens)
    if kind == "support":
        return Budget(llm.context_tokens, fixed, SUPPORT_SENTENCE_TOKENS + llm.redraft_clause_tokens, 3)
    raise ValueError(f"unknown prompt kind {kind!r}")


def check_budget(prompt: PromptTemplate, kind: str, llm: LLMSettings,
                 counter: TokenCounter) -> list[str]:
    """Warnings about the budget; raises PromptError when nothing could ever fit."""
    b = budget(prompt, kind, llm, counter)
    usable = int(b.context * (1 - CONTEXT_MARGIN))
    if b.fixed + b.answer >= usable:
        raise PromptError(
            f"{prompt.path}: its fixed text ({b.fixed:,} tokens) and the answer ({b.answer:,}) "
            f"do not fit the model's context of {b.context:,} tokens (PRECEDENT_LLM_CONTEXT_TOKENS): "
            f"shorten the prompt or its examples, or use a model with a longer context.")
    warnings = []
    if kind == "redraft":
        fits = b.room // max(llm.redraft_clause_tokens, 1)
        if fits < MIN_PRECEDENTS:
            warnings.append(
                f"{prompt.path}: after its fixed text ({b.fixed:,} tokens), a clause and the answer, "
                f"{max(b.room, 0):,} of {b.context:,} tokens are left for precedents: {fits} at full "
                f"length (PRECEDENT_LLM_REDRAFT_CLAUSE_TOKENS={llm.redraft_clause_tokens}); more are "
                f"cut short or left out. Shorten the prompt or lower PRECEDENT_LLM_REDRAFT_MAX_TOKENS.")
    elif b.room < 0:
        warnings.append(
            f"{prompt.path}: its fixed text ({b.fixed:,} tokens) plus the longest inputs "
            f"({b.inputs:,}) and the answer exceed the model's {b.context:,}-token context by "
            f"{-b.room:,}: long clauses will fail. Shorten the prompt or its examples.")
    return warnings


_INSTRUCTION_CLASHES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), why) for pattern, why in (
        (r"\b(?:do\s+not|don't|never|no\s+need\s+to)\s+(?:cite|add\s+citations|include\s+citations"
         r"|use\s+citations|mention\s+the\s+precedents)|\bwithout\s+(?:any\s+)?citations\b"
         r"|\bno\s+citations\b|\bomit\s+(?:the\s+|all\s+)?citations\b",
         "tells the model not to cite, but every sentence drawn from a precedent is checked "
         "for its [n] citation (uncited sentences are flagged to the lawyer)"),
        (r"\bfootnotes?\b|\bendnotes?\b",
         "asks for footnotes or endnotes; the checker reads [n] inside each sentence and cannot "
         "tie a note to the sentence it supports"),
        (r"\b(?:list|put|collect|give|add)\s+(?:the\s+|all\s+|your\s+)?(?:sources|citations|references)"
         r"\s+(?:at|after)\s+the\s+end\b|\bsources\s+(?:section|list)\b",
         "asks for sources at the end; citations must follow the sentence they support"),
        # Whatever stands between the verb and "by" ("cite it", "cite each precedent") and before
        # the name ("the name of the source document", "the precedent's title"): a citation by
        # any name or title is one the checker cannot tie to a numbered precedent.
        (r"\b(?:cite|citing|refer\s+to|identify)\b[^.\n\[\]]{0,40}?\bby\s+(?:[\w\u2019']+\s+){0,3}?"
         r"(?:name|title|heading|file\s*name|document|source|file)s?\b(?!\s+numbers?\b)|\(\s*source\s*:",
         "asks to cite by name or title; only the numbers [1] to [$count] can be verified"),
        (r"\[\s*(?:precedent\s+|p\s*)?[A-Z]\s*\]|\bprecedent\s+[A-Z]\b(?!\w)",
         "refers to precedents by letter; a lettered citation cannot be verified and is removed"),
    ))
_CANONICAL_FORM = re.compile(r"\[\s*(?:\d+|\$count|\$\{count\}|n)\s*\]")


def citation_clashes(prompt: PromptTemplate) -> list[str]:
    """Instructions in a redraft prompt that contradict the [n] citation format."""
    # Worked answers (assistant turns) are examples, not instructions: only they may omit [n].
    text = "\n".join(t for role, t in prompt.turns if role != "assistant")
    found = []
    for pattern, why in _INSTRUCTION_CLASHES:
        match = pattern.search(text)
        if match:
            found.append(f"{prompt.path}: \"{' '.join(match.group(0).split())}\" {why}.")
    if not _CANONICAL_FORM.search(text):
        found.append(f"{prompt.path}: never shows the [n] citation form (e.g. [2]) that the checker "
                     f"verifies; say \"cite it with its number in square brackets, for example [2]\".")
    return found


def check_prompt(prompt: PromptTemplate, kind: str, llm: LLMSettings,
                 counter: TokenCounter) -> list[str]:
    """Every load-time warning for one prompt (raises PromptError for an impossible budget)."""
    warnings = check_budget(prompt, kind, llm, counter)
    if kind == "redraft":
        warnings += citation_clashes(prompt)
    return warnings
