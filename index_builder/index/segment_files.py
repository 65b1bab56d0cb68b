"""Which segments and codebooks a segmented index's versions name, and removing the rest.

Apart from segments.py because store.py prunes them whenever it publishes a version (of
either layout: a library that shrinks below the compressed threshold leaves its segments
behind), and segments.py itself publishes through store.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

SEGMENTS = "segments"
CODEBOOKS = "codebooks"


def named(root: Path) -> tuple[set[str], set[str]]:
    """The segments and codebooks that some version under ``root`` names."""
    used: set[str] = set()
    books: set[str] = set()
    for version in Path(root).glob("v-*"):
        try:
            params = json.loads((version / "params.json").read_text("utf-8"))
        except (OSError, ValueError):
            continue
        used.update(s["name"] for s in params.get("segments", []))
        if params.get("dense", {}).get("codebook"):
            books.add(params["dense"]["codebook"])
    return used, books


def prune_segments(root: Path) -> None:
    """Remove segments and codebooks that no version names, and half-written ones."""
    root = Path(root)
    used, books = named(root)
    folder = root / SEGMENTS
    if folder.is_dir():
        for child in folder.iterdir():
            if child.name in used:
                continue
            if child.name.startswith(".") or child.is_dir():
                trash = folder / f".trash-{child.name.lstrip('.')}"
                try:
                    child.rename(trash)
                except OSError:
                    trash = child
                shutil.rmtree(trash, ignore_errors=True)
    books_folder = root / CODEBOOKS
    if books_folder.is_dir():
        for child in books_folder.iterdir():
            if child.name.startswith(".") or child.stem not in books:
                child.unlink(missing_ok=True)
