"""Seeded random draws of real clauses for the drafting-o tranche (issue 38): held-out only.

Runs drafting-n's sampler (``benchmarks/sets/drafting-n/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-m's, -l's, ... and drafting-f's command
line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools, the same broad pattern per category, the same near-copy key, the same
loop. What differs:

- SEED 8161;
- the rounds (below), all held out (TUNING is 0 for every category);
- the rejections made on reading (MANUAL_REJECT): drafting-n's (which hold drafting-c's to -m's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-n/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-o/sample.py --out benchmarks/sets/drafting-o/draws.jsonl
    python benchmarks/sets/drafting-o/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_n_sample", HERE.parent / "drafting-n" / "sample.py")
N = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(N)  # drafting-n's sampler, which runs drafting-m's, -l's, ... and drafting-f's
M = N.M
L = M.L
K = L.K
J = K.J
I = J.I
H, G, F, E, D, C = I.H, I.G, I.F, I.E, I.D, I.C

SEED = 8161
USED_DIRS = N.USED_DIRS + ("drafting-n",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 1, 0), ("flip", 0, 0), ("conform", 1, 3), ("period", 5, 0), ("amount", 0, 0),
          ("carve_out", 5, 0), ("shorten", 3, 1), ("plain", 4, 1), ("multi", 6, 3)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(N.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', '3ba1d1f671'): "governing law: no party duty to share",
    ('mutual', '17f58d7622'): "the client's right to have EFS pull its advertisements: one way by nature (drafting-m read it the same way)",
    ('mutual', 'ab18761d13'): "a fragment of an assignment clause that already binds every party",
    ('mutual', '06d5cc8fe6'): "the consultant's delivery of the work product it made for Imprimis: one way by nature",
    ('mutual', '8d1007ca07'): "the exclusive appointee's non-compete while its appointment is exclusive: one way by nature",
    ('mutual', '628f30ed83'): "a royalty payable by the Company to the Professional: nothing to share",
    ('mutual', '3cab4c15d9'): "governing law and forum: no party duty to share",
    ('mutual', '1079c28849'): "a distributor's bar on acting for competing goods, cut off after 'or': one way by nature",
    ('conform', 'cb09dac119'): "a royalty split run together from several passages, its words and figures at odds ('twenty-percent (25%)'): nothing to conform into another agreement without guessing the deal",
    ('conform', '076ad691de'): "the record breaks off mid-word ('shall term') after an <omitted> mark, and its precedence rule is tied to the BLI Terms and Conditions, which no agreement in the collection has",
    ('shorten', 'a534dc0234'): "redacted guarantee amounts and dates (*****) and an SEC filing footer run into the text: no shorter version without guessing what they hide",
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-hampshire.docx#p42'): "a heading and an unfinished sentence with no verb: nothing to redraft as a clause",
    ('mutual', '20a8af36b8'): "AT&T Affiliates as third-party beneficiaries of what they receive: nothing for the supplier's side to mirror",
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
