"""Write precedent citations as real Word comments into a .docx, without Word.

Firms batch-review a draft this way, and it checks the pipeline on a document end to end:
each chosen paragraph gets one comment per precedent, naming the source document, section
and a short quote, exactly what the add-in would attach in Word.
"""

from __future__ import annotations

import logging
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import docx
from docx.opc.exceptions import PackageNotFoundError
from docx.text.paragraph import Paragraph

from index_builder.ingest.docx_reader import body_paragraph_elements
from index_builder.errors import DocumentError, InvalidRequestError
from index_builder.model import Clause, SearchHit

log = logging.getLogger(__name__)

FindPrecedents = Callable[[str], Sequence[SearchHit]]
# (paragraph text, precedents) -> the router's draft (addin_server.draft.router.Drafted)
RedraftParagraph = Callable[[str, Sequence[Clause]], Any]
AUTHOR, INITIALS = "Precedent", "P"


@dataclass(frozen=True)
class Selection:
    """Which paragraphs to annotate: explicit indices, a style, or all substantive ones."""

    indices: tuple[int, ...] = ()
    style: str = ""
    min_chars: int = 200


@dataclass
class AnnotateReport:
    annotated: list[int] = field(default_factory=list)
    comments: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)
    redlined: list[int] = field(default_factory=list)  # paragraphs given tracked changes


def parse_indices(spec: str) -> tuple[int, ...]:
    """'3,5-7' -> (3, 5, 6, 7); paragraph indices are 0-based, as `--list` prints them."""
    out: list[int] = []
    try:
        for part in filter(None, (p.strip() for p in spec.split(","))):
            low, _, high = part.partition("-")
            out.extend(range(int(low), int(high or low) + 1))
    except ValueError:
        raise InvalidRequestError(f"--paragraphs {spec!r} must look like '3,5-7'.") from None
    return tuple(out)


def open_docx(path: Path) -> docx.document.Document:
    """Open a .docx or raise DocumentError naming the file and the problem."""
    try:
        return docx.Document(str(path))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise DocumentError(f"{path} is not a readable .docx ({exc.__class__.__name__}); "
                            f"open and re-save it in Word.") from exc
    except FileNotFoundError:
        raise DocumentError(f"{path} does not exist.") from None


def body_paragraphs(document: docx.document.Document) -> list[Paragraph]:
    """Every body paragraph in reading order, table cells included.

    Many templates keep their clauses in tables, which ``document.paragraphs`` omits; the
    order and indices match the index builder's ``paragraph_start``/``paragraph_end``.
    """
    body = document.element.body
    return [Paragraph(p, document._body) for p in body_paragraph_elements(body)]


def choose(paragraphs: Sequence[Paragraph], selection: Selection) -> list[int]:
    """Indices of the paragraphs to annotate, validated against the document."""
    if selection.indices:
        bad = [i for i in selection.indices if not 0 <= i < len(paragraphs)]
        if bad:
            raise InvalidRequestError(f"Paragraphs {bad} do not exist: the document has "
                                      f"{len(paragraphs)} (0..{len(paragraphs) - 1}).")
        return list(selection.indices)
    if selection.style:
        return [i for i, p in enumerate(paragraphs)
                if p.style is not None and p.style.name == selection.style and p.text.strip()]
    return [i for i, p in enumerate(paragraphs) if len(p.text.strip()) >= selection.min_chars]


def annotate(source: Path, out: Path, find: FindPrecedents, selection: Selection,
             redraft: RedraftParagraph | None = None) -> AnnotateReport:
    """Add precedent comments to the chosen paragraphs of source and save to out; with
    ``redraft``, also the drafting operation's edits as tracked changes (issue 32)."""
    if source.resolve() == out.resolve():
        raise InvalidRequestError("--out must differ from the input, so the original is never lost.")
    document = open_docx(source)
    paragraphs = body_paragraphs(document)
    report = AnnotateReport()
    for index in choose(paragraphs, selection):
        paragraph = paragraphs[index]
        if not paragraph.runs:
            report.skipped.append((index, "no text runs to anchor a comment on"))
            continue
        hits = list(find(paragraph.text))
        if not hits:
            report.skipped.append((index, "no precedent found"))
            continue
        for n, hit in enumerate(hits, 1):
            comment = document.add_comment(paragraph.runs, text=comment_heading(n, len(hits), hit.clause),
                                           author=AUTHOR, initials=INITIALS)
            comment.add_paragraph(quote(hit.clause.text))
            comment.add_paragraph(f"Source file: {Path(hit.clause.source_path).name or hit.clause.doc_id}"
                                  f" · clause id {hit.clause.clause_id}")
            report.comments += 1
        if redraft is not None:
            _redraft_paragraph(document, paragraph, [h.clause for h in hits], redraft, report, index)
        report.annotated.append(index)
    out.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(out))
    log.info("Annotated %d paragraphs with %d comments", len(report.annotated), report.comments)
    return report


def comment_heading(n: int, total: int, clause: Clause) -> str:
    return f"Precedent {n} of {total}: {clause.citation()}"


def quote(text: str, limit: int = 240) -> str:
    """A short quote cut at a word boundary, in typographic quotes."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return f"“{flat}”"
    return f"“{flat[:limit].rsplit(' ', 1)[0]}…”"


def _redraft_paragraph(document: Any, paragraph: Paragraph, precedents: list[Clause],
                       redraft: RedraftParagraph, report: AnnotateReport, index: int) -> None:
    """The operation's edits as tracked changes, with a comment giving reasons and checks."""
    from addin_server.draft.edits import Declined
    from addin_server.draft.redline import can_redline, comment_lines, redline
    from index_builder.errors import PrecedentError

    text = paragraph.text
    try:
        drafted = redraft(text, precedents)
    except (Declined, PrecedentError) as exc:
        reason = getattr(exc, "reason", None) or getattr(exc, "message", str(exc))
        document.add_comment(paragraph.runs, text=f"No redraft: {reason}", author=AUTHOR,
                             initials=INITIALS)
        report.comments += 1
        report.skipped.append((index, f"not redrafted: {reason}"))
        return
    if drafted.operation is None or not drafted.edits:
        report.skipped.append((index, "nothing to change: " + "; ".join(drafted.notes)))
        return
    lines = comment_lines(drafted.operation.label, drafted.edits, drafted.checks, drafted.notes)
    comment = document.add_comment(paragraph.runs, text=lines[0], author=AUTHOR, initials=INITIALS)
    for line in lines[1:]:
        comment.add_paragraph(line)
    report.comments += 1
    if can_redline(paragraph, text):
        redline(paragraph, drafted.edits, AUTHOR)
        report.redlined.append(index)
    else:
        comment.add_paragraph("Proposed text (mixed formatting, so not redlined): "
                              + drafted.result.verified.text)
