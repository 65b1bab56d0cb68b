"""Validate the drafting-i tranche (issue 38): tuning.jsonl and heldout.jsonl, and print counts.

The per-task checks are drafting-h's (``benchmarks/sets/drafting-h/check.py``, loaded by path
because its folder name is not a Python identifier; it loads drafting-g's, -f's, -e's, -d's and
-c's, so there is one copy of the check logic): schema and enumerations, clause and precedents
found exactly in their sources, parties and terms in the lawyer's document, 1-2 sound and 2-3
broken drafts with exactly one fault each, markers, length rules (drafting-c's to drafting-h's
phrasings), legalese in plain-English drafts, the new value in reference period/amount drafts,
every clause an accepted draw of its category sitting in the half the seed gave it. What this
file changes, and nothing else:

- task ids ``i-<category>-NN``;
- clause ids used in the task files of ``benchmarks/sets/drafting/``, ``drafting-c/`` ..
  ``drafting-h/`` (both halves) are refused, and so is a clause whose near-copy key
  (drafting-c's) matches any clause of those sets or of ``caps2/``, ``caps3/``, ``figures/`` and
  ``conform/`` (this tranche's ``sample.used``);
- the length rules also read this tranche's phrasings of a limit ("no more than N words" is
  drafting-d's; here also "a word budget of N", "to a quarter of its length"), on top of the earlier ones;
- the per-half minimums: the mutual and flip pools of ACORD and the agreements are nearly
  exhausted (see README), so the held-out half needs mutual and flip >= 4 each and every other
  single category >= 6; multi >= 10 with two- and three-part instructions; every fault >= 6
  times; tuning: every category >= 2, multi >= 4; a precedent-citing paraphrase in a third of
  the tasks of each split; each source >= 20% of the whole tranche once both halves exist.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-i/check.py

A missing heldout.jsonl is skipped (the tuning half is committed first). It reads labels only;
it never runs the drafting code. Exit status 1 when any check fails.
"""
from __future__ import annotations

import collections
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


H = _load("drafting_h_check", HERE.parent / "drafting-h" / "check.py")
G, F, E, D, C = H.G, H.F, H.E, H.D, H.C  # the earlier tranches' check modules, as drafting-h patched them
# task files only: a clause an earlier sampler drew and rejected was never used
C.OLD_SETS = C.OLD_SETS + [HERE.parent / "drafting-h" / "tuning.jsonl", HERE.parent / "drafting-h" / "heldout.jsonl"]
SAMPLE = _load("drafting_i_sample", HERE / "sample.py")
# single category (mutual and flip: the pools are nearly empty), multi, each fault
D.MINIMUMS = {"held-out": (4, 10, 6), "tuning": (2, 4, 0)}
SINGLE_HELD_OUT = 6  # every single category but mutual and flip, in the held-out half


def length_rules(instruction: str) -> list[tuple[str, float]]:
    """drafting-h's rules (and the earlier tranches') plus this tranche's phrasings of a limit."""
    low = instruction.lower()
    m = re.search(rf"\ba word budget of ({E.WORDS})\b", low)
    if m:
        return [("words_lt", E._n(m.group(1)) + 1)]
    if re.search(r"\bto a quarter of (?:its|the) (?:length|words|size)\b", low):
        return [("ratio_max", 0.35)]
    return _h_length_rules(instruction)


_h_length_rules = H.length_rules
C.length_rules = length_rules  # Checker.drafts reads the module's global at call time


def set_level(checker, tasks: list[dict], split: str) -> None:
    """drafting-d's per-half minimums, then the held-out floor of 6 for every single category
    except mutual and flip."""
    _d_set_level(checker, tasks, split)
    if split != "held-out":
        return
    cats = collections.Counter(t["category"] for t in tasks)
    for c in C.CATEGORIES:
        if c not in ("mutual", "flip", "multi") and cats[c] < SINGLE_HELD_OUT:
            checker.fail(split, f"{cats[c]} {c} tasks (need {SINGLE_HELD_OUT})")


_d_set_level = D.set_level
D.set_level = set_level  # drafting-e's main reads the module's global at call time


class Checker(H.Checker):
    prefix = "i"
    earlier = "benchmarks/sets/drafting/, drafting-c/ .. drafting-h/"
    sample = SAMPLE


def main() -> int:
    return E.main(Checker, HERE)


if __name__ == "__main__":
    sys.exit(main())
