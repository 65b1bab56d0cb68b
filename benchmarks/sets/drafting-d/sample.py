"""Seeded random draws of real clauses for the drafting-d tranche (issue 38): tuning + held-out.

Reuses drafting-c's sampler (``benchmarks/sets/drafting-c/sample.py``, loaded by path because
its folder name is not a Python identifier): the same pools (ACORD corpus; the shared agreements
split by ``index_builder.ingest.read_clauses``, near copies once), the same broad pattern per
category and the same near-copy key. What differs: SEED 3806, the rounds below, the rejections
made on reading (MANUAL_REJECT), every clause id and near copy used in
``benchmarks/sets/drafting/*.jsonl`` AND ``benchmarks/sets/drafting-c/heldout.jsonl`` left out, and
the split: the accepted draws of each category are shuffled with
``random.Random(f"{SEED}-split-{category}")`` and the first TUNING[category] go to the tuning
half, the rest to the held-out half, decided here before any label was written.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-d/sample.py --out benchmarks/sets/drafting-d/draws.jsonl
    python benchmarks/sets/drafting-d/sample.py --show mutual acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


C = _load("drafting_c_sample", HERE.parent / "drafting-c" / "sample.py")

SEED = 3806
USED_SETS = sorted((HERE.parent / "drafting").glob("*.jsonl")) + [HERE.parent / "drafting-c" / "heldout.jsonl"]
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 8, 0), ("flip", 8, 0), ("conform", 4, 4), ("period", 8, 1), ("amount", 8, 0),
          ("carve_out", 5, 4), ("shorten", 4, 4), ("plain", 8, 0), ("multi", 13, 5)]
# tasks per category in the tuning half; the rest are held out (6 each, 12 multi)
TUNING = {"mutual": 2, "flip": 2, "conform": 2, "period": 3, "amount": 2, "carve_out": 3,
          "shorten": 2, "plain": 2, "multi": 6}

# Rejections on reading: (category, clause_id) -> reason.
MANUAL_REJECT: dict[tuple[str, str], str] = {
    ("flip", "9a8c1192fc"): "transfer of filings after the other party's breach, fragments joined by <omitted>; moving it has no sense",
    ("flip", "df6c476a2c"): "endorser's exclusivity carve-back; one way by nature",
    ("flip", "87f719cd74"): "cap of AJR's liability; the other party is not named in the clause, nothing to move it to",
    ("flip", "5c437d3638"): "already mutual (a Party ... such Party)",
    ("flip", "543bae6686"): "licence grants and exclusive supply to the distributor; moving them has no sense",
    ("flip", "eb53e37b8b"): "already binds both Parties (they indemnify each other)",
    ("conform", "common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#12.13"): "counterparts boilerplate; no party or term of its own to conform",
    ("shorten", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-tennessee.docx#3"): "already short plain sentences; little to shorten",
    ("plain", "openagreements-cc-by-4.0/openagreements-founder-stock-repurchase-agreement.docx#3.1"): "template placeholder in the text ([Description of the scope ...])",
    ("multi", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-louisiana.docx#p24"): "cover-page table cell with a drafting note, not a clause",
    ("mutual", "08fb6b6187"): "governing law; binds no party alone",
    ("flip", "afa534736a"): "franchisee's brand-standard duties, fragments joined by <omitted>; one way by nature",
    ("mutual", "880b3c9ba8"): "licences already run both ways (Customer to IBM and IBM to Customer)",
    ("mutual", "9db45146b0"): "governing law; binds no party alone",
    ("mutual", "09c35e345f"): "term of each licensed right; binds no party",
    ("mutual", "87dbc0f496"): "the company's representation about its own insurance; one way by nature",
    ("flip", "5bf3b4ee4e"): "automatic termination events of a sub-advisory mandate; nothing to move",
    ("flip", "0460c3d7d3"): "automatic termination on a sale of the company by its owner; nothing to move",
    ("mutual", "30e1e40d63"): "licensor's audit of the licensee's royalty records, fragments joined by <omitted>; one way by nature",
    ("mutual", "3d41a58dba"): "distributor's exclusive customer; one way by nature",
    ("mutual", "765f59fceb"): "already mutual (a Party ... the other Party)",
    ("mutual", "0f0a94d75e"): "hosting service allowances for the customer; one way by nature",
    ("mutual", "2965410abd"): "executive's outside interests, fragments joined by <omitted>; one way by nature",
    ("flip", "d98f712f15"): "reseller's covenant not to exceed the licensor's warranties; one way by nature",
    ("flip", "7e4f3ff3f1"): "licensor's audit of the customer's licence compliance; moving it has no sense",
    ("flip", "50bddfb51f"): "executive's waiver of claims on a group reconstruction; one way by nature",
    ("mutual", "7174205776"): "already mutual (neither Valeant nor Dova)",
    ("mutual", "91e0da3c47"): "Hertz's right of first negotiation on iVillage's sponsorships; one way by nature, fragments joined by <omitted>",
    ("mutual", "9347d76d45"): "placement of one party's links on the other's pages; one way by nature",
    ("mutual", "252c62886d"): "ownership of product IP and Dr. Murray's name; one way by nature",
    ("mutual", "bd6afe0206"): "consultant's representation about other engagements; one way by nature",
    ("flip", "ddd77a57de"): "the provider's own rate changes, fragments joined by <omitted>; one way by nature",
    ("flip", "af900604e9"): "liquidated-damages formula cut by <omitted> and redacted (*****)",
    ("flip", "1cfd33eb17"): "confirmatory assignment of the provider's own materials; moving it has no sense",
    ("mutual", "03f3db25ff"): "sponsorship exclusivity given for the sponsor's fees; one way by nature",
    ("mutual", "d7c667cc97"): "supplier's allocation of its own supply in a shortage; one way by nature",
    ("mutual", "75f0e45bbc"): "contractor's no-contest of the company's title to work product; one way by nature",
    ("mutual", "94e0785eb0"): "distributor's non-compete with the supplier's products; one way by nature",
    ("mutual", "9312898d5e"): "investor's liquidated damages to the lenders; one way by nature",
    ("mutual", "98fc3d0b11"): "governing law and venue; binds no party alone",
    ("flip", "a6d6d68a2f"): "assignments already run both ways (PPD to VS and VS to PPD)",
    ("flip", "cd8b6870a7"): "recovery of NCM's own property; moving it has no sense",
    ("flip", "1390a2508b"): "already binds every Party; the counterparty of the collateral assignment is not named",
    ("flip", "fd17eb1b69"): "card inventory limits of the buyer; nothing to move",
    ("flip", "ac8fb67267"): "already binds both Nexstar and WYZZ",
    ("conform", "1e93ab462f"): "a cover-page date joined by <omitted> to a term sentence naming no party",
    ("conform", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-alaska.docx#12"): "sale-of-business covenant keyed to the Cover Terms' relationship type; conforming it elsewhere changes its nature",
    ("period", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-louisiana.docx#p24"): "cover-page table cell with a drafting note, not a clause",
    ("amount", "56c10601bc"): "no figure to change (a refund of amounts paid, a date and '* * *')",
    ("carve_out", "84dd795c0c"): "licence grant; nothing to carve out of",
    ("carve_out", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-georgia.docx#p13"): "cover-page table cells, not a clause",
    ("carve_out", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-alabama.docx#20"): "assignment boilerplate of an employment form; nothing a lawyer would carve out",
    ("shorten", "openagreements-cc-by-4.0/openagreements-founder-stock-repurchase-agreement.docx#3.1"): "template placeholder in the text ([Description of the scope ...])",
    ("plain", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-tennessee.docx#3"): "already plain English in short sentences; nothing to simplify",
    ("multi", "common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#12.13"): "counterparts boilerplate; no figure or party for a second part",
    ("multi", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-hawaii.docx#2"): "recital; no operative text to change",
}


def used() -> tuple[set[str], set[str]]:
    ids, heads = set(), set()
    for path in USED_SETS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            for row in [rec.get("clause_source") or rec] + list(rec.get("precedents") or []):
                if row.get("clause_id"):
                    ids.add(row["clause_id"])
            for t in [rec.get("clause"), rec.get("text")] + [p.get("text") for p in rec.get("precedents") or []]:
                if t:
                    heads.add(C.near_key(t))
    return ids, heads


def run(show: tuple[str, str, int] | None = None) -> list[dict]:
    pools = {"acord": C.acord(), "contracts": C.contracts()}
    old_ids, old_heads = used()
    taken: set[str] = set()
    draws = []
    for category, n_acord, n_contracts in ROUNDS:
        for source, quota in (("acord", n_acord), ("contracts", n_contracts)):
            cands = [r for r in pools[source] if r["clause_id"] not in old_ids and C.near_key(r["text"]) not in old_heads]
            random.Random(f"{SEED}-{category}-{source}").shuffle(cands)
            accepted = shown = 0
            for r in cands:
                if accepted >= quota and not (show and show[:2] == (category, source) and shown < show[2]):
                    break
                if r["clause_id"] in taken:
                    continue
                why = C.pattern(category, r["text"], r["clause_id"])
                status = "rejected-pattern" if why else "accepted"
                if not why and (category, r["clause_id"]) in MANUAL_REJECT:
                    why, status = MANUAL_REJECT[(category, r["clause_id"])], "rejected-reading"
                if accepted >= quota:  # reading ahead (--show) only
                    if not why:
                        shown += 1
                        sys.stdout.write(f"--- AHEAD {category} {source} {r['clause_id']}\n{r['text']}\n")
                    continue
                draws.append({"draw": len(draws) + 1, "category": category, "source": source,
                              "clause_id": r["clause_id"], "doc": r["doc"], "status": status, "reason": why})
                if status == "accepted":
                    accepted += 1
                    taken.add(r["clause_id"])
                    if show and show[:2] == (category, source):
                        shown += 1
                        sys.stdout.write(f"--- ACCEPTED {category} {source} {r['clause_id']}\n{r['text']}\n")
    split(draws)
    return draws


def split(draws: list[dict]) -> None:
    """Tuning or held-out for each accepted draw, by the seed alone (before any label)."""
    for category, n_tuning in TUNING.items():
        accepted = [d for d in draws if d["category"] == category and d["status"] == "accepted"]
        random.Random(f"{SEED}-split-{category}").shuffle(accepted)
        for k, d in enumerate(accepted):
            d["split"] = "tuning" if k < n_tuning else "held-out"


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
