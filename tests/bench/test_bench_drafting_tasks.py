"""`precedent-bench drafting --tasks PATH ...`: any task file of the drafting schema, checked as it loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from precedent_bench.cli import build_parser
from precedent_bench.drafting.drafting_set import load_tasks, split_files

TASK = {"task_id": "x-mutual-01", "category": "mutual", "clause": "The Supplier shall not be liable.",
        "instruction": "Make this mutual", "precedents": [], "parts": [], "drafts": []}


def test_tasks_files_load_in_order_and_are_checked(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.write_text(json.dumps(TASK) + "\n\n")
    two.write_text(json.dumps({**TASK, "task_id": "y-period-01"}) + "\n")
    assert [t["task_id"] for t in load_tasks([one, two])] == ["x-mutual-01", "y-period-01"]
    assert [t["task_id"] for t in load_tasks([one, two], ["y-"])] == ["y-period-01"]
    with pytest.raises(ValueError, match="seen twice"):
        load_tasks([one, one])
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"task_id": "z"}) + "\n")
    with pytest.raises(ValueError, match="not a drafting task"):
        load_tasks([bad])
    with pytest.raises(FileNotFoundError):
        load_tasks([tmp_path / "missing.jsonl"])


def test_the_command_takes_tasks_or_a_split_not_both() -> None:
    parser = build_parser()
    args = parser.parse_args(["drafting", "--tasks", "a.jsonl", "b.jsonl"])
    assert [str(p) for p in args.tasks] == ["a.jsonl", "b.jsonl"] and args.split is None
    with pytest.raises(SystemExit):
        parser.parse_args(["drafting", "--tasks", "a.jsonl", "--split", "tuning"])
    assert [p.name for p in split_files(Path("benchmarks/sets/drafting"), "tuning")] == ["a-tuning.jsonl",
                                                                                         "b-tuning.jsonl"]
