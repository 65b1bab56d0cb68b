"""Seeded random draws of real clauses for the drafting-r tranche (issue 38): held-out only.

Runs drafting-q's sampler (``benchmarks/sets/drafting-q/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-p's, -o's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 2417;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-q's (which hold drafting-c's to -p's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-q/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-r/sample.py --out benchmarks/sets/drafting-r/draws.jsonl
    python benchmarks/sets/drafting-r/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_q_sample", HERE.parent / "drafting-q" / "sample.py")
Q = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(Q)  # drafting-q's sampler, which runs drafting-p's, -o's, ... and drafting-f's
P = Q.P
O = P.O
N = O.N
M = N.M
L = M.L
K = L.K
J = K.J
I = J.I
H, G, F, E, D, C = I.H, I.G, I.F, I.E, I.D, I.C

SEED = 2417
USED_DIRS = Q.USED_DIRS + ("drafting-q",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 1, 0), ("flip", 2, 0), ("conform", 1, 3), ("period", 4, 0), ("amount", 0, 0),
          ("carve_out", 4, 0), ("shorten", 3, 1), ("plain", 3, 2), ("multi", 5, 3)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(Q.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', 'c45b1b2229'): "the target Company's duty to give Acquiror access to its people, books and records before closing: one way by nature (Acquiror has no business under review)",
    ('mutual', '42e8623841'): "joint ownership of Transactional and User Data: already runs both ways",
    ('flip', '54f055e3e6'): "Developer's acknowledgement of El Pollo Loco's ownership of its own Marks: one way by nature",
    ('flip', 'aeb523518e'): "Biocept's sole responsibility for the Technical Component of its Tests until Life Technologies gets rights from Biocept: one way by nature (the Tests and the rights are Biocept's)",
    ('mutual', '909ea4db0b'): "Vyera's royalty to CytoDyn on Net Sales with a step-down: one way by nature",
    ('mutual', '674ffbb379'): "the Sub-Advisor's transition help to Oaktree US on termination: one way by nature (Oaktree US advises nothing for the Sub-Advisor)",
    ('flip', '79be03b669'): "the franchisor's inspection of the franchisee's business, products and books: one way by nature",
    ('flip', '0cf871373a'): "Licensee's record keeping and Licensor's audit of the royalty Reports: one way by nature (only Licensee pays and reports)",
    ('mutual', '7d84070d6f'): "Distributor's promise not to challenge Company's trademarks: one way by nature (Distributor licenses no marks to Company)",
    ('mutual', 'b865fc8106'): "a clarification of what a Competitive Transaction excludes: a definition, no duty to share",
    ('mutual', '68187ac5cf'): "King's promise not to sell competing metformin products, fragments of a licence whose licensor the record never names: no party to share it with",
    ('mutual', '1e0b9ee800'): "the Sponsor's first refusal on ANTHEMIC's 2016 event sponsorship: one way by nature (only ANTHEMIC produces the Event)",
    ('conform', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-virginia.docx#p13'): "a cover-term label with a 17-word value and no sentence: nothing to bring into another agreement",
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
