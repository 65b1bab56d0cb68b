"""Fixtures for document tests: the shared real contracts and small .docx builders."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Callable, Sequence

import pytest
from docx import Document
from docx.oxml import parse_xml

# The real agreements live beside the repository (/work/shared/data/contracts); they are
# never copied into it.
CONTRACTS_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "contracts"

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


@pytest.fixture(scope="session")
def contracts_dir() -> Path:
    if not CONTRACTS_DIR.is_dir():
        pytest.skip(f"real contracts not available: {CONTRACTS_DIR} is missing")
    return CONTRACTS_DIR


@dataclass(frozen=True)
class Para:
    """One paragraph of a test document."""

    text: str
    num: int | None = None  # numId; None = not in a list
    ilvl: int | None = 0  # None = leave w:ilvl out (the style or level pStyle decides)
    style: str | None = None
    lead: str = ""  # bold lead-in run before ``text``, e.g. "Confidentiality."


@dataclass(frozen=True)
class Level:
    fmt: str
    text: str
    start: int = 1
    extra: str = ""  # raw XML inside w:lvl, e.g. '<w:lvlRestart w:val="0"/>'


def numbering_xml(
    templates: dict[int, Sequence[Level]], nums: dict[int, tuple[int, str]]
) -> str:
    """numbering.xml with abstractNums {id: levels} and nums {numId: (abstractId, inner)}."""
    parts = [f'<w:numbering xmlns:w="{W_NS}">']
    for template_id, levels in templates.items():
        parts.append(f'<w:abstractNum w:abstractNumId="{template_id}">')
        for ilvl, level in enumerate(levels):
            parts.append(
                f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{level.start}"/>'
                f'<w:numFmt w:val="{level.fmt}"/><w:lvlText w:val="{level.text}"/>'
                f"{level.extra}</w:lvl>"
            )
        parts.append("</w:abstractNum>")
    for num_id, (template_id, inner) in nums.items():
        parts.append(
            f'<w:num w:numId="{num_id}"><w:abstractNumId w:val="{template_id}"/>{inner}</w:num>'
        )
    parts.append("</w:numbering>")
    return "".join(parts)


def start_override(ilvl: int, value: int) -> str:
    return f'<w:lvlOverride w:ilvl="{ilvl}"><w:startOverride w:val="{value}"/></w:lvlOverride>'


LEGAL = [  # the usual contract outline: 1. / 1.1 / (a) / (i)
    Level("decimal", "%1."),
    Level("decimal", "%1.%2"),
    Level("lowerLetter", "(%3)"),
    Level("lowerRoman", "(%4)"),
]

BuildDocx = Callable[..., Path]


@pytest.fixture(scope="session")
def kit() -> SimpleNamespace:
    """The builders' vocabulary (tests have no package to import it from)."""
    return SimpleNamespace(
        Para=Para, Level=Level, numbering_xml=numbering_xml, start_override=start_override,
        LEGAL=LEGAL,
    )


@pytest.fixture
def build_docx(tmp_path: Path) -> BuildDocx:
    """Write a .docx from Para specs, with optional numbering.xml and numbered styles.

    ``style_numbering`` gives paragraph styles a numPr; ``numbering_style`` adds a
    numbering style (style id, numId) that templates can link to with numStyleLink.
    """

    def build(
        paras: Sequence[Para],
        numbering: str | None = None,
        style_numbering: dict[str, tuple[int, int | None]] | None = None,
        numbering_style: tuple[str, int] | None = None,
        title: str = "",
        name: str = "test-doc.docx",
    ) -> Path:
        document = Document()
        if numbering is not None:
            document.part.numbering_part._element = parse_xml(numbering)
        for style_name, (num_id, ilvl) in (style_numbering or {}).items():
            num_pr = document.styles[style_name].element.get_or_add_pPr().get_or_add_numPr()
            num_pr.get_or_add_numId().val = num_id
            if ilvl is not None:
                num_pr.get_or_add_ilvl().val = ilvl
        if numbering_style is not None:
            style_id, num_id = numbering_style
            document.styles.element.append(parse_xml(
                f'<w:style xmlns:w="{W_NS}" w:type="numbering" w:styleId="{style_id}">'
                f'<w:name w:val="{style_id}"/><w:pPr><w:numPr><w:numId w:val="{num_id}"/>'
                "</w:numPr></w:pPr></w:style>"
            ))
        for para in paras:
            paragraph = document.add_paragraph(style=para.style)
            if para.lead:
                paragraph.add_run(para.lead).bold = True
                paragraph.add_run(" ")
            paragraph.add_run(para.text)
            if para.num is not None:
                num_pr = paragraph._p.get_or_add_pPr().get_or_add_numPr()
                num_pr.get_or_add_numId().val = para.num
                if para.ilvl is not None:
                    num_pr.get_or_add_ilvl().val = para.ilvl
        document.core_properties.title = title
        path = tmp_path / name
        document.save(str(path))
        return path

    return build
