"""Seeded random draws of real clauses for the drafting-x tranche (issue 38): held-out only.

Runs drafting-w's sampler (``benchmarks/sets/drafting-w/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-v's, -u's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 8423;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-w's (which hold drafting-c's to -v's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-w/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-w/sample.py --out benchmarks/sets/drafting-x/draws.jsonl
    python benchmarks/sets/drafting-w/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_w_sample", HERE.parent / "drafting-w" / "sample.py")
W = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(W)  # drafting-w's sampler, which runs drafting-v's, -u's, ... and drafting-f's
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

SEED = 8423
USED_DIRS = W.USED_DIRS + ("drafting-w",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 1, 0), ("flip", 1, 0), ("conform", 0, 3), ("period", 4, 0), ("amount", 0, 0),
          ("carve_out", 4, 0), ("shorten", 3, 1), ("plain", 5, 0), ("multi", 4, 2)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(W.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', '3c2c831984'): "Agency's non-compete given in return for MICOA's exclusive appointment: the counterpart is already there; one way by nature",
    ('mutual', '876382df2a'): "Harpoon's no-challenge of the other side's Product Trademarks: a licensee's covenant, one way by nature",
    ('mutual', '8734cc61b7'): "governing law and venue: binds both parties already",
    ('flip', '16ee664671'): "the term, ending on AbbVie's failure to exercise its option: nothing to turn round",
    ('flip', '9771e7f93f'): "an amendment making a distributorship exclusive: nothing to turn round",
    ('flip', 'b82423dd02'): "the Agent's territorial sales duties, cut at '<omitted>': one way by nature",
    ('flip', 'e71803d33d'): "the term, product by product: nothing to turn round",
    ('carve_out', 'a534dc0234'): "Fox's redacted guarantee payments with an SEC confidential-treatment legend run into the text: no obligation a carve-out fits, and the figures are blanked",
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
