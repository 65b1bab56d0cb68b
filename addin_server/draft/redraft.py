"""Redraft the lawyer's clause grounded on numbered precedents, within the model's context.

Budget: context window x (1 - margin) - answer tokens - fixed prompt text - the lawyer's
text and instructions = room for precedents. Each precedent is cut to its own budget
first; if the room is still too small, the lowest-ranked precedents are left out (and
reported), never the lawyer's text. A text that alone does not fit is refused with 413.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from typing import Sequence

from index_builder.model import Clause

from addin_server.draft.citations import VerifiedRedraft, verify
from index_builder.errors import LLMContextError
from addin_server.llm.client import ChatClient
from addin_server.llm.tokens import TokenCounter
from addin_server.llm.untrusted import attribute, neutralise
from addin_server.draft.prompts import PromptTemplate, load_redraft_alone
from addin_server.draft.verifier import SupportVerifier
from index_builder.settings import LLMSettings
from index_builder.settings.server import default_prompts_dir

log = logging.getLogger(__name__)

CONTEXT_MARGIN = 0.10  # tiktoken counts approximate other models' tokenizers
PER_MESSAGE_TOKENS = 8  # chat-template wrapping around each message
MIN_PRECEDENT_TOKENS = 80  # below this a precedent is not worth including
NO_INSTRUCTIONS = "(none: improve the clause using the precedents)"
NO_INSTRUCTIONS_ALONE = "(none: improve the clause)"


@dataclass
class RedraftResult:
    verified: VerifiedRedraft
    precedents: list[Clause]  # the ones in the prompt, numbered from 1
    omitted: list[str] = field(default_factory=list)  # clause ids left out for room
    timings_ms: dict[str, float] = field(default_factory=dict)
    prompt_tokens: int = 0
    answer: str = ""  # the model's answer as it came, before its citations were checked


class Redrafter:
    """Builds the redraft prompt within budget, asks the model, verifies the citations."""

    def __init__(self, client: ChatClient, prompt: PromptTemplate, settings: LLMSettings,
                 counter: TokenCounter | None = None,
                 verifier: SupportVerifier | None = None,
                 alone: PromptTemplate | None = None) -> None:
        self.client = client
        self.prompt = prompt
        # With no precedents: its own prompt, which names no citation numbers.
        self.alone = alone or load_redraft_alone(prompt, default_prompts_dir())
        self.settings = settings
        self.counter = counter or TokenCounter(settings.encoding)
        # The model's second opinion on flagged citations, when asked for (off by default).
        if verifier is None and settings.redraft_verify and client is not None:
            verifier = SupportVerifier.beside(prompt, client, settings.redraft_model,
                                              settings.request_timeout_s)
        self.verifier = verifier

    def redraft(self, text: str, precedents: Sequence[Clause], instructions: str = "") -> RedraftResult:
        started = time.perf_counter()
        messages, used, omitted, tokens = self.build_messages(text, precedents, instructions)
        built = time.perf_counter()
        completion = self.client.complete(
            messages, model=self.settings.redraft_model, max_tokens=self.settings.redraft_max_tokens,
            temperature=self.settings.redraft_temperature, timeout_s=self.settings.redraft_timeout_s)
        answered = time.perf_counter()
        # Words the lawyer gave (the clause and the instruction: "make it 60 days") are the lawyer's,
        # not claims a precedent must back.
        # (Its citation markers stay the precedents': "as in [1]" must not make "[1]" read as the lawyer's.)
        given = re.sub(r"\[\d+\]", " ", instructions)
        verified = verify(completion.text, used, text + ("\n" + given if given.strip() else ""), asked=given)
        if verified.removed_markers:
            log.info("Redraft: removed %d unverifiable citation marker(s)", len(verified.removed_markers))
        if verified.flagged or verified.uncited:
            log.info("Redraft: %d citation(s) flagged as weakly supported, %d sentence(s) uncited",
                     len(verified.flagged), len(verified.uncited))
        checked = time.perf_counter()
        timings = {"prompt": _ms(built - started), "llm": _ms(answered - built),
                   "verify": _ms(checked - answered)}
        if self.verifier is not None and verified.flagged:
            self.verifier.review(verified, used)
            timings["verify_llm"] = _ms(time.perf_counter() - checked)
        return RedraftResult(verified, used, omitted, timings, tokens, completion.text)

    def build_messages(self, text: str, precedents: Sequence[Clause], instructions: str
                       ) -> tuple[list[dict[str, str]], list[Clause], list[str], int]:
        """Messages that fit the context; also the precedents used, those omitted, the size."""
        s = self.settings
        limit = int(s.context_tokens * (1 - CONTEXT_MARGIN)) - s.redraft_max_tokens
        if not precedents:
            return self._alone_messages(text, instructions)
        instructions = neutralise(instructions.strip()) or NO_INSTRUCTIONS
        text = neutralise(text.strip())
        fixed = (self.counter.count(self.prompt.fixed_text()) + self.counter.count(text)
                 + self.counter.count(instructions) + PER_MESSAGE_TOKENS * len(self.prompt.turns))
        if fixed > limit - MIN_PRECEDENT_TOKENS:
            raise LLMContextError(
                f"The selected text is too long for the language model ({self.counter.count(text):,} "
                f"tokens; about {max(limit - MIN_PRECEDENT_TOKENS - fixed + self.counter.count(text), 0):,} "
                f"fit). Select a single clause and try again.")
        used = list(precedents)
        while True:
            room = limit - fixed
            share = min(s.redraft_clause_tokens, room // max(len(used), 1) - 20)
            if share >= MIN_PRECEDENT_TOKENS or len(used) <= 1:
                break
            used.pop()  # the lowest-ranked precedent makes room for the others
        blocks = [self._block(n, clause, share) for n, clause in enumerate(used, 1)]
        messages = self.prompt.render(text=text, precedents="\n\n".join(blocks),
                                      instructions=instructions, count=str(len(used)))
        total = sum(self.counter.count(m["content"]) + PER_MESSAGE_TOKENS for m in messages)
        omitted = [c.clause_id for c in precedents[len(used):]]
        if omitted:
            log.info("Redraft: %d precedent(s) left out to fit the context", len(omitted))
        return messages, used, omitted, total

    def _alone_messages(self, text: str, instructions: str
                        ) -> tuple[list[dict[str, str]], list[Clause], list[str], int]:
        """No precedents: the prompt that asks for no citations (there is nothing to cite)."""
        s = self.settings
        limit = int(s.context_tokens * (1 - CONTEXT_MARGIN)) - s.redraft_max_tokens
        messages = self.alone.render(text=neutralise(text.strip()),
                                     instructions=neutralise(instructions.strip()) or NO_INSTRUCTIONS_ALONE)
        total = sum(self.counter.count(m["content"]) + PER_MESSAGE_TOKENS for m in messages)
        if total > limit:
            raise LLMContextError(
                f"The selected text is too long for the language model ({self.counter.count(text):,} "
                f"tokens). Select a single clause and try again.")
        return messages, [], [], total

    def _block(self, n: int, clause: Clause, budget: int) -> str:
        body = neutralise(self.counter.truncate(clause.text.strip(), max(budget, 1)))
        return f'<precedent n="{n}" source="{attribute(clause.citation())}">\n{body}\n</precedent>'


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)
