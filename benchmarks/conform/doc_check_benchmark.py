"""Document check on >= 10 real agreements with planted errors (the pane's doc-check.js, run by node).

    python -m benchmarks.conform.doc_check_benchmark [--set held-out|fresh|tuning] [--out FILE]

Three sets of agreements, none in two:
- tuning: what doc-check.js was written and its noise reduced on (the first session used the
  Common Paper Independent Contractor, Pilot and Cloud Service agreements; the second added
  five more to reduce the noise);
- held-out: the 12 the first session measured on (its 117 findings on the unmodified
  agreements were read by hand once; none of them was tuned on in the second session);
- fresh: 12 more, measured by the second session before and after its noise reduction and
  never read while tuning.
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
TUNING = [f"{CP}/common-paper-{n}.docx" for n in (
    "independent-contractor-agreement", "pilot-agreement", "cloud-service-agreement", "csa-with-ai", "order-form")] + [
    f"{OA}/openagreements-{n}.docx" for n in (
        "employment-offer-letter", "restrictive-covenant-alabama", "founder-separation-stockholder-consent")]
FRESH = [f"{CP}/common-paper-{n}.docx" for n in (
    "mutual-nda", "letter-of-intent", "statement-of-work", "term-sheet", "order-form-with-sla", "amendment")] + [
    f"{OA}/openagreements-{n}.docx" for n in (
        "founder-share-repurchase-notice", "stockholder-consent-safe", "board-consent-safe",
        "founder-ip-confidentiality-confirmation", "founder-stock-assignment-separate",
        "employment-offer-letter-new-york")]
SETS = {"held-out": DOCUMENTS, "tuning": TUNING, "fresh": FRESH}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=tuple(SETS), default="held-out")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for path in SETS[args.set]:
            (Path(tmp) / f"{Path(path).stem}.json").write_text(json.dumps(docx_paragraphs(DATA / path)))
        out = subprocess.run(["node", str(Path(__file__).parent / "doc_check.mjs"), tmp], capture_output=True,
                             text=True, check=True, timeout=120)
    report = json.loads(out.stdout)
    if args.out:  # written before printing, so a closed pipe cannot lose it
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(json.dumps(report["figures"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
