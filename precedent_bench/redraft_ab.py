"""`precedent-bench redraft`: two redraft prompts on the redraft evaluation set.

Each task (benchmarks/redraft_set/, issue 32) is a lawyer's clause, an instruction and the
chosen precedents. Both prompts are rendered by the server's own Redrafter (same budget,
same precedent blocks) and answered by the same model; the answer is judged by the task's
machine checks (addin_server/draft/checks.py: markers, support, quotations, the
instruction, defined terms, length, blackline). A task's score is the share of its
applicable checks passed (0..1); checks that do not apply (passed is None) are left out.
"""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from addin_server.draft.citations import verify
from addin_server.draft.prompts import REDRAFT_VARIABLES, PromptTemplate, load_prompt
from addin_server.draft.redraft import Redrafter
from index_builder.errors import InvalidRequestError
from index_builder.settings import Settings

from precedent_bench.ab import ABRun, ItemRun, prompt_warnings
from precedent_bench.models import BenchModel

log = logging.getLogger(__name__)

DEFAULT_TASKS = Path("benchmarks/redraft_set/tasks.jsonl")
Task = tuple[str, str, Any]  # (task_id, category, DraftTask)
SPLITS = ("tuning", "held-out")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("redraft", help="A/B two redraft prompts on the redraft set (checks passed)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--prompt", action="append", type=Path, required=True,
                   help="redraft prompt file; give it twice: A (the baseline) then B (the edit)")
    p.add_argument("--tasks", type=Path, default=DEFAULT_TASKS, help=f"task file (default {DEFAULT_TASKS})")
    p.add_argument("--category", action="append", help="only these categories (repeatable)")
    p.add_argument("--limit", type=int, help="first N tasks of each category")
    # Tuning by default: a prompt chosen on the held-out half is no longer measured by it.
    p.add_argument("--split", choices=SPLITS + ("both",), default="tuning",
                   help="half of the set: tuning (default, 35 tasks), held-out (29: once, to "
                        "confirm a chosen edit) or both")
    p.add_argument("--budget-s", type=float, help="start no new task after this many seconds; "
                   "the report covers the tasks done (answers so far stay cached)")
    p.add_argument("--score", choices=tuple(SCORES), default="checks",
                   help="checks: share of the applicable checks passed (default); cited: whether "
                        "the draft cites a precedent given (an edit that stops citing leaves the "
                        "citation checks not applicable, so 'checks' alone does not see it)")
    p.set_defaults(handler="precedent_bench.redraft_ab:run_command", ab=True)


def load_task_file(path: Path, split: str | None = None) -> list[Task]:
    """The tasks through the set's own loader (precedent_bench/redraft_set.py, issue 32)."""
    from precedent_bench.redraft_set import load_tasks

    if not Path(path).is_file():
        raise InvalidRequestError(f"No redraft task file at {path}: give --tasks, or run from the "
                                  f"repository root where {DEFAULT_TASKS} lives.")
    return [(str(row[0]), str(row[1]), row[2]) for row in load_tasks(path, split)]


def load_labels(path: Path, split: str | None = None) -> dict[str, dict]:
    """Each task's labels (``expect``), for a scorer or a scripted drafter: never for the checks."""
    from precedent_bench.redraft_set import load_tasks

    return {row.task_id: dict(row.expect) for row in load_tasks(path, split)}


def select(tasks: Iterable[Task], categories: Sequence[str] | None, limit: int | None) -> list[Task]:
    chosen: list[Task] = []
    seen: dict[str, int] = {}
    for task in tasks:
        category = task[1]
        if categories and category not in categories:
            continue
        seen[category] = seen.get(category, 0) + 1
        if limit is None or seen[category] <= limit:
            chosen.append(task)
    return chosen


def draft(redrafter: Redrafter, task: Any) -> str:
    """The model's raw answer, asked exactly as the server asks (Redrafter's messages)."""
    messages, _, _, _ = redrafter.build_messages(task.clause, task.precedents, task.instruction)
    s = redrafter.settings
    return redrafter.client.complete(messages, model=s.redraft_model, max_tokens=s.redraft_max_tokens,
                                     temperature=s.redraft_temperature,
                                     timeout_s=s.redraft_timeout_s).text


def checks_passed(task: Any, answer: str, results: list[Any]) -> float:
    applicable = [r for r in results if r.passed is not None]
    return sum(1 for r in applicable if r.passed) / len(applicable) if applicable else 1.0


def cites(task: Any, answer: str, results: list[Any]) -> float:
    # From the verified citations themselves: a marker naming no precedent given is removed
    # there, so a draft citing only [9] of three precedents does not count as citing.
    return float(bool(verify(answer, task.precedents, task.clause).cited))


SCORES: dict[str, tuple[str, Callable[[Any, str, list[Any]], float]]] = {
    "checks": ("share of checks passed", checks_passed),
    "cited": ("drafts citing a precedent given (1 or 0)", cites)}


def judge(task_id: str, category: str, task: Any, answer: str,
          checks: Callable[[Any, str], list[Any]], score: str = "checks") -> ItemRun:
    """Score one answer (``SCORES``) and list its failed checks in words."""
    results = checks(task, answer)
    notes = tuple(f"{r.name}: {r.reason}" for r in results if r.passed is False)
    return ItemRun(task_id, category, SCORES[score][1](task, answer, results), answer, notes)


def run_ab(tasks: Sequence[Task], prompts: tuple[PromptTemplate, PromptTemplate], model: BenchModel,
           subset: str, checks: Callable[[Any, str], list[Any]] | None = None,
           progress: Callable[[str], None] = lambda _: None,
           budget_s: float | None = None, score: str = "checks") -> ABRun:
    """Each task under A then B (so a run stopped by ``budget_s`` still has pairs)."""
    if checks is None:
        from addin_server.draft.checks import run_checks as checks
    redrafters = [Redrafter(model.client, prompt, model.llm) for prompt in prompts]
    started = time.monotonic()
    # Nothing else is printed until the first task ends, which takes minutes on the embedded
    # model (75-180 s a task): say what is coming and how to make it shorter.
    progress(f"{len(tasks)} tasks, each drafted under A then B by {model.name}; progress after each "
             f"task (with the embedded model 1-3 minutes a task: --limit 1 or --budget-s for a quick look)")
    runs: tuple[list[ItemRun], list[ItemRun]] = ([], [])
    for n, (task_id, category, task) in enumerate(tasks, 1):
        if budget_s is not None and time.monotonic() - started > budget_s:
            progress(f"budget of {budget_s:.0f} s spent: {n - 1} of {len(tasks)} tasks done")
            subset += f" (stopped by --budget-s after {n - 1} of {len(tasks)})"
            break
        for rows, redrafter in zip(runs, redrafters):
            rows.append(judge(task_id, category, task, draft(redrafter, task), checks, score))
        progress(f"{n}/{len(tasks)} tasks ({model.client.counts()})")
    return ABRun("redraft", SCORES[score][0], prompts[0], prompts[1], runs[0], runs[1],
                 model.name, subset, model.client.counts(),
                 prompt_warnings("redraft", prompts, model.llm))


def run_command(args: argparse.Namespace, settings: Settings, model_opener) -> ABRun:  # type: ignore[no-untyped-def]
    if len(args.prompt) != 2:
        raise InvalidRequestError("Give --prompt twice: the baseline (A), then the edit (B).")
    prompts = (load_prompt(args.prompt[0], REDRAFT_VARIABLES), load_prompt(args.prompt[1], REDRAFT_VARIABLES))
    split = None if args.split == "both" else args.split
    tasks = select(load_task_file(args.tasks, split), args.category, args.limit)
    if not tasks:
        raise InvalidRequestError("No task matches --category/--limit.")
    subset = (f"{len(tasks)} tasks of {args.tasks}{' (' + args.split + ')' if args.split else ''}"
              f"{' (first ' + str(args.limit) + ' per category)' if args.limit else ''}"
              f"{' in ' + ', '.join(args.category) if args.category else ''}")
    model = model_opener()
    try:
        ab = run_ab(tasks, prompts, model, subset, progress=log.info, budget_s=args.budget_s,
                    score=args.score)
    finally:
        model.close()
    if not ab.runs_a:
        raise InvalidRequestError("No task finished within --budget-s: give it more time (answers "
                                  "already received are cached, so a re-run continues).")
    return ab
