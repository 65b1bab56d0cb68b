"""Which reader parses which file type: the one table the builder, the sources and tools share."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from index_builder.ingest.blocks import ParsedDocument
from index_builder.ingest.docx_reader import read_docx
from index_builder.ingest.text_reader import read_text

READERS: dict[str, Callable[[Path], ParsedDocument]] = {
    ".docx": read_docx,
    ".txt": read_text,
    ".md": read_text,
}
SUPPORTED_SUFFIXES: frozenset[str] = frozenset(READERS)
