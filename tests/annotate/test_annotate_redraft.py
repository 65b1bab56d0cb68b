"""`addin-server annotate --instruction`: a drafting operation's edits written as real Word
tracked changes with a comment giving the reasons and the checks, read back."""

from pathlib import Path

import docx

from addin_server.annotate import Selection, annotate, body_paragraphs
from addin_server.draft.checks import DraftTask
from addin_server.draft.router import DraftRouter
from index_builder.model import Clause, SearchHit

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
ISSUE = "The Supplier shall not be liable to the Customer for any indirect or consequential loss."
TERMINATION = ("Either party may terminate this Agreement if the other party fails to cure a "
               "material breach within thirty (30) days after notice.")
PRECEDENT = Clause("p1", "Neither party shall be liable to the other party for any indirect "
                         "or consequential loss.", "msa", doc_title="MSA", section="9")


def _draft(path: Path) -> Path:
    document = docx.Document()
    document.add_paragraph("9. Liability")
    document.add_paragraph(ISSUE)
    mixed = document.add_paragraph("The Supplier shall ")
    mixed.add_run("not").bold = True
    mixed.add_run(" be liable to the Customer for any loss.")
    document.add_paragraph(TERMINATION)
    document.save(str(path))
    return path


def _redraft(instruction: str):
    router = DraftRouter(None)
    return lambda text, precedents: router.draft(DraftTask(text, instruction, tuple(precedents)),
                                                 "operation")


def _find(text: str) -> list[SearchHit]:
    return [SearchHit(PRECEDENT, 0.5, 1)]


def test_make_mutual_written_as_tracked_changes_and_read_back(tmp_path: Path) -> None:
    source, out = _draft(tmp_path / "draft.docx"), tmp_path / "out.docx"
    report = annotate(source, out, _find, Selection(indices=(1, 2, 3)), _redraft("Make this mutual"))
    assert report.redlined == [1]  # the mixed-formatting paragraph gets a comment, not a redline
    document = docx.Document(str(out))
    paragraphs = body_paragraphs(document)
    p = paragraphs[1]._p
    deleted = ["".join(t.text for t in d.iter(f"{W}delText")) for d in p.iter(f"{W}del")]
    inserted = ["".join(t.text for t in i.iter(f"{W}t")) for i in p.iter(f"{W}ins")]
    assert deleted == ["The Supplier", " not", "the Customer"]
    assert inserted == ["Neither party", "the other party"]
    assert all(d.get(f"{W}author") == "Precedent" for d in p.iter(f"{W}del"))
    # Accepting every change gives the operation's draft; rejecting them gives the original.
    accepted = "".join(t.text for t in p.iter(f"{W}t"))
    rejected = "".join(t.text for t in p.iter(f"{W}t", f"{W}delText")
                       if t.getparent().getparent().tag != f"{W}ins")
    assert accepted == "Neither party shall be liable to the other party for any indirect or consequential loss."
    assert rejected == ISSUE
    notes = [c.text for c in document.comments if "drafting operation" in c.text]
    assert len(notes) == 2
    assert "binds both parties instead of only the Supplier" in notes[0]
    assert "Checks: all applicable checks passed." in notes[0]
    assert "not redlined" in notes[1]
    # The termination clause is already mutual: no change, and the report says so.
    assert any(i == 3 and "nothing to change" in why for i, why in report.skipped)
    assert paragraphs[3].text == TERMINATION


def test_period_change_and_a_declined_instruction(tmp_path: Path) -> None:
    source, out = _draft(tmp_path / "draft.docx"), tmp_path / "out.docx"
    report = annotate(source, out, _find, Selection(indices=(1, 3)),
                      _redraft("Change the cure period to 15 days"))
    assert report.redlined == [3]
    document = docx.Document(str(out))
    p = body_paragraphs(document)[3]._p
    assert ["".join(t.text for t in i.iter(f"{W}t")) for i in p.iter(f"{W}ins")] == ["fifteen (15) days"]
    assert any("No redraft: The clause states no period" in c.text for c in document.comments)
