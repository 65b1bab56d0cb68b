"""Seeded random draws of real clauses for the drafting-s tranche (issue 38): held-out only.

Runs drafting-r's sampler (``benchmarks/sets/drafting-r/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-q's, -p's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 3559;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-r's (which hold drafting-c's to -q's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-r/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-s/sample.py --out benchmarks/sets/drafting-s/draws.jsonl
    python benchmarks/sets/drafting-s/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_r_sample", HERE.parent / "drafting-r" / "sample.py")
R = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(R)  # drafting-r's sampler, which runs drafting-q's, -p's, ... and drafting-f's
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

SEED = 3559
USED_DIRS = R.USED_DIRS + ("drafting-r",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 1, 0), ("flip", 0, 0), ("conform", 1, 2), ("period", 3, 0), ("amount", 0, 0),
          ("carve_out", 3, 0), ("shorten", 2, 1), ("plain", 2, 1), ("multi", 4, 2)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(R.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', '63971db8ef'): "Surgical's non-compete for the Product and Services: the record never names the other party, and the Product is that party's: no one to share it with",
    ('mutual', 'ec0b0fce9e'): "Supplier's and Reseller's right to assign to affiliates or on a sale: already runs both ways",
    ('mutual', '4a15be7ebc'): "i-Escrow's advertising fees to 2TheMart per Transaction Inquiry: a payment, one way by nature",
    ('mutual', 'c6da253714'): "California law and courts, 'the parties hereby agree to submit': already binds both sides",
    ('flip', '9c71a72c03'): "Developer's recognition of the Client's own marks, copyrights and patents: one way by nature",
    ('flip', '583e008d4d'): "a pipeline tariff's minimum tender and the Carrier's discretion to accept less: no right that could be turned round between two parties",
    ('flip', '58ffce4927'): "the Term and the Parties' joint right to extend it: already both sides",
    ('flip', '09c35e345f'): "the terms of the trademark, copyright, know-how and patent licences: no party's right or duty to turn round",
    ('flip', '7e6b9836cf'): "EFS's right to use Client's manufacturers for Playboy Commerce Merchandise with Client's approval: one way by nature (the manufacturers are Client's)",
    ('flip', '1552bc9c5d'): "the Professional's options and the Company's free assignment: one way by nature (the Company grants the options; an assignment right for the Professional alone would make no commercial sense)",
    ('flip', '91576e5c18'): "an entire-agreement and amendment clause among all parties: nothing one way",
    ('plain', 'c432817bc3'): "three party descriptions run together with names and the successors-and-assigns formula, no sentence: nothing to restate",
    ('flip', 'c2feb0be8d'): "Bioamber's restriction on its own biocatalyst development: one way by nature (the other side develops nothing under it)",
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
