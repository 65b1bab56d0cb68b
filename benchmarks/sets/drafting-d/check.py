"""Validate the drafting-d tranche (issue 38): tuning.jsonl and heldout.jsonl, and print counts.

The per-task checks are drafting-c's (``benchmarks/sets/drafting-c/check.py``, loaded by path
because its folder name is not a Python identifier; one copy of the check logic, not a third):
schema and enumerations, clause and precedents found exactly in their sources, parties and terms
in the lawyer's document, 1+ sound and 2-3 broken drafts with exactly one fault each, markers,
length rules, legalese in plain-English drafts, the new value in reference period/amount drafts.
What this file adds or changes:

- task ids ``d-<category>-NN``; clause ids used in ``benchmarks/sets/drafting/*.jsonl`` or
  ``drafting-c/heldout.jsonl`` are refused;
- every task's clause is an accepted draw of its category in ``draws.jsonl`` and sits in the
  split the sampler gave that draw (the split was fixed by the seed before any label);
- the length rules also read this tranche's phrasings ("pare", "condense", "halve", "one
  sentence", "N words max");
- minimums per split: held-out: every single category >= 6, multi >= 12 with two- and
  three-part instructions, every fault >= 3 times; tuning: every category >= 2, multi >= 4;
  a precedent-citing paraphrase in a third of the tasks of each split; each source >= 20% of
  the whole tranche once both halves exist (the agreements pool ran dry for some categories,
  see README).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-d/check.py

A missing heldout.jsonl is skipped (the tuning half is committed first). It reads labels only;
it never runs the drafting code. Exit status 1 when any check fails.
"""
from __future__ import annotations

import collections
import importlib.util
import json
import logging
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


C = _load("drafting_c_check", HERE.parent / "drafting-c" / "check.py")
C.OLD_SETS = sorted((HERE.parent / "drafting").glob("*.jsonl")) + [HERE.parent / "drafting-c" / "heldout.jsonl"]
FILES = {"tuning": HERE / "tuning.jsonl", "held-out": HERE / "heldout.jsonl"}
MINIMUMS = {"held-out": (6, 12, 3), "tuning": (2, 4, 0)}  # single category, multi, each fault

log = logging.getLogger("check_d")


def length_rules(instruction: str) -> list[tuple[str, float]]:
    """drafting-c's rules plus this tranche's phrasings of a length limit."""
    low = instruction.lower()
    m = re.search(r"(?:under|max(?:imum)?|no more than|at most|<=?|≤)\s*(\d+)\s*words|(\d+)\s*words\s*max", low)
    if m:
        return [("words_lt", float(m.group(1) or m.group(2)) + 1)]
    if re.search(r"\bone sentence\b|\bsingle sentence\b", low):
        return [("sentences_max", 1.0)]
    if re.search(r"\bhalve\b|\bhalf\b", low):
        return [("ratio_max", 0.6)]
    if re.search(r"\bpare\b|\bcondense|\btoo long\b|\bwordy\b|\bcut (?:it )?down\b|\bslim", low):
        return [("ratio_lt", 0.8)]
    return _c_length_rules(instruction)


_c_length_rules = C.length_rules
C.length_rules = length_rules  # Checker.drafts reads the module's global at call time


class Checker(C.Checker):
    def __init__(self, sources, draws: dict[str, dict]) -> None:
        super().__init__(sources)
        self.draws = draws

    def task(self, t: dict, split: str) -> None:
        tid = t.get("task_id", "?")
        missing = C.TASK_KEYS - t.keys()
        if missing:
            self.fail(tid, f"missing keys {sorted(missing)}")
            return
        if t["category"] not in C.CATEGORIES or not re.fullmatch(rf"d-{t['category']}-\d\d", tid):
            self.fail(tid, "task id must be d-<category>-NN and category must be in the schema")
        cid = t["clause_source"].get("clause_id")
        if cid in self.src.old_ids:
            self.fail(tid, "clause already used in benchmarks/sets/drafting/ or drafting-c/")
        draw = self.draws.get(cid)
        if draw is None or draw["category"] != t["category"]:
            self.fail(tid, "clause is not an accepted draw of this category in draws.jsonl")
        elif draw["split"] != split:
            self.fail(tid, f"the sampler put this draw in {draw['split']}, not {split}")
        if t["split"] != split:
            self.fail(tid, f"split {t['split']!r} in the {split} file")
        if not t["instruction"].strip() or not t["phrasing"].strip():
            self.fail(tid, "empty instruction or phrasing")
        self.clause(t)
        self.parts(t)
        self.precedents(t)
        self.document(t)
        self.drafts(t)


def set_level(checker: Checker, tasks: list[dict], split: str) -> None:
    single, multi, per_fault = MINIMUMS[split]
    cats = collections.Counter(t["category"] for t in tasks)
    for c in C.CATEGORIES:
        need = multi if c == "multi" else single
        if cats[c] < need:
            checker.fail(split, f"{cats[c]} {c} tasks (need {need})")
    sizes = {len(t["parts"]) for t in tasks if t["category"] == "multi"}
    if split == "held-out" and not {2, 3} <= sizes:
        checker.fail(split, f"multi tasks need two- and three-part instructions (have {sorted(sizes)})")
    faults = collections.Counter(f["fault"] for t in tasks for d in t["drafts"] for f in d["faults"])
    for f in C.FAULTS:
        if faults[f] < per_fault:
            checker.fail(split, f"fault {f} appears {faults[f]} times (need {per_fault})")
    citing = sum(any(d["kind"] == "paraphrase" and C.MARKER.search(d["text"]) for d in t["drafts"]) for t in tasks)
    if citing * 3 < len(tasks):
        checker.fail(split, f"only {citing} of {len(tasks)} tasks have a paraphrase draft citing a precedent")


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    draws = {}
    for line in (HERE / "draws.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        if d["status"] == "accepted":
            draws[d["clause_id"]] = d
    checker = Checker(C.Sources(), draws)
    tasks: list[dict] = []
    for split, path in FILES.items():
        if not path.exists():
            sys.stdout.write(f"({path.name} not written yet: skipped)\n")
            continue
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for t in rows:
            checker.task(t, split)
        set_level(checker, rows, split)
        tasks.extend(rows)
    ids = collections.Counter(t["task_id"] for t in tasks)
    for tid, n in ids.items():
        if n > 1:
            checker.fail(tid, f"appears {n} times")
    src = collections.Counter(t["clause_source"]["source"] for t in tasks)
    if len(tasks) >= 84 and (src["contracts"] < 0.2 * len(tasks) or src["acord"] < 0.2 * len(tasks)):
        checker.fail("set", f"source mix {dict(src)} below 20% of either source")
    C.report(tasks)
    for e in checker.errors:
        log.error("FAIL %s", e)
    sys.stdout.write(f"\n{len(checker.errors)} failures\n")
    return 1 if checker.errors else 0


if __name__ == "__main__":
    sys.exit(main())
