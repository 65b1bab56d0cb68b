"""What the labelled sets' sampling and check scripts share (benchmarks/sets/<name>/): the
clauses they draw from, read the same way every time, and the check that an ACORD excerpt
is still the corpus's text. One copy, so two sets drawn from the same pool cannot disagree."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Iterator


def acord_clauses(data: Path) -> list[dict]:
    """Every ACORD clause as {source, clause_id, text}."""
    rows = []
    with (data / "acord" / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            rows.append({"source": "acord", "clause_id": row["_id"], "text": row["text"]})
    return rows


def contract_clauses(data: Path) -> list[dict]:
    """Every clause of the shared agreements, split by the project's own ingest."""
    from index_builder.ingest import read_clauses  # only to split .docx into clauses with ids

    rows = []
    contracts = data / "contracts"
    for path in sorted(contracts.rglob("*.docx")):
        rel = path.relative_to(contracts).as_posix()
        for clause in read_clauses(path, rel[: -len(".docx")], rel, []):
            rows.append({"source": "contracts", "clause_id": clause.clause_id, "text": clause.text})
    return rows


def verify_source(rows: list[dict], data: Path) -> list[str]:
    """ACORD texts that differ from the corpus they were copied from."""
    corpus = {row["clause_id"]: row["text"] for row in acord_clauses(data)}
    return [f"{r['id']}: text differs from the ACORD corpus" for r in rows
            if r["source"] == "acord" and corpus.get(r["clause_id"]) != r["text"]]


def walk_cap(cap: dict) -> Iterator[dict]:
    """A labelled cap and every part nested in it (lesser-of, greater-of), depth first."""
    yield cap
    for part in cap["parts"]:
        yield from walk_cap(part)


def write_jsonl(path: Path, rows: list[dict]) -> None:
    """One JSON object a line, UTF-8 as written (the sets are read by people too)."""
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


# The figures schema both figure sets label in (benchmarks/sets/figures/README.md).
FIGURE_KINDS = {"period", "amount", "percentage", "multiple"}
UNITS = {"day", "business_day", "week", "month", "year", "hour", None}
ROLES = {"notice", "cure", "term", "renewal", "non_compete", "non_solicit", "survival", "payment",
         "look_back", "cap", "fee", "interest", "threshold", "other"}
WRITTEN = {"digits", "words", "both", "ocr"}
CAP_KINDS = {"fixed", "fees_period", "fees_all", "multiple", "lesser_of", "greater_of", "redacted", "other"}
CURRENCY = re.compile(r"[A-Z]{3}")


def figure_field_faults(f: dict) -> list[str]:
    """What is wrong with one labelled figure's fields (its span is the caller's to place)."""
    bad = []
    if f.get("kind") not in FIGURE_KINDS:
        bad.append(f"figure kind {f.get('kind')!r}")
    if not isinstance(f.get("value"), (int, float)) or isinstance(f.get("value"), bool):
        bad.append(f"figure value {f.get('value')!r}")
    if f.get("unit") not in UNITS or (f.get("kind") == "period") != (f.get("unit") is not None):
        bad.append(f"unit {f.get('unit')!r} for a {f.get('kind')}")
    currency = f.get("currency")
    if (f.get("kind") == "amount") != (currency is not None) or (currency and not CURRENCY.fullmatch(currency)):
        bad.append(f"currency {currency!r} for a {f.get('kind')}")
    if f.get("role") not in ROLES:
        bad.append(f"role {f.get('role')!r}")
    if f.get("written") not in WRITTEN:
        bad.append(f"written {f.get('written')!r}")
    return bad


def count_lines(title: str, counter: Counter) -> list[str]:
    """A titled table of counts as plain-text lines, most frequent first (the sets' checks print
    them to show how a draw came out)."""
    return [f"\n{title}"] + [f"  {str(key):42} {n:5}"
                             for key, n in sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))]
