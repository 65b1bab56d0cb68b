"""Validate the drafting-g tranche (issue 38): tuning.jsonl and heldout.jsonl, and print counts.

The per-task checks are drafting-f's (``benchmarks/sets/drafting-f/check.py``, loaded by path
because its folder name is not a Python identifier; it loads drafting-e's, which loads drafting-d's
and drafting-c's, so there is one copy of the check logic): schema and enumerations, clause and
precedents found exactly in their sources, parties and terms in the lawyer's document, 1-2 sound
and 2-3 broken drafts with exactly one fault each, markers, length rules (drafting-c's to
drafting-f's phrasings), legalese in plain-English drafts, the new value in reference
period/amount drafts, every clause an accepted draw of its category sitting in the half the seed
gave it. What this file changes, and nothing else:

- task ids ``g-<category>-NN``;
- clause ids used in the task files of ``benchmarks/sets/drafting/``, ``drafting-c/``,
  ``drafting-d/``, ``drafting-e/`` or ``drafting-f/`` (both halves) are refused, and so is a
  clause whose near-copy key (drafting-c's) matches any clause of those sets or of ``caps2/``,
  ``caps3/``, ``figures/`` and ``conform/`` (this tranche's ``sample.used``);
- the per-half minimums are drafting-f's: held-out: every single category >= 6, multi >= 12 with
  two- and three-part instructions, every fault >= 6 times; tuning: every category >= 2,
  multi >= 4; a precedent-citing paraphrase in a third of the tasks of each split; each source
  >= 20% of the whole tranche once both halves exist.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-g/check.py

A missing heldout.jsonl is skipped (the tuning half is committed first). It reads labels only;
it never runs the drafting code. Exit status 1 when any check fails.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


F = _load("drafting_f_check", HERE.parent / "drafting-f" / "check.py")
E, D, C = F.E, F.D, F.C  # drafting-e's, -d's and -c's check modules, as drafting-f patched them
# task files only: a clause an earlier sampler drew and rejected was never used
C.OLD_SETS = C.OLD_SETS + [HERE.parent / "drafting-f" / "tuning.jsonl", HERE.parent / "drafting-f" / "heldout.jsonl"]
SAMPLE = _load("drafting_g_sample", HERE / "sample.py")
D.MINIMUMS = {"held-out": (6, 12, 6), "tuning": (2, 4, 0)}  # single category, multi, each fault


class Checker(F.Checker):
    prefix = "g"
    earlier = "benchmarks/sets/drafting/, drafting-c/, drafting-d/, drafting-e/ or drafting-f/"
    sample = SAMPLE


def main() -> int:
    return E.main(Checker, HERE)


if __name__ == "__main__":
    sys.exit(main())
