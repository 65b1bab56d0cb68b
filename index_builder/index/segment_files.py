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


def remove_unnamed(root: Path, names: set[str]) -> list[str]:
    """Remove those of ``names`` (segments) that no version names; what was removed.

    For a build that publishes while its workers still write segments (segment_workers.py):
    it cannot prune every unnamed segment (theirs are unnamed until published), but those it
    started from and has since replaced need not wait for the end of the build."""
    used, _ = named(root)
    removed = []
    for name in sorted(names - used):
        folder = Path(root) / SEGMENTS / name
        if not folder.is_dir():
            continue
        trash = folder.with_name(f".trash-{name}")
        try:
            folder.rename(trash)
        except OSError:
            trash = folder
        shutil.rmtree(trash, ignore_errors=True)
        removed.append(name)
    return removed


def remove_staging(root: Path) -> None:
    """Half-written segments (``.staging-*``, ``.trash-*``) of builds killed part way: for a
    build about to start workers (under the build lock no other build writes)."""
    folder = Path(root) / SEGMENTS
    if folder.is_dir():
        for child in folder.iterdir():
            if child.name.startswith((".staging-", ".trash-")):
                shutil.rmtree(child, ignore_errors=True)
