"""Every prompt the server uses, loaded and checked once, at start-up, here and nowhere else.

prompts/README.md lists them. A prompt file that is missing, is not UTF-8, is malformed or
declares other placeholders than its code fills stops the server before it serves, with a
PromptError naming the file and the fix (draft/prompts.py); so does a token budget that can
never fit the model; one that leaves too little room is a warning in the log
(draft/prompt_checks.py). The conform prompt has no budget check: its inputs are a term, its
definition and a list of candidate terms, a few hundred tokens at most.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from addin_server.conform.suggest import PROMPT_FILE as CONFORM_FILE, VARIABLES as CONFORM_VARIABLES
from addin_server.draft.prompt_checks import check_prompt
from addin_server.draft.prompts import (REDRAFT_ALONE_FILE, REDRAFT_ALONE_VARIABLES,
                                        REDRAFT_VARIABLES, RERANK_VARIABLES, PromptTemplate,
                                        load_prompt)
from addin_server.draft.verifier import PROMPT_FILE as SUPPORT_FILE, SUPPORT_VARIABLES
from addin_server.llm.tokens import TokenCounter
from index_builder.settings import LLMSettings

log = logging.getLogger(__name__)

# kind -> (file under PRECEDENT_PROMPTS_DIR, the placeholders its code fills)
PROMPTS: dict[str, tuple[str, frozenset[str]]] = {
    "rerank": ("rerank.prompt", RERANK_VARIABLES),
    "redraft": ("redraft.prompt", REDRAFT_VARIABLES),
    "redraft_alone": (REDRAFT_ALONE_FILE, REDRAFT_ALONE_VARIABLES),
    "support": (SUPPORT_FILE, SUPPORT_VARIABLES),
    "conform": (CONFORM_FILE, frozenset(CONFORM_VARIABLES)),
}
BUDGETED = ("rerank", "redraft", "support")  # the kinds draft/prompt_checks.py budgets


@dataclass(frozen=True)
class PromptSet:
    """The validated templates: rerank and redraft, the citation check's second opinion
    (support) and conform's term suggestions."""

    rerank: PromptTemplate
    redraft: PromptTemplate
    redraft_alone: PromptTemplate  # the redraft when no precedent was found: nothing to cite
    support: PromptTemplate
    conform: PromptTemplate

    def keys(self) -> dict[str, str]:
        """What /health names (the prompts every search or redraft uses)."""
        return {"rerank": self.rerank.key, "redraft": self.redraft.key}


def load_prompt_set(prompts_dir: Path, llm: LLMSettings, tokens: TokenCounter) -> PromptSet:
    """Every prompt, validated, with the budget checks' warnings logged; PromptError if one
    cannot be used."""
    loaded = {kind: load_prompt(Path(prompts_dir) / name, variables)
              for kind, (name, variables) in PROMPTS.items()}
    # Token budget for this model and the citation format (issue 26): warnings, or a
    # PromptError when a template could never fit.
    for kind in BUDGETED:
        for warning in check_prompt(loaded[kind], kind, llm, tokens):
            log.warning("Prompt check: %s", warning)
    log.info("Prompts: %s", ", ".join(t.key for t in loaded.values()))
    return PromptSet(**loaded)
