"""Seeded random draws of real clauses for the drafting-l tranche (issue 38): held-out only.

Runs drafting-k's sampler (``benchmarks/sets/drafting-k/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-j's, -i's, -h's, -g's and drafting-f's
command line, drafting-e's walk of the earlier task files and drafting-d's drawing loop on
drafting-c's pools): the same pools, the same broad pattern per category, the same near-copy key,
the same loop. What differs:

- SEED 4871;
- the rounds (below), all held out (TUNING is 0 for every category, as in drafting-k);
- the rejections made on reading (MANUAL_REJECT): drafting-k's (which hold drafting-c's to -j's)
  and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-k/``, ``caps2/``, ``caps3/``,
  ``figures/`` and ``conform/`` (their draws files are not read).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-l/sample.py --out benchmarks/sets/drafting-l/draws.jsonl
    python benchmarks/sets/drafting-l/sample.py --show multi acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_k_sample", HERE.parent / "drafting-k" / "sample.py")
K = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(K)  # drafting-k's sampler, which runs drafting-j's, -i's, ... and drafting-f's
J = K.J
I = J.I
H, G, F, E, D, C = I.H, I.G, I.F, I.E, I.D, I.C

SEED = 4871
USED_DIRS = K.USED_DIRS + ("drafting-k",)
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 1, 1), ("flip", 0, 1), ("conform", 2, 3), ("period", 5, 2), ("amount", 1, 1),
          ("carve_out", 4, 2), ("shorten", 3, 2), ("plain", 3, 2), ("multi", 7, 3)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(K.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('conform', 'openagreements-cc-by-4.0/openagreements-founder-stock-repurchase-agreement.docx#p1'): 'the preamble and recitals of a template, every name and date a bracketed placeholder; nothing to conform',
    ('period', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-maine.docx#p13'): "cover-terms notes: bracketed placeholders for two dates and guidance to the user; no operative period to change",
    ('carve_out', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-hawaii.docx#3'): "employee's acknowledgements and the consideration recital; no operative term that an exception could cut into",
    ('carve_out', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-alaska.docx#3'): "employee's acknowledgements and the consideration recital; no operative term that an exception could cut into (as for Hawaii's clause 3)",
    ('period', '1d7a5f22de'): "a page footer ('Page 46 of 80') inside the sentence, and the same assumed-name duty as 7cbddaafb8, already drawn",
    ('plain', '57766b98ac'): "the trigger's cross-reference has lost its number ('pursuant to Section,') and 'deemed be' is garbled: no plain version without guessing",
    ('multi', 'b94ecfe586'): 'redacted periods ([...***...]) in all three places the asks would turn on',
    ('carve_out', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-hampshire.docx#p42'): 'a heading and a sentence fragment that breaks off (no verb); no operative term',
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
