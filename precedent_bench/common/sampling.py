"""What the labelled sets' sampling and check scripts share (benchmarks/sets/<name>/): the
clauses they draw from, read the same way every time, and the check that an ACORD excerpt
is still the corpus's text. One copy, so two sets drawn from the same pool cannot disagree."""

from __future__ import annotations

import json
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
