"""Seeded random draws of real clauses for the drafting-y tranche (issue 38): held-out only.

Runs drafting-x's sampler (``benchmarks/sets/drafting-x/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-w's, -v's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 9511;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-x's (which hold drafting-c's to -w's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-x/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-y/sample.py --out benchmarks/sets/drafting-y/draws.jsonl
    python benchmarks/sets/drafting-y/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_x_sample", HERE.parent / "drafting-x" / "sample.py")
X = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(X)  # drafting-x's sampler, which runs drafting-w's, -v's, ... and drafting-f's
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

SEED = 9511
USED_DIRS = X.USED_DIRS + ("drafting-x",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 0, 0), ("flip", 0, 0), ("conform", 0, 3), ("period", 3, 0), ("amount", 0, 0),
          ("carve_out", 3, 0), ("shorten", 3, 0), ("plain", 3, 0), ("multi", 4, 2)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(X.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', '56517b3a70'): "the Professional's promise to attend promotional events for the Company: an endorser's duty, one way by nature",
    ('mutual', 'b4edcc78fb'): "audit of the royalty-paying Licensee's books by Licensor: one way by nature",
    ('mutual', 'a92d9e18da'): "Dova's tail-period payment to Valeant after its own termination: one way by nature",
    ('mutual', 'd5db708678'): "governing law (stated twice): binds no party alone",
    ('mutual', '8d91e706f2'): "PB's licensing transactions needing its funder SFJ's consent, figures blanked: one way by nature",
    ('mutual', 'd3de1e73c4'): "Distributor's option to distribute Company's new products: one way by nature",
    ('mutual', 'cb86814e4f'): "governing law: binds no party alone",
    ('mutual', 'f769c40bd0'): "unrelated sentences run together (an equity-funding condition, a commission floor, a board seat)",
    ('mutual', '0cf871373a'): "Licensor's inspection of the royalty-paying Licensee's records: one way by nature",
    ('mutual', 'c43d7d2cd1'): "third-party beneficiaries of the Issuers' and the Remarketing Agent's indemnities: already both sides",
    ('mutual', '4d32e9d07c'): "Metavante's software licence to Customer: one way by nature",
    ('mutual', 'fc9efa2b92'): "VIP's post-notice services and BNL's return of VIP's software: one way by nature",
    ('mutual', '939fdd64de'): "Dr. Murray's personal non-compete for EHS and EHN: one way by nature",
    ('mutual', 'ba040a83df'): "Customer's payment for Contractor's unused inventory on termination: one way by nature",
    ('mutual', 'b09b307bf8'): "BP's and Company's joint conduct of operations: already both sides",
    ('mutual', 'a14533b952'): "indemnities already run both ways (Fazync to Bravatek and Bravatek to Fazync)",
    ('mutual', '6b1502ead3'): "Vendor's trademark licence to its exclusive Distributor: one way by nature",
    ('mutual', '4b2b3a1140'): "unrelated sentences run together (an inventory audit, a right of first refusal, insurance, disposal): drafting-f's conform reason",
    ('mutual', '2f0f153754'): "Licensor's non-exclusive technology licence to Licensee: one way by nature",
    ('mutual', '854be8a05a'): "Valeant's licence of its property on the Product labeling to Dova, redacted lead-in: one way by nature",
    ('flip', '58ffce4927'): "the Term and the Parties' joint right to extend it: already both sides",
    ('flip', '1b9d99fc82'): "notice-only assignment on a merger, asset sale or affiliate transfer by any Party: already both sides",
    ('flip', 'b70dabf0c9'): "the Servicer's hand-over on its own resignation or removal: one way by nature",
    ('flip', '32a96f00b1'): "the payee Affiliate's audit of Network's revenue-share records: turning it round has no sense",
    ('flip', '61c682bb27'): "Bank of America's convenience termination and refund rights, fragments joined by <omitted>: no client would ask for them turned round",
    ('flip', '666128344c'): "Client's licence of its site design and marks for Company's portfolio: one way by nature",
    ('flip', '512b32fa6a'): "licences already run both ways (Reseller Marks to TouchStar, demonstration copy to Reseller)",
    ('flip', '6fc10f5ec9'): "Distributor's assignment of product improvements to the manufacturer Erchonia: one way by nature",
    ('flip', '2b7c0a76e0'): "MacroGenics' continued supply after Green Cross terminates, figures blanked: one way by nature",
    ('flip', '9cadd164ca'): "appointment of an exclusive distributor: nothing to turn round",
    ('flip', '7ec247a57e'): "Diplomat's examination of Tadeo's books, fragments joined by <omitted>: the payee's audit, turning it round has no sense",
    ('flip', '7fe69991f1'): "Garman's software and escrow-code licences to its customer Sparkling: one way by nature",
    ('flip', 'f495259066'): "change-of-control termination rights already run both ways (Green Cross and MacroGenics)",
    ('conform', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-massachusetts.docx#p39'): "cover-term headings and a fragment without a verb",
    ('period', 'c402e98c87'): "the only period is the six-year damages look-back of US patent law the clause describes, not one the parties set",
    ('multi', 'fb4c3c1275'): "the grants' terms redacted ([***]) and stray underline dashes run through the text",
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
