"""Seeded random draws of real clauses for the drafting-c held-out tranche (issue 38).

Every draw is deterministic under SEED (3805): each (category, source) pool is the set of clauses
that pass a broad pattern for the category, shuffled with ``random.Random(f"{SEED}-{cat}-{src}")``
and walked in order. A clause already used in ``benchmarks/sets/drafting/*.jsonl`` (as clause or
precedent), a near copy of one (same first 100 characters of the body, section number and heading left out), or a clause accepted by an earlier
category is skipped. Each draw that passes the pattern is read by the annotator and accepted or
rejected with the reason in MANUAL_REJECT; a category stops when its quota per source is met
(ROUNDS). Mutual and flip draw from ACORD only, and skip the employment and founder forms by
pattern: the shared agreements' remaining clauses are already mutual or one way by nature.
A rerun reproduces ``draws.jsonl`` byte for byte.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-c/sample.py --out benchmarks/sets/drafting-c/draws.jsonl
    python benchmarks/sets/drafting-c/sample.py --show mutual acord 10   # print candidates to read

Agreements are split by ``index_builder.ingest.read_clauses`` (path under contracts/ as the id).
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

SEED = 3805
HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
DATA = Path("/work/shared/data")
OLD_SETS = sorted((REPO / "benchmarks" / "sets" / "drafting").glob("*.jsonl"))
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 6, 0), ("flip", 6, 0), ("conform", 3, 3), ("period", 3, 3), ("amount", 6, 0),
          ("carve_out", 3, 3), ("shorten", 3, 3), ("plain", 3, 3), ("multi", 6, 6)]
# forms that are not agreements between parties
NOT_AGREEMENT = re.compile(r"checklist|request-list|consent|notice|letter|term-sheet|intent|board|"
                           r"stockholder|cover-page|order-form|instructions", re.I)
PARTY_ACT = re.compile(r"\b(?:the\s+)?([A-Z][A-Za-z&.\-]+(?:\s[A-Z][A-Za-z&.\-]+)?)(?:'s|’s)?\s+"
                       r"(?:shall|will|may|must|agrees|is responsible)\b")
POSSESSIVE = re.compile(r"\b[A-Z][A-Za-z]+(?:'s|’s)\b")
MUTUAL = re.compile(r"\b(?:each party|either party|neither party|both parties|mutual\w*|each of the parties)\b", re.I)
_NUM = (r"(?:\d[\d,]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
        r"thirty|forty|forty-five|fifty|sixty|ninety|one hundred|one hundred eighty)")
PERIOD = re.compile(rf"\b{_NUM}\s*(?:\(\d+\)\s*)?(?:-\s*)?(?:calendar\s+|business\s+|consecutive\s+)?"
                    r"(?:day|week|month|year)s?\b", re.I)
AMOUNT = re.compile(r"(?:US\$|\$|USD|EUR|€|£)\s?\d|\b\d[\d,.]*\s*(?:dollars|million)\b|"
                    r"\b(?:fees|amounts?)\s+(?:actually\s+)?(?:paid|payable)\b|\btimes\s+the\b", re.I)
CARVE = re.compile(r"\b(?:in no event|not be liable|no liability|shall not exceed|will not exceed|"
                   r"indemnif\w*|hold\s+harmless|shall not|will not|may not|waive\w*|consequential|"
                   r"confidential)\b", re.I)
RIGHT = re.compile(r"\b(?:may|right|option|consent|terminat\w*|indemnif\w*|liab\w*|cost|expense|approv\w*)\b", re.I)
PLACEHOLDER = re.compile(r"\{[^}]*\}|\[(?:Fill|fill|Insert|insert|Drafting|x|\s)[^\]]*\]|_{3,}|Drafting note|☐|<!--", re.I)
DEFINITION = re.compile(r"^[\d.\s]*[“\"][A-Z][^”\"]{0,60}[”\"]\s+(?:means|shall mean|has the meaning)")

# Rejections on reading: (category, clause_id) -> reason.
MANUAL_REJECT: dict[tuple[str, str], str] = {
    ("mutual", "3e3c676c94"): "warranty of products the manufacturer makes; one way by nature",
    ("mutual", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-louisiana.docx#10"): "employee non-compete; one-sided by design",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#5.5"): "effects of termination one way by nature; (c) already mutual",
    ("mutual", "openagreements-cc-by-4.0/openagreements-confidentiality-invention-assignment-agreement-nevada.docx#5"): "employee invention exclusions; one way by nature",
    ("flip", "981576897f"): "fragments joined by <omitted>; both parties already hold termination rights",
    ("flip", "4461029321"): "rate adjustment of the service provider's own rates; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-csa-with-sla.docx#3.5"): "exclusive remedy for the provider's uptime failure; nothing to move",
    ("flip", "common-paper-cc-by-4.0/common-paper-csa-with-sla.docx#3.4"): "termination for the provider's own uptime failure; moving it has no sense",
    ("conform", "a69b12b7eb"): "fragment (iii) of a list, cut mid-enumeration",
    ("conform", "13ab1a64d9"): "garbled list of obligations; no clause a lawyer would conform",
    ("conform", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-louisiana.docx#13"): "statutory physician burn-off; nothing but Employee to conform",
    ("period", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-louisiana.docx#p24"): "cover-page table cell with a drafting note, not a clause",
    ("carve_out", "3127601104"): "fragments joined by <omitted> in mid-sentence",
    ("mutual", "91576e5c18"): "entire-agreement boilerplate; binds no party alone",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#3.2"): "only Customer submits data to the Product; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#12.13"): "counterparts boilerplate; binds no party",
    ("flip", "d95d09038f"): "already binds both MMT and SIGA",
    ("plain", "openagreements-cc-by-4.0/openagreements-founder-stock-repurchase-agreement.docx#3.1"): "template placeholder in the text ([Description of the scope ...])",
    ("mutual", "2ecb51dd93"): "assignment of program results to the sponsor; one way by nature",
    ("flip", "100406f870"): "fee mechanics; no right or burden to give the other party",
    ("mutual", "5591e50bdd"): "governing law and venue; binds no party alone",
    ("flip", "b4de236d7e"): "fragments joined by <omitted>; the damages sentence already binds both",
    ("mutual", "openagreements-cc-by-4.0/openagreements-founder-ip-confidentiality-confirmation.docx#2"): "founder's confirmation of returned property; one way by nature",
    ("mutual", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-alaska.docx#2"): "recital of the employer's protected interests; a mutual version has no subject matter",
    ("flip", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-york.docx#14"): "statutory protection of broadcast employees; nothing to move",
    ("flip", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#5.3"): "list of termination effects, each tied to its party's role; nothing to move as a whole",
    ("mutual", "0f82f174b9"): "already binds both Contractor and Customer",
    ("mutual", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-louisiana.docx#8"): "employee non-solicit; one-sided by design",
    ("flip", "66f1b5c19e"): "venturers' inspection rights over the joint venture company; nothing to move",
    ("mutual", "7814b4aaed"): "franchisee insurance under the franchisor's manual; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#10.13"): "U.S. Government rights; binds no party",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#7.1"): "already mutual (Provider and Customer each disclaim)",
    ("mutual", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-york.docx#14"): "statutory protection of broadcast employees; nothing to make mutual",
    ("flip", "openagreements-cc-by-4.0/openagreements-founder-ip-confidentiality-confirmation.docx#2"): "founder's confirmation of returned property; one way by nature",
    ("flip", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-oregon.docx#11"): "statutory garden-leave pay to the employee; moving it has no sense",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#5.1"): "already mutual (one party gives notice to the other)",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#9.2"): "the agreement already has the reverse indemnity (9.1 Protection by Provider)",
    ("flip", "common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#12.13"): "counterparts boilerplate; nothing to move",
    ("flip", "common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#3.2"): "disclaimer about the provider's AI output; one way by nature",
    ("mutual", "a4728c3f49"): "fragment after <omitted>; cut mid-list",
    ("mutual", "234eafd144"): "third-party royalty guarantee; one way by nature, fragments joined by <omitted>",
    ("flip", "509f333478"): "already binds both Honeywell and SpinCo",
    ("flip", "cb7d8f050a"): "already binds both Recipient and Provider",
    ("mutual", "6a8f5cf826"): "warrant issued by one party; one way by nature",
    ("mutual", "8587858cda"): "indemnity of the company's own plan administrator; one way by nature",
    ("flip", "af08c509c8"): "no-challenge of the licensor's own marks; moving it has no sense",
    ("mutual", "b9ec6331bf"): "service continuity after the customer's change of control; one way by nature",
    ("mutual", "03346aae2d"): "licence consideration, fragments joined by <omitted>; nothing to make mutual",
    ("flip", "f7185926a7"): "successors boilerplate binding both parties; nothing to move",
    ("mutual", "ab7b4c55ad"): "payment of promotion fees and tail royalties; one way by nature",
    ("mutual", "50b7db370e"): "transfers already run both ways (approvals to Sanofi, marks to RevMed)",
    ("mutual", "2662549e15"): "licence of the contractor's material built into works the company owns; one way by nature",
    ("mutual", "f2c9e3719b"): "motor carrier's statutory liability insurance; one way by nature",
}


def near_key(text: str) -> str:
    """Near-copy key: the body after any heading line, without its section number, first 100 chars."""
    body = text.split("\n", 1)[1] if "\n" in text[:120] else text
    return re.sub(r"^[\d.]+\s*", "", body.strip())[:100].lower()


def words(text: str) -> int:
    return len(text.split())


EMPLOYMENT_FORM = re.compile(r"restrictive-covenant|invention-assignment|founder-", re.I)


def pattern(category: str, text: str, clause_id: str = "") -> str | None:
    """None if the clause suits the category, else the pattern's reason."""
    if category in ("mutual", "flip") and EMPLOYMENT_FORM.search(clause_id):
        return "employment or founder form: the individual's covenants are one-sided by design"
    if PLACEHOLDER.search(text):
        return "cover-page variable, placeholder or drafting note"
    if DEFINITION.search(text):
        return "definition, no operative text"
    if len(text) > 1000 or words(text) < 20:
        return "over 1,000 characters or under 20 words (outside one selectable clause)"
    named = PARTY_ACT.search(text) or POSSESSIVE.search(text)
    if category in ("mutual", "flip"):
        if MUTUAL.search(text):
            return "already mutual (each/either/neither party, both parties, mutual)"
        if not named:
            return "no named party bound or protected"
        if category == "flip" and not RIGHT.search(text):
            return "no right, option, consent, termination, indemnity, liability or cost to move"
    if category == "conform" and not named:
        return "no party or defined term to conform"
    if category == "period" and not PERIOD.search(text):
        return "no period"
    if category == "amount" and not AMOUNT.search(text):
        return "no amount"
    if category == "carve_out" and not CARVE.search(text):
        return "no restriction, exclusion or obligation to carve out of"
    if category in ("shorten", "plain") and words(text) < 60:
        return "under 60 words: little to shorten or simplify"
    if category == "multi" and not (PERIOD.search(text) or AMOUNT.search(text) or named):
        return "no figure and no named party: nothing for a second part"
    return None


def acord() -> list[dict]:
    rows = []
    with open(DATA / "acord" / "corpus.jsonl", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            rows.append({"source": "acord", "clause_id": rec["_id"], "doc": None, "text": rec["text"]})
    return sorted(rows, key=lambda r: r["clause_id"])


def contracts() -> list[dict]:
    from index_builder.ingest import read_clauses  # the project's segmenter; only its output is used

    root = DATA / "contracts"
    rows, seen = [], set()
    for path in sorted(root.rglob("*.docx")):
        rel = str(path.relative_to(root))
        if NOT_AGREEMENT.search(path.name):
            continue
        for c in read_clauses(path, rel, rel, keep_template_text=True):  # as drawn (before session 7)
            key = near_key(c.text)
            if key in seen:  # near copies (state variants of one form): first copy only
                continue
            seen.add(key)
            rows.append({"source": "contracts", "clause_id": c.clause_id, "doc": rel, "text": c.text})
    return sorted(rows, key=lambda r: r["clause_id"])


def used() -> tuple[set[str], set[str]]:
    ids, heads = set(), set()
    for path in OLD_SETS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            for row in [rec.get("clause_source") or rec] + list(rec.get("precedents") or []):
                if row.get("clause_id"):
                    ids.add(row["clause_id"])
            for t in [rec.get("clause"), rec.get("text")] + [p.get("text") for p in rec.get("precedents") or []]:
                if t:
                    heads.add(near_key(t))
    return ids, heads


def run(show: tuple[str, str, int] | None = None) -> list[dict]:
    pools = {"acord": acord(), "contracts": contracts()}
    old_ids, old_heads = used()
    taken: set[str] = set()
    draws = []
    for category, n_acord, n_contracts in ROUNDS:
        for source, quota in (("acord", n_acord), ("contracts", n_contracts)):
            cands = [r for r in pools[source] if r["clause_id"] not in old_ids and near_key(r["text"]) not in old_heads]
            random.Random(f"{SEED}-{category}-{source}").shuffle(cands)
            accepted = shown = 0
            for k, r in enumerate(cands):
                if accepted >= quota and not (show and show[:2] == (category, source) and shown < show[2]):
                    break
                if r["clause_id"] in taken:
                    continue
                why = pattern(category, r["text"], r["clause_id"])
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
    return draws


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
