"""A drafting operation's edits as real Word tracked changes (w:ins / w:del) in a .docx
paragraph, with a comment giving the reasons and the checks: what `addin-server annotate
--instruction` writes.

Only a paragraph whose text is the clause and whose runs share one formatting is redlined
(rebuilding runs of mixed formatting would change it silently); any other gets the draft
in a comment instead, and the report says which.
"""

from __future__ import annotations

import copy
from datetime import datetime, timezone
from typing import Sequence

from docx.oxml.ns import qn
from docx.oxml import OxmlElement
from docx.text.paragraph import Paragraph

from addin_server.draft.checks import CheckResult
from addin_server.draft.edits import Edit

_ids = iter(range(9000, 10**9))  # w:id of each revision: unique within the document


def _text_runs(paragraph: Paragraph) -> list:
    """The runs that hold the clause's text (not the comment-reference runs annotate adds)."""
    return [r._r for r in paragraph.runs if r._r.find(f".//{qn('w:commentReference')}") is None]


def can_redline(paragraph: Paragraph, clause: str) -> bool:
    runs = _text_runs(paragraph)
    if not runs or "".join(r.text or "" for r in paragraph.runs if r._r in runs) != clause:
        return False
    return len({_rpr_xml(run) for run in runs}) == 1


def redline(paragraph: Paragraph, edits: Sequence[Edit], author: str) -> None:
    """Replace the clause's runs, in place, by the same text with each edit tracked."""
    runs = _text_runs(paragraph)
    text = "".join(r.text or "" for r in paragraph.runs if r._r in runs)
    rpr = runs[0].find(qn("w:rPr"))
    when = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    anchor = runs[0]  # comment ranges around the clause stay where they are
    last = 0
    for edit in sorted(edits, key=lambda e: e.start):
        _before(anchor, _run(text[last:edit.start], rpr))
        if edit.end > edit.start:
            _before(anchor, _revision("w:del", _run(text[edit.start:edit.end], rpr, deleted=True),
                                      author, when))
        if edit.new:
            _before(anchor, _revision("w:ins", _run(edit.new, rpr), author, when))
        last = edit.end
    _before(anchor, _run(text[last:], rpr))
    for run in runs:
        run.getparent().remove(run)


def comment_lines(label: str, edits: Sequence[Edit], checks: Sequence[CheckResult],
                  notes: Sequence[str]) -> list[str]:
    lines = [f"{label} by a drafting operation (no language model)."]
    lines += [f"“{e.old}” → “{e.new}”: {e.reason}." if e.old else f"Added “{e.new}”: {e.reason}."
              for e in edits]
    failed = [c for c in checks if c.passed is False]
    lines.append("Checks: " + ("; ".join(c.reason for c in failed) if failed else
                               "all applicable checks passed."))
    return lines + list(notes)


def _run(text: str, rpr, deleted: bool = False):
    if not text:
        return None
    run = OxmlElement("w:r")
    if rpr is not None:
        run.append(copy.deepcopy(rpr))
    t = OxmlElement("w:delText" if deleted else "w:t")
    t.set(qn("xml:space"), "preserve")
    t.text = text
    run.append(t)
    return run


def _revision(tag: str, run, author: str, when: str):
    element = OxmlElement(tag)
    element.set(qn("w:id"), str(next(_ids)))
    element.set(qn("w:author"), author)
    element.set(qn("w:date"), when)
    element.append(run)
    return element


def _before(anchor, element) -> None:
    if element is not None:
        anchor.addprevious(element)


def _rpr_xml(run) -> bytes:
    from lxml import etree

    rpr = run.find(qn("w:rPr"))
    return b"" if rpr is None else etree.tostring(rpr)
