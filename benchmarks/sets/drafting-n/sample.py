"""Seeded random draws of real clauses for the drafting-n tranche (issue 38): held-out only.

Runs drafting-m's sampler (``benchmarks/sets/drafting-m/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-l's, -k's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 7393;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-m's (which hold drafting-c's to -l's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-m/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-n/sample.py --out benchmarks/sets/drafting-n/draws.jsonl
    python benchmarks/sets/drafting-n/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_m_sample", HERE.parent / "drafting-m" / "sample.py")
M = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(M)  # drafting-m's sampler, which runs drafting-l's, -k's, ... and drafting-f's
L = M.L
K = L.K
J = K.J
I = J.I
H, G, F, E, D, C = I.H, I.G, I.F, I.E, I.D, I.C

SEED = 7393
USED_DIRS = M.USED_DIRS + ("drafting-m",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 0, 0), ("flip", 1, 0), ("conform", 1, 3), ("period", 4, 0), ("amount", 0, 0),
          ("carve_out", 4, 0), ("shorten", 2, 1), ("plain", 2, 1), ("multi", 5, 3)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(M.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('flip', '74fe29e627'): "a sponsor's exclusive rights on the driver's helmet, suit and car: one way by nature, swapping reverses the sponsorship",
    ('flip', 'a4728c3f49'): "MLX's content licence to HCI: swapping the parties reverses the grant",
    ('flip', '8ce15f98e0'): "a term and renewal either Party may end on the same notice: nothing one-sided to turn round",
    ('flip', 'd95643c6bd'): "the Company's nomination and insurance of a director designee: one way by nature",
    ('flip', 'd7bbad7601'): "an exclusive content licence: swapping licensor and licensee reverses the deal",
    ('flip', 'bc78f08d6e'): "a buyer's access and audit rights over the manufacturer's facilities: swapping them makes no commercial sense",
    ('conform', 'f2419480e0'): "an agents' fee record run together from three passages (the options sentence twice, the fee split table in the text): no agreement in the collection to conform an underwriting fee into",
    ('conform', 'fd150fb38c'): "the renewal period and the non-renewal notice are both redacted (****): no conformed version without guessing what they hide",
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
