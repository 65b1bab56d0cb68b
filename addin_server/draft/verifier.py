"""Optional second opinion from the language model on citations the wording check flags.

Off by default (PRECEDENT_LLM_REDRAFT_VERIFY): it costs one short call per flagged
citation. The model answers "yes" or "no"; its answer is shown beside the flag and never
lifts it. A lawyer is promised no unsupported citation: a sentence whose words the
precedent does not show (support score below its floor) stays flagged whatever a model
says, and a "yes" is said as what it is, "the model reads [n] as backing this; the words do
not show it: read [n]" (a new user saw a score-0.07 citation shown supported on the
embedded model's yes). A model that agrees with everything would
lift every flag, so before its first answer counts it must reject a control pair that a
precedent plainly does not back; one that does not is ignored for the life of the server.
Measured with the embedded 1.5B model it said "yes" to all 24 flagged pairs asked, the
12 unsupported ones included (benchmarks/results/citations/citations.md): the control keeps such a
model from answering at all; a stronger endpoint model is what makes the pass useful.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from index_builder.errors import LLMUnavailableError
from index_builder.model import Clause

from addin_server.draft.citations import Comment, VerifiedRedraft, comment_text
from addin_server.draft.prompts import PromptTemplate, load_prompt
from addin_server.draft.support import Support
from addin_server.llm.client import ChatClient
from addin_server.llm.tokens import TokenCounter
from addin_server.llm.untrusted import neutralise

log = logging.getLogger(__name__)

SUPPORT_VARIABLES = frozenset({"sentence", "precedent"})
PROMPT_FILE = "support.prompt"
MAX_PRECEDENT_TOKENS = 300  # a short prompt: one call per flagged citation on a small model
_ANSWER = re.compile(r"^\W*(yes|no)\b", re.IGNORECASE)
# A pair no precedent-reader should confirm: a model that says "yes" here says it to all.
CONTROL = ("Neither party may terminate this Agreement before the end of the Term.",
           "Either party may terminate this Agreement for convenience on thirty days' written "
           "notice to the other party.")


class SupportVerifier:
    """Asks the model whether each flagged precedent really backs its sentence."""

    def __init__(self, client: ChatClient, prompt: PromptTemplate, model: str,
                 timeout_s: float | None = None, counter: TokenCounter | None = None) -> None:
        self.client = client
        self.prompt = prompt
        self.model = model
        self.timeout_s = timeout_s
        self.counter = counter or TokenCounter()
        self.trusted: bool | None = None  # the control pair's verdict, asked once

    @classmethod
    def beside(cls, redraft_prompt: PromptTemplate, client: ChatClient, model: str,
               timeout_s: float | None = None) -> "SupportVerifier":
        """The verifier whose prompt file sits next to the redraft prompt."""
        path = Path(redraft_prompt.path).parent / PROMPT_FILE
        return cls(client, load_prompt(path, SUPPORT_VARIABLES), model, timeout_s)

    def confirms(self, sentence: str, precedent: str) -> bool | None:
        """True: the model says the precedent backs the sentence; False: it does not;
        None: no usable answer."""
        messages = self.prompt.render(
            sentence=neutralise(sentence),
            precedent=neutralise(self.counter.truncate(precedent, MAX_PRECEDENT_TOKENS)))
        completion = self.client.complete(messages, model=self.model, max_tokens=3,
                                          temperature=0.0, timeout_s=self.timeout_s)
        match = _ANSWER.match(completion.text)
        return None if match is None else match.group(1).lower() == "yes"

    def discriminates(self) -> bool:
        """Whether the model rejects the control pair (asked once, then remembered)."""
        if self.trusted is None:
            answer = self.confirms(*CONTROL)
            if answer is None:
                return False  # ask again next time: no usable answer is no verdict
            self.trusted = answer is False
            if not self.trusted:
                log.warning("The language model confirmed a citation it should reject; its "
                            "citation checks are ignored (use a stronger model for them).")
        return self.trusted

    def review(self, verified: VerifiedRedraft, precedents: Sequence[Clause]) -> int:
        """Add the model's reading to each flagged citation (the flag stays); returns how
        many the model read as backed."""
        confirmed = 0
        try:
            if not verified.flagged or not self.discriminates():
                return 0
        except LLMUnavailableError as exc:
            log.warning("Citation check by the model skipped: %s", exc.message)
            return 0
        for comment in verified.flagged:
            clause = precedents[comment.n - 1]
            try:
                answer = self.confirms(_claim(comment), clause.text)
            except LLMUnavailableError as exc:
                log.warning("Citation check by the model skipped: %s", exc.message)
                return confirmed
            assert comment.support is not None
            comment.support = _read_by_model(comment.support, comment.n, answer)
            comment.text = comment_text(comment.n, clause, comment.sentence, comment.support)
            confirmed += answer is True
        if confirmed:
            log.info("Redraft: the model read %d flagged citation(s) as backed; flags kept", confirmed)
        return confirmed


def _claim(comment: Comment) -> str:
    return re.sub(r"\s*\[\d+\]", "", comment.sentence).strip()


def _read_by_model(support: Support, n: int, answer: bool | None) -> Support:
    """The flag with the model's reading said beside the words' reason (never lifted)."""
    if answer is None:
        return replace(support, model_confirmed=None)
    said = (f"the model reads [{n}] as backing this, the words do not show it: read [{n}]" if answer
            else "the model agrees")
    reason = f"{support.reason}; {said}" if support.reason else said
    return replace(support, model_confirmed=answer, reason=reason)
