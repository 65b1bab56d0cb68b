"""`precedent-bench catch-rate`: do the redraft checks catch each planted break?

The set's labels (``expect``) write the scripted model's drafts (precedent_bench/scripted_drafts.py);
the checks read the request only, as /redraft does. Figures in benchmarks/results before issue 38 were
measured with the labels inside the checks (``run_checks`` merged them in): historical.

Runs every task of the redraft set through the real Redrafter against the loopback
scripted model (scripted_drafts.py): once following each instruction, then once per
planted break. Reports, per break, how many were planted, how many were testable (the
follow draft passed the targeted check) and how many the targeted check caught; and the
follow drafts' false alarms (a check failing a draft that does what was asked).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from addin_server.draft.prompts import REDRAFT_VARIABLES, load_prompt
from addin_server.draft.redraft import Redrafter
from addin_server.llm.client import OpenAIChatClient
from addin_server.llm.scripted import ScriptedLLMServer
from index_builder.settings import LLMSettings, load_settings

from precedent_bench.redraft_ab import DEFAULT_TASKS, SPLITS, Task, draft, load_labels, load_task_file
from precedent_bench.scripted_drafts import BREAKS, ScriptedDrafter

log = logging.getLogger(__name__)


@dataclass
class Tally:
    planted: int = 0
    testable: int = 0
    caught: int = 0
    missed: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float | None:
        return self.caught / self.testable if self.testable else None


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("catch-rate", help="plant one break per check in every redraft task (scripted "
                                          "model) and report how many the checks catch",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tasks", type=Path, default=DEFAULT_TASKS, help=f"task file (default {DEFAULT_TASKS})")
    p.add_argument("--split", choices=SPLITS, help="one half of the set (default both)")
    p.add_argument("--prompt", type=Path, help="redraft prompt (default the server's)")
    p.add_argument("--out", type=Path, help="write catch-rate.md and catch-rate.json here")
    p.set_defaults(handler="precedent_bench.catch_rate:run_command", ab=False)


def measure(tasks: Sequence[Task], redrafter: Redrafter, drafter: ScriptedDrafter) -> dict[str, Any]:
    """Follow drafts' results and each break's tally, through the Redrafter and the server."""
    from addin_server.draft.checks import run_checks

    drafter.mode = "follow"
    follow = {tid: run_checks(task, draft(redrafter, task)) for tid, _, task in tasks}
    false_alarms = [f"{tid}: {r.name}: {r.reason}" for tid, results in follow.items()
                    for r in results if r.passed is False]
    tallies: dict[str, Tally] = {}
    for brk in BREAKS:
        tally = tallies.setdefault(brk.name, Tally())
        drafter.mode = brk.name
        for tid, _, task in tasks:
            expect = drafter.labels.get(tid, {})
            if brk.plant(task, expect, drafter.answer_in("follow", task, expect)) is None:
                continue  # this break does not apply to this task (e.g. "too long" outside shorten)
            tally.planted += 1
            if _result(follow[tid], brk.check) is False:
                continue  # the follow draft already fails this check: the break proves nothing
            tally.testable += 1
            if _result(run_checks(task, draft(redrafter, task)), brk.check) is False:
                tally.caught += 1
            else:
                tally.missed.append(tid)
    passing = sum(1 for results in follow.values() if not any(r.passed is False for r in results))
    return {"tasks": len(tasks), "follow_passing": passing, "false_alarms": false_alarms,
            "breaks": tallies}


def _result(results: list[Any], name: str) -> bool | None:
    return next((r.passed for r in results if r.name == name), None)


def run_command(args: argparse.Namespace) -> int:
    settings = load_settings()
    tasks = load_task_file(args.tasks, args.split)
    prompt = load_prompt(args.prompt or settings.server.prompts_dir / "redraft.prompt", REDRAFT_VARIABLES)
    drafter = ScriptedDrafter(tasks, load_labels(args.tasks, args.split))
    with ScriptedLLMServer(drafter) as server:
        llm = LLMSettings(base_url=server.url, api_key="scripted", redraft_model="scripted",
                          max_attempts=1)
        client = OpenAIChatClient(llm)
        try:
            report = measure(tasks, Redrafter(client, prompt, llm), drafter)
        finally:
            client.close()
    text = markdown(report, args)
    sys.stdout.write(text)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "catch-rate.md").write_text(text, encoding="utf-8")
        (args.out / "catch-rate.json").write_text(json.dumps(_jsonable(report), indent=1) + "\n")
    return 0


def markdown(report: dict[str, Any], args: argparse.Namespace) -> str:
    breaks = report["breaks"]
    planted = sum(t.testable for t in breaks.values())
    caught = sum(t.caught for t in breaks.values())
    lines = [f"# Redraft checks: catch rate of planted breaks ({report['tasks']} tasks"
             f"{', ' + args.split if args.split else ''})", "",
             f"Command: `precedent-bench catch-rate --out {args.out or '.'}"
             f"{' --split ' + args.split if args.split else ''}`", "",
             f"**{caught} of {planted} testable breaks caught ({caught / max(planted, 1):.0%}).** "
             f"Follow drafts passing every applicable check: {report['follow_passing']} of "
             f"{report['tasks']}.", "",
             "| break | check that must catch it | planted | testable | caught | rate | missed (tasks) |",
             "|---|---|---|---|---|---|---|"]
    for brk in BREAKS:
        t = breaks[brk.name]
        rate = "-" if t.rate is None else f"{t.rate:.0%}"
        lines.append(f"| {brk.name}: {brk.what} | {brk.check} | {t.planted} | {t.testable} | "
                     f"{t.caught} | {rate} | {', '.join(t.missed) or '-'} |")
    lines += ["", "Testable: the follow draft passed the targeted check, so a failure is the "
              "break's doing. Follow drafts are plain rewrites from each task's labels "
              "(precedent_bench/scripted_drafts.py), not a model's drafts.", "",
              f"## False alarms on follow drafts ({len(report['false_alarms'])})", ""]
    lines += [f"- {a}" for a in report["false_alarms"]] or ["- none"]
    return "\n".join(lines) + "\n"


def _jsonable(report: dict[str, Any]) -> dict[str, Any]:
    return {**report, "breaks": {k: {**vars(t), "rate": t.rate} for k, t in report["breaks"].items()}}
