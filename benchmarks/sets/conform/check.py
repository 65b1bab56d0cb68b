"""Validate the conform label set and print its counts.

Run from the repository root:

    source /work/main/.venv/bin/activate
    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python benchmarks/sets/conform/check.py \
        --contracts /work/shared/data/contracts

Checks, for every pair:
- C is the clause the clause reader gives for that id, and every line of C (less its section
  number) is in the text of P's .docx (paragraphs and table cells, whitespace folded);
- every mapping "from", "keep" and "undefined" term occurs in C (whole words), and no term is
  in two of those lists;
- every "must_not_change" phrase is in C and in expected_text; every override
  "must_not_change" phrase is in the override's expect;
- expected_text is C with every free occurrence of each required mapping's "from" (one not
  inside a longer term or protected phrase of the pair) rewritten to its "to", and nothing
  else changed; the override's expect likewise, with the override replacing the mapping of
  the same "from";
- split: every pair is in the file its "split" names, and the split is the one sample.split
  gives for the seed.
Exits 1 on the first file with errors, after listing them.
"""
from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections import Counter
from pathlib import Path

import docx

from index_builder.ingest import read_clauses

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # sample.py sits beside this script; it is not a package
import sample  # noqa: E402

def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def docx_text(path: Path) -> str:
    document = docx.Document(str(path))
    parts = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            for cell in row.cells:
                parts.extend(p.text for p in cell.paragraphs)
    return fold(" \n ".join(parts))


def word_spans(term: str, text: str) -> list[tuple[int, int]]:
    pattern = r"(?<!\w)%s(?!\w)" % re.escape(term)
    return [(m.start(), m.end()) for m in re.finditer(pattern, text)]


def free_spans(term: str, text: str, shields: list[str]) -> list[tuple[int, int]]:
    """Occurrences of `term` not inside a longer shielding phrase (a protected phrase or
    another, longer term of the clause)."""
    covered = []
    for shield in shields:
        if shield != term and term in shield:
            covered += [(m.start(), m.end()) for m in re.finditer(re.escape(shield), text)]
    return [(s, e) for s, e in word_spans(term, text)
            if not any(a <= s and e <= b for a, b in covered)]


def masked(text: str, marks: dict[str, str], identity: list[str]) -> str:
    """`text` with each string of `marks` replaced by its marker and each `identity` phrase
    left as it is, longest first, whole words only."""
    table = dict(marks)
    table.update({phrase: phrase for phrase in identity if phrase not in table})
    pattern = "|".join(r"(?<!\w)%s(?!\w)" % re.escape(k) for k in sorted(table, key=len, reverse=True))
    return re.sub(pattern, lambda m: table[m.group(0)], text) if table else text


def check_rewrite(label: str, before: str, after: str, applied: list[dict], shields: list[str]) -> list[str]:
    """`after` must be `before` with every free occurrence of each applied "from" rewritten
    to its "to", and nothing else changed."""
    targets = {m["to"] for m in applied} | {m["from"] for m in applied}
    identity = [s for s in shields if s not in targets]
    to_marks = {m["to"]: f"\u27e8{i}\u27e9" for i, m in enumerate(applied)}
    from_marks = {m["from"]: f"\u27e8{i}\u27e9" for i, m in enumerate(applied)}
    a = masked(before, {**to_marks, **from_marks}, identity)
    b = masked(after, to_marks, identity)
    errors = []
    if a != b:
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op != "equal":
                errors.append(f"{label}: unexplained change {a[i1:i2]!r} -> {b[j1:j2]!r}")
                break
    for m in applied:
        if m["from"] == m["to"] or m["from"] in m["to"]:
            continue
        left = free_spans(m["from"], after, shields)
        if left:
            errors.append(f"{label}: {m['from']!r} left unmapped {len(left)} time(s)")
    return errors


def check_pair(row: dict, contracts: Path, clause_cache: dict, text_cache: dict) -> list[str]:
    errors = []
    pid = row["pair_id"]
    c = row["precedent"]["text"]
    rel = row["precedent"]["doc"]
    path = contracts / rel
    if rel not in clause_cache:
        clauses = read_clauses(path, path.stem, str(path))
        clause_cache[rel] = {cl.clause_id: cl.text for cl in clauses}
        text_cache[rel] = docx_text(path)
    if clause_cache[rel].get(row["precedent"]["clause_id"]) != c:
        errors.append(f"{pid}: C is not the reader's text for {row['precedent']['clause_id']}")
    for line in c.split("\n"):
        line = fold(re.sub(r"^(\d+(\.\d+)*\.?|\([a-z]+\))\s+", "", line))
        if line and line not in text_cache[rel]:
            errors.append(f"{pid}: line not found in P: {line[:60]!r}")
    if not (contracts / row["document"]["doc"]).exists():
        errors.append(f"{pid}: document {row['document']['doc']} missing")
    if row["document"]["doc"] == rel:
        errors.append(f"{pid}: D is P")

    froms = [m["from"] for m in row["mappings"]]
    lists = {"mapping": froms, "keep": row["keep"], "undefined": row["undefined"]}
    seen = Counter(froms + row["keep"] + row["undefined"])
    errors += [f"{pid}: {t!r} classified twice" for t, n in seen.items() if n > 1]
    for name, terms in lists.items():
        errors += [f"{pid}: {name} term {t!r} not in C" for t in terms if not word_spans(t, c)]
    for phrase in row["must_not_change"]:
        if phrase not in c or phrase not in row["expected_text"]:
            errors.append(f"{pid}: must_not_change {phrase!r} not kept")

    shields = froms + row["keep"] + row["undefined"] + row["must_not_change"]
    required = [m for m in row["mappings"] if m["required"]]
    errors += check_rewrite(f"{pid} expected_text", c, row["expected_text"], required, shields)
    for m in required:
        if m["to"] not in row["expected_text"]:
            errors.append(f"{pid}: required mapping {m['from']!r} -> {m['to']!r} not applied")

    ov = row["override"]
    if ov:
        if not word_spans(ov["from"], c):
            errors.append(f"{pid}: override from {ov['from']!r} not in C")
        applied = [m for m in required if m["from"] != ov["from"]] + [{"from": ov["from"], "to": ov["to"]}]
        errors += check_rewrite(f"{pid} override", c, ov["expect"], applied, shields)
        errors += [f"{pid}: override must_not_change {p!r} not in expect"
                   for p in ov["must_not_change"] if p not in ov["expect"]]
        if ov["expect"] == row["expected_text"]:
            errors.append(f"{pid}: override changes nothing")
    return errors


def counts(rows: list[dict]) -> dict:
    def dr(row):
        # The one-way NDA is the only NDA whose own text names Discloser and Recipient.
        return (bool(re.search(r"\b(Discloser|Recipient)", row["precedent"]["text"]))
                or "one-way-nda" in row["precedent"]["doc"]
                or any(p["name"] in ("Discloser", "Recipient") for p in row["document_parties"]))

    def caps_first(row):
        terms = [m["from"] for m in row["mappings"]] + row["keep"] + row["undefined"]
        return any(re.match(r"[A-Z]{2,} \S", t) for t in terms)

    def possessive_only(row):
        text = row["precedent"]["text"]
        parties = [m["from"] for m in row["mappings"] if m["kind"] == "party"]
        for name in parties + row["keep"] + row["undefined"]:
            spans = word_spans(name, text)
            if spans and all(re.match(r"(’|')s\b", text[e:]) for _, e in spans):
                return True
        return False

    return {
        "pairs": len(rows),
        "families": dict(Counter(r["family"] for r in rows)),
        "strata": dict(Counter(r["stratum"] for r in rows)),
        "nda pairs with Discloser/Recipient on a side": sum(r["family"] == "nda" and dr(r) for r in rows),
        "pairs whose D defines terms in a cover-page table": sum(
            r["document_cover_table"] and bool(r["document_cover_terms"]) for r in rows),
        "pairs with a term whose first word is all capitals": sum(caps_first(r) for r in rows),
        "pairs with a name used only as a possessive": sum(possessive_only(r) for r in rows),
        "pairs with an override": sum(r["override"] is not None for r in rows),
        "required mappings": sum(m["required"] for r in rows for m in r["mappings"]),
        "  of which party": sum(m["required"] and m["kind"] == "party" for r in rows for m in r["mappings"]),
        "optional mappings": sum(not m["required"] for r in rows for m in r["mappings"]),
        "keep terms": sum(len(r["keep"]) for r in rows),
        "undefined terms": sum(len(r["undefined"]) for r in rows),
        "must_not_change phrases": sum(len(r["must_not_change"]) for r in rows),
        "pairs where expected_text == C": sum(r["expected_text"] == r["precedent"]["text"] for r in rows),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contracts", type=Path, default=Path("../shared/data/contracts"))
    args = parser.parse_args()
    files = {"tuning": HERE / "tuning.jsonl", "held-out": HERE / "heldout.jsonl"}
    rows, errors = [], []
    for split, path in files.items():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            row = json.loads(line)
            if row["split"] != split:
                errors.append(f"{path.name}:{n}: {row['pair_id']} says split {row['split']}")
            rows.append(row)
    ids = [r["pair_id"] for r in rows]
    if len(set(ids)) != len(ids):
        errors.append("duplicate pair ids")
    expected_split = sample.split([(r["pair_id"], r["family"]) for r in rows])
    errors += [f"{r['pair_id']}: split is not sample.split's" for r in rows
               if expected_split[r["pair_id"]] != r["split"]]
    clause_cache, text_cache = {}, {}
    for row in sorted(rows, key=lambda r: r["pair_id"]):
        errors += check_pair(row, args.contracts, clause_cache, text_cache)
    for split in files:
        part = [r for r in rows if r["split"] == split]
        print(f"== {split}")
        for key, value in counts(part).items():
            print(f"  {key}: {value}")
    print("== all")
    for key, value in counts(rows).items():
        print(f"  {key}: {value}")
    if errors:
        print(f"\n{len(errors)} error(s):")
        for e in errors:
            print("  " + e)
        sys.exit(1)
    print("\nok: every check passed")


if __name__ == "__main__":
    main()
