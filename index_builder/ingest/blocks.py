"""The one shape every reader produces: a document as a list of non-empty paragraphs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Block:
    """One non-empty paragraph, with what the segmenter needs to place it in the outline.

    ``index`` counts every paragraph of the body in document order, including empty ones
    and those inside tables, so it matches Word's ``body.paragraphs`` collection.
    """

    index: int
    text: str  # the paragraph's own text; a typed number ("12.2 ...") stays in it
    label: str = ""  # Word's automatic number as displayed ("12.2", "(a)"); "" if none
    number_format: str = ""  # w:numFmt of that automatic number ("decimal", "lowerLetter")
    level: int | None = None  # automatic list level (w:ilvl); None when not in a list
    list_id: str = ""  # the list template the automatic number belongs to
    bullet: bool = False  # an automatic list item with a bullet, not a number
    outline_level: int | None = None  # 0 for a Heading 1 style (or markdown "#"), ...
    is_title: bool = False  # Title style
    emphasised: bool = False  # every visible character is bold or underlined
    font_size: int = 0  # largest font size in half-points (22pt title = 44); 0 = unknown
    lead_in: str = ""  # bold/underlined opening words, e.g. "Confidentiality."
    bold_terms: tuple[str, ...] = ()  # quoted terms set in bold (definitions)
    table_id: str = ""  # identifies the outermost table holding the paragraph; "" if none
    row_id: str = ""  # identifies the row of that table; "" outside tables


@dataclass(frozen=True)
class ParsedDocument:
    """A document's blocks plus what we know about it as a whole."""

    blocks: tuple[Block, ...]
    title: str = ""  # core-properties title, "" when absent
    format: str = "docx"
    notes: tuple[str, ...] = ()  # what the reader left out and why, for the build report
