"""`precedent-bench check-prompts`: the load-time checks of prompt files, with their budgets.

Prints, per prompt, its placeholders, its token budget for the configured model and every
warning the server would log at start-up (addin_server/draft/prompt_checks.py); exits 1 when
a prompt has a warning, 2 when one cannot be loaded.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from addin_server.draft.prompt_checks import budget, check_prompt
from addin_server.draft.prompts import (REDRAFT_VARIABLES, RERANK_VARIABLES, PromptTemplate,
                                        load_prompt)
from addin_server.draft.verifier import SUPPORT_VARIABLES
from addin_server.llm.tokens import TokenCounter
from index_builder.settings import LLMSettings, load_settings

VARIABLES = {"rerank": RERANK_VARIABLES, "redraft": REDRAFT_VARIABLES, "support": SUPPORT_VARIABLES}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check-prompts", help="check prompt files: placeholders, token budget, "
                                             "citation format (as the server does at start-up)")
    p.add_argument("--prompt", action="append", type=Path,
                   help="prompt file (repeatable; default the server's rerank, redraft, support)")
    p.add_argument("--kind", choices=sorted(VARIABLES),
                   help="what the prompts are for (default: from the file name or its 'name:')")
    p.set_defaults(handler="precedent_bench.prompt_report:run_command", ab=False)


def kind_of(path: Path) -> str:
    """rerank / redraft / support from the file's ``name:`` header, else its file name."""
    for line in path.read_text("utf-8", errors="replace").splitlines():
        if line.lower().startswith("name:"):
            name = line.split(":", 1)[1].strip().lower()
            if name in VARIABLES:
                return name
            break
    for kind in VARIABLES:
        if kind in path.stem.lower():
            return kind
    raise SystemExit(f"{path}: cannot tell whether it is a rerank, redraft or support prompt; "
                     f"give --kind.")


def load_checked(path: Path, kind: str, llm: LLMSettings,
                 counter: TokenCounter) -> tuple[PromptTemplate, list[str]]:
    """A prompt loaded as the server loads it, with its warnings."""
    prompt = load_prompt(path, VARIABLES[kind])
    return prompt, check_prompt(prompt, kind, llm, counter)


def run_command(args: argparse.Namespace) -> int:
    settings = load_settings()
    llm, counter = settings.llm, TokenCounter(settings.llm.encoding)
    paths = args.prompt or [settings.server.prompts_dir / f"{k}.prompt" for k in VARIABLES]
    worst = 0
    for path in paths:
        kind = args.kind or kind_of(path)
        prompt, warnings = load_checked(path, kind, llm, counter)
        b = budget(prompt, kind, llm, counter)
        sys.stdout.write(f"{path} ({kind}, {prompt.key}): variables {', '.join(sorted(prompt.variables))}; "
                         f"fixed text {b.fixed} tokens, inputs up to {b.inputs}, answer {b.answer}, "
                         f"{b.room} of {b.context} left ({counter.name})\n")
        for warning in warnings:
            sys.stdout.write(f"  warning: {warning}\n")
        worst = max(worst, 1 if warnings else 0)
    return worst
