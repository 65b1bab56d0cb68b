"""Compare terms' relevance floor on never-seen cap wording (session 8, fixes8; spent sets only).

    PYTHONPATH=$PWD python benchmarks/results/market/session8/floor.py INDEX OUT.json

INDEX: the 104 agreements built with the product's embedder (`index-builder build`). The lawyer's
clauses: every ACORD clause the caps and figures sets label with a liability cap (caps2, caps3,
figures; tuning and held-out, all spent), none of which the agreements index holds: a lawyer's own
wording against the firm's library. For each floor, /market's own steps (pipeline.matches, then
terms.compare on terms.extract): the cap dimensions' status (no_market or a market) and how many
documents make each market; for the precedents that enter only below 0.7, their clause ids and
cosine, to read by hand. No clause text is written.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from index_builder.index import load_embedder, open_store
from index_builder.retrieve.pipeline import build_pipeline
from index_builder.settings import load_settings, updated
from index_builder.terms.extract import extract
from index_builder.terms.market import compare

SETS = Path("benchmarks/sets")
FLOORS = (0.5, 0.55, 0.6, 0.65, 0.7)


def cap_clauses() -> list[dict]:
    seen: dict[str, dict] = {}
    for name in ("caps2", "caps3", "figures"):
        for split in ("tuning", "heldout"):
            for line in (SETS / name / f"{split}.jsonl").read_text().splitlines():
                row = json.loads(line)
                if row.get("source") == "acord" and row.get("caps") and row["clause_id"] not in seen:
                    seen[row["clause_id"]] = {"id": row["clause_id"], "set": f"{name}/{split}",
                                              "text": row["text"], "kinds": [c["kind"] for c in row["caps"]]}
    return list(seen.values())


def main() -> int:
    settings = updated(load_settings(), {"index_dir": Path(sys.argv[1])})
    backend = open_store(settings).open()
    pipeline = build_pipeline(settings, load_embedder(settings.embedding), backend)
    share = settings.market.usual_share
    out = []
    for row in cap_clauses():
        yours = extract(row["text"])
        vector = pipeline.embedder.embed([row["text"]])
        entry = {"id": row["id"], "set": row["set"], "kinds": row["kinds"], "floors": {}}
        for floor in FLOORS:
            hits = pipeline.matches([row["text"]], (), floor, settings.retrieval.explorer_max_matches, vectors=vector)
            market = compare(yours, hits, share)
            caps = [t for t in market.terms if "cap" in t.dimension]
            entry["floors"][str(floor)] = {
                "documents": market.documents,
                "caps": {t.dimension: {"status": t.status, "documents": t.documents,
                                       "precedents": [[p.hit.clause.clause_id, round(p.hit.score, 3)]
                                                      for b in t.buckets for p in b.precedents]}
                         for t in caps}}
        out.append(entry)
    Path(sys.argv[2]).write_text(json.dumps(out, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
