"""A folder of contracts as a source: the same files ``discover`` finds, listed in pages.

A folder has no change feed, so every sync lists it whole (metadata only: size and
modification time) and the sync state retires what is gone; a file's bytes are read only
when its size or time changed. Access comes from nothing in the file system: the wall
policy file decides, as it always has. The "open" link is the file's path under
``PRECEDENT_SOURCE_FOLDER_LINK_BASE`` (the share lawyers reach it by), else none.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator
from urllib.parse import quote

from index_builder.errors import DataNotFoundError
from index_builder.sources.base import ChangePage, SourceItem

PAGE = 1000


class FolderSource:
    """``folder:<path>``: every supported file under a folder."""

    def __init__(self, root: Path, link_base: str = "", follow_links: bool = False,
                 page_size: int | None = None) -> None:
        self.root = Path(root)
        self.name = f"folder:{self.root.resolve()}"
        self.link_base = link_base
        self.follow_links = follow_links
        self.page_size = page_size or PAGE

    def changes(self, cursor: str | None) -> Iterator[ChangePage]:
        if not self.root.is_dir():
            raise DataNotFoundError(f"The library folder {self.root} does not exist or is not a "
                                    f"folder: check the --source path (the share may be offline).")
        after = cursor[len("round:"):] if cursor and cursor.startswith("round:") else ""
        page: list[SourceItem] = []
        for relative in self._files():
            if relative <= after:
                continue
            page.append(self._item(relative))
            if len(page) == self.page_size:
                yield ChangePage(page, [], f"round:{relative}", full=True)
                page = []
        yield ChangePage(page, [], "done", final=True, full=True)

    def fetch(self, item: SourceItem, dest: Path) -> None:
        shutil.copyfile(self.root / item.path, dest)

    def _files(self) -> list[str]:
        from index_builder.ingest import SUPPORTED_SUFFIXES

        root = self.root.resolve()
        out = []
        for path in self.root.rglob("*"):
            if not (path.is_file() and path.suffix.lower() in SUPPORTED_SUFFIXES
                    and not path.name.startswith("~$")):
                continue
            if not self.follow_links and not path.resolve().is_relative_to(root):
                continue  # a link out of the library could expose any file the server reads
            out.append(path.relative_to(self.root).as_posix())
        return sorted(out)

    def _item(self, relative: str) -> SourceItem:
        stat = (self.root / relative).stat()
        link = self.link_base.rstrip("/") + "/" + quote(relative) if self.link_base else ""
        return SourceItem(relative, relative, f"{stat.st_size}:{stat.st_mtime_ns}",
                          stat.st_size, web_url=link)
