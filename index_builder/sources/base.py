"""The source interface: what a document library (a folder, SharePoint, iManage) gives a build.

A source does two things (``Source``):

* ``changes(cursor)`` yields pages of changes since a saved cursor (``None``: everything):
  items added or changed, with their access, and ids deleted; each page carries the cursor
  to resume from after it, so a crash mid-sync resumes where the last page ended.
* ``fetch(item, dest)`` streams one document's bytes into a local file.

Optionally, ``reread(items)`` gives the items back with their access read again (the folder
above them changed its permissions: Graph), and ``reports_every_change = True`` says the
change feed reports deletions and access changes every sync (Graph's delta does; iManage's
edit-date feed does not, so only its full listings do).

Access is part of each item (``SourceItem.allowed`` / ``denied``): the same group names the
wall policy file produces (``index_builder/ingest/policy.py``), stamped on every clause at
build time, so a permission change is metadata only and is applied without re-embedding.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Protocol

from index_builder.ingest.policy import Access, normalise_group


@dataclass(frozen=True)
class SourceItem:
    """One document as the source lists it (metadata only: no bytes)."""

    item_id: str  # the source's stable id (Graph driveItem id, iManage document id, file path)
    path: str  # where it sits in the library ("Precedents/Matters/Acme/spa.docx")
    version: str  # changes whenever the content does (cTag, version + edit date, size + mtime)
    size: int = 0
    # Groups that may open it in the source; None: the source reports no access (a folder),
    # so the wall policy file decides as it always has.
    allowed: tuple[str, ...] | None = None
    denied: tuple[str, ...] = ()
    web_url: str = ""  # opens the document in its DMS (the DMS checks access again)
    # A folder id: the item's ``path`` is then its name, under that folder's path as the
    # sync state knows it (Graph's delta names parents, not paths; a renamed folder moves all).
    parent: str = ""
    extra: dict[str, str] = field(default_factory=dict, compare=False)  # source-specific

    def access(self) -> Access | None:
        """As the wall policy would state it, for the labeller (None: the policy decides)."""
        if self.allowed is None:
            return None
        return Access(groups(self.allowed), groups(self.denied), "source")

    def access_digest(self) -> str:
        """Changes exactly when the access does: a permission change is metadata only."""
        if self.allowed is None:
            return "policy"
        text = ",".join(groups(self.allowed)) + "|" + ",".join(groups(self.denied))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class ChangePage:
    """One page of changes and the cursor that resumes after it."""

    upserts: list[SourceItem]
    deletes: list[str]  # item ids (documents or folders)
    cursor: str
    final: bool = False  # the last page of this round: the cursor is a "since now" one
    # Part of a full listing (a first sync, a re-enumeration): once its final page is applied,
    # whatever the round did not list is gone from the library.
    full: bool = False
    folders: list[tuple[str, str, str]] = field(default_factory=list)  # (id, name, parent id)
    # A digest of each listed folder's own permissions (sources whose folders have them):
    # when it changes, the files below are read again, since they inherit it.
    folder_access: dict[str, str] = field(default_factory=dict)


class Source(Protocol):
    """A library the build can follow incrementally."""

    name: str  # stable, names the sync state ("sharepoint:sites/contoso...:/sites/Legal")

    def changes(self, cursor: str | None) -> Iterator[ChangePage]:
        """Changes since ``cursor`` (None: the whole library), page by page."""
        ...

    def fetch(self, item: SourceItem, dest: Path) -> None:
        """Stream the document's current bytes into ``dest``."""
        ...


def groups(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Group names as the index stores and compares them: trimmed, case-folded, sorted."""
    return tuple(sorted({normalise_group(n) for n in names if n and n.strip()}))
