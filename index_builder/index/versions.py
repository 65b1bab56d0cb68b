"""Versions on disk, switched atomically: the crash-safe part of every embedded index.

A build fills a staging folder, flushes it, renames it to ``v-<time>-<rand>``, then replaces
the ``CURRENT`` pointer (flushed too) and prunes all but the previous version. Each step
leaves a servable index if the process dies there (`precedent-bench crash-faults` kills
builds at random calls of each). Whole versions (store.py) and segmented ones (segments.py)
publish through here; readers find the live one with ``resolve_version``.
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import time
from pathlib import Path
from typing import Callable

from index_builder.errors import IndexFormatError, IndexNotFoundError
from index_builder.index.segment_files import CODEBOOKS, SEGMENTS, prune_segments

# The logger of store.py: these lines were written there before the split and keep its name.
log = logging.getLogger("index_builder.index.store")

POINTER = "CURRENT"


def resolve_version(index_dir: Path) -> Path:
    """The live version folder for an index root (or the folder itself if it is a version)."""
    if (index_dir / "params.json").is_file():
        return index_dir
    pointer = index_dir / POINTER
    if not pointer.is_file():
        raise IndexNotFoundError(
            f"No index at {index_dir}. Build one with `index-builder build --index {index_dir} "
            f"SOURCE...` or set PRECEDENT_INDEX_DIR."
        )
    version = index_dir / pointer.read_text().strip()
    if not (version / "params.json").is_file():
        raise IndexFormatError(f"{pointer} names {version.name}, which is incomplete. Rebuild.")
    return version


def _publish(index_dir: Path, fill: Callable[[Path], None], prune_segments: bool = True) -> Path:
    """Fill a staging folder, rename it to a version, switch CURRENT to it, prune.

    Each step leaves a servable index if the process dies there (``kill -9``, tested by
    `precedent-bench crash-faults`): the staging folder and an unpointed version are pruned by
    the next build. The files are flushed to disk before the switch, and the switch before
    pruning, so a power cut cannot leave CURRENT naming a version whose files never
    reached the disk.
    """
    index_dir.mkdir(parents=True, exist_ok=True)
    name = f"v-{time.strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(3)}"
    staging = index_dir / f".staging-{name}"
    staging.mkdir()
    try:
        fill(staging)
        _sync_tree(staging)
        staging.rename(index_dir / name)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    previous = _current_name(index_dir)
    tmp_pointer = index_dir / f".{POINTER}.{name}"
    try:
        with open(tmp_pointer, "w", encoding="utf-8") as out:
            out.write(name + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp_pointer, index_dir / POINTER)
    except BaseException:
        tmp_pointer.unlink(missing_ok=True)
        raise
    _sync_dir(index_dir)
    _prune(index_dir, keep={name, previous}, segments=prune_segments)
    log.info("Index version %s is live at %s", name, index_dir)
    return index_dir / name


def _sync_tree(folder: Path) -> None:
    """fsync every file under ``folder`` and the folders themselves (POSIX; a no-op where a
    folder cannot be opened, as on Windows, whose rename is not ordered this way anyway)."""
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_file():
            with open(path, "rb") as data:
                os.fsync(data.fileno())
        elif path.is_dir():
            _sync_dir(path)
    _sync_dir(folder)


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on a folder; the files themselves are synced
    finally:
        os.close(fd)


def _current_name(index_dir: Path) -> str | None:
    pointer = index_dir / POINTER
    return pointer.read_text().strip() if pointer.is_file() else None


def _prune(index_dir: Path, keep: set[str | None], segments: bool = True) -> None:
    """Remove old versions, and what builds killed part way left behind (this runs under the
    build lock: none of it belongs to a running build).

    A version is renamed out of the ``v-*`` names before its files are deleted: a build killed
    while deleting one (`precedent-bench crash-faults` found it) left a ``v-*`` folder without
    params.json, a version in name only, which an unchanged next build never pruned.
    """
    for child in index_dir.iterdir():
        if child.is_dir() and child.name.startswith("v-") and child.name not in keep:
            trash = index_dir / f".trash-{child.name}"
            try:
                child.rename(trash)
            except OSError:
                trash = child
            shutil.rmtree(trash, ignore_errors=True)
    remove_leftovers(index_dir)
    if segments and ((index_dir / SEGMENTS).is_dir() or (index_dir / CODEBOOKS).is_dir()):
        prune_segments(index_dir)  # what no remaining version names


def remove_leftovers(index_dir: Path) -> None:
    """Staging folders, half-deleted versions and pointer drafts of builds killed part way."""
    for child in index_dir.iterdir():
        if child.is_dir() and child.name.startswith((".staging-", ".trash-")):
            shutil.rmtree(child, ignore_errors=True)
        elif child.is_file() and child.name.startswith(f".{POINTER}."):
            child.unlink(missing_ok=True)
