"""Read .txt and .md files into Blocks: typed numbers and "#" headings carry the structure.

A paragraph is a run of lines between blank lines; a line that starts with a number, a
bullet or a "#" starts a new paragraph even without a blank line before it, and any other
line continues the previous one (hard-wrapped text).
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from pathlib import Path

from index_builder.errors import DocumentError
from index_builder.ingest.blocks import Block, ParsedDocument
from index_builder.reading.numbering import is_bullet, markdown_heading, typed_label
from index_builder.ingest.ooxml import read_bytes
from index_builder.reading.defined_terms import quoted_terms
from index_builder.reading.document import mostly_capitals

log = logging.getLogger(__name__)

_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_LEAD_IN = re.compile(r"^\*\*([^*\n]{1,120}?[.:])\*\*|^__([^_\n]{1,120}?[.:])__")
_WHOLE_BOLD = re.compile(r"^(\*\*|__)(.+)\1$")
_CAPS_MAX_CHARS = 80
_MAX_BYTES = 32 * 1024 * 1024


def read_text(path: Path) -> ParsedDocument:
    """Parse a plain-text or markdown file into blocks, or raise DocumentError."""
    text = _decode(path, _read(path))
    fmt = "md" if path.suffix.lower() == ".md" else "txt"
    blocks = [_block(index, para) for index, para in enumerate(_paragraphs(text))]
    if blocks and blocks[0].outline_level == 0:
        blocks[0] = replace(blocks[0], is_title=True)  # "# Title" opening the file
    return ParsedDocument(tuple(blocks), title="", format=fmt)


def _read(path: Path) -> bytes:
    data = read_bytes(path)
    if len(data) > _MAX_BYTES:
        raise DocumentError(f"{path}: {len(data):,} bytes is too large for a contract text")
    if b"\x00" in data[:8192]:
        raise DocumentError(f"{path}: binary data, not text (is it a .docx or .pdf renamed?)")
    return data


def _decode(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.removeprefix(b"\xef\xbb\xbf").decode("cp1252")
    except UnicodeDecodeError as exc:
        raise DocumentError(f"{path}: not UTF-8 or Windows-1252 text ({exc.reason})") from exc
    log.warning("%s is not UTF-8; read it as Windows-1252", path)
    return text


def _paragraphs(text: str) -> list[str]:
    paragraphs: list[list[str]] = []
    open_paragraph = False
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.strip()
        if not line:
            open_paragraph = False
            continue
        if not open_paragraph or _starts_paragraph(line) or _breaks(paragraphs[-1], line):
            paragraphs.append([line])
        else:
            paragraphs[-1].append(line)
        open_paragraph = True
    return [" ".join(lines) for lines in paragraphs]


def _starts_paragraph(line: str) -> bool:
    return bool(
        markdown_heading(line) or typed_label(line) or is_bullet(line) or line.startswith("|")
    )


def _breaks(paragraph: list[str], line: str) -> bool:
    """A heading line stands alone: after "## Terms" or between "NOTICES" and its text."""
    if markdown_heading(paragraph[0]) is not None:
        return True
    return _is_caps(paragraph[-1]) != _is_caps(line)  # "ARTICLE I" + "DEFINITIONS" join


def _is_caps(line: str) -> bool:
    """A short line set in capitals, every letter a capital (the core's rule for text in capitals)."""
    return len(line) <= _CAPS_MAX_CHARS and mostly_capitals(line, least=2, share=1)


def _block(index: int, paragraph: str) -> Block:
    heading = markdown_heading(paragraph)
    if heading is not None:
        level, title = heading
        return Block(index, _unbold(title), outline_level=level, emphasised=True)
    whole = _WHOLE_BOLD.match(paragraph)
    label = typed_label(paragraph)
    lead = _LEAD_IN.match(paragraph[len(label.text):].lstrip() if label else paragraph)
    text = _unbold(paragraph)
    caps = _is_caps(text)
    return Block(
        index,
        text,
        emphasised=bool(whole) or caps,
        lead_in=_unbold(lead.group(0)) if lead else "",
        bold_terms=tuple(
            term for match in _BOLD.finditer(paragraph)
            for term in quoted_terms(match.group(1) or match.group(2))
        ),
    )


def _unbold(text: str) -> str:
    return _BOLD.sub(lambda m: m.group(1) or m.group(2), text)
