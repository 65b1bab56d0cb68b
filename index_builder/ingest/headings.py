"""Headings: which paragraphs are headings, and the heading a numbered paragraph carries.

Word styles alone are not trusted: some forms set whole sentences in "Heading 1", and
Common Paper numbers every clause through heading styles. A heading must also look like
one: short, a single line, no sentence inside, and bold, Title Case or a title style.
"""

from __future__ import annotations


from index_builder.ingest.blocks import Block
from index_builder.reading.numbering import is_bullet, markdown_heading, typed_label
from index_builder.reading.document import is_heading, mostly_capitals, run_in_heading, title_case

WEAK = 9  # level of a heading known only from bold type
TITLE = -1
_STRUCTURAL_CAPS = 8  # a bold ALL CAPS line outside tables ("GENERAL TERMS")
_HEADING_MAX_CHARS = 120
_TITLE_FONT = 32  # half-points: 16pt and up reads as a document title, not body text


def heading_level(block: Block) -> int | None:
    """TITLE, 0.. for a heading (0 = Heading 1), WEAK for bold-only, None for body text."""
    text = block.text
    markdown = markdown_heading(text)
    if markdown is not None:
        return markdown[0]
    if not is_heading(text, styled=True) or is_bullet(text):
        return None
    display = block.emphasised or title_case(text)
    if block.is_title or (block.font_size >= _TITLE_FONT and not block.table_id and display):
        return TITLE
    if block.outline_level is not None and display:
        return block.outline_level
    if block.emphasised:
        # In capitals, every letter a capital (the core's rule for text in capitals).
        return WEAK if block.table_id or not mostly_capitals(text, least=1, share=1) else _STRUCTURAL_CAPS
    return None


def own_heading(block: Block) -> str:
    """A numbered paragraph's heading: its bold lead-in, its whole short text, or the
    Title Case words before the first full stop ("Confidentiality. The Recipient ...")."""
    lead = block.lead_in
    # A bold quoted lead-in is a defined term (“Affiliate” means ...), not a heading.
    if lead and not lead.startswith(("\u201c", '"')) and len(lead) <= _HEADING_MAX_CHARS:
        return _strip_heading(lead)
    body = _without_label(block)
    if is_heading(body, styled=True) and (block.emphasised or title_case(body)):
        return _strip_heading(body)
    run_in = run_in_heading(body)
    return _strip_heading(body[run_in[0]:run_in[1]]) if run_in else ""


def heading_text(block: Block) -> str:
    """A heading paragraph's text without markdown marks or trailing punctuation."""
    markdown = markdown_heading(block.text)
    return _strip_heading(markdown[1] if markdown else block.text)


def _without_label(block: Block) -> str:
    if block.label:
        return block.text
    label = typed_label(block.text)
    return block.text[len(label.text):].lstrip(" .:)\u2013\u2014") if label else block.text


def _strip_heading(text: str) -> str:
    return text.strip().strip("*_").rstrip(".:;\u2013\u2014 ").strip()
