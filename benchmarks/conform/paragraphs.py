"""A .docx as the pane's readParagraphs() sees it: {index, text, listString, style, isHeading, inTable}.

Used by the conform benchmarks (the pane's own JavaScript reads these paragraphs, as it
would read them from Word) and to cut small test fixtures from real agreements:

    python -m benchmarks.conform.paragraphs FILE.docx [--first N] > paragraphs.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from index_builder.ingest.docx_reader import read_docx


def docx_paragraphs(path: Path) -> list[dict]:
    """Every body paragraph in order, empty ones included, so indices match Word's."""
    blocks = read_docx(Path(path)).blocks
    last = max((b.index for b in blocks), default=-1)
    by_index = {b.index: b for b in blocks}
    out = []
    for index in range(last + 1):
        block = by_index.get(index)
        if block is None:
            out.append({"index": index, "text": "", "listString": "", "style": "Normal",
                        "isHeading": False, "inTable": False})
            continue
        style = "Title" if block.is_title else (
            f"Heading {block.outline_level + 1}" if block.outline_level is not None else "Normal")
        out.append({
            "index": index,
            "text": block.text,
            "listString": "" if block.bullet else block.label,
            "style": style,
            "isHeading": block.outline_level is not None,
            "inTable": bool(block.table_id),
        })
    return out


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
