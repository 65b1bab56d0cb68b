"""Document check on >= 10 real agreements with planted errors (the pane's doc-check.js, run by node).

    python -m benchmarks.conform.doc_check_benchmark [--out benchmarks/results/conform/doc_check.json]

The agreements below were not used while writing doc-check.js (that used the Common Paper
Independent Contractor, Pilot and Cloud Service agreements).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.conform.make_candidates import CP, DATA, OA
from benchmarks.conform.paragraphs import docx_paragraphs

DOCUMENTS = [f"{CP}/common-paper-{n}.docx" for n in (
    "ai-addendum", "business-associate-agreement", "csa-with-sla", "data-processing-agreement",
    "design-partner-agreement", "partnership-agreement", "professional-services-agreement",
    "software-license-agreement", "one-way-nda")] + [f"{OA}/openagreements-{n}.docx" for n in (
    "confidentiality-invention-assignment-agreement", "founder-stock-repurchase-agreement", "board-ratifying-consent")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for path in DOCUMENTS:
            (Path(tmp) / f"{Path(path).stem}.json").write_text(json.dumps(docx_paragraphs(DATA / path)))
        out = subprocess.run(["node", str(Path(__file__).parent / "doc_check.mjs"), tmp], capture_output=True,
                             text=True, check=True, timeout=120)
    report = json.loads(out.stdout)
    print(json.dumps(report["figures"], indent=1))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
