"""Session 8 (fixes8): on the conform set, the undefined terms built on a party the text renames,
which conform now lists with why ("built on “Provider”, which becomes “Supplier” ..."). Read with
the server-side readers (the precedent's and the document's .docx through read_clauses; the pane's
reader is measured by `precedent-bench conform-pairs`). Prints term names and pair ids only.

    PYTHONPATH=$PWD python benchmarks/results/conform-pairs/session8_built_on.py
"""

from __future__ import annotations

import json
from pathlib import Path

from addin_server.conform.conform import conform, source_document
from index_builder.ingest import read_clauses
from index_builder.reading.document import read_document
from index_builder.reading.paragraphs import from_clauses
from index_builder.settings import ConformSettings

CONTRACTS = Path("/work/shared/data/contracts")


def read(doc: str):
    path = CONTRACTS / doc
    return read_clauses(path, path.stem, doc)


def main() -> None:
    noted = listed = pairs = 0
    for split in ("tuning", "heldout"):
        for line in Path(f"benchmarks/sets/conform/{split}.jsonl").read_text().splitlines():
            pair = json.loads(line)
            pairs += 1
            source = source_document(read(pair["precedent"]["doc"]))
            target = read_document(from_clauses(read(pair["document"]["doc"])), pair["document"]["doc"])
            result = conform(pair["precedent"]["text"], source, target, ConformSettings())
            listed += len(result.missing_terms)
            for m in result.missing_terms:
                if m.note:
                    noted += 1
                    print(pair["pair_id"], "|", m.term, "|", m.note,
                          "| labels: undefined" if m.term in pair.get("undefined", []) else "")
    print(f"{pairs} pairs: {listed} undefined terms listed, {noted} of them with the built-on note")


if __name__ == "__main__":
    main()
