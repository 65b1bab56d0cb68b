"""The one shape the readers take: a document's paragraphs as Word presents them.

The pane collects them with Office.js (document.js ``readParagraphs``: text, the automatic
number Word displays, style, heading, inside a table); the index has them as its clauses'
lines (``from_clauses``). Nothing else about the document is needed to read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from index_builder.model import Clause
from index_builder.reading.numbering import typed_number


def without_number(text: str) -> str:
    """``text`` without the number typed at its start and the spaces after it (the core's one
    reader of it: numbering.typed_number; Word's automatic number comes apart: Paragraph.number)."""
    typed = typed_number(text)
    return text[typed.end:].lstrip() if typed else text


@dataclass(frozen=True)
class Paragraph:
    index: int  # position among the body's paragraphs (Word's numbering, empty ones counted)
    text: str
    number: str = ""  # Word's automatic number as displayed ("4.2.", "(a)"); "" when typed or none
    style: str = ""
    is_heading: bool = False
    in_table: bool = False


def from_clauses(clauses: Sequence[Clause]) -> list[Paragraph]:
    """The index's clauses of one document as paragraphs, in order.

    A clause's lines are its paragraphs. A cover-page row becomes a clause whose heading is
    its first line and that has no section number ("NDA Term" / "Period for sharing ..."):
    its lines are read as table cells, as Word would present the row.
    """
    out: list[Paragraph] = []
    for clause in clauses:
        lines = [line for line in clause.text.splitlines() if line.strip()]
        row = bool(lines) and not clause.section and bool(clause.heading) and lines[0].strip() == clause.heading.strip() \
            and len(lines[0].split()) <= 8 and len(lines) > 1
        for n, line in enumerate(lines):
            number = clause.section if n == 0 and clause.section and not _typed(line, clause.section) else ""
            out.append(Paragraph(len(out), line, number, in_table=row))
    return out


def _typed(line: str, section: str) -> bool:
    """True when the clause's number is typed at the start of its first line (the core's
    reader of it, numbering.typed_number: "4.2 Fees", "Section 4.2.", "ARTICLE IV" for
    "Article IV")."""
    typed = typed_number(line)
    wanted = section.rstrip(".").lower()
    return bool(typed) and wanted in (typed.number.rstrip(".").lower(), typed.shown.rstrip(".").lower())


def texts(paragraphs: Iterable[Paragraph]) -> str:
    return "\n".join(p.text for p in paragraphs)


def from_pane(blocks: Iterable[dict]) -> list[Paragraph]:
    """The pane's blocks ({index, text, listString, style, isHeading, inTable}) as paragraphs."""
    return [Paragraph(int(b.get("index", i)), str(b.get("text", "")), str(b.get("listString", "") or ""),
                      str(b.get("style", "") or ""), bool(b.get("isHeading")), bool(b.get("inTable")))
            for i, b in enumerate(blocks)]
