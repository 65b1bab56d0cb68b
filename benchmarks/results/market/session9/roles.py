"""Period roles over ACORD and the agreements: python roles.py > out.jsonl (PYTHONPATH = the tree)."""
import json, pathlib, sys
from index_builder.ingest import read_clauses
from index_builder.terms.extract import extract
texts = [(r["_id"], r["text"]) for r in map(json.loads, open("/work/shared/data/acord/corpus.jsonl"))]
for p in sorted(pathlib.Path("/work/shared/data/contracts").rglob("*.docx")):
    try:
        texts += [(f"{p.stem}#{n}", c.text) for n, c in enumerate(read_clauses(p, p.stem, str(p)))]
    except Exception:
        pass
for cid, t in texts:
    for x in extract(t).terms:
        if x.type == "period":
            print(json.dumps([cid, x.start, x.text, x.role, t[max(0, x.start - 150):x.end + 80].replace("\n", " / ")]))
