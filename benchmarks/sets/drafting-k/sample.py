"""Seeded random draws of real clauses for the drafting-k tranche (issue 38): held-out only.

Runs drafting-j's sampler (``benchmarks/sets/drafting-j/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-i's, -h's, -g's and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 1553;
- the rounds (below): 30 tasks, all held out; no mutual, flip or amount round (see README: those
  pools were not walked this time; their asks appear as parts of multi tasks only);
- no tuning half: TUNING is 0 for every category;
- the rejections made on reading (MANUAL_REJECT): drafting-j's (which hold drafting-c's to -i's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-j/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-k/sample.py --out benchmarks/sets/drafting-k/draws.jsonl
    python benchmarks/sets/drafting-k/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_j_sample", HERE.parent / "drafting-j" / "sample.py")
J = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(J)  # drafting-j's sampler, which runs drafting-i's, -h's, -g's and drafting-f's
I = J.I
H, G, F, E, D, C = I.H, I.G, I.F, I.E, I.D, I.C

SEED = 1553
USED_DIRS = ("drafting", "drafting-c", "drafting-d", "drafting-e", "drafting-f", "drafting-g", "drafting-h",
             "drafting-i", "drafting-j", "caps2", "caps3", "figures", "conform")
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("conform", 2, 2), ("period", 3, 2), ("carve_out", 3, 2), ("shorten", 2, 2), ("plain", 2, 2), ("multi", 6, 2)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(J.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('multi', 'a534dc0234'): 'redacted guarantee amounts and dates (*****) and an SEC filing footer inside the text',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-alaska.docx#3'): "employee's acknowledgements; no operative term for two asks (as drafting-j found for Puerto Rico)",
}
MANUAL_REJECT = {**EARLIER_REJECT, **OWN_REJECT}


def used() -> tuple[set[str], set[str]]:
    """Clause ids and near-copy keys of every clause in the earlier sets (check.py refuses them)."""
    return E.used(USED_SETS)


def main(argv: list[str] | None = None) -> int:
    # drafting-f's run and command line with this tranche's seed, rounds, exclusions and rejections
    F.SEED, F.ROUNDS, F.TUNING, F.USED_SETS, F.MANUAL_REJECT, F.__doc__ = (
        SEED, ROUNDS, TUNING, USED_SETS, MANUAL_REJECT, __doc__)
    F.used = used
    return F.main(argv)


if __name__ == "__main__":
    sys.exit(main())
