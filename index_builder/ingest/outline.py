"""Place every paragraph in the document's outline: which numbered sections contain it.

A stack of open sections is kept while walking the paragraphs. A new numbered paragraph
closes every open section that cannot contain it (see ``_contains``) and opens its own; a
structural heading closes all numbered sections; plain paragraphs continue the innermost
open section. Paragraphs outside any numbered section (cover pages, letters, signature
blocks) get an empty path and are grouped under headings later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import count
from typing import Iterator, Sequence

from index_builder.ingest.blocks import Block
from index_builder.ingest.headings import TITLE, WEAK, heading_level, heading_text, own_heading
from index_builder.reading.numbering import Label, automatic_label, section_for, typed_label



@dataclass(frozen=True)
class Section:
    """One open numbered section: its identity, citable number and heading."""

    key: int  # unique per document, to tell apart two sections with the same number
    section: str
    heading: str
    label: str = ""  # the number as displayed, e.g. "12.2" or "(a)"


@dataclass(frozen=True)
class Placed:
    """A paragraph with its place in the outline."""

    block: Block
    text: str  # as the reader sees it, automatic number included
    role: str  # "numbered" | "heading" | "title" | "body"
    path: tuple[Section, ...] = ()  # enclosing numbered sections, outermost first
    heading: str = ""  # innermost unnumbered heading above the paragraph
    heading_level: int | None = None  # for role "heading"


@dataclass
class _Open:
    """A stack entry: an open numbered section or heading."""

    level: int | None  # heading level for headings; None for numbered sections
    label: Label | None = None
    block: Block | None = None
    section: Section | None = None
    heading: str = ""
    table: str = ""


@dataclass
class _Walker:
    stack: list[_Open] = field(default_factory=list)
    keys: Iterator[int] = field(default_factory=count)
    letters: dict[str, str] = field(default_factory=dict)  # last letter per typed style

    def numbered_path(self) -> tuple[Section, ...]:
        return tuple(entry.section for entry in self.stack if entry.section is not None)

    def heading(self) -> str:
        return next((e.heading for e in reversed(self.stack) if e.level is not None), "")


def place(blocks: Sequence[Block]) -> list[Placed]:
    """Walk the paragraphs in order and give each its outline path."""
    walker = _Walker()
    title_seen = False
    placed = []
    for block in blocks:
        label = _label(block, walker)
        if label is not None:
            placed.append(_open_numbered(walker, block, label))
            continue
        level = heading_level(block)
        if level == TITLE and not title_seen and not walker.numbered_path():
            title_seen = True
            placed.append(Placed(block, block.text, "title"))
        elif level is not None and block.table_id:
            # A bold cell heads the rows of its own table; it never closes a section.
            placed.append(Placed(block, block.text, "heading", (), walker.heading(), level))
        elif level is not None and _closes_sections(walker, level):
            placed.append(_open_heading(walker, block, level))
        else:
            placed.append(_continue(walker, block))
    return placed


def _label(block: Block, walker: _Walker) -> Label | None:
    if block.bullet:
        return None
    if block.label:
        return automatic_label(block.label, block.number_format, block.level or 0)
    if block.level is not None:  # an automatic level that draws no number
        return None
    label = typed_label(block.text, walker.letters)
    if label is not None and label.kind == "letter":
        walker.letters[label.style] = label.token.lower()
    return label


def _open_numbered(walker: _Walker, block: Block, label: Label) -> Placed:
    stack = walker.stack
    while stack and not _contains(stack[-1], block, label, stack):
        stack.pop()
    parent_path = walker.numbered_path()
    parent_section = parent_path[-1].section if parent_path else ""
    text = f"{block.label} {block.text}" if block.label else block.text
    section = Section(
        next(walker.keys), section_for(label, parent_section), own_heading(block), label.text
    )
    stack.append(_Open(None, label, block, section, table=block.table_id))
    return Placed(block, text, "numbered", walker.numbered_path(), walker.heading())


def _contains(entry: _Open, block: Block, label: Label, stack: list[_Open]) -> bool:
    """Can the open entry hold the new numbered paragraph as a descendant?"""
    if entry.level is not None:
        return True  # headings hold numbered sections
    if entry.label is None or entry.block is None:
        return True
    if entry.block.list_id and entry.block.list_id == block.list_id:
        return (entry.block.level or 0) < (block.level or 0)
    outer, inner = entry.label.rank, label.rank
    if outer is not None and inner is not None:
        return outer < inner
    if outer is not None or inner is not None:
        return outer is not None  # letters and romans sit under fixed-rank numbers only
    # Two order-ranked styles: a style already open (here or further out) is a sibling of
    # that entry; a style not seen yet on the stack opens one level deeper.
    open_styles = {e.label.style for e in stack if e.label is not None}
    return label.style not in open_styles


def _closes_sections(walker: _Walker, level: int) -> bool:
    """A heading inside a numbered section is its sub-heading unless it is structural."""
    return level < WEAK or not walker.numbered_path()


def _open_heading(walker: _Walker, block: Block, level: int) -> Placed:
    stack = walker.stack
    while stack and (stack[-1].level is None or stack[-1].level >= level):
        stack.pop()
    text = heading_text(block)
    stack.append(_Open(level, block=block, heading=text, table=block.table_id))
    return Placed(block, block.text, "heading", (), _parent_heading(stack), level)


def _parent_heading(stack: list[_Open]) -> str:
    headings = [e.heading for e in stack[:-1] if e.level is not None]
    return headings[-1] if headings else ""


def _continue(walker: _Walker, block: Block) -> Placed:
    path = walker.numbered_path()
    innermost = next((e for e in reversed(walker.stack) if e.section is not None), None)
    # A table after a numbered section (signature block, exhibit) is not part of it
    # unless the section itself started in that table.
    if path and block.table_id and innermost is not None and innermost.table != block.table_id:
        path = ()
    return Placed(block, block.text, "body", path, walker.heading())
