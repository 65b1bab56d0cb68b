"""`addin-server annotate`: precedent citations written as real Word comments, read back."""

import shutil
from pathlib import Path

import docx
import pytest

from addin_server.annotate import Selection, annotate, body_paragraphs, parse_indices, quote
from index_builder.index.build import build_index
from index_builder.errors import DocumentError, InvalidRequestError
from search_helpers import searcher

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


@pytest.fixture(scope="module")
def finder(tmp_path_factory, contracts_dir, embedder_factory):
    """Hybrid search over an index of two real agreements (fake embedder: fast)."""
    from index_builder.settings import load_settings

    library = tmp_path_factory.mktemp("library")
    for name in ("bonterms-cc0-1.0/bonterms-mutual-nda.docx",
                 "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx"):
        shutil.copy(contracts_dir / name, library / Path(name).name)
    settings = load_settings({}, {"index_dir": tmp_path_factory.mktemp("ix") / "index"})
    embedder = embedder_factory()
    build_index(settings, [library], embedder, progress=False)
    search = searcher(settings, embedder, fold=True)
    return lambda text: search(text, top_k=2)


def _anchored_paragraphs(document) -> list[int]:
    return [i for i, p in enumerate(body_paragraphs(document))
            if p._p.findall(f".//{W}commentRangeStart")]


def test_comments_are_written_and_read_back(tmp_path, contracts_dir, finder):
    source = contracts_dir / "common-paper-cc-by-4.0/common-paper-mutual-nda.docx"
    out = tmp_path / "annotated.docx"
    report = annotate(source, out, finder, Selection(min_chars=300))
    assert report.annotated and report.comments == 2 * len(report.annotated)
    document = docx.Document(str(out))
    comments = list(document.comments)
    assert len(comments) == report.comments
    first = comments[0]
    assert first.author == "Precedent"
    assert first.text.startswith("Precedent 1 of 2: ")
    assert "“" in first.text and "Source file: " in first.text and ".docx · clause id " in first.text
    assert _anchored_paragraphs(document) == report.annotated
    # The body text is untouched: only comments were added.
    original = [p.text for p in body_paragraphs(docx.Document(str(source)))]
    assert [p.text for p in body_paragraphs(document)] == original


def test_select_by_index_and_style(tmp_path, contracts_dir, finder):
    source = contracts_dir / "common-paper-cc-by-4.0/common-paper-mutual-nda.docx"
    paragraphs = body_paragraphs(docx.Document(str(source)))
    wanted = [i for i, p in enumerate(paragraphs) if len(p.text) > 100][:2]
    report = annotate(source, tmp_path / "a.docx", finder, Selection(indices=tuple(wanted)))
    assert report.annotated == wanted
    style = paragraphs[wanted[0]].style.name
    by_style = annotate(source, tmp_path / "b.docx", finder, Selection(style=style))
    assert wanted[0] in by_style.annotated


def test_bad_input_is_refused_clearly(tmp_path, contracts_dir, finder):
    corrupt = tmp_path / "corrupt.docx"
    corrupt.write_bytes(b"not a zip at all")
    with pytest.raises(DocumentError, match="corrupt.docx"):
        annotate(corrupt, tmp_path / "out.docx", finder, Selection())
    source = contracts_dir / "common-paper-cc-by-4.0/common-paper-mutual-nda.docx"
    with pytest.raises(InvalidRequestError, match="do not exist"):
        annotate(source, tmp_path / "out.docx", finder, Selection(indices=(99999,)))
    copy = tmp_path / "same.docx"
    shutil.copy(source, copy)
    with pytest.raises(InvalidRequestError, match="--out must differ"):
        annotate(copy, copy, finder, Selection())


def test_parse_indices_and_quote():
    assert parse_indices("3, 5-7") == (3, 5, 6, 7)
    with pytest.raises(InvalidRequestError):
        parse_indices("three")
    assert quote("short text") == "“short text”"
    long = quote("word " * 100, limit=20)
    assert long.endswith("…”") and len(long) < 30
