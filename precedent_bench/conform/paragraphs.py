"""A .docx as the pane's readParagraphs() sees it: {index, text, listString, style, isHeading, inTable}.

Used by the conform benchmarks (the pane's own JavaScript reads these paragraphs, as it
would read them from Word) and to cut small test fixtures from real agreements:

    python -m precedent_bench.conform.paragraphs FILE.docx [--first N] > paragraphs.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from index_builder.ingest.docx_reader import word_paragraphs


def docx_paragraphs(path: Path) -> list[dict]:
    """Every body paragraph in order, empty ones included, so indices match Word's."""
    return word_paragraphs(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("docx", type=Path)
    parser.add_argument("--first", type=int, default=0, help="only the first N paragraphs")
    args = parser.parse_args(argv)
    paragraphs = docx_paragraphs(args.docx)
    if args.first:
        paragraphs = paragraphs[: args.first]
    json.dump(paragraphs, sys.stdout, ensure_ascii=False, indent=0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
