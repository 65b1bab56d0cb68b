"""Random draws of real clauses for the b-half of the drafting set (issue 38).

Two steps, both deterministic under SEED:

``draw``  filters each category's candidates by a broad suitability pattern and prints them in
          a random order, one list per source (ACORD corpus, shared agreements). The annotator
          takes draws in that order and records every draw he rejects, with its reason, in
          README-b.md. Nothing here knows what the drafting code does.
``split`` reads the finished b-tasks, shuffles each category's task ids with the seed and deals
          them alternately (first tuning, second held-out), then rewrites b-tuning.jsonl and
          b-heldout.jsonl.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting/sample_b.py draw --per-source 30 > /tmp/draws_b.txt
    python benchmarks/sets/drafting/sample_b.py split

Agreements are split into clauses by ``index_builder.ingest.read_clauses`` with the path under
``contracts/`` as the document id, so a clause id reads ``<path>#<section or pN>``.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
import sys
from pathlib import Path

SEED = 3802
REPO = Path(__file__).resolve().parents[3]
# ../shared/data beside the repository (the main checkout); a worktree under /work/wt falls back
# to the same shared folder.
DATA = next((p for p in (REPO.parent / "shared" / "data", Path("/work/shared/data")) if p.exists()),
            REPO.parent / "shared" / "data")
HERE = Path(__file__).resolve().parent
CATEGORIES = ("period", "amount", "carve_out", "shorten", "plain", "multi")

log = logging.getLogger("sample_b")

_NUM = (r"(?:\d[\d,]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
        r"fourteen|fifteen|twenty|thirty|forty|forty-five|fifty|sixty|ninety|one hundred|"
        r"one hundred and twenty|one hundred eighty|three hundred sixty-five)")
PERIOD = re.compile(
    rf"\b{_NUM}\s*(?:\(\d+\)\s*)?(?:-\s*)?(?:calendar\s+|business\s+|working\s+|consecutive\s+)?"
    r"(?:day|week|month|year)s?\b", re.I)
AMOUNT = re.compile(
    r"(?:US\$|\$|USD|EUR|€|£|GBP)\s?\d|\b\d[\d,.]*\s*(?:dollars|million)\b|\bdollars\b|"
    r"\b(?:fees|amounts?|sums?)\s+(?:actually\s+)?(?:paid|payable)\b|\btimes\s+the\b|\bcap\s+amount\b|"
    r"\bliabilit\w+\b[^.]{0,120}\b(?:exceed|more than|limited to)\b", re.I)
CARVE = re.compile(
    r"\b(?:in no event|not be liable|no liability|limitation of liability|shall not exceed|"
    r"will not exceed|not be more than|not exceed|indemnif\w*|hold\s+harmless|shall not|will not|"
    r"may not|must not|waive\w*|exclusive remedy|consequential|confidential)\b", re.I)
# Template placeholders and drafting notes: not a clause a lawyer would have selected in a document.
PLACEHOLDER = re.compile(r"\{[^}]*\}|\[(?:Fill|fill|Insert|insert|Drafting|x|\s)[^\]]*\]|_{3,}|Drafting note", re.I)


def words(text: str) -> int:
    return len(text.split())


def suits(category: str, text: str) -> bool:
    if category == "period":
        return bool(PERIOD.search(text))
    if category == "amount":
        return bool(AMOUNT.search(text))
    if category == "carve_out":
        return bool(CARVE.search(text))
    if category in ("shorten", "plain"):
        return words(text) >= 60
    # multi: a figure to change plus something else to do (a carve-out or a length)
    return bool(PERIOD.search(text) or AMOUNT.search(text)) and (
        bool(CARVE.search(text)) or words(text) >= 60)


def acord_clauses() -> list[dict]:
    rows = []
    with open(DATA / "acord" / "corpus.jsonl", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            rows.append({"source": "acord", "clause_id": rec["_id"], "doc": None, "text": rec["text"]})
    return sorted(rows, key=lambda r: r["clause_id"])


def agreement_clauses() -> list[dict]:
    from index_builder.ingest import read_clauses  # the project's own segmenter; only its output is used

    root = DATA / "contracts"
    rows = []
    for path in sorted(root.rglob("*.docx")):
        rel = str(path.relative_to(root))
        for clause in read_clauses(path, rel, rel, keep_template_text=True):  # as drawn (before session 7)
            rows.append({"source": "contracts", "clause_id": clause.clause_id, "doc": rel, "text": clause.text})
    return sorted(rows, key=lambda r: r["clause_id"])


def draw(per_source: int) -> None:
    pools = {"acord": acord_clauses(), "contracts": agreement_clauses()}
    for category in CATEGORIES:
        for source, pool in pools.items():
            cands = [r for r in pool if suits(category, r["text"])]
            rng = random.Random(f"{SEED}-{category}-{source}")
            rng.shuffle(cands)
            sys.stdout.write(f"\n=== {category} / {source}: {len(cands)} candidates\n")
            for k, r in enumerate(cands[:per_source], 1):
                auto = "AUTO-REJECT placeholder" if PLACEHOLDER.search(r["text"]) else "candidate"
                sys.stdout.write(f"--- {category} {source} draw {k}: {r['clause_id']} [{auto}] "
                                 f"({len(r['text'])} chars, {words(r['text'])} words)\n{r['text']}\n")


def split() -> None:
    tasks = []
    for name in ("b-tuning.jsonl", "b-heldout.jsonl"):
        path = HERE / name
        if path.exists():
            tasks += [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines() if l.strip()]
    by_cat: dict[str, list[dict]] = {}
    for t in sorted(tasks, key=lambda t: t["task_id"]):
        by_cat.setdefault(t["category"], []).append(t)
    out = {"tuning": [], "held-out": []}
    for category in CATEGORIES:
        group = by_cat.get(category, [])
        random.Random(f"{SEED}-split-{category}").shuffle(group)
        for k, t in enumerate(group):
            t["split"] = "tuning" if k % 2 == 0 else "held-out"
            out[t["split"]].append(t)
    for split_name, fname in (("tuning", "b-tuning.jsonl"), ("held-out", "b-heldout.jsonl")):
        rows = sorted(out[split_name], key=lambda t: t["task_id"])
        (HERE / fname).write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in rows), encoding="utf-8")
        log.info("%s: %d tasks", fname, len(rows))


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw")
    d.add_argument("--per-source", type=int, default=30)
    sub.add_parser("split")
    args = ap.parse_args(argv)
    if args.cmd == "draw":
        draw(args.per_source)
    else:
        split()
    return 0


if __name__ == "__main__":
    sys.exit(main())
