"""Read a .docx into Blocks: text, automatic numbers, heading styles and bold lead-ins."""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from lxml import etree

from index_builder.errors import DocumentError
from index_builder.ingest.blocks import Block, ParsedDocument
from index_builder.ingest.numbering import NumberedItem, NumberingCounter, NumberingDefinitions
from index_builder.ingest.ooxml import W, attr, is_on, open_docx
from index_builder.ingest.styles import StyleInfo, Styles, font_size
from index_builder.reading.defined_terms import quoted_terms
from index_builder.ingest.visibility import (
    LeftOut,
    cell_fill,
    color_of,
    fill_of,
    hidden_in,
    invisible_reason,
    page_color,
)

log = logging.getLogger(__name__)

_DC_TITLE = "{http://purl.org/dc/elements/1.1/}title"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
# Containers whose paragraphs or runs are not part of the body's flow: text boxes (Word
# lists them apart from body paragraphs), the duplicate fallback copy of alternate content,
# and tracked deletions.
_SKIPPED_CONTAINERS = frozenset(
    {W + "txbxContent", _MC + "Fallback", W + "del", W + "moveFrom"}
)
_LEAD_IN_STOPS = (".", ":", "\u2014", "\u2013")
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_SPACES = re.compile(r"[ \u00a0\u2002\u2003\u2009]+")


@dataclass(frozen=True)
class _Run:
    text: str
    emphasised: bool
    size: int  # half-points, 0 = unknown


def read_docx(path: Path) -> ParsedDocument:
    """Parse a .docx file into blocks, or raise DocumentError."""
    parts = open_docx(path)
    body = parts.document.find(W + "body")
    if body is None:
        raise DocumentError(f"{path}: not a Word document (word/document.xml has no body)")
    styles = Styles(parts.styles)
    definitions = NumberingDefinitions(parts.numbering, styles.numbering_style_num_ids())
    reader = _ParagraphReader(styles, definitions, page_color(parts.document))
    blocks = [
        block
        for index, paragraph in enumerate(body_paragraph_elements(body))
        if (block := reader.read(index, paragraph)) is not None
    ]
    note = reader.left_out.note()
    if note:
        log.info("%s: %s", path.name, note)
    return ParsedDocument(
        tuple(blocks), title=_core_title(parts.core), format="docx", notes=(note,) if note else ()
    )


def body_paragraph_elements(body: etree._Element) -> Iterator[etree._Element]:
    """Body paragraphs in reading order, table cells included: the paragraph index space."""
    for paragraph in body.iter(W + "p"):
        if not _inside(paragraph, body, _SKIPPED_CONTAINERS):
            yield paragraph


def _inside(element: etree._Element, stop: etree._Element, tags: frozenset[str]) -> bool:
    for ancestor in element.iterancestors():
        if ancestor is stop:
            return False
        if ancestor.tag in tags:
            return True
    return False


def _core_title(core: etree._Element | None) -> str:
    if core is None:
        return ""
    element = core.find(_DC_TITLE)
    return " ".join((element.text or "").split()) if element is not None else ""


class _ParagraphReader:
    """Turns w:p elements into Blocks; keeps the numbering counters between paragraphs."""

    def __init__(self, styles: Styles, definitions: NumberingDefinitions, page: str) -> None:
        self._styles = styles
        self._definitions = definitions
        self._counter = NumberingCounter(definitions)
        self._page = page
        self.left_out = LeftOut(Counter())

    def read(self, index: int, paragraph: etree._Element) -> Block | None:
        ppr = paragraph.find(W + "pPr")
        style = self._styles.get(attr(ppr.find(W + "pStyle")) if ppr is not None else None)
        background = fill_of(ppr) or style.fill or cell_fill(paragraph) or self._page
        runs = list(_runs(paragraph, self._styles, style, background, self.left_out))
        text = _clean("".join(run.text for run in runs))
        # An empty numbered paragraph still draws (and uses up) its number, except the
        # empty paragraph that only carries a section break: cross-references in the
        # Common Paper forms show Word skips it.
        if not text and ppr is not None and ppr.find(W + "sectPr") is not None:
            return None
        item = self._numbering(ppr, style)
        if not text:
            return None
        table_id, row_id = _table_position(paragraph)
        return Block(
            index=index,
            text=text,
            label=item.label if item else "",
            number_format=item.number_format if item else "",
            level=item.level if item else None,
            list_id=item.template if item else "",
            bullet=item.bullet if item else False,
            outline_level=style.outline_level,
            is_title=style.is_title,
            emphasised=all(run.emphasised for run in runs if run.text.strip()),
            font_size=max((run.size for run in runs if run.text.strip()), default=0),
            lead_in=_lead_in(runs),
            bold_terms=_bold_terms(runs),
            table_id=table_id,
            row_id=row_id,
        )

    def _numbering(self, ppr: etree._Element | None, style: StyleInfo) -> NumberedItem | None:
        num_pr = ppr.find(W + "numPr") if ppr is not None else None
        num_id = attr(num_pr.find(W + "numId")) if num_pr is not None else None
        ilvl = attr(num_pr.find(W + "ilvl")) if num_pr is not None else None
        num_id = num_id or style.num_id
        if not num_id:
            return None
        if ilvl is not None and ilvl.isdigit():
            level = int(ilvl)
        elif style.ilvl is not None:
            level = style.ilvl
        else:
            level = self._counter_level_for_style(num_id, style.style_id)
        return self._counter.next_item(num_id, level)

    def _counter_level_for_style(self, num_id: str, style_id: str) -> int:
        found = self._definitions.level_for_style(num_id, style_id)
        return found if found is not None else 0


def _table_position(paragraph: etree._Element) -> tuple[str, str]:
    """Identities of the outermost table and table row holding the paragraph ("" outside).

    Outermost, because a table nested in a cell belongs to that cell's row.
    """
    rows = list(paragraph.iterancestors(W + "tr"))
    tables = list(paragraph.iterancestors(W + "tbl"))
    if not rows or not tables:
        return "", ""
    tree = paragraph.getroottree()
    return tree.getpath(tables[-1]), tree.getpath(rows[-1])


def _runs(
    paragraph: etree._Element,
    styles: Styles,
    paragraph_style: StyleInfo,
    background: str,
    left_out: LeftOut,
) -> Iterator[_Run]:
    for run in paragraph.iter(W + "r"):
        if _inside(run, paragraph, _SKIPPED_CONTAINERS):
            continue
        rpr = run.find(W + "rPr")
        text = "".join(_run_text(run))
        if not text:
            continue
        char_id = attr(rpr.find(W + "rStyle")) if rpr is not None else None
        char = styles.get(char_id) if char_id else StyleInfo("")
        defaults = styles.defaults
        size = font_size(rpr) or char.size or paragraph_style.size or defaults.size
        # What the reader cannot see is not what the document says to them.
        hidden = hidden_in(rpr)
        if hidden is None:
            hidden = char.hidden or paragraph_style.hidden or defaults.hidden
        color = color_of(rpr) or char.color or paragraph_style.color or defaults.color
        behind = fill_of(rpr, highlight=True) or char.run_fill or paragraph_style.run_fill
        reason = invisible_reason(hidden, color, behind or background, size)
        if reason:
            if text.strip():
                left_out.reasons[reason] += 1
            continue
        yield _Run(text, _emphasised(rpr, styles, paragraph_style), size)


def _run_text(run: etree._Element) -> Iterator[str]:
    for child in run:
        tag = child.tag
        if tag == W + "t":
            yield child.text or ""
        elif tag in (W + "tab", W + "ptab"):
            yield "\t"
        elif tag in (W + "br", W + "cr"):
            yield "\n" if attr(child, "type") in (None, "textWrapping") else " "
        elif tag == W + "noBreakHyphen":
            yield "-"


def _emphasised(rpr: etree._Element | None, styles: Styles, paragraph_style: StyleInfo) -> bool:
    char_style_id = attr(rpr.find(W + "rStyle")) if rpr is not None else None
    char_style = styles.get(char_style_id) if char_style_id else StyleInfo("")
    return _flag(rpr, "b", char_style.bold or paragraph_style.bold) or _flag(
        rpr, "u", char_style.underline or paragraph_style.underline
    )


def _flag(rpr: etree._Element | None, tag: str, inherited: bool) -> bool:
    """A run's own toggle wins; without one it inherits from its character/paragraph style."""
    element = rpr.find(W + tag) if rpr is not None else None
    return inherited if element is None else is_on(element)


def _lead_in(runs: list[_Run]) -> str:
    """Bold/underlined opening words that end in a stop ("Confidentiality. The ...").

    Without the stop a bold first word is emphasis ("**Provider** will ..."), not a heading.
    """
    lead: list[str] = []
    for position, run in enumerate(runs):
        if not run.emphasised and run.text.strip():
            heading = _clean("".join(lead))
            rest = "".join(r.text for r in runs[position:]).lstrip()
            ends = heading.endswith(_LEAD_IN_STOPS) or rest.startswith(_LEAD_IN_STOPS)
            return heading if heading and ends else ""
        lead.append(run.text)
    return ""  # the whole paragraph is emphasised: a heading, not a lead-in


def _bold_terms(runs: list[_Run]) -> tuple[str, ...]:
    """Quoted terms inside bold/underlined stretches, e.g. **“Confidential Information”**."""
    stretches, current = [], []
    for run in runs:
        if run.emphasised:
            current.append(run.text)
        elif current:
            stretches.append("".join(current))
            current = []
    if current:
        stretches.append("".join(current))
    return tuple(term for stretch in stretches for term in quoted_terms(stretch))


def _clean(text: str) -> str:
    text = _INVISIBLE.sub("", text)
    lines = (_SPACES.sub(" ", line.replace("\t", " ")).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def word_paragraphs(path: Path) -> list[dict]:
    """A .docx as Word hands its body to the pane (document.js ``readParagraphs``): every
    paragraph in order, empty ones included so indices match Word's, as
    {index, text, listString, style, isHeading, inTable}. For tests and benchmarks that run
    the pane's own code on real agreements."""
    blocks = read_docx(Path(path)).blocks
    by_index = {b.index: b for b in blocks}
    out = []
    for index in range(max((b.index for b in blocks), default=-1) + 1):
        block = by_index.get(index)
        if block is None:
            out.append({"index": index, "text": "", "listString": "", "style": "Normal", "isHeading": False, "inTable": False})
            continue
        style = "Title" if block.is_title else (
            f"Heading {block.outline_level + 1}" if block.outline_level is not None else "Normal")
        out.append({"index": index, "text": block.text, "listString": "" if block.bullet else block.label, "style": style,
                    "isHeading": block.outline_level is not None, "inTable": bool(block.table_id)})
    return out
