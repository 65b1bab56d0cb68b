"""Seeded random draws of real clauses for the drafting-z tranche (issue 38): held-out only.

Runs drafting-y's sampler (``benchmarks/sets/drafting-y/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-x's, -w's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 1931;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-y's (which hold drafting-c's to -x's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-y/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-z/sample.py --out benchmarks/sets/drafting-z/draws.jsonl
    python benchmarks/sets/drafting-z/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_y_sample", HERE.parent / "drafting-y" / "sample.py")
Y = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(Y)  # drafting-y's sampler, which runs drafting-x's, -w's, ... and drafting-f's
X = Y.X
W = X.W
V = W.V
U = V.U
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

SEED = 1931
USED_DIRS = Y.USED_DIRS + ("drafting-y",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 1, 0), ("flip", 1, 0), ("conform", 0, 3), ("period", 3, 0), ("amount", 0, 0),
          ("carve_out", 3, 0), ("shorten", 2, 2), ("plain", 4, 0), ("multi", 6, 0)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(Y.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', '12f086b269'): "net revenue split with every percentage redacted ([***]): nothing to share that is not already shared",
    ('mutual', '4f95c0cd20'): "Franchisor's audit and inspection of the Franchisee's Smaaash Centres: one way by nature",
    ('mutual', '0cfb1d5de2'): "employer's summary dismissal of an executive for disparagement, fragments joined by <omitted>: one way by nature",
    ('mutual', 'f1f854273f'): "promotion-fee formulas with a worked example: no obligation of one party to mirror",
    ('mutual', '55bdaba843'): "licences already run both ways (Sponsor Marks to Forty Niners SC, Team Marks to Sponsor)",
    ('mutual', '1568decacf'): "custodian's and servicer's access duties to the securitisation parties: no two-party right to mirror",
    ('mutual', 'c5d3e65d9c'): "WLI's inventory check of the paying Power2Ship, stray underline dashes: one way by nature",
    ('mutual', '533e6993c1'): "governing law: binds no party alone",
    ('mutual', 'cb05e4ed81'): "term of the agreement: binds no party alone",
    ('mutual', 'b4fe1784ec'): "the Investor's option turning its licences exclusive, cut off: one way by nature",
    ('mutual', 'efcee8844c'): "governing law: binds no party alone",
    ('mutual', 'f02efd17ad'): "term of the agreement (stated twice): binds no party alone",
    ('mutual', 'c7db001337'): "goodwill in the Licensor's Brand and the Licensee's assignment back: one way by nature",
    ('mutual', 'ca47308eca'): "exclusive repair of the Company's items by the Repairer: one way by nature",
    ('flip', 'e8986ba6db'): "Developer's termination on notice and the franchisor's control of the Developer's territorial rights: nothing a client would turn round",
    ('flip', '0ac7f567db'): "an endorser's non-compete, fragments joined by <omitted>: one way by nature",
    ('flip', 'edb084c978'): "NETGEAR's own liability insurance: moving it to its distributor has no sense",
    ('flip', '70e489ebb4'): "the Affiliate's indemnity for breach of its own warranty: one way by nature",
    ('shorten', '5f2672beef'): "a signature-block list of fund names: nothing operative to shorten",
    ('multi', 'd41aec44d1'): "IMNTV's licence list cut off in the middle of limb (e)",
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
