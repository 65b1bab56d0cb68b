"""The older redraft evaluation set on disk (benchmarks/redraft_set/tasks.jsonl), read as requests.

Each row is split in two: the ``DraftTask`` — what /redraft receives (clause, instruction,
precedents, the document's terms) and nothing else — and its labels (``expect``), which only a
scorer outside the code under test reads (precedent_bench/redraft_labels.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, NamedTuple

from index_builder.model import Clause

from addin_server.draft.checks import DraftTask

DEFAULT_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "redraft_set" / "tasks.jsonl"
SPLITS = ("tuning", "held-out")


class LabelledTask(NamedTuple):
    task_id: str
    category: str
    task: DraftTask
    split: str = "tuning"
    expect: Mapping[str, Any] = {}  # the labels: for the scorer, never for the code under test


def task_from_row(row: dict) -> DraftTask:
    terms = row.get("document_terms")
    return DraftTask(clause=row["clause"], instruction=row.get("instruction", ""),
                     precedents=tuple(Clause.from_dict(p) for p in row.get("precedents", [])),
                     document_terms=None if terms is None else tuple(terms))


def load_tasks(path: Path | str = DEFAULT_PATH, split: str | None = None) -> list[LabelledTask]:
    """(task_id, category, DraftTask, split, expect) for each row; ``split`` keeps one half."""
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if split and row.get("split") != split:
            continue
        out.append(LabelledTask(row["task_id"], row["category"], task_from_row(row),
                                row.get("split", "tuning"), dict(row.get("expect") or {})))
    return out
