"""What a rebuild reads again: each document's fingerprint against the live version's.

A DMS document's version tag, else a file's size and modification time (when it was hashed
well after it was last written), else its SHA-256 decides whether it changed. An unchanged
document's clauses are reused (or carried, unread, when the store can carry them); a changed
one is read (documents.py). Apart from build.py because this is the part of a build that
decides what is incremental about it, and the part a test of "nothing changed" exercises.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from tqdm import tqdm

from index_builder.index.backend import PreviousVersion
from index_builder.index.documents import ReadClauses, SourceDocument, _parse
from index_builder.index.parallel import map_ordered
from index_builder.model import Clause

if TYPE_CHECKING:
    from index_builder.index.build import BuildReport

# The logger of build.py: these lines were written there before the split and keep its name.
log = logging.getLogger("index_builder.index.build")
# A document a checkpoint of a sharded build that re-reads everything has not reached yet
# (index/segment_workers.py): read again however unchanged it is.
REREAD = "reread"

# Stands for an unchanged document's clauses, which stay in the store unread (``carry``).
_CARRIED: list[Clause] = []


def _read_all(found: list[SourceDocument], previous: PreviousVersion,
              read_document: ReadClauses | None, report: BuildReport, reread: bool, workers: int,
              progress: bool, carry: bool = False
              ) -> Iterator[tuple[SourceDocument, list[Clause] | None, dict[str, Any]]]:
    """Each source's clauses (reused when unchanged, else parsed, in workers when asked), in
    order; with ``carry``, ``_CARRIED`` for an unchanged document."""
    decided = []
    for source in found:
        info, reused = _reuse(source, previous, report, reread, carry)
        decided.append((source, info, reused))
    jobs = [(s.kind, s.path, s.doc_id, read_document, s.fetch) for s, info, reused in decided
            if info is not None and reused is None]
    # A DMS document is downloaded, read and deleted one at a time in this process: the
    # network is the bottleneck, and a library never has to fit on the index server's disk.
    fetching = any(job[4] is not None for job in jobs)
    parsed = map_ordered(_parse, jobs, 1 if fetching else workers, chunksize=4)
    with tqdm(total=len(found), desc="Reading", unit="doc", disable=not progress) as bar:
        for source, info, reused in decided:
            bar.update(1)
            if info is None:
                yield source, None, {}
            elif reused is not None:
                yield source, reused, info
            else:
                clauses, notes, error = next(parsed)
                if error is not None:
                    log.warning("Skipped %s: %s", source.path, error)
                    report.skipped.append((str(source.path), error))
                    yield source, None, {}
                    continue
                report.notes.extend((str(source.path), note) for note in notes)
                report.parsed.append(source.doc_id)
                yield source, [c for c in clauses if c.text.strip()], info


def _reuse(source: SourceDocument, previous: PreviousVersion, report: BuildReport,
           reread: bool, carry: bool = False) -> tuple[dict[str, Any] | None, list[Clause] | None]:
    """(info, the previous version's clauses when the file is unchanged); info None = unreadable."""
    old = previous.documents.get(source.doc_id)
    if source.version:  # a DMS item: its version tag is the change detector, no bytes read
        info: dict[str, Any] = {"path": source.relative, "sha256": f"version:{source.version}",
                                "kind": source.kind, "access": source.access_key}
    else:
        try:
            stat = source.path.stat()
            digest = _known_digest(old, stat) or _file_digest(source.path)
        except OSError as exc:
            report.skipped.append((str(source.path), f"cannot read file: {exc.strerror}"))
            return None, None
        info = {"path": str(source.path), "sha256": digest, "kind": source.kind,
                "size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "checked_ns": time.time_ns()}
    if old and old.get("sha256") == info["sha256"] and source.doc_id in previous.clauses_by_doc \
            and not reread and not old.get("dropped") and not old.get(REREAD):
        report.reused.append(source.doc_id)
        if old.get("access", "") != info.get("access", ""):
            # Only who may see it changed: its clauses are stamped again, nothing re-embedded.
            report.relabelled.append(source.doc_id)
            return info, previous.clauses_by_doc[source.doc_id]
        return info, _CARRIED if carry else previous.clauses_by_doc[source.doc_id]
    return info, None


def _known_digest(old: dict[str, Any] | None, stat: os.stat_result) -> str | None:
    """The recorded hash when size and modification time are as recorded, as git and rsync
    judge a file unchanged (hashing a million clauses' files costs seconds). Only a file
    modified well before it was last hashed qualifies: one written within the clock's
    granularity of that moment could have changed again unseen, so it is hashed again."""
    if not old or "mtime_ns" not in old:
        return None
    settled = old["mtime_ns"] < old.get("checked_ns", 0) - 2_000_000_000
    same = old.get("size") == stat.st_size and old["mtime_ns"] == stat.st_mtime_ns
    return str(old["sha256"]) if settled and same else None


def _file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
