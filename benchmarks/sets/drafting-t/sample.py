"""Seeded random draws of real clauses for the drafting-t tranche (issue 38): held-out only.

Runs drafting-s's sampler (``benchmarks/sets/drafting-s/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-r's, -q's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 4663;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-s's (which hold drafting-c's to -r's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-s/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-t/sample.py --out benchmarks/sets/drafting-t/draws.jsonl
    python benchmarks/sets/drafting-t/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_s_sample", HERE.parent / "drafting-s" / "sample.py")
S = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(S)  # drafting-s's sampler, which runs drafting-r's, -q's, ... and drafting-f's
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

SEED = 4663
USED_DIRS = S.USED_DIRS + ("drafting-s",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 0, 0), ("flip", 1, 0), ("conform", 1, 3), ("period", 4, 0), ("amount", 0, 0),
          ("carve_out", 4, 0), ("shorten", 3, 1), ("plain", 3, 2), ("multi", 5, 3)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(S.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', '12744a6266'): "VerticalNet's promise not to deal with Futurestep: the record never names the party it is given to, and Futurestep is a third party: no one to share it with",
    ('mutual', '9745cfa80b'): "a gas franchise fee formula: a payment, one way by nature, and no duty to share",
    ('mutual', 'd24c689a89'): "Commerce One's assignment of the Developments to Corio: one way by nature (Corio creates them in its own hosted environment)",
    ('mutual', 'f7183c205b'): "IntriCon's minimum payments to keep exclusivity: a payment, one way by nature",
    ('mutual', '69d4c9c630'): "E.piphany's audit of HSNS's use of its Application: one way by nature (only HSNS uses licensed software)",
    ('mutual', '3ff0bd4098'): "the transfer of Remaining Merchandise to Agent at the end of the sale: one way by nature",
    ('mutual', 'c56ebe40d3'): "patent prosecution, each party for its own Inventions, the rest redacted: already both ways",
    ('mutual', 'ffacdac64e'): "California governing law with a patent-law proviso: binds no party one way",
    ('mutual', 'd95643c6bd'): "the Company's nomination and insurance of its director designee TF: one way by nature",
    ('mutual', '5fe8ad1d94'): "an executive's non-solicitation of the group's clients: one way by nature (the Company has no clients of the Executive to protect)",
    ('flip', 'a774ac0ed5'): "Licensee's post-termination notice that it no longer uses the Licensed Mark: one way by nature (the Mark is Licensor's)",
    ('flip', 'a71076e5d6'): "Liquidmetal's patent and know-how licence to Eutectix: one way by nature",
    ('flip', 'bd63023a87'): "BSP's audit access to Datec, the service provider: one way by nature",
    ('flip', '8e27e393e0'): "the appointment of Distributor and the grant of the Names: one way by nature",
    ('flip', 'd09179c19d'): "the Customer's freedom to sell non-competing products: a freedom, nothing to turn round (the Manufacturer makes, it does not resell)",
    ('flip', '6f7e9c0535'): "Licensor's VOD licence to Rogers: one way by nature",
    ('flip', '9368a83069'): "a carrier's claims procedure and damages exclusion: a tariff, no party's right to turn round",
    ('flip', '1a459a6f9e'): "Licensor's quality control and inspection of the Licensed Products: one way by nature (the Mark is Licensor's)",
    ('conform', 'a2dfa7cf15'): "an intra-group separation licence's sublicensing terms built on the Nuance Group, the Nuance Business and the SpinCo Shared Technology Assets: no form agreement could take it without inventing the deal",
    ('plain', 'd41aec44d1'): "IMNTV's grant of rights to Distributor, cut off mid-sentence in limb (e) ('such excerpts to'): no complete clause to restate",
    ('flip', 'a14533b952'): "cross-indemnities between Fazync and Bravatek: already both ways",
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
