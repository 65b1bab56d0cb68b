"""Redraft evaluation (issue 32): every check's pass rate for the embedded model alone,
the operations alone and the routed combination, per category with bootstrap intervals;
planted breaks flagged; false flags on sound drafts; latency of checks and operations.

    python -m benchmarks.redraft_eval [--split held-out] [--out benchmarks/results/redraft]

Model answers come from benchmarks/results/redraft/model_answers.jsonl (written by
benchmarks.redraft_model_answers, keyed by prompt hash); tasks without one are left out
of the model and routed columns, and the counts say so. Sound drafts are the hand-written
references (benchmarks/redraft_set/references.jsonl); breaks are planted in them here.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from addin_server.draft.checks import CHECK_NAMES, DraftTask, run_checks
from addin_server.draft.citations import verify
from addin_server.draft.edits import Declined
from addin_server.draft.instruction import read_instruction
from addin_server.draft.periods import periods
from addin_server.draft.router import OPERATION_KINDS, DraftRouter, run_operation
from addin_server.draft.taskset import load_tasks
from benchmarks.redraft_model_answers import CACHE, load_cache

HERE = Path(__file__).parent
REFERENCES = HERE / "redraft_set" / "references.jsonl"
RESAMPLES = 2000


def interval(values: list[bool]) -> dict[str, Any]:
    """Pass rate with a 95% percentile bootstrap interval over tasks."""
    if not values:
        return {"n": 0, "rate": None, "lo": None, "hi": None}
    data = np.array(values, dtype=float)
    rng = np.random.default_rng(0)
    means = data[rng.integers(0, len(data), (RESAMPLES, len(data)))].mean(axis=1)
    return {"n": len(values), "rate": round(float(data.mean()), 3),
            "lo": round(float(np.percentile(means, 2.5)), 3),
            "hi": round(float(np.percentile(means, 97.5)), 3)}


def model_answers(tasks) -> dict[str, str]:
    """task_id -> the embedded model's cached raw answer (where one was collected)."""
    cached = load_cache(CACHE)
    return {row["task_id"]: row["answer"] for row in cached.values()}


def drafts_by_producer(tasks, answers: dict[str, str]) -> dict[str, dict[str, str | None]]:
    router = DraftRouter(None)
    ops: dict[str, str | None] = {}
    for task_id, _, task, _ in tasks:
        try:
            drafted = router.draft(task)
            ops[task_id] = drafted.result.verified.text
        except Exception:  # no operation for this instruction: the lawyer gets no draft
            ops[task_id] = None
    model = {tid: answers.get(tid) for tid, *_ in tasks}
    routed = {tid: ops[tid] if ops[tid] is not None else model[tid] for tid, *_ in tasks}
    return {"model": model, "operations": ops, "routed": routed}


def pass_table(tasks, drafts: dict[str, str | None]) -> dict[str, Any]:
    """Per category and overall: each check's pass rate (None = not applicable, left out)."""
    rows: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    coverage: dict[str, list[bool]] = defaultdict(list)
    for task_id, category, task, _ in tasks:
        draft = drafts.get(task_id)
        for group in (category, "all"):
            coverage[group].append(draft is not None)
        if draft is None:
            continue
        for result in run_checks(task, draft):
            if result.passed is not None:
                for group in (category, "all"):
                    rows[group][result.name].append(result.passed)
        every = all(r.passed is not False for r in run_checks(task, draft))
        for group in (category, "all"):
            rows[group]["all_checks"].append(every)
    return {group: {"drafted": interval(coverage[group]),
                    **{name: interval(rows[group][name]) for name in (*CHECK_NAMES, "all_checks")}}
            for group in coverage}


def breaks_for(task_id: str, category: str, task: DraftTask, sound: str) -> list[tuple[str, str, str]]:
    """(break, answer, the check meant to catch it) planted in a sound draft."""
    out = [("unchanged", task.clause, "changed"),
           ("cosmetic", _cosmetic(task.clause), "instruction"),
           ("invented citation", _first_sentence_marker(sound, 9), "markers"),
           ("fabricated quotation", sound + ' The parties agree that "all claims of every kind '
            'whatsoever are excluded forever" [1].', "quotations"),
           ("unsupported citation", sound + " Customer will pay a late fee of five percent per "
            "month on overdue invoices [1].", "support"),
           ("undefined term", sound + " The Service Recipient will receive written notice.",
            "defined_terms")]
    specific = {
        "period": lambda: _wrong_period(sound),
        "carve_out": lambda: re.sub(r"\s*\[\d+\]", "", sound),
        "conform": lambda: _old_term(task, sound),
        "shorten": lambda: sound + " " + task.clause,
        "plain": lambda: "The parties hereby agree that " + sound[0].lower() + sound[1:],
        "mutual": lambda: task.clause.rstrip(".") + ", acting reasonably.",
        "flip": lambda: task.clause.rstrip(".") + ", acting reasonably.",
    }
    answer = specific[category]()
    if answer and answer != sound:
        check = "length" if category == "shorten" else "instruction"
        out.append((f"{category} not done", answer, check))
    if category == "period":
        mismatch = _mismatched_words(sound)
        if mismatch:
            out.append(("words and figure differ", mismatch, "instruction"))
    return out


def _cosmetic(clause: str) -> str:
    for old, new in ((" will ", " shall "), (" must ", " shall "), (" may ", " is entitled to "),
                     (" shall ", " will ")):
        if old in clause:
            return clause.replace(old, new, 1)
    return clause.rstrip(".") + ", acting reasonably."


def _first_sentence_marker(sound: str, n: int) -> str:
    at = sound.find(". ")
    at = len(sound.rstrip(".")) if at < 0 else at
    return sound[:at] + f" [{n}]" + sound[at:]


def _wrong_period(sound: str) -> str:
    found = periods(sound) or []
    if not found:
        return ""
    p = found[0]
    return sound[:p.start] + sound[p.start:p.end].replace(str(p.value), str(p.value + 1)) \
        .replace(_word(p.value), _word(p.value + 1)) + sound[p.end:]


def _mismatched_words(sound: str) -> str:
    for p in periods(sound):
        if p.form == "words+figure":
            return sound[:p.start] + sound[p.start:p.end].replace(f"({p.value})",
                                                                   f"({p.value + 1})") + sound[p.end:]
    return ""


def _word(n: int) -> str:
    from addin_server.draft.periods import to_words
    return to_words(n)


def _old_term(task: DraftTask, sound: str) -> str:
    terms = task.expect.get("terms") or {}
    for old, new in terms.items():
        if new in sound:
            return sound.replace(new, old, 1)
    return ""


class ScriptedModel:
    """The whole /redraft model path (prompt, HTTP client, citation check, router, checks)
    with the loopback scripted server answering what it is told: a sound draft or a break."""

    def __init__(self) -> None:
        from addin_server.draft.prompts import REDRAFT_VARIABLES, load_prompt
        from addin_server.draft.redraft import Redrafter
        from addin_server.llm.client import OpenAIChatClient
        from addin_server.llm.scripted import Reply, ScriptedLLMServer
        from index_builder.settings import LLMSettings, default_prompts_dir

        self.answer = ""
        self.server = ScriptedLLMServer(lambda body: Reply(content=self.answer)).start()
        llm = LLMSettings(base_url=self.server.url, api_key="k", rerank_model="m",
                          redraft_model="m", request_timeout_s=10, deadline_s=20, max_attempts=1)
        self.client = OpenAIChatClient(llm)
        prompt = load_prompt(default_prompts_dir() / "redraft.prompt", REDRAFT_VARIABLES)
        self.router = DraftRouter(Redrafter(self.client, prompt, llm))

    def checks(self, task: DraftTask, answer: str) -> list:
        self.answer = answer
        return self.router.draft(task, "model").checks

    def close(self) -> None:
        self.client.close()
        self.server.stop()


def planted(tasks, references: dict[str, str]) -> dict[str, Any]:
    model = ScriptedModel()
    try:
        return _planted(tasks, references, model.checks)
    finally:
        model.close()


def _planted(tasks, references: dict[str, str], judge) -> dict[str, Any]:
    by_break: dict[str, list[bool]] = defaultdict(list)
    by_intended: dict[str, list[bool]] = defaultdict(list)
    sound_any: list[bool] = []
    sound_by_check: dict[str, list[bool]] = defaultdict(list)
    false_flags = []
    for task_id, category, task, _ in tasks:
        sound = references[task_id]
        results = judge(task, sound)
        flagged = [r for r in results if r.passed is False]
        sound_any.append(bool(flagged))
        for r in results:
            if r.passed is not None:
                sound_by_check[r.name].append(r.passed is False)
        if flagged:
            false_flags.append({"task": task_id, "checks": [r.name for r in flagged],
                                "reasons": [r.reason for r in flagged]})
        for name, answer, intended in breaks_for(task_id, category, task, sound):
            results = {r.name: r.passed for r in judge(task, answer)}
            by_break[name].append(any(v is False for v in results.values()))
            by_intended[name].append(results.get(intended) is False)
    return {"sound_flagged": interval(sound_any),
            "sound_flagged_by_check": {k: interval(v) for k, v in sound_by_check.items()},
            "false_flags": false_flags,
            "breaks_flagged": {k: interval(v) for k, v in by_break.items()},
            "breaks_flagged_by_intended_check": {k: interval(v) for k, v in by_intended.items()},
            "breaks_total": interval([x for v in by_break.values() for x in v])}


def latency(tasks, references: dict[str, str], repeats: int = 5) -> dict[str, Any]:
    per_check: dict[str, list[float]] = defaultdict(list)
    totals, added = [], []
    for task_id, _, task, _ in tasks:
        verified = verify(references[task_id], task.precedents, task.clause)
        for _ in range(repeats):
            timings: dict[str, float] = {}
            started = time.perf_counter()
            run_checks(task, references[task_id], timings=timings)
            totals.append((time.perf_counter() - started) * 1000)
            for name, ms in timings.items():
                per_check[name].append(ms)
            # What the checks add to /redraft, which has already verified the citations.
            started = time.perf_counter()
            run_checks(task, references[task_id], verified)
            added.append((time.perf_counter() - started) * 1000)
    per_op: dict[str, list[float]] = defaultdict(list)
    for _, _, task, _ in tasks:
        intent = read_instruction(task.instruction, task.clause)
        if not (intent.confident and intent.kind in OPERATION_KINDS):
            continue
        for _ in range(repeats):
            started = time.perf_counter()
            try:
                result = run_operation(intent, task)
                name = result.operation
            except Declined:
                name = f"{intent.kind} (declined)"
            per_op[name].append((time.perf_counter() - started) * 1000)
    summary = lambda xs: {"n": len(xs), "median_ms": round(statistics.median(xs), 2),  # noqa: E731
                          "p95_ms": round(float(np.percentile(xs, 95)), 2),
                          "max_ms": round(max(xs), 2)}
    return {"checks_total": summary(totals), "checks_added_to_redraft": summary(added),
            "per_check": {k: summary(v) for k, v in per_check.items()},
            "per_operation": {k: summary(v) for k, v in per_op.items()}}


def fmt(cell: dict[str, Any]) -> str:
    if not cell or cell.get("n", 0) == 0:
        return "–"
    return f"{cell['rate']:.2f} [{cell['lo']:.2f}, {cell['hi']:.2f}] n={cell['n']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tuning", "held-out"), default=None)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/redraft"))
    args = parser.parse_args()
    tasks = load_tasks(split=args.split)
    references = {json.loads(line)["task_id"]: json.loads(line)["draft"]
                  for line in REFERENCES.read_text(encoding="utf-8").splitlines() if line}
    answers = model_answers(tasks)
    drafts = drafts_by_producer(tasks, answers)
    report = {"split": args.split or "all", "tasks": len(tasks),
              "model_answers": sum(1 for t, *_ in tasks if t in answers),
              "producers": {name: pass_table(tasks, d) for name, d in drafts.items()},
              "planted": planted(tasks, references),
              "latency": latency(tasks, references)}
    args.out.mkdir(parents=True, exist_ok=True)
    name = f"eval-{args.split or 'all'}.json"
    (args.out / name).write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(f"{len(tasks)} tasks ({report['split']}), model answers for {report['model_answers']}")
    for producer, table in report["producers"].items():
        print(f"\n## {producer}: instruction check pass rate per category (95% bootstrap)")
        for group, cells in table.items():
            print(f"  {group:10s} drafted {fmt(cells['drafted'])} | instruction "
                  f"{fmt(cells['instruction'])} | all checks {fmt(cells['all_checks'])}")
        print("  every check (all categories): " + "; ".join(
            f"{c} {fmt(table['all'][c])}" for c in CHECK_NAMES))
    p = report["planted"]
    print(f"\nSound drafts flagged: {fmt(p['sound_flagged'])}")
    print(f"Planted breaks flagged: {fmt(p['breaks_total'])}")
    for k, v in p["breaks_flagged"].items():
        print(f"  {k:24s} any check {fmt(v)} | intended check "
              f"{fmt(p['breaks_flagged_by_intended_check'][k])}")
    lat = report["latency"]
    print(f"\nChecks per draft: {lat['checks_total']}; added to /redraft (citations "
          f"already verified): {lat['checks_added_to_redraft']}")
    for k, v in lat["per_check"].items():
        print(f"  check {k:18s} {v}")
    for k, v in lat["per_operation"].items():
        print(f"  {k:22s} {v}")
    print(f"-> {args.out / name}")


if __name__ == "__main__":
    main()
