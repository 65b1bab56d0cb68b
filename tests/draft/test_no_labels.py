"""No evaluation label reaches the code under test (issue 38): not through a parameter of the checks,
the router or an operation, not through the request the drafting benchmark sends, not by the product
reading the labelled sets from disk. Each detector is shown to catch a planted leak first."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
import re
from pathlib import Path
from typing import Any, Callable

import pytest

from addin_server.draft import carve_out, operations, router
from addin_server.draft.checks import DraftTask, check_draft, run_checks

ROOT = Path(__file__).resolve().parents[2]
# What a labelled task holds beside what a lawyer gives (drafting-schema.md).
LABEL_NAMES = frozenset({"expect", "labels", "label", "faults", "fault", "done_when", "sound", "parts", "asks",
                         "category", "phrasing", "notes", "split"})
ENTRY_POINTS: tuple[Callable[..., Any], ...] = (
    run_checks, check_draft, router.DraftRouter.draft, router.run_operation, operations.make_mutual,
    operations.flip_party, operations.change_period, operations.change_amount, operations.conform_terms,
    operations.delete_part, carve_out.add_carve_out)


def label_parameters(fn: Callable[..., Any]) -> set[str]:
    return set(inspect.signature(fn).parameters) & LABEL_NAMES


def label_strings(task: dict[str, Any]) -> list[str]:
    """The label texts of a task: what each part asks and when it is done, each draft's kind and faults."""
    # (The category, "mutual" or "period", is also the product's own word for a part: not a leak.)
    out = [task.get("phrasing") or "", task.get("notes") or ""]
    for part in task["parts"]:
        out += [part["asks"], part["done_when"]]
    for draft in task["drafts"]:
        out += [draft["kind"]] + [f[k] for f in draft["faults"] for k in ("fault", "detail")]
    return [s for s in out if s and len(s) >= 6]  # short words ("mutual") may be the lawyer's own


def leaked(body: dict[str, Any], task: dict[str, Any]) -> list[str]:
    """Label keys or label texts found in a request body."""
    keys: set[str] = set()
    values: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            keys.update(k for k in node if k in LABEL_NAMES)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, str):
            values.append(node)

    walk(body)
    text = "\n".join(values)
    return sorted(keys) + [s for s in label_strings(task) if s in text and s not in task["instruction"]
                           and s not in task["clause"]]


def serving_files_reading_labels(root: Path = ROOT) -> list[str]:
    """Modules of the server and the index that name the labelled sets or the benchmark package."""
    pattern = re.compile(r"benchmarks/sets|^\s*(?:from|import) precedent_bench|heldout\.jsonl|tuning\.jsonl|done_when", re.M)
    return [str(p.relative_to(root)) for folder in ("addin_server", "index_builder") for p in (root / folder).rglob("*.py")
            if pattern.search(p.read_text(encoding="utf-8"))]


def first_task() -> dict[str, Any]:
    line = (ROOT / "benchmarks/sets/drafting/a-tuning.jsonl").read_text(encoding="utf-8").splitlines()[0]
    return json.loads(line)


def test_the_detectors_catch_a_planted_leak(tmp_path: Path) -> None:
    def leaky(task: DraftTask, answer: str, expect: dict[str, Any]) -> None: ...
    assert label_parameters(leaky) == {"expect"}
    from precedent_bench.drafting.drafting_set import precedent_ids, request_body
    task = first_task()
    body = request_body(task, precedent_ids([task]), "model")
    assert leaked({**body, "parts": task["parts"]}, task)
    assert leaked({**body, "instructions": body["instructions"] + " " + task["parts"][0]["done_when"]}, task)
    (tmp_path / "addin_server" / "draft").mkdir(parents=True)
    (tmp_path / "addin_server" / "draft" / "peek.py").write_text('SET = "benchmarks/sets/drafting/a-heldout.jsonl"\n')
    assert serving_files_reading_labels(tmp_path) == ["addin_server/draft/peek.py"]


def test_no_label_parameter_on_the_checks_the_router_or_an_operation() -> None:
    fields = {f.name for f in dataclasses.fields(DraftTask)}
    assert fields == {"clause", "instruction", "precedents", "document_terms", "document_parties", "model_note"}
    for fn in ENTRY_POINTS:
        assert not label_parameters(fn), fn.__qualname__


def test_the_benchmark_request_carries_no_label() -> None:
    from precedent_bench.drafting.drafting_set import precedent_ids, request_body
    for line in (ROOT / "benchmarks/sets/drafting/a-tuning.jsonl").read_text(encoding="utf-8").splitlines():
        task = json.loads(line)
        for producer in ("model", "operation"):
            body = request_body(task, precedent_ids([task]), producer)
            assert set(body) <= {"text", "instructions", "clause_ids", "producer", "document", "document_terms"}
            assert not leaked(body, task), task["task_id"]


def test_the_server_and_the_index_never_read_the_labelled_sets() -> None:
    assert not serving_files_reading_labels()


@pytest.mark.timeout(120)
def test_changing_every_label_changes_nothing_the_product_answers() -> None:
    """The same task with its labels turned upside down gets the same answers through /redraft."""
    from precedent_bench.drafting.drafting_set import ask
    task = first_task()
    poisoned = copy.deepcopy(task)
    poisoned.update(category="amount", phrasing="poisoned", notes="poisoned")
    for part in poisoned["parts"]:
        part.update(kind="amount", asks="poisoned", done_when="poisoned", value="$1")
    for draft in poisoned["drafts"]:
        draft.update(kind="broken" if draft["sound"] else "reference", sound=not draft["sound"],
                     faults=[] if draft["faults"] else [{"fault": "misquote", "part": 0, "detail": "poisoned"}])
    assert ask([task]) == ask([poisoned])


def test_the_blind_review_file_carries_no_label() -> None:
    from precedent_bench.drafting.drafting_score import blind_rows, operations_rows
    task = first_task()
    answer = {"producer": {"kind": "operation", "label": "Made mutual"}, "redraft": "Each party shall ...",
              "parts": [{"label": "mutual", "status": "done", "reason": "Binds both.", "by": "operation"}],
              "checks": [{"name": "instruction", "passed": True, "reason": "Done: mutual."}], "checks_failed": []}
    ops = operations_rows([task], [{"task_id": task["task_id"], "status": 200, "answer": answer}])
    (row,) = blind_rows(ops)
    assert "labelled_parts" in ops[0] and not leaked(row, task)
    assert row["checks"] == ["instruction: passed: Done: mutual."]
