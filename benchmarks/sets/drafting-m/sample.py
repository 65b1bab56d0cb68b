"""Seeded random draws of real clauses for the drafting-m tranche (issue 38): held-out only.

Runs drafting-l's sampler (``benchmarks/sets/drafting-l/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-k's, -j's, -i's, -h's, -g's and drafting-f's
command line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on
drafting-c's pools): the same pools, the same broad pattern per category, the same near-copy key,
the same loop. What differs:

- SEED 6229;
- the rounds (below), all held out (TUNING is 0 for every category, as in drafting-k and -l);
- the rejections made on reading (MANUAL_REJECT): drafting-l's (which hold drafting-c's to -k's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-l/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-m/sample.py --out benchmarks/sets/drafting-m/draws.jsonl
    python benchmarks/sets/drafting-m/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_l_sample", HERE.parent / "drafting-l" / "sample.py")
L = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(L)  # drafting-l's sampler, which runs drafting-k's, -j's, ... and drafting-f's
K = L.K
J = K.J
I = J.I
H, G, F, E, D, C = I.H, I.G, I.F, I.E, I.D, I.C

SEED = 6229
USED_DIRS = L.USED_DIRS + ("drafting-l",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 1, 0), ("flip", 1, 0), ("conform", 1, 3), ("period", 4, 1), ("amount", 0, 0),
          ("carve_out", 4, 1), ("shorten", 2, 1), ("plain", 3, 1), ("multi", 6, 3)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(L.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('conform', '271dd2ff3c'): "the record breaks off mid-word ('during the Term of this Agreemen'), and an endorser's exclusivity has no counterpart in any agreement to conform it into",
    ('plain', 'd3d9c967f1'): "redacted periods (***) in every sentence: no plain version without guessing what they hide",
    ('flip', '5258e685d8'): "a right of first negotiation granted by the rights owner (as drafting-l read it; not in its draws because its flip round was 0)",
    ('flip', '1053d34657'): "a fund agreement's continuance approved by the Board and the Fund's directors: no pair of parties to swap",
    ('flip', '41ab1a244e'): "a licensee's extension of its licence to its affiliates: swapping the parties reverses the deal",
    ('flip', 'ba9a2975f4'): "a franchisor's right over the developer's territorial exclusivity: one way by nature",
    ('flip', 'c1ce504930'): "a licensor's consent to the licensee's change of control: swapping reverses the licence",
    ('flip', '0076d3082b'): "a trade-mark licence's bar on pass-through use: one way by nature",
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
