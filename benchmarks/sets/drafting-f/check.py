"""Validate the drafting-f tranche (issue 38): tuning.jsonl and heldout.jsonl, and print counts.

The per-task checks are drafting-e's (``benchmarks/sets/drafting-e/check.py``, loaded by path
because its folder name is not a Python identifier; it loads drafting-d's, which loads
drafting-c's, so there is one copy of the check logic): schema and enumerations, clause and
precedents found exactly in their sources, parties and terms in the lawyer's document, 1-2 sound
and 2-3 broken drafts with exactly one fault each, markers, length rules, legalese in
plain-English drafts, the new value in reference period/amount drafts, every clause an accepted
draw of its category sitting in the half the seed gave it. What this file adds or changes:

- task ids ``f-<category>-NN``; clause ids used in the task files of ``benchmarks/sets/drafting/``,
  ``drafting-c/``, ``drafting-d/`` or ``drafting-e/`` are refused, and so is a clause whose
  near-copy key (drafting-c's) matches any clause of those sets or of ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (this tranche's ``sample.used``);
- the length rules also read this tranche's phrasings ("no longer than N words", "N words
  tops"), on top of drafting-e's, drafting-d's and drafting-c's;
- minimums per split: held-out: every single category >= 6, multi >= 12 with two- and
  three-part instructions, every fault >= 6 times; tuning: every category >= 2, multi >= 4;
  a precedent-citing paraphrase in a third of the tasks of each split; each source >= 20% of
  the whole tranche once both halves exist.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-f/check.py

A missing heldout.jsonl is skipped (the tuning half is committed first). It reads labels only;
it never runs the drafting code. Exit status 1 when any check fails.
"""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


E = _load("drafting_e_check", HERE.parent / "drafting-e" / "check.py")
D, C = E.D, E.C  # drafting-d's and drafting-c's check modules, as drafting-e patched them
# task files only: a clause an earlier sampler drew and rejected was never used
C.OLD_SETS = E.C.OLD_SETS + [HERE.parent / "drafting-e" / "tuning.jsonl", HERE.parent / "drafting-e" / "heldout.jsonl"]
SAMPLE = _load("drafting_f_sample", HERE / "sample.py")
D.MINIMUMS = {"held-out": (6, 12, 6), "tuning": (2, 4, 0)}  # single category, multi, each fault


def length_rules(instruction: str) -> list[tuple[str, float]]:
    """drafting-e's rules plus this tranche's phrasings of a length limit."""
    low = instruction.lower()
    m = re.search(rf"\bno longer than ({E.WORDS}) words\b|\b({E.WORDS}) words tops\b", low)
    if m:
        return [("words_lt", E._n(m.group(1) or m.group(2)) + 1)]
    return _e_length_rules(instruction)


_e_length_rules = E.length_rules
C.length_rules = length_rules  # Checker.drafts reads the module's global at call time


class Checker(E.Checker):
    prefix = "f"
    earlier = "benchmarks/sets/drafting/, drafting-c/, drafting-d/ or drafting-e/"
    sample = SAMPLE


def main() -> int:
    return E.main(Checker, HERE)


if __name__ == "__main__":
    sys.exit(main())
