"""`precedent-bench redraft-eval`: who wrote each draft, and how it fared on the run-time checks.

One prompt on the redraft set (benchmarks/redraft_set/, issue 32), three producers, each
through the server's own DraftRouter (addin_server/draft/router.py) and so judged by the
very checks /redraft runs (addin_server/draft/checks.py):

- ``model``: the language model alone (the router asked for the model), the prompt given;
- ``operations``: the drafting operations alone (no draft where none applies or one declines);
- ``routed``: what /redraft does by default (an operation when one matches with
  confidence, else the model).

For each producer and category: the share of tasks drafted, every check's pass rate
(checks that do not apply are left out), the share passing every check and the share the
checks flag, each with a percentile bootstrap interval over tasks. Also: the hand-written
sound drafts (benchmarks/redraft_set/references.jsonl) that the checks flag (false
flags), and the milliseconds each check and each operation takes. Planted breaks are
`precedent-bench catch-rate`'s. Model answers share `precedent-bench redraft`'s cache
(same prompt, same task, same key), so an A/B after this run pays only for the edit.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from addin_server.draft.checks import CHECK_NAMES, CheckResult, DraftTask, run_checks
from addin_server.draft.citations import verify
from addin_server.draft.edits import Declined
from addin_server.draft.instruction import read_instruction
from addin_server.draft.prompts import REDRAFT_VARIABLES, load_prompt
from addin_server.draft.redraft import Redrafter
from addin_server.draft.router import OPERATION_KINDS, DraftRouter, run_operation
from index_builder.errors import InvalidRequestError, LLMUnavailableError

from precedent_bench.redraft_ab import DEFAULT_TASKS, SPLITS, Task, load_task_file, select
from precedent_bench.stats import paired_interval

log = logging.getLogger(__name__)

PRODUCERS = ("model", "operations", "routed")
DEFAULT_REFERENCES = Path("benchmarks/redraft_set/references.jsonl")
Outcome = list[CheckResult] | None  # a draft's check results; None = no draft


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("redraft-eval", help="every run-time check's pass rate for the model alone, "
                       "the operations alone and the routed combination, per category",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--prompt", type=Path, help="redraft prompt (default the server's)")
    p.add_argument("--tasks", type=Path, default=DEFAULT_TASKS, help=f"task file (default {DEFAULT_TASKS})")
    p.add_argument("--references", type=Path, default=DEFAULT_REFERENCES,
                   help="hand-written sound drafts, one per task (for the false-flag rate)")
    p.add_argument("--category", action="append", help="only these categories (repeatable)")
    p.add_argument("--limit", type=int, help="first N tasks of each category")
    p.add_argument("--split", choices=SPLITS, help="one half of the set (default both)")
    p.add_argument("--budget-s", type=float, help="ask the model nothing new after this many "
                   "seconds (cached answers still count; the report says how many tasks it has)")
    p.add_argument("--no-model", action="store_true", help="operations and sound drafts only")
    p.add_argument("--repeats", type=int, default=5, help="timing repeats per check and operation")
    p.add_argument("--out", type=Path, help="write eval.md and eval.json here")
    p.add_argument("--cache-dir", type=Path, help="answer cache (default PRECEDENT_BENCH_CACHE_DIR)")
    p.add_argument("--no-cache", action="store_true", help="ask the model again for every task")
    p.set_defaults(handler="precedent_bench.redraft_eval:run_command", ab=False)


# --- drafting ------------------------------------------------------------------------------

class Producers:
    """The three producers over one model (or none); the model stops at ``budget_s``."""

    def __init__(self, redrafter: Redrafter | None, budget_s: float | None = None) -> None:
        self.with_model = DraftRouter(redrafter)
        self.without_model = DraftRouter(None)
        self.client = redrafter.client if redrafter is not None else None
        self.deadline = None if budget_s is None else time.monotonic() + budget_s
        self.seconds: list[float] = []  # per model answer actually asked for (not cached)

    def outcomes(self, task: DraftTask) -> dict[str, Outcome]:
        out = {"operations": _checks(lambda: self.without_model.draft(task, "operation"))}
        if self.client is None:
            return {**out, "model": None, "routed": out["operations"]}
        out["model"] = self._model(lambda: self.with_model.draft(task, "model"))
        # The router's "auto" is the operation when one carries the instruction out, else the
        # very model call just made (a declined operation's reason does not reach the prompt):
        # derived, so a timed-out model answer is not asked for twice.
        out["routed"] = out["operations"] if out["operations"] is not None else out["model"]
        return out

    def _model(self, make: Callable[[], Any]) -> Outcome:
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.client.cache_only = True  # past the budget: what is cached still counts
        misses, started = self.client.misses, time.monotonic()
        outcome = _checks(make)
        if self.client.misses > misses:
            self.seconds.append(time.monotonic() - started)
        return outcome


def _checks(make: Callable[[], Any]) -> Outcome:
    try:
        return make().checks
    except (InvalidRequestError, LLMUnavailableError) as exc:
        log.debug("No draft: %s", type(exc).__name__)
        return None


# --- tables --------------------------------------------------------------------------------

def rate(values: Sequence[bool], confidence: float, resamples: int) -> dict[str, Any]:
    """A share with its percentile bootstrap interval over tasks."""
    if not values:
        return {"n": 0, "rate": None, "lo": None, "hi": None}
    mean, lo, hi = paired_interval([float(v) for v in values], confidence, resamples)
    return {"n": len(values), "passed": int(sum(values)), "rate": round(mean, 3),
            "lo": round(lo, 3), "hi": round(hi, 3)}


def pass_table(tasks: Sequence[Task], outcomes: dict[str, Outcome], confidence: float,
               resamples: int) -> dict[str, dict[str, Any]]:
    """Per category and "all": drafted, each check, every check passed, flagged."""
    cells: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for task_id, category, _ in tasks:
        results = outcomes.get(task_id)
        for group in ("all", category):
            cells[group]["drafted"].append(results is not None)
            if results is None:
                continue
            for r in results:
                if r.passed is not None:
                    cells[group][r.name].append(bool(r.passed))
            flagged = any(r.passed is False for r in results)
            cells[group]["every_check"].append(not flagged)
            cells[group]["flagged"].append(flagged)
    columns = ("drafted", *CHECK_NAMES, "every_check", "flagged")
    return {group: {c: rate(cells[group][c], confidence, resamples) for c in columns}
            for group in cells}


def sound_drafts(tasks: Sequence[Task], references: dict[str, str]) -> dict[str, Any]:
    """The checks on each task's hand-written sound draft: every flag here is a false flag."""
    flags, judged = [], 0
    for task_id, _, task in tasks:
        if task_id not in references:
            continue
        judged += 1
        failed = [r for r in run_checks(task, references[task_id]) if r.passed is False]
        if failed:
            flags.append({"task": task_id, "checks": [r.name for r in failed],
                          "reasons": [r.reason for r in failed]})
    return {"judged": judged, "flagged": len(flags), "false_flags": flags}


def latency(tasks: Sequence[Task], references: dict[str, str], repeats: int) -> dict[str, Any]:
    """Milliseconds per check (on the sound drafts) and per operation, on this machine now."""
    per_check: dict[str, list[float]] = defaultdict(list)
    total, added = [], []
    for task_id, _, task in tasks:
        if task_id not in references:
            continue
        answer = references[task_id]
        verified = verify(answer, task.precedents, task.clause)
        for _ in range(repeats):
            timings: dict[str, float] = {}
            started = time.perf_counter()
            run_checks(task, answer, timings=timings)
            total.append((time.perf_counter() - started) * 1000)
            for name, ms in timings.items():
                per_check[name].append(ms)
            started = time.perf_counter()  # /redraft has verified the citations already
            run_checks(task, answer, verified)
            added.append((time.perf_counter() - started) * 1000)
    per_op: dict[str, list[float]] = defaultdict(list)
    for _, _, task in tasks:
        for part in read_instruction(task.instruction, task.clause, task.document_parties).parts:
            if part.kind not in OPERATION_KINDS:
                continue
            for _ in range(repeats):
                started = time.perf_counter()
                try:
                    name = run_operation(part, task).operation
                except Declined:
                    name = f"{part.kind} (declined)"
                per_op[name].append((time.perf_counter() - started) * 1000)
    return {"checks_total": _summary(total), "checks_added_to_redraft": _summary(added),
            "per_check": {k: _summary(v) for k, v in per_check.items()},
            "per_operation": {k: _summary(v) for k, v in sorted(per_op.items())}}


def _summary(ms: list[float]) -> dict[str, Any]:
    if not ms:
        return {"n": 0}
    return {"n": len(ms), "median_ms": round(statistics.median(ms), 2),
            "p95_ms": round(float(np.percentile(ms, 95)), 2), "max_ms": round(max(ms), 2)}


# --- the command ---------------------------------------------------------------------------

def evaluate(tasks: Sequence[Task], producers: Producers, references: dict[str, str],
             confidence: float, resamples: int, repeats: int,
             progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    by_producer: dict[str, dict[str, Outcome]] = {p: {} for p in PRODUCERS}
    for n, (task_id, _, task) in enumerate(tasks, 1):
        for producer, outcome in producers.outcomes(task).items():
            by_producer[producer][task_id] = outcome
        if producers.client is not None and producers.client.misses:
            progress(f"{n}/{len(tasks)} tasks ({producers.client.counts()})")
    seconds = producers.seconds
    return {"tasks": len(tasks),
            "model_seconds_per_task": _summary([s * 1000 for s in seconds]) if seconds else {"n": 0},
            "producers": {p: pass_table(tasks, by_producer[p], confidence, resamples)
                          for p in PRODUCERS},
            "sound_drafts": sound_drafts(tasks, references),
            "latency": latency(tasks, references, repeats)}


def run_command(args: argparse.Namespace) -> int:
    from precedent_bench.cache import AnswerStore
    from precedent_bench.cli import settings_for
    from precedent_bench.eval_report import markdown
    from precedent_bench.models import open_model

    settings = settings_for(args)
    tasks = select(load_task_file(args.tasks, args.split), args.category, args.limit)
    if not tasks:
        raise InvalidRequestError("No task matches --category/--limit.")
    prompt_path = args.prompt or settings.server.prompts_dir / "redraft.prompt"
    prompt = load_prompt(prompt_path, REDRAFT_VARIABLES)
    references = _references(args.references)
    load_before = _uptime()
    model, store = None, None
    if not args.no_model:
        cache_dir = Path(tempfile.mkdtemp()) if args.no_cache else settings.bench.cache_dir
        store = AnswerStore(cache_dir / "llm-answers.sqlite")
        model = open_model(settings, store)
    try:
        redrafter = Redrafter(model.client, prompt, model.llm) if model else None
        producers = Producers(redrafter, args.budget_s)
        report = evaluate(tasks, producers, references, settings.bench.confidence,
                          settings.bench.resamples, args.repeats, progress=log.info)
    finally:
        if model is not None:
            model.close()
        if store is not None:
            store.close()
    report.update({"prompt": str(prompt_path), "model": model.name if model else None,
                   "calls": model.client.counts() if model else {}, "split": args.split or "all",
                   "load_before": load_before, "load_after": _uptime(),
                   "command": "precedent-bench " + " ".join(sys.argv[1:])})
    text = markdown(report)
    sys.stdout.write(text)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "eval.md").write_text(text, encoding="utf-8")
        (args.out / "eval.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n",
                                            encoding="utf-8")
    return 0


def _references(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {row["task_id"]: row["draft"] for row in rows}


def _uptime() -> str:
    """The load average, since timings on a shared machine mean little without it."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
