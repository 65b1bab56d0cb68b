"""Seeded random draws of real clauses for the drafting-i tranche (issue 38): tuning + held-out.

Runs drafting-h's sampler (``benchmarks/sets/drafting-h/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-f's command line through drafting-g's
module, drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's
pools): the same pools (ACORD corpus; the shared agreements split by
``index_builder.ingest.read_clauses`` with ``keep_template_text=True``, near copies once), the
same broad pattern per category, the same near-copy key, the same loop. What differs:

- SEED 7411;
- the rounds: drafting-h's annotator found the mutual and flip pools nearly exhausted (7 of 98
  mutual and 7 of 112 flip ACORD candidates accepted), so mutual and flip take 6 ACORD clauses
  each (2 tuning + 4 held-out) and ask 1 from the agreements, whose pools are walked to the end
  and yield none (every candidate that passes the pattern was rejected on reading by an earlier
  tranche); period, amount and multi take more to keep 60 held-out tasks; the split sizes per
  category are drafting-f's (2 tuning per single category, 4 tuning multi; the rest held out);
- the rejections made on reading (MANUAL_REJECT): every earlier tranche's rejections (drafting-c
  to -h; a clause one annotator found unfit for a category stays unfit) and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-h/`` (both halves), ``caps2/``,
  ``caps3/``, ``figures/`` and ``conform/`` (every ``clause_id`` value and every
  ``clause``/``text`` string, at any depth; their draws files are not read: a rejected draw was
  never used).

The split: the accepted draws of each category are shuffled with
``random.Random(f"{SEED}-split-{category}")`` and the first TUNING[category] go to the tuning
half, the rest to the held-out half, decided here before any label was written.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-i/sample.py --out benchmarks/sets/drafting-i/draws.jsonl
    python benchmarks/sets/drafting-i/sample.py --show mutual acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_h_sample", HERE.parent / "drafting-h" / "sample.py")
H = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(H)  # drafting-h's sampler, which runs drafting-g's and drafting-f's
G, F, E, D, C = H.G, H.F, H.E, H.D, H.C

SEED = 7411
USED_DIRS = ("drafting", "drafting-c", "drafting-d", "drafting-e", "drafting-f", "drafting-g", "drafting-h",
             "caps2", "caps3", "figures", "conform")
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order; the agreements'
# mutual and flip pools are read to the end and accept nothing (see the docstring)
ROUNDS = [("mutual", 6, 1), ("flip", 6, 1), ("conform", 4, 4), ("period", 7, 2), ("amount", 9, 0),
          ("carve_out", 4, 4), ("shorten", 4, 4), ("plain", 6, 2), ("multi", 12, 6)]
TUNING = F.TUNING  # 2 per single category, 4 multi; the rest held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(H.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ("mutual", "511966d84e"): "the payer's audit of the costs its supplier charges it; one way by nature",
    ("mutual", "c07448e15d"): "already mutual (the Party shall pay to the other Party)",
    ("mutual", "b340165a6b"): "minimum guarantee paid by one side; one way by nature",
    ("mutual", "28ec68e7eb"): "governing law; binds no party alone",
    ("mutual", "0ef8d7c95e"): "licensor's maintenance services; one way by nature",
    ("mutual", "496b6e0318"): "governing law; binds no party alone",
    ("mutual", "1571ca756e"): "sublicensing with the licensor's approval (one way by nature) and an assignment bar already mutual, fragments joined by <omitted>",
    ("mutual", "15718b75e6"): "provider's transition help on termination with a redacted limb; one way by nature",
    ("mutual", "ef339d4043"): "remarketing agent's remarketing of securities; one way by nature",
    ("mutual", "0460c3d7d3"): "term of the agreement; binds no party alone",
    ("mutual", "0789e47864"): "the payee's audit of the payer's records, fragments joined by <omitted>; one way by nature",
    ("mutual", "92d5204243"): "portal's reserved freedom to sell to competitors; one way by nature",
    ("mutual", "22aa918bf9"): "already mutual (one Party notifies the other of non-renewal)",
    ("mutual", "acdf47623c"): "most-favoured fee for the client; one way by nature",
    ("mutual", "2208912a20"): "already mutual (neither NETTAXI nor SpinRecords.com assigns without consent)",
    ("mutual", "eec37e7c32"): "manufacturer's exclusive manufacturing services; one way by nature",
    ("mutual", "8bcfb98adc"): "already mutual (neither TPC nor Consolidated Artists assigns without the other's consent)",
    ("mutual", "11fa2b1daa"): "firmware licence to the manufacturer; one way by nature",
    ("mutual", "4b65a02a73"): "sponsor's trademark licence; one way by nature",
    ("mutual", "0a23709145"): "patent owner's notice before abandoning its own patents; one way by nature",
    ("mutual", "c7bee1dd6a"): "already framed by role (the Non-Billing Party audits the Billing Party)",
    ("mutual", "63463d5977"): "licensee's fee share to its licensor; one way by nature",
    ("mutual", "e389a65edf"): "third-party beneficiary of the licensee's protections; binds no party",
    ("mutual", "4a579b9fc7"): "licence of new process technologies to the other party; one way by nature",
    ("mutual", "7f883a8bfb"): "distributor's no-challenge of its supplier's marks; one way by nature",
    ("mutual", "1390a2508b"): "already mutual (no Party assigns without the other Party's consent)",
    ("mutual", "1b9d99fc82"): "already mutual (any Party's merger or transfer)",
    ("mutual", "428c1759ac"): "portal's delivery term with redacted figures; one way by nature",
    ("mutual", "a7f29102d6"): "customer's non-circumvention of its provider and the provider's injunction; one way by nature",
    ("flip", "cb12846090"): "consultant's termination fee on a change of control; one way by nature",
    ("flip", "22aa918bf9"): "already mutual (one Party notifies the other of non-renewal)",
    ("flip", "892b9cdaa3"): "already mutual (data jointly owned), fragments joined by <omitted>",
    ("flip", "3e4bce5706"): "franchisee's non-diversion covenant; one way by nature",
    ("flip", "4d32e9d07c"): "software licence to the customer; one way by nature",
    ("flip", "3d41a58dba"): "distributor's exclusive sales to one customer; one way by nature",
    ("flip", "da7890e575"): "right of first refusal ending on either party's change of control and house-mark use; already two-way",
    ("flip", "8d91e706f2"): "consent to licensing transactions with redacted periods and tests",
    ("flip", "ec22ac2b3a"): "licence of the licensor's own property for the licensee's promotion; one way by nature",
    ("flip", "2ae7e46503"): "distribution right and trademark licence to the reseller; one way by nature",
    ("flip", "2fd2864e12"): "term of the services; no right of one party",
    ("flip", "88361b629b"): "term of the agreement; no right of one party",
    ("flip", "efaa070b92"): "patent and know-how licence to the developer; one way by nature",
    ("flip", "15718b75e6"): "provider's transition help on termination with a redacted limb; one way by nature",
    ("flip", "8bc5f51212"): "adviser's services to its client, fragments joined by <omitted>; one way by nature",
    ("flip", "102e15f8f7"): "the commission payee's audit of the payer's records; one way by nature",
    ("flip", "cbe6420268"): "right of first refusal on the grantor's own extensions, fragments joined by <omitted>; one way by nature",
    ("flip", "e328cde30c"): "endorsement licence to the company; one way by nature",
    ("flip", "ef339d4043"): "remarketing agent's remarketing of securities; one way by nature",
    ("flip", "854be8a05a"): "licence of the licensor's own property for the licensee's promotion; one way by nature",
    ("flip", "5cf60c4b2e"): "consultant's moral rights waiver, fragments joined by <omitted>; one way by nature",
    ("period", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-idaho.docx#p30"): "cover-term headings and values without a sentence",
    ("period", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-connecticut.docx#p24"): "cover-term headings and values without a sentence",
    ("amount", "b367b15f6f"): "sentence broken by literal line-break codes (\\n) in the record",
    ("amount", "a4b3659d9b"): "no figure to change (a consequential-damages exclusion)",
    ("amount", "03f3db25ff"): "no amount to change (dates and product lists only)",
    ("amount", "9888d4a713"): "no amount to change (sponsor approval and benefit parity)",
    ("amount", "a8abf0bd87"): "no figure to change (a revenue share with no rate stated)",
    ("carve_out", "common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#3.1"): "statement about AI output; no restriction or exclusion to carve out of",
    ("carve_out", "openagreements-cc-by-4.0/openagreements-confidentiality-invention-assignment-agreement-nevada.docx#23"): "acknowledgement of advice of counsel; no restriction or exclusion to carve out of",
    ("plain", "openagreements-cc-by-4.0/openagreements-founder-stock-assignment-separate.docx#1.1"): "template placeholders in brackets ([Full legal name ...])",
    ("plain", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-utah.docx#3"): "already plain English in short sentences; nothing to simplify",
    ("multi", "b15d574b97"): "licence fragments joined by <omitted> with blanks (episodes and one-offs missing)",
    ("multi", "openagreements-cc-by-4.0/openagreements-founder-stock-assignment-separate.docx#1.2"): "statement of what the stock power is; no operative term for two asks",
    ("amount", "259c24760f"): "no amount to change (a sell-off period and amounts payable without a figure)",
    ("carve_out", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-florida.docx#15"): "statutory acknowledgement; no restriction or exclusion to carve out of",
    ("plain", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-district-of-columbia.docx#22"): "already plain English in short sentences; nothing to simplify",
    ("plain", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-montana.docx#13"): "already plain English; nothing to simplify",
    ("carve_out", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-montana.docx#p43"): "cover-term heading and value without a sentence",
    ("plain", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-maine.docx#16"): "already plain English in short sentences; nothing to simplify",
    ("carve_out", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-texas.docx#2"): "recitals of consideration; no restriction or exclusion to carve out of",
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
