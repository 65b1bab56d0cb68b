"""Validate the drafting-e tranche (issue 38): tuning.jsonl and heldout.jsonl, and print counts.

The per-task checks are drafting-d's (``benchmarks/sets/drafting-d/check.py``, loaded by path
because its folder name is not a Python identifier; it loads drafting-c's, so there is one copy of
the check logic): schema and enumerations, clause and precedents found exactly in their sources,
parties and terms in the lawyer's document, sound and broken drafts with exactly one fault each,
markers, length rules, legalese in plain-English drafts, the new value in reference period/amount
drafts, every clause an accepted draw of its category sitting in the half the seed gave it.
What this file adds or changes:

- task ids ``e-<category>-NN``; clause ids used in the task files of ``benchmarks/sets/drafting/``,
  ``drafting-c/heldout.jsonl`` or ``drafting-d/{tuning,heldout}.jsonl`` are refused, and so is a
  clause whose near-copy key (drafting-c's) matches any clause of those sets or of ``caps2/``,
  ``caps3/``, ``figures/`` and ``conform/`` (``sample.used``);
- each task has 1-2 sound drafts and 2-3 broken drafts;
- the length rules also read this tranche's phrasings ("N words or fewer", "a third shorter",
  "two-thirds", "in N sentences"), and "and a half" (an amount or period in words) sets none;
- minimums per split: held-out: every single category >= 6, multi >= 12 with two- and
  three-part instructions, every fault >= 6 times; tuning: every category >= 2, multi >= 4;
  a precedent-citing paraphrase in a third of the tasks of each split; each source >= 20% of
  the whole tranche once both halves exist.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-e/check.py

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


D = _load("drafting_d_check", HERE.parent / "drafting-d" / "check.py")
C = D.C  # drafting-c's check module, as drafting-d patched it
# task files only: a clause drafting-a drew and rejected (a-draws.jsonl) was never used
C.OLD_SETS = (sorted(p for p in (HERE.parent / "drafting").glob("*.jsonl") if "draws" not in p.name)
              + [HERE.parent / "drafting-c" / "heldout.jsonl"]
              + [HERE.parent / "drafting-d" / "tuning.jsonl", HERE.parent / "drafting-d" / "heldout.jsonl"])
SAMPLE = _load("drafting_e_sample", HERE / "sample.py")
D.MINIMUMS = {"held-out": (6, 12, 6), "tuning": (2, 4, 0)}  # single category, multi, each fault
WORDS = (r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|"
         r"seventy|eighty|ninety|a hundred|one hundred)")
NUMBER = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
          "eighty": 80, "ninety": 90, "a hundred": 100, "one hundred": 100}

log = logging.getLogger("check_e")


def _n(word: str) -> float:
    return float(NUMBER.get(word, word))


def length_rules(instruction: str) -> list[tuple[str, float]]:
    """drafting-d's rules plus this tranche's phrasings of a length limit."""
    low = re.sub(r"\band a half\b", "", instruction.lower())  # "four and a half million" sets no length
    instruction = low
    m = re.search(rf"\b({WORDS}) words or (?:fewer|less)\b|\bin ({WORDS}) words\b", low)
    if m:
        return [("words_lt", _n(m.group(1) or m.group(2)) + 1)]
    m = re.search(rf"\bin ({WORDS}) sentences\b", low)
    if m:
        return [("sentences_max", _n(m.group(1)))]
    if re.search(r"\ba third shorter\b|\bby a third\b|\btwo[- ]thirds\b", low):
        return [("ratio_max", 0.7)]
    return _d_length_rules(instruction)


_d_length_rules = D.length_rules
C.length_rules = length_rules  # Checker.drafts reads the module's global at call time


class Checker(D.Checker):
    # A later tranche subclasses this and changes only these (drafting-f/check.py).
    prefix = "e"
    earlier = "benchmarks/sets/drafting/, drafting-c/ or drafting-d/"
    sample = SAMPLE

    def __init__(self, sources, draws: dict[str, dict]) -> None:
        super().__init__(sources, draws)
        _, self.old_heads = self.sample.used()

    def task(self, t: dict, split: str) -> None:
        tid = t.get("task_id", "?")
        missing = C.TASK_KEYS - t.keys()
        if missing:
            self.fail(tid, f"missing keys {sorted(missing)}")
            return
        if t["category"] not in C.CATEGORIES or not re.fullmatch(rf"{self.prefix}-{t['category']}-\d\d", tid):
            self.fail(tid, f"task id must be {self.prefix}-<category>-NN and category must be in the schema")
        cs = t["clause_source"]
        cid = cs.get("clause_id")
        if cid in self.src.old_ids:
            self.fail(tid, f"clause already used in {self.earlier}")
        full = self.src.clause_text(cs.get("source"), cid or "", cs.get("doc"))
        if full and self.sample.C.near_key(full) in self.old_heads:
            self.fail(tid, "clause is a near copy of one in an earlier set")
        draw = self.draws.get(cid)
        if draw is None or draw["category"] != t["category"]:
            self.fail(tid, "clause is not an accepted draw of this category in draws.jsonl")
        elif draw["split"] != split:
            self.fail(tid, f"the sampler put this draw in {draw['split']}, not {split}")
        if t["split"] != split:
            self.fail(tid, f"split {t['split']!r} in the {split} file")
        if not t["instruction"].strip() or not t["phrasing"].strip():
            self.fail(tid, "empty instruction or phrasing")
        sound = sum(bool(d.get("sound")) for d in t["drafts"])
        if not 1 <= sound <= 2:
            self.fail(tid, f"{sound} sound drafts (need 1-2)")
        self.clause(t)
        self.parts(t)
        self.precedents(t)
        self.document(t)
        self.drafts(t)


def main(checker_class: type = Checker, here: Path = HERE) -> int:
    """Check a tranche's both halves in ``here`` (its draws.jsonl, tuning.jsonl, heldout.jsonl)."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    files = {"tuning": here / "tuning.jsonl", "held-out": here / "heldout.jsonl"}
    draws = {}
    for line in (here / "draws.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        if d["status"] == "accepted":
            draws[d["clause_id"]] = d
    checker = checker_class(C.Sources(), draws)
    tasks: list[dict] = []
    for split, path in files.items():
        if not path.exists():
            sys.stdout.write(f"({path.name} not written yet: skipped)\n")
            continue
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for t in rows:
            checker.task(t, split)
        D.set_level(checker, rows, split)
        tasks.extend(rows)
    ids = collections.Counter(t["task_id"] for t in tasks)
    for tid, n in ids.items():
        if n > 1:
            checker.fail(tid, f"appears {n} times")
    src = collections.Counter(t["clause_source"]["source"] for t in tasks)
    if len(tasks) >= 80 and (src["contracts"] < 0.2 * len(tasks) or src["acord"] < 0.2 * len(tasks)):
        checker.fail("set", f"source mix {dict(src)} below 20% of either source")
    if tasks:
        C.report(tasks)
    for e in checker.errors:
        log.error("FAIL %s", e)
    sys.stdout.write(f"\n{len(checker.errors)} failures\n")
    return 1 if checker.errors else 0


if __name__ == "__main__":
    sys.exit(main())
