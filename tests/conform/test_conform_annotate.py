"""`addin-server annotate --conform`: each precedent comment says how it maps to the draft, read back."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import docx

from addin_server.annotate import Selection, annotate, body_paragraphs, open_docx
from addin_server.conform.explain import explainer, target_of

DRAFT = "common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx"  # Provider / Partner


def test_conform_lines_are_written_into_the_comments_and_read_back(conform_app: Any, contracts_dir: Path,
                                                                   tmp_path: Path) -> None:
    service = conform_app.extensions["precedent"]
    draft = tmp_path / "draft.docx"
    shutil.copy(contracts_dir / DRAFT, draft)
    paragraphs = body_paragraphs(open_docx(draft))
    index = next(i for i, p in enumerate(paragraphs) if p.text.startswith("Provider may use") or "Feedback" in p.text and len(p.text) > 150)
    find = lambda text: [r.hit for r in service.search(text, 2, ()).results]  # noqa: E731
    out = tmp_path / "annotated.docx"
    report = annotate(draft, out, find, Selection(indices=(index,)), explainer(service.pipeline, draft, service.settings.conform))
    assert report.comments == 2
    comments = [c.text for c in docx.Document(str(out)).comments]
    assert len(comments) == 2
    assert all("Conformed to this draft" in c or "Not defined in this draft" in c for c in comments)
    pilot = next(c for c in comments if "Pilot" in c)
    assert "Customer \u2192 Partner (suggested" in pilot  # a weak role: suggested, not applied
    assert docx.Document(str(out)).paragraphs[0].text == docx.Document(str(draft)).paragraphs[0].text


def test_the_draft_is_read_like_the_library(contracts_dir: Path) -> None:
    target = target_of(contracts_dir / DRAFT)
    assert set(target.party_names) >= {"Provider", "Partner"}
    assert any(d.term == "Feedback" for d in target.definitions)
