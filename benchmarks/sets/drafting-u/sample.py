"""Seeded random draws of real clauses for the drafting-u tranche (issue 38): held-out only.

Runs drafting-t's sampler (``benchmarks/sets/drafting-t/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-s's, -r's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 5779;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-t's (which hold drafting-c's to -s's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-t/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-u/sample.py --out benchmarks/sets/drafting-u/draws.jsonl
    python benchmarks/sets/drafting-u/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_t_sample", HERE.parent / "drafting-t" / "sample.py")
T = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(T)  # drafting-t's sampler, which runs drafting-s's, -r's, ... and drafting-f's
S = T.S
R = S.R
Q = R.Q
P = Q.P
O = P.O
N = O.N
M = N.M
L = M.L
K = L.K
J = K.J
I = J.I
H, G, F, E, D, C = I.H, I.G, I.F, I.E, I.D, I.C

SEED = 5779
USED_DIRS = T.USED_DIRS + ("drafting-t",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 1, 0), ("flip", 0, 0), ("conform", 1, 2), ("period", 3, 0), ("amount", 0, 0),
          ("carve_out", 3, 0), ("shorten", 2, 1), ("plain", 2, 1), ("multi", 4, 2)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(T.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', '66fc8b529d'): "the JSMA profit and loss split between Vertex and Bunker One: already both ways",
    ('mutual', '665e0ae8f1'): "North Carolina governing law and venue: binds both parties already",
    ('mutual', '5d88f82fcc'): "Impresse's revenue share to VerticalNet: a payment, one way by nature",
    ('mutual', 'c542ad7302'): "a personality's public appearances for Bizzingo: personal services, one way by nature",
    ('mutual', '1f5d556005'): "Skype's and Online BVI's approval of the Company's sublicences: one way by nature (the licence is theirs)",
    ('flip', 'f2c9e3719b'): "the Carrier's motor liability insurance: one way by nature (only the Carrier drives)",
    ('flip', 'b661087edb'): "Kubient's licence of its Auction Platform to Customer: one way by nature",
    ('flip', 'fc71aa80f4'): "AT&T's licence of its Provided Items and Derived Data to Vendor: one way by nature",
    ('flip', '609bc01549'): "Constellation's insurance naming the HOF Entities: one way by nature",
    ('flip', '88174e138c'): "the term and Service Period: no party's right to turn round",
    ('flip', '8095a61bb2'): "the Franchisee's duty to avoid practices harming Pretzel Time's Marks: one way by nature",
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
