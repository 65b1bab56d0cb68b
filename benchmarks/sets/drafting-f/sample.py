"""Seeded random draws of real clauses for the drafting-f tranche (issue 38): tuning + held-out.

Reuses drafting-e's sampler (``benchmarks/sets/drafting-e/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-d's drawing loop on drafting-c's pools):
the same pools (ACORD corpus; the shared agreements split by
``index_builder.ingest.read_clauses``, near copies once), the same broad pattern per category, the
same near-copy key, the same drawing loop and the same walk of the earlier task files. What
differs: SEED 3913, the rounds below, the rejections made on reading (MANUAL_REJECT), and what is
left out: every clause id and near copy found anywhere in the task files of
``benchmarks/sets/drafting/``, ``drafting-c/``, ``drafting-d/``, ``drafting-e/`` (both halves),
``caps2/``, ``caps3/``, ``figures/`` and ``conform/`` (every ``clause_id`` value and every
``clause``/``text`` string, at any depth; their draws files are not read: a rejected draw was
never used). The split: the accepted draws of each category are shuffled with
``random.Random(f"{SEED}-split-{category}")`` and the first TUNING[category] go to the tuning
half, the rest to the held-out half, decided here before any label was written.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-f/sample.py --out benchmarks/sets/drafting-f/draws.jsonl
    python benchmarks/sets/drafting-f/sample.py --show mutual acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


E = _load("drafting_e_sample", HERE.parent / "drafting-e" / "sample.py")
D, C = E.D, E.C  # drafting-d's loop and drafting-c's pools, pattern and near-copy key

SEED = 3913
USED_DIRS = ("drafting", "drafting-c", "drafting-d", "drafting-e", "caps2", "caps3", "figures", "conform")
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 8, 0), ("flip", 8, 0), ("conform", 4, 4), ("period", 6, 2), ("amount", 8, 0),
          ("carve_out", 4, 4), ("shorten", 4, 4), ("plain", 6, 2), ("multi", 10, 6)]
# tasks per category in the tuning half; the rest are held out (6 each, 12 multi)
TUNING = {"mutual": 2, "flip": 2, "conform": 2, "period": 2, "amount": 2, "carve_out": 2,
          "shorten": 2, "plain": 2, "multi": 4}

# Rejections on reading: (category, clause_id) -> reason.
MANUAL_REJECT: dict[tuple[str, str], str] = {
    ("mutual", "a264ec97a7"): "patent licence granted by the Company to the Investor for the option period; one way by nature",
    ("mutual", "1891583a61"): "endorser's exclusive licence of his identification to the bank; one way by nature",
    ("mutual", "7e02318713"): "already mutual (a Party ... the other Party)",
    ("mutual", "e1d9fa799d"): "endorser's exclusivity and grant of rights to the sponsor, fragments joined by <omitted>; one way by nature",
    ("mutual", "96b0a1854e"): "inspection rights already run both ways (Agent inspects Kallo's books, Kallo inspects the records)",
    ("mutual", "662d9a57cd"): "provider's final reports to its customer on termination; one way by nature",
    ("flip", "244b4f3062"): "university's option grant to its study sponsor and a reimbursement ban, fragments joined by <omitted>; one way by nature",
    ("flip", "a782bd3ec0"): "registration rights in the issuer's own shares; moving them has no sense",
    ("flip", "222ca5be41"): "distributor's assignment of goodwill in the company's own trademarks; one way by nature",
    ("flip", "11fa2b1daa"): "licence of EMV's firmware and specifications to its manufacturer, a sentence repeated; one way by nature",
    ("flip", "535cf6b02a"): "already mutual (one Party to the other Party)",
    ("flip", "0cfb1d5de2"): "employer's summary dismissal of an executive for disparagement; moving it has no sense",
    ("flip", "66f1b5c19e"): "joint venturers' inspection of the joint venture company's plants; moving it has no sense",
    ("conform", "4b2b3a1140"): "unrelated sentences run together (audit, right of first refusal, insurance, disposal)",
    ("conform", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-michigan.docx#p33"): "heading and a sentence fragment without a verb",
    ("period", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-massachusetts.docx#p39"): "cover-term headings and a fragment without a verb",
    ("amount", "916a0f9360"): "no figure to change (a refund of fees paid only)",
    ("amount", "4abfcb5a10"): "no figure to change (an indemnity of losses only)",
    ("plain", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-vermont.docx#3"): "already plain English in short sentences; nothing to simplify",
    ("multi", "574d6e8263"): "party-naming recital followed by a bare list of names; nothing operative",
    ("multi", "common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#3.1"): "statements about the nature of AI; no obligation, figure or party to work on",
    ("mutual", "ffb414f331"): "already mutual (each party will not contest the other's trademarks)",
    ("mutual", "41ab1a244e"): "licensee's right to extend its licence to affiliates and distributors; one way by nature",
    ("mutual", "3e7ddd37af"): "endorser's exclusivity to the sponsor; one way by nature",
    ("mutual", "62d86b8801"): "governing law; binds no party alone",
    ("mutual", "8e7a4f7578"): "employee's post-employment non-solicitation, fragments joined by <omitted>; one way by nature",
    ("flip", "28218ef1a1"): "manufacturer's appointment of its exclusive agent; moving it has no sense",
    ("flip", "bdf4bd23bc"): "sale and purchase with a redacted quantity table; no right of one party to move",
    ("flip", "cb05e4ed81"): "term of the agreement tied to another agreement; no right of one party to move",
    ("conform", "80d287bc4a"): "governing law; no party or defined term to conform",
    ("plain", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-maine.docx#p13"): "cover-term headings and bracketed drafting notes",
    ("multi", "openagreements-cc-by-4.0/openagreements-founder-stock-repurchase-agreement.docx#1.2"): "template placeholder in the text ([Form of consideration ...])",
    ("mutual", "4df941cace"): "governing law and jurisdiction; binds no party alone",
    ("mutual", "941adb23d4"): "governing law; binds no party alone",
    ("mutual", "47de119016"): "already mutual (each of Supplier and CUTANEA)",
    ("mutual", "e328cde30c"): "licence of the golfer's identification to the company; one way by nature",
    ("mutual", "d37ee7afbf"): "servicer's hand-over on its own resignation; one way by nature",
    ("flip", "ef2d98e7da"): "provider's software licence to its customers; one way by nature",
    ("plain", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-nebraska.docx#9"): "already plain English in short sentences; nothing to simplify",
    ("mutual", "583e008d4d"): "pipeline tariff's minimum tender and capacity share; no obligation of one party to mirror",
    ("mutual", "2c3cda0371"): "licensee's promise not to challenge the licensor's title; one way by nature",
    ("mutual", "c21f5c67bf"): "term of the agreement; binds no party alone",
    ("mutual", "ffffa535e9"): "remarketing agent's duties limited to the express terms; one way by nature",
    ("flip", "1bac0c2642"): "franchisee's grant of its improvements to the franchisor; one way by nature",
    ("mutual", "48b3ee70b3"): "employee's agreement binding on successors and group employers; employment form",
    ("mutual", "43e622d86d"): "assignment of program results and patents to the sponsor, fragments joined by <omitted>; one way by nature",
    ("mutual", "a9400d09e9"): "licensee's royalty true-up payment; one way by nature",
    ("mutual", "b4f9b0e865"): "endorser's exclusivity in his property; one way by nature",
    ("flip", "a636806443"): "distributor's hand-back of the product's regulatory filings to the supplier; one way by nature",
    ("mutual", "10787ea263"): "franchisee's non-diversion and non-solicitation for the franchisor; one way by nature",
    ("mutual", "d89bc06c20"): "appointment of an agent; one way by nature",
    ("mutual", "b3aa5ed916"): "a definition, an exhibit heading and its list run into a covenant",
    ("mutual", "62715b3381"): "remarketing agent's own termination right and the agreement's end dates; one way by nature",
    ("mutual", "2e9825d9bc"): "buyer's forecast and minimum order commitment to its supplier; one way by nature",
    ("mutual", "f07e376539"): "appointment of an exclusive agent with a quantities table, fragments joined by <omitted>",
    ("mutual", "d10c37b5e8"): "royalties already run both ways (IGER to CERES and CERES to IGER)",
    ("flip", "f6101e5d67"): "exceptions to Dynamex's own exclusivity; one way by nature",
    ("mutual", "c56d4b2ac5"): "governing law; binds no party alone",
    ("flip", "ac33ad966c"): "licence to display the other party's content for a period, fragments joined by <omitted>; one way by nature",
    ("mutual", "ab9c6bdc7a"): "governing law; binds no party alone",
    ("mutual", "dc6b514746"): "licensee's product liability cover naming the university; one way by nature",
    ("mutual", "d09179c19d"): "exclusive agent's freedom to sell non-competing products; one way by nature",
    ("mutual", "ffdd9f52ff"): "sales agent's bar on claims about the principal's products; one way by nature",
}


def used() -> tuple[set[str], set[str]]:
    """Clause ids and near-copy keys of every clause in the earlier sets (drafting-e's walk)."""
    return E.used(USED_SETS)


def run(show: tuple[str, str, int] | None = None) -> list[dict]:
    # drafting-d's loop with this tranche's seed, rounds, rejections and exclusions
    D.SEED, D.ROUNDS, D.TUNING, D.MANUAL_REJECT, D.used = SEED, ROUNDS, TUNING, MANUAL_REJECT, used
    return D.run(show)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--show", nargs=3, metavar=("CATEGORY", "SOURCE", "N"))
    args = ap.parse_args(argv)
    draws = run((args.show[0], args.show[1], int(args.show[2])) if args.show else None)
    if args.out:
        args.out.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in draws), encoding="utf-8")
    acc = sum(d["status"] == "accepted" for d in draws)
    sys.stderr.write(f"{len(draws)} draws, {acc} accepted\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
