"""Candidates for the conform labelled set: precedent clauses and what a label must cover.

    python -m precedent_bench.conform.make_candidates > benchmarks/conform/candidates.json
    python -m precedent_bench.conform.make_candidates --set held-out-2 > benchmarks/conform/candidates_heldout2.json

For each document pair (a precedent's source agreement -> a target agreement, from
../shared/data/contracts), picks clauses of the source deterministically (every k-th clause
that mentions a party or a defined term of its document, shorter than 2,000 characters) and
lists, independently of addin_server/conform: the source's defined terms and party words the
clause mentions (plain case-sensitive search), its capitalised multi-word phrases, and its
"Section N" references with the source's heading for N. The labels themselves (what each term
and reference should become in the target) are written by hand in labels.json.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from index_builder.ingest import read_clauses
from index_builder.reading.defined_terms import defined_terms

DATA = Path("../shared/data/contracts")
CP, OA = "common-paper-cc-by-4.0", "openagreements-cc-by-4.0"
# (id, source, target, split): split by document pair, so no term table is in both halves.
DOC_PAIRS = [
    ("A", f"{CP}/common-paper-pilot-agreement.docx", f"{CP}/common-paper-independent-contractor-agreement.docx", "tuning"),
    ("B", f"{CP}/common-paper-independent-contractor-agreement.docx", f"{CP}/common-paper-cloud-service-agreement.docx", "tuning"),
    ("C", f"{CP}/common-paper-cloud-service-agreement.docx", f"{OA}/openagreements-confidentiality-invention-assignment-agreement.docx", "tuning"),
    ("D", f"{CP}/common-paper-design-partner-agreement.docx", f"{CP}/common-paper-pilot-agreement.docx", "tuning"),
    ("E", f"{CP}/common-paper-software-license-agreement.docx", f"{CP}/common-paper-business-associate-agreement.docx", "held-out"),
    ("F", f"{OA}/openagreements-confidentiality-invention-assignment-agreement.docx", f"{CP}/common-paper-independent-contractor-agreement.docx", "held-out"),
    ("G", f"{CP}/common-paper-independent-contractor-agreement.docx", f"{CP}/common-paper-professional-services-agreement.docx", "held-out"),
    ("H", f"{CP}/common-paper-pilot-agreement.docx", f"{CP}/common-paper-design-partner-agreement.docx", "held-out"),
]
# A second held-out set (issue 23, second session): agreements no label table above uses, labelled
# in labels_heldout2.json before conform was run on them, and looked at once.
HELDOUT2_PAIRS = [
    ("I", f"{CP}/common-paper-ai-addendum.docx", f"{CP}/common-paper-data-processing-agreement.docx", "held-out-2"),
    ("J", f"{CP}/common-paper-one-way-nda.docx", f"{CP}/common-paper-partnership-agreement.docx", "held-out-2"),
    ("K", f"{OA}/openagreements-restrictive-covenant-california.docx", f"{OA}/openagreements-employment-offer-letter.docx", "held-out-2"),
    ("L", f"{OA}/openagreements-founder-stock-repurchase-agreement.docx", f"{OA}/openagreements-founder-ip-confidentiality-confirmation.docx", "held-out-2"),
    ("M", f"{CP}/common-paper-data-processing-agreement.docx", f"{CP}/common-paper-ai-addendum.docx", "held-out-2"),
    ("N", f"{CP}/common-paper-partnership-agreement.docx", f"{OA}/openagreements-restrictive-covenant-california.docx", "held-out-2"),
]
PER_PAIR = 8
PARTY_WORDS = ("Provider", "Customer", "Company", "Contractor", "Employee", "Partner", "Discloser", "Recipient")
_REF = re.compile(r"\bSections?\s+(\d{1,3}(?:\.\d{1,3})*(?:\([a-z0-9]{1,4}\))*)")
_PHRASE = re.compile(r"\b[A-Z][a-z][\w\-]*(?:\s+(?:of\s+)?[A-Z][a-z][\w\-]*)+")


def clauses_of(path: str) -> list:
    return read_clauses(DATA / path, doc_id=Path(path).stem, source_path=path)


def candidates(pair: tuple[str, str, str, str]) -> list[dict]:
    pid, source, target, split = pair
    clauses = clauses_of(source)
    terms = {t for c in clauses for line in c.text.splitlines() for t in defined_terms(line)}
    headings = {c.section.rstrip("."): c.heading for c in clauses if c.section}
    eligible = []
    for c in clauses:
        used = sorted(t for t in terms | set(PARTY_WORDS) if re.search(r"(?<![\w“\"])" + re.escape(t) + r"(?!\w)", c.text))
        if used and len(c.text) < 2000 and not c.text.lstrip().startswith(("“", '"')) and c.section:
            eligible.append((c, used))
    step = max(1, len(eligible) // PER_PAIR)
    out = []
    for n, (c, used) in enumerate(eligible[::step][:PER_PAIR]):
        refs = [{"number": r, "source_heading": headings.get(r.split("(")[0], "")} for r in _REF.findall(c.text)]
        out.append({"id": f"{pid}{n + 1}", "doc_pair": pid, "split": split, "source": source, "target": target,
                    "section": c.section, "heading": c.heading, "text": c.text, "terms": used,
                    "phrases": sorted(set(_PHRASE.findall(c.text)) - set(used)), "references": refs})
    return out


def main(argv: list[str] | None = None) -> int:
    pairs = HELDOUT2_PAIRS if (argv if argv is not None else sys.argv[1:]) == ["--set", "held-out-2"] else DOC_PAIRS
    rows = [row for pair in pairs for row in candidates(pair)]
    json.dump({"doc_pairs": [dict(zip(("id", "source", "target", "split"), p)) for p in pairs], "pairs": rows},
              sys.stdout, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
