"""Seeded random draws of real clauses for the drafting-w tranche (issue 38): held-out only.

Runs drafting-v's sampler (``benchmarks/sets/drafting-v/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-u's, -t's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 7307;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-v's (which hold drafting-c's to -u's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-v/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-w/sample.py --out benchmarks/sets/drafting-w/draws.jsonl
    python benchmarks/sets/drafting-w/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_v_sample", HERE.parent / "drafting-v" / "sample.py")
V = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(V)  # drafting-v's sampler, which runs drafting-u's, -t's, ... and drafting-f's
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

SEED = 7307
USED_DIRS = V.USED_DIRS + ("drafting-v",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 1, 0), ("flip", 1, 0), ("conform", 2, 3), ("period", 4, 0), ("amount", 0, 0),
          ("carve_out", 4, 0), ("shorten", 3, 1), ("plain", 5, 0), ("multi", 6, 3)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(V.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', 'cb12846090'): "CONSULTANT's termination fee after a Change of Control: a payment, one way by nature",
    ('mutual', '415f0d6b0d'): "CEIS's exclusive content licence to XFN: a licence of its own content, one way by nature",
    ('mutual', 'd80a5965a5'): "the NFLA's licence of its Identification to Company: one way by nature",
    ('mutual', 'ff3592030f'): "T&B's non-solicit with the customers' owner lost in the '<omitted>' cut, and T&B's royalty-floor termination right: garbled, and the right is one way by nature",
    ('mutual', '8b24e735a8'): "Capital Resources' marketing and management fees: a payment, one way by nature",
    ('mutual', 'ff2fbc3fbc'): "Operator's transition duties to Owner: one way by nature",
    ('mutual', '49033af70b'): "Boxlot's service levels to theglobe: one way by nature",
    ('flip', '7c42d25dbf'): "SAP Africa's insurance for its own liabilities: one way by nature",
    ('flip', 'ff3592030f'): "T&B's non-solicit with the customers' owner lost in the '<omitted>' cut: garbled; the royalty-floor termination right is one way by nature",
    ('flip', 'c542ad7302'): "a personality's public appearances for Bizzingo: personal services, one way by nature",
    ('flip', 'ab18761d13'): "assignment: Hydron's affiliate exception already balanced by the Dolphins' merger exception",
    ('flip', '2c70bebf8a'): "the offering's minimum-sale termination and refund: nothing to turn round",
    ('flip', '403d616a51'): "SERVICERS' audit of ISO for card-scheme compliance: one way by nature (only ISO is audited)",
    ('flip', '753cdc33d4'): "the term and renewal: binds both parties already",
    ('period', 'f66cc7ff92'): "HGF's remuneration: two fragments of a list run together ('To remunerate ...', 'To issue ...') with no subject and a garbled basis ('net Company income basis'); no period a lawyer could change cleanly",
    ('shorten', 'cfe968eb53'): "a jumble of party names from a cover page: no operative text",
    ('plain', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#6.1'): "already plain English in short lettered limbs; nothing to simplify",
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
