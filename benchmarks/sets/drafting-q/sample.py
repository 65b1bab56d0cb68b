"""Seeded random draws of real clauses for the drafting-q tranche (issue 38): held-out only.

Runs drafting-p's sampler (``benchmarks/sets/drafting-p/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-o's, -n's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 1213;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-p's (which hold drafting-c's to -o's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-p/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-q/sample.py --out benchmarks/sets/drafting-q/draws.jsonl
    python benchmarks/sets/drafting-q/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_p_sample", HERE.parent / "drafting-p" / "sample.py")
P = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(P)  # drafting-p's sampler, which runs drafting-o's, -n's, ... and drafting-f's
O = P.O
N = O.N
M = N.M
L = M.L
K = L.K
J = K.J
I = J.I
H, G, F, E, D, C = I.H, I.G, I.F, I.E, I.D, I.C

SEED = 1213
USED_DIRS = P.USED_DIRS + ("drafting-p",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 1, 0), ("flip", 0, 0), ("conform", 1, 2), ("period", 3, 0), ("amount", 0, 0),
          ("carve_out", 3, 0), ("shorten", 2, 1), ("plain", 2, 1), ("multi", 4, 2)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(P.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', 'b70dabf0c9'): "the Servicer's hand-over of the Serviced Assets to a successor servicer on its exit: one way by nature (the Owner services nothing for the Servicer)",
    ('mutual', '6f7e9c0535'): "Licensor's grant of a VOD licence to Rogers and its licence period: one way by nature",
    ('flip', '7174205776'): "the non-solicitation already binds both Valeant and Dova: nothing to turn round",
    ('flip', '8744af5f62'): "T&B's exclusivity covenant and its royalty-floor termination right, fragments joined by <omitted>; the right rests on royalties only LEA pays: one way by nature",
    ('mutual', '2b7c0a76e0'): "MacroGenics' continued supply of Products to Green Cross after Green Cross terminates, fragments joined by <omitted>: one way by nature (only MacroGenics supplies)",
    ('flip', 'a6c3c84d6a'): "the Fund's delivery of its own audits, statements and portfolio lists to Integrity: one way by nature (Integrity has no fund books to furnish)",
    ('flip', 'b7deb63ef1'): "conditions on EKR's appointment of sub-distributors, fragments joined by <omitted>: one way by nature (only EKR distributes)",
    ('flip', '076ad691de'): "Ginkgo's right to end the software licence within BLI's terms, fragments joined by <omitted> and the record cut off mid-word: one way by nature (only Ginkgo uses the Software)",
    ('flip', '0789e47864'): "Theravance's audit of a 'Recording Party' the record never names, fragments joined by <omitted>: no named party to turn the right round to",
    ('flip', '301930a11c'): "the Agent's territorial and end-user limits, fragments joined by <omitted>; the principal is not named in the record, so there is no party to move them to",
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
