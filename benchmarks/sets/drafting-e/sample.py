"""Seeded random draws of real clauses for the drafting-e tranche (issue 38): tuning + held-out.

Reuses drafting-d's sampler (``benchmarks/sets/drafting-d/sample.py``, loaded by path because its
folder name is not a Python identifier; it in turn loads drafting-c's): the same pools (ACORD
corpus; the shared agreements split by ``index_builder.ingest.read_clauses``, near copies once),
the same broad pattern per category, the same near-copy key and the same drawing loop. What
differs: SEED 3808, the rounds below, the rejections made on reading (MANUAL_REJECT), and what is
left out: every clause id and near copy found anywhere in ``benchmarks/sets/drafting/``,
``drafting-c/``, ``drafting-d/`` (both halves), ``caps2/``, ``caps3/``, ``figures/`` and
``conform/`` (every ``clause_id`` value and every ``clause``/``text`` string in their task .jsonl
files, at any depth; their draws files are not read: a rejected draw was never used). The split: the accepted draws of each category are shuffled with
``random.Random(f"{SEED}-split-{category}")`` and the first TUNING[category] go to the tuning
half, the rest to the held-out half, decided here before any label was written.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-e/sample.py --out benchmarks/sets/drafting-e/draws.jsonl
    python benchmarks/sets/drafting-e/sample.py --show mutual acord 10   # print candidates to read

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


D = _load("drafting_d_sample", HERE.parent / "drafting-d" / "sample.py")
C = D.C  # drafting-c's pools, pattern and near-copy key, as drafting-d uses them

SEED = 3808
USED_DIRS = ("drafting", "drafting-c", "drafting-d", "caps2", "caps3", "figures", "conform")
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 8, 0), ("flip", 8, 0), ("conform", 4, 4), ("period", 6, 2), ("amount", 8, 0),
          ("carve_out", 4, 4), ("shorten", 4, 4), ("plain", 6, 2), ("multi", 10, 6)]
# tasks per category in the tuning half; the rest are held out (6 each, 12 multi)
TUNING = {"mutual": 2, "flip": 2, "conform": 2, "period": 2, "amount": 2, "carve_out": 2,
          "shorten": 2, "plain": 2, "multi": 4}

# Rejections on reading: (category, clause_id) -> reason.
MANUAL_REJECT: dict[tuple[str, str], str] = {
    ("flip", "0fc64e5536"): "celebrity endorsement licence to the sponsor; one way by nature",
    ("flip", "1618943a84"): "already binds every Party (a Party ... all of the other Parties)",
    ("flip", "dc6b514746"): "licensee's product liability cover naming the university; one way by nature",
    ("mutual", "a4728c3f49"): "fragment after <omitted>; cut mid-list",
    ("flip", "981576897f"): "fragments joined by <omitted>; both parties already hold termination rights",
    ("mutual", "fdc8207dee"): "governing law; binds no party alone",
    ("mutual", "ab9c6bdc7a"): "governing law; binds no party alone",
    ("mutual", "0d40d9b7b5"): "service provider's termination assistance to its customer; one way by nature",
    ("mutual", "20631032ef"): "unrelated sentences of a schedule run together (sales minimum without the amount, phase-out, records)",
    ("mutual", "7dac29f634"): "termination rights already run both ways (Company and Consultant), fragments joined by <omitted>",
    ("mutual", "a774ac0ed5"): "former licensee's notice of disassociation from the mark; one way by nature",
    ("mutual", "a2dfa7cf15"): "sublicensing scope of the licence granted to the Nuance Group; no licence back to SpinCo in the clause to mirror",
    ("mutual", "42817ecb39"): "governing law; binds no party alone",
    ("mutual", "c03e689b25"): "governing law; binds no party alone",
    ("mutual", "5ff911fc62"): "restrictions already run both ways (Neoforma and VerticalNet)",
    ("mutual", "18c5dbcd29"): "licensee's sublicensing ban and the university's assignment, fragments joined by <omitted>; one way by nature",
    ("mutual", "5c437d3638"): "already mutual (a Party ... such Party)",
    ("mutual", "765f59fceb"): "already mutual (a Party ... the other Party)",
    ("mutual", "db46a1830c"): "already mutual (No Party ... the other Parties)",
    ("mutual", "c978801fc9"): "distributor's purchase minimums and staffing; one way by nature",
    ("mutual", "aeb523518e"): "Biocept's sole responsibility for its own test component; one way by nature",
    ("mutual", "6c275aae9f"): "co-host's reseller exclusivity, a heading run into the text and fragments joined by <omitted>",
    ("mutual", "66d664a95d"): "term of an advertising agreement; binds no party alone",
    ("mutual", "143e5f4c82"): "seller's most-favoured-customer pricing to the buyer; one way by nature",
    ("mutual", "3311706994"): "endorser's exclusivity to the sponsor; one way by nature",
    ("mutual", "7b45027ecc"): "distributor's acknowledgement of the supplier's trademarks; one way by nature",
    ("mutual", "4a9aea5125"): "supplier's assignment of inventions to the customer; one way by nature",
    ("mutual", "e5153dc575"): "fragments of an insurance schedule (list headings without the cover)",
    ("mutual", "de6b50ce67"): "governing law; binds no party alone",
    ("mutual", "1a08248203"): "term of the agreement; binds no party alone",
    ("mutual", "97b5fe2135"): "governing law; binds no party alone",
    ("mutual", "6932396a4f"): "sublicensing already runs both ways (Arizona and the Company)",
    ("mutual", "1adca6d71b"): "governing law; binds no party alone",
    ("mutual", "07ec67a1fc"): "buyer's acceptance testing of the supplier's samples; one way by nature",
    ("mutual", "ec41a5ad65"): "licensee's exclusivity in the licensed programme; one way by nature",
    ("flip", "590a85987a"): "already binds every Participant",
    ("plain", "common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#4.3"): "already plain English in short sentences; nothing to simplify",
    ("mutual", "f6101e5d67"): "exceptions to Dynamex's own exclusivity; one way by nature",
    ("mutual", "af51542a6c"): "franchisee's assignment of the franchisor's property, fragments joined by <omitted>; one way by nature",
    ("mutual", "44c773df62"): "governing law; binds no party alone",
    ("mutual", "f27d0d2574"): "licences already run both ways (Allied to Newegg and Newegg to Allied)",
    ("mutual", "5f97481a0f"): "exclusive territories already run both ways (LKPL and Axiometric)",
    ("flip", "f8be4e43fa"): "licensee's use of an endorser's name after termination; one way by nature",
    ("flip", "2fcae09912"): "endorser's non-compete with the company's products, a sentence repeated; one way by nature",
    ("flip", "535cf6b02a"): "already mutual (one Party to the other Party)",
    ("flip", "b3fc417138"): "licensor's exclusivity given to its licensee; moving it has no sense",
    ("plain", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#1.1"): "already plain English in short sentences; nothing to simplify",
    ("mutual", "a7a287f9a4"): "governing law (two conflicting sentences); binds no party alone",
    ("mutual", "d8df4fa2a8"): "governing law and jurisdiction; binds no party alone",
    ("mutual", "14d07c6502"): "franchisor's territorial exclusivity for the master franchisee's purchases; one way by nature",
    ("mutual", "35d0c8804e"): "refund of the licensee's unearned licence fee; one way by nature",
    ("mutual", "2bba1ec56d"): "term of one individual's services; binds no party alone",
    ("mutual", "4f96c7a977"): "already mutual (consent of DeltaThree and of PrimeCall)",
    ("flip", "f483732cca"): "already mutual (notice from one party to the other)",
    ("flip", "ff2fbc3fbc"): "operator's hand-back of the owner's property; moving it has no sense",
    ("flip", "f769c40bd0"): "unrelated fragments joined (funding condition, commission floor, board seat)",
    ("flip", "a2dfa7cf15"): "sublicensing scope of the licence granted to the Nuance Group; moving it has no sense",
    ("flip", "48b5914df8"): "licensor's control of sublicences of its own content, fragments joined by <omitted>; one way by nature",
    ("flip", "2ecb51dd93"): "assignment of program results to the sponsor; one way by nature",
    ("flip", "b9a400165e"): "SpinCo's editorial rights in its own Steam Book; moving them has no sense",
    ("amount", "f1f854273f"): "garbled formula: headings and an example without the formula they describe",
    ("amount", "61c682bb27"): "no figure to change (a refund of fees paid and periods only)",
    ("carve_out", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-nevada.docx#3"): "consideration recital; nothing a lawyer would carve out of",
    ("plain", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#6.4"): "already plain English in short sentences; nothing to simplify",
    ("plain", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-iowa.docx#3"): "already plain English in short sentences; nothing to simplify",
    ("multi", "openagreements-cc-by-4.0/openagreements-founder-stock-repurchase-agreement.docx#1.1"): "template placeholders in the text ([Date ...], [Description ...])",
}


def _walk(node, ids: set[str], texts: list[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "clause_id" and isinstance(value, str):
                ids.add(value)
            elif key in ("clause", "text") and isinstance(value, str):
                texts.append(value)
            else:
                _walk(value, ids, texts)
    elif isinstance(node, list):
        for value in node:
            _walk(value, ids, texts)


def used(sets: list[Path] | None = None) -> tuple[set[str], set[str]]:
    """Clause ids and near-copy keys of every clause in the earlier sets (``sets``: a later
    tranche's list of task files; by default this tranche's)."""
    ids: set[str] = set()
    texts: list[str] = []
    for path in USED_SETS if sets is None else sets:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                _walk(json.loads(line), ids, texts)
    return ids, {C.near_key(t) for t in texts}


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
