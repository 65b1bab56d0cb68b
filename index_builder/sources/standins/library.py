"""The library a stand-in DMS holds: documents, folders with stable ids, and permissions.

Every change bumps one sequence number (Graph's delta reads changes since a sequence) and a
clock (iManage's edit dates). Folders have ids that survive a rename, as SharePoint's do, so
a renamed folder is one change and the files below it are not changed at all. A document's
``allowed`` of ``None`` inherits its permissions from the nearest folder that has its own
(else the library root's), as SharePoint items do until inheritance is broken.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import threading
from dataclasses import dataclass, field
from pathlib import Path

# Tenant-wide grants, as SharePoint names them in a permission's loginName (the claim it
# stores): "Everyone except external users" and "Everyone".
EVERYONE_EXCEPT_EXTERNAL = "everyone-except-external-users"
EVERYONE = "everyone"


@dataclass
class Doc:
    id: str
    path: str  # "Matters/Acme/spa.docx" (iManage: the first folder is the workspace)
    content: bytes | Path  # bytes, or a file streamed from disk (the 200 MB test)
    allowed: list[str] | None  # None: inherited from the folders above
    denied: list[str] = field(default_factory=list)
    version: int = 1
    seq: int = 0  # change sequence (Graph delta)
    edited: str = ""  # ISO time (iManage edit_date)
    deleted: bool = False
    sharing_only: bool = False  # its last change was to its permissions alone

    @property
    def size(self) -> int:
        return self.content.stat().st_size if isinstance(self.content, Path) else len(self.content)


@dataclass
class Folder:
    id: str
    seq: int = 0
    access: list[str] | None = None  # its own permissions; None: inherited
    deleted: bool = False
    sharing_only: bool = False


class Library:
    """Documents as a DMS holds them; every change bumps a sequence number and a clock."""

    def __init__(self) -> None:
        self.docs: dict[str, Doc] = {}
        self.seq = 0
        self.clock = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.timezone.utc)
        self.lock = threading.RLock()
        self.root_access: list[str] = []  # what documents inheriting from the root get
        self.folder_ids: dict[str, str] = {}  # folder path -> stable id
        self.folders: dict[str, Folder] = {}  # id -> its state
        self.gone_paths: dict[str, str] = {}  # id -> path, of deleted folders

    def _bump(self) -> int:
        self.seq += 1
        self.clock += dt.timedelta(minutes=1)
        return self.seq

    def _touch(self, doc: Doc, content_changed: bool = True) -> None:
        doc.seq = self._bump()
        doc.sharing_only = False
        if content_changed:
            doc.version += 1
            doc.edited = self.clock.strftime("%Y-%m-%dT%H:%M:%SZ")

    def add(self, path: str, content: bytes | Path, allowed: list[str] | None,
            denied: list[str] = ()) -> Doc:
        with self.lock:
            doc = Doc(f"D{len(self.docs) + 1:06d}", path, content,
                      None if allowed is None else list(allowed), list(denied), 0)
            self.docs[doc.id] = doc
            self._touch(doc)
            return doc

    def find(self, path: str) -> Doc:
        return next(d for d in self.docs.values() if d.path == path and not d.deleted)

    def edit(self, path: str, content: bytes) -> None:
        with self.lock:
            doc = self.find(path)
            doc.content = content
            self._touch(doc)

    def move(self, path: str, new_path: str) -> None:
        with self.lock:
            doc = self.find(path)
            doc.path = new_path
            self._touch(doc)

    def delete(self, path: str) -> None:
        with self.lock:
            doc = self.find(path)
            doc.deleted = True
            self._touch(doc, content_changed=False)

    def set_access(self, path: str, allowed: list[str] | None, denied: list[str] = ()) -> None:
        with self.lock:
            doc = self.find(path)
            doc.allowed, doc.denied = None if allowed is None else list(allowed), list(denied)
            self._touch(doc, content_changed=False)
            doc.sharing_only = True

    def live(self) -> list[Doc]:
        return [d for d in self.docs.values() if not d.deleted]

    # --- folders ----------------------------------------------------------------------
    def folder_id(self, path: str) -> str:
        """The stable id of the folder at ``path`` ("" is the root), made on first use."""
        if not path:
            return "root"
        with self.lock:
            if path not in self.folder_ids:
                made = "F" + hashlib.sha1(f"{path}#{len(self.folder_ids)}".encode()).hexdigest()[:10]
                self.folder_ids[path] = made
                self.folders[made] = Folder(made)
            return self.folder_ids[path]

    def folder_path(self, folder_id: str) -> str | None:
        found = next((p for p, i in self.folder_ids.items() if i == folder_id), None)
        return found if found is not None else self.gone_paths.get(folder_id)

    def set_folder_access(self, path: str, allowed: list[str] | None) -> None:
        """Give a folder its own permissions (None: inherit again); the files below that
        inherit change with it, though none of them is changed itself."""
        with self.lock:
            folder = self.folders[self.folder_id(path)]
            folder.access = None if allowed is None else list(allowed)
            folder.seq = self._bump()
            folder.sharing_only = True

    def rename_folder(self, path: str, new_path: str) -> None:
        """One change to the folder; the files below keep their ids and change nothing."""
        with self.lock:
            folder = self.folders[self.folder_id(path)]
            for old in sorted(p for p in self.folder_ids if p == path or p.startswith(path + "/")):
                self.folder_ids[new_path + old[len(path):]] = self.folder_ids.pop(old)
            for doc in self.docs.values():
                if doc.path.startswith(path + "/"):
                    doc.path = new_path + doc.path[len(path):]
            folder.seq = self._bump()
            folder.sharing_only = False

    def delete_folder(self, path: str) -> list[Doc]:
        """The folder and everything below it go; only the folder is one change."""
        with self.lock:
            folder = self.folders[self.folder_id(path)]
            gone = [d for d in self.live() if d.path.startswith(path + "/")]
            for doc in gone:
                doc.deleted = True  # its seq is not bumped: the folder's deletion says it all
            for sub in [p for p in self.folder_ids if p == path or p.startswith(path + "/")]:
                gone_id = self.folder_ids.pop(sub)  # a new folder there gets a new id
                self.folders[gone_id].deleted = True
                self.gone_paths[gone_id] = sub
            folder.seq = self._bump()
            folder.sharing_only = False
            return gone

    def effective(self, doc: Doc) -> list[str]:
        """The groups a document is open to: its own, else its nearest folder's, else the root's."""
        if doc.allowed is not None:
            return list(doc.allowed)
        return self.folder_effective(doc.path.rpartition("/")[0])

    def folder_effective(self, path: str) -> list[str]:
        parts = path.split("/") if path else []
        for depth in range(len(parts), 0, -1):
            folder = self.folders.get(self.folder_ids.get("/".join(parts[:depth]), ""))
            if folder is not None and folder.access is not None:
                return list(folder.access)
        return list(self.root_access)
