"""Metadata facets on the real agreements (issue 12, point 4): how often each field is found.

Runs the index-time rules (index_builder/ingest/metadata.py) over every .docx under
``--data`` and writes, per document, the fields found, and per field the share of documents
it was found for. The by-hand check of 20 documents is in benchmarks/results/explore/explore.md.

    precedent-bench facets   (about a minute)
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from index_builder.ingest.metadata import FIELDS, coverage, for_file

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import CONTRACTS, RESULTS, agreements

log = logging.getLogger("facets")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--data", type=Path, default=CONTRACTS)
    parser.add_argument("--out", type=Path, default=RESULTS / "explore" / "facets.json")


def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    rows = {p.relative_to(args.data).as_posix(): for_file(p) for p in agreements(args.data)}
    share = coverage(rows.values())
    values = {f: sorted({r[f] for r in rows.values() if f in r}) for f in FIELDS}
    out = {"documents": len(rows),
           "found": {f: {"documents": sum(1 for r in rows.values() if f in r),
                         "share": round(share[f], 3), "distinct_values": len(values[f])}
                     for f in FIELDS},
           "per_document": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    for field in FIELDS:
        log.info("%-15s found for %3d/%d documents (%d distinct values)", field,
                 out["found"][field]["documents"], len(rows), len(values[field]))
