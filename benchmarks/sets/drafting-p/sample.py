"""Seeded random draws of real clauses for the drafting-p tranche (issue 38): held-out only.

Runs drafting-o's sampler (``benchmarks/sets/drafting-o/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-m's, -l's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 9547;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-n's (which hold drafting-c's to -m's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-n/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-p/sample.py --out benchmarks/sets/drafting-p/draws.jsonl
    python benchmarks/sets/drafting-p/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_o_sample", HERE.parent / "drafting-o" / "sample.py")
O = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(O)  # drafting-o's sampler, which runs drafting-n's, -m's, ... and drafting-f's
N = O.N
M = N.M
L = M.L
K = L.K
J = K.J
I = J.I
H, G, F, E, D, C = I.H, I.G, I.F, I.E, I.D, I.C

SEED = 9547
USED_DIRS = O.USED_DIRS + ("drafting-o",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 1, 0), ("flip", 1, 0), ("conform", 1, 2), ("period", 3, 0), ("amount", 0, 0),
          ("carve_out", 3, 0), ("shorten", 2, 1), ("plain", 2, 1), ("multi", 5, 3)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(O.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', '806c4b4281'): "the licensee Diplomat's sell-off of licensed products on hand after termination: one way by nature (the licensor has no stock to sell off)",
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
