"""Every reading template text touches, dumped so two trees can be compared (session 8, fixes8).

    PYTHONPATH=<tree> python benchmarks/results/ingest-notes/session8/dump.py OUT.json

Over the 104 agreements: the clause units read_clauses gives (ids and text digests, with and
without keep_template_text), the figures read in every raw unit (notes kept, so masking shows),
and each document's reading (defined terms, parties, its name for itself, a digest of the prose
terms are counted in). Over ACORD: the figures read in every text and the units the segmenter
makes of it read as a .txt. Digests and figures only: no clause text is written.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

from index_builder.ingest import read_clauses
from index_builder.ingest.outline import place
from index_builder.ingest.readers import READERS
from index_builder.ingest.segment import segment
from index_builder.reading.document import read_document
from index_builder.reading.figures import figures
from index_builder.reading.paragraphs import from_clauses

CONTRACTS = Path("/work/shared/data/contracts")
ACORD = Path("/work/shared/data/acord/corpus.jsonl")


def digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def read_figures(text: str) -> list[list]:
    return [[f.kind, f.start, f.end, repr(f.value)] for f in figures(text)]


def main() -> int:
    out: dict = {"agreements": {}, "acord": {}}
    for path in sorted(CONTRACTS.rglob("*.docx")):
        name = str(path.relative_to(CONTRACTS))
        kept = read_clauses(path, path.stem, name)
        raw = read_clauses(path, path.stem, name, keep_template_text=True)
        doc = read_document(from_clauses(kept), name)
        out["agreements"][name] = {
            "units": [[c.clause_id, digest(c.text)] for c in kept],
            "units_raw": [[c.clause_id, digest(c.text)] for c in raw],
            "figures_raw": {c.clause_id: read_figures(c.text) for c in raw},
            "terms": sorted(doc.terms), "parties": list(doc.party_names), "self": doc.self_name,
            "prose": digest(doc.text),
            "uses": {t: doc.uses(t) for t in sorted(doc.terms)},
        }
    with tempfile.TemporaryDirectory() as tmp, ACORD.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            text = row.get("text", "")
            p = Path(tmp) / "c.txt"
            p.write_text(text, "utf-8")
            units = segment(place(READERS[".txt"](p).blocks)) if text.strip() else []
            out["acord"][row["_id"]] = {"figures": read_figures(text),
                                        "segments": [digest(d.text) for d in units]}
    Path(sys.argv[1]).write_text(json.dumps(out, sort_keys=True), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
