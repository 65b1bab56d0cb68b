"""What a lawyer sees for bad drafting input (issue 32), with and without a model.

    precedent-bench redraft-bad-input   # writes benchmarks/results/redraft/bad_input.md

Each case goes through the router /redraft uses: once with no model on the server (the
drafting operations only) and once with the scripted loopback model, which answers with
the lawyer's clause unchanged (what the embedded model did in the issue).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from addin_server.draft.checks import DraftTask
from addin_server.draft.prompts import REDRAFT_VARIABLES, load_prompt
from addin_server.draft.redraft import Redrafter
from addin_server.draft.router import DraftRouter
from addin_server.llm.client import OpenAIChatClient
from addin_server.llm.scripted import Reply, ScriptedLLMServer
from index_builder.errors import PrecedentError
from index_builder.settings import LLMSettings, default_prompts_dir

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import RESULTS

ISSUE = "The Supplier shall not be liable to the Customer for any indirect or consequential loss."
CASES = [
    ("another language", ISSUE, "Rendre cette clause réciproque"),
    ("contradictory instructions", ISSUE, "Make this mutual but only binding the Supplier"),
    ("contradictory instructions", ISSUE, "Shorten this and expand it"),
    ("three parties", "Supplier will notify Customer and the Licensor of any breach.",
     "Make this mutual"),
    ("already mutual", "Neither party shall be liable to the other party for any indirect loss.",
     "Make this mutual"),
    ("two periods, none named", "Customer may terminate within 30 days, or within 60 days "
     "after a price change.", "Change the period to 45 days"),
]
OUT = RESULTS / "redraft" / "bad_input.md"


def outcome(router: DraftRouter, clause: str, instruction: str) -> str:
    try:
        drafted = router.draft(DraftTask(clause, instruction))
    except PrecedentError as exc:
        return f"**{type(exc).__name__}** (HTTP {_status(exc)}): {exc.message}"
    failed = [c.reason for c in drafted.checks if c.passed is False]
    unchanged = drafted.result.verified.text.strip() == clause
    parts = [f"**{drafted.producer}**" + (f" ({drafted.operation.operation})" if drafted.operation else ""),
             "text unchanged" if unchanged else f"draft: “{drafted.result.verified.text}”"]
    if drafted.notes:
        parts.append("notes: " + " / ".join(drafted.notes))
    parts.append("failed checks: " + (" / ".join(failed) if failed else "none"))
    return "; ".join(parts)


def _status(exc: PrecedentError) -> int:
    from addin_server.web.errors import http_status

    return http_status(exc)


def add_parser(sub: argparse._SubParsersAction) -> None:
    subparser(sub, __name__).add_argument("--out", type=Path, default=OUT, help="the markdown table")


def run(args: argparse.Namespace) -> None:
    rows = ["| case | instruction | no model on the server | scripted model (answers the clause unchanged) |",
            "|---|---|---|---|"]
    with ScriptedLLMServer(lambda body: Reply(content=current[0])) as server:
        llm = LLMSettings(base_url=server.url, api_key="k", rerank_model="m", redraft_model="m",
                          request_timeout_s=10, deadline_s=20, max_attempts=1)
        client = OpenAIChatClient(llm)
        prompt = load_prompt(default_prompts_dir() / "redraft.prompt", REDRAFT_VARIABLES)
        with_model = DraftRouter(Redrafter(client, prompt, llm))
        without = DraftRouter(None)
        for name, clause, instruction in CASES:
            current[0] = clause
            rows.append(f"| {name} | {instruction} | {outcome(without, clause, instruction)} | "
                        f"{outcome(with_model, clause, instruction)} |")
        client.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("# Bad drafting input (issue 32)\n\n`precedent-bench redraft-bad-input`\n\n"
                        + "\n".join(rows) + "\n", encoding="utf-8")
    print("\n".join(rows))


current = [""]  # the clause the scripted model answers with, set per case
