"""Seeded random draws of real clauses for the drafting-v tranche (issue 38): held-out only.

Runs drafting-u's sampler (``benchmarks/sets/drafting-u/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-t's, -s's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 6151;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-u's (which hold drafting-c's to -t's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-u/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-v/sample.py --out benchmarks/sets/drafting-v/draws.jsonl
    python benchmarks/sets/drafting-v/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_u_sample", HERE.parent / "drafting-u" / "sample.py")
U = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(U)  # drafting-u's sampler, which runs drafting-t's, -s's, ... and drafting-f's
T = U.T
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

SEED = 6151
USED_DIRS = U.USED_DIRS + ("drafting-u",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 1, 0), ("flip", 1, 0), ("conform", 1, 2), ("period", 3, 0), ("amount", 0, 0),
          ("carve_out", 3, 0), ("shorten", 2, 1), ("plain", 2, 1), ("multi", 4, 2)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(U.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', '4b4e0c2534'): "Skype's promise to license a new mobile product to the Company: a licence of its own software, one way by nature",
    ('mutual', 'b3c0944b0d'): "Arizona governing law and venue: binds both parties already",
    ('mutual', '99466ff704'): "the Company's and Nantz's assignment restrictions: already both ways",
    ('mutual', 'd5c39b44b5'): "an amendment's effectiveness on two closings: no party's duty to share",
    ('mutual', 'de87924f73'): "Client's and Excite's audit rights over each other's records: already both ways",
    ('mutual', 'ffc393dca3'): "Agent's promise not to challenge Kallo's Trademarks: one way by nature (the marks are Kallo's)",
    ('mutual', 'c736ff8432'): "Licensor's profit participation grant and the share consideration: a payment term, one way by nature",
    ('flip', '0f6c150c18'): "Dragon Systems' remedies for MMI's defective Services: one way by nature (only MMI performs)",
    ('flip', '9d829a8dfe'): "the Purchase Order's licence of the Equipment software to Lessor: one way by nature",
    ('flip', '2f0f153754'): "Licensor's licence of its own Licensed Technology: one way by nature",
    ('flip', '6b1502ead3'): "Vendor's trademark licence to Distributor: one way by nature",
    ('flip', 'ce002ef2aa'): "MMT's wind-down duties to SIGA and a stray Promoter sentence: one way by nature, two records run together",
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
