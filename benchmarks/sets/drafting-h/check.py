"""Validate the drafting-h tranche (issue 38): tuning.jsonl and heldout.jsonl, and print counts.

The per-task checks are drafting-g's (``benchmarks/sets/drafting-g/check.py``, loaded by path
because its folder name is not a Python identifier; it loads drafting-f's, -e's, -d's and -c's, so
there is one copy of the check logic): schema and enumerations, clause and precedents found
exactly in their sources, parties and terms in the lawyer's document, 1-2 sound and 2-3 broken
drafts with exactly one fault each, markers, length rules (drafting-c's to drafting-f's
phrasings), legalese in plain-English drafts, the new value in reference period/amount drafts,
every clause an accepted draw of its category sitting in the half the seed gave it. What this
file changes, and nothing else:

- task ids ``h-<category>-NN``;
- clause ids used in the task files of ``benchmarks/sets/drafting/``, ``drafting-c/`` ..
  ``drafting-g/`` (both halves) are refused, and so is a clause whose near-copy key
  (drafting-c's) matches any clause of those sets or of ``caps2/``, ``caps3/``, ``figures/`` and
  ``conform/`` (this tranche's ``sample.used``);
- the length rules also read this tranche's phrasings of a limit ("N words at the outside",
  "a third of the words"), on top of drafting-c's to drafting-f's;
- the per-half minimums are drafting-f's and -g's: held-out: every single category >= 6,
  multi >= 12 with two- and three-part instructions, every fault >= 6 times; tuning: every
  category >= 2, multi >= 4; a precedent-citing paraphrase in a third of the tasks of each split;
  each source >= 20% of the whole tranche once both halves exist.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-h/check.py

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


G = _load("drafting_g_check", HERE.parent / "drafting-g" / "check.py")
F, E, D, C = G.F, G.E, G.D, G.C  # drafting-f's, -e's, -d's and -c's check modules, as drafting-g patched them
# task files only: a clause an earlier sampler drew and rejected was never used
C.OLD_SETS = C.OLD_SETS + [HERE.parent / "drafting-g" / "tuning.jsonl", HERE.parent / "drafting-g" / "heldout.jsonl"]
SAMPLE = _load("drafting_h_sample", HERE / "sample.py")
D.MINIMUMS = {"held-out": (6, 12, 6), "tuning": (2, 4, 0)}  # single category, multi, each fault


def length_rules(instruction: str) -> list[tuple[str, float]]:
    """drafting-f's rules (and the earlier tranches') plus this tranche's phrasings of a limit."""
    low = instruction.lower()
    m = re.search(rf"\b({E.WORDS}) words at the outside\b", low)
    if m:
        return [("words_lt", E._n(m.group(1)) + 1)]
    if re.search(r"\ba third of the words\b", low):
        return [("ratio_max", 0.7)]
    return _f_length_rules(instruction)


_f_length_rules = F.length_rules
C.length_rules = length_rules  # Checker.drafts reads the module's global at call time


class Checker(G.Checker):
    prefix = "h"
    earlier = "benchmarks/sets/drafting/, drafting-c/ .. drafting-g/"
    sample = SAMPLE


def main() -> int:
    return E.main(Checker, HERE)


if __name__ == "__main__":
    sys.exit(main())
