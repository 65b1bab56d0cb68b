"""Word automatic numbering is rebuilt from numbering.xml exactly as Word displays it."""

from __future__ import annotations

import pytest

from index_builder.ingest.docx_reader import read_docx
from index_builder.ingest.numbering import format_number



def labels(path) -> list[str]:
    return [block.label for block in read_docx(path).blocks]


@pytest.mark.parametrize(
    ("number", "fmt", "expected"),
    [
        (3, "decimal", "3"),
        (3, "decimalZero", "03"),
        (1, "lowerLetter", "a"),
        (26, "upperLetter", "Z"),
        (27, "lowerLetter", "aa"),  # Word repeats the letter past z
        (4, "lowerRoman", "iv"),
        (1994, "upperRoman", "MCMXCIV"),
        (2, "ordinal", "2nd"),
        (5, "bullet", ""),
    ],
)
def test_format_number(number: int, fmt: str, expected: str) -> None:
    assert format_number(number, fmt) == expected


def test_multi_level_list_restarts_lower_levels(build_docx, kit) -> None:
    levels = [0, 1, 1, 2, 2, 3, 3, 0, 1, 2]
    path = build_docx(
        [kit.Para(f"item {i}", num=1, ilvl=lvl) for i, lvl in enumerate(levels)],
        numbering=kit.numbering_xml({0: kit.LEGAL}, {1: (0, "")}),
    )
    assert labels(path) == ["1.", "1.1", "1.2", "(a)", "(b)", "(i)", "(ii)", "2.", "2.1", "(a)"]


def test_start_values_and_upper_formats(build_docx, kit) -> None:
    template = [kit.Level("upperRoman", "Article %1", start=4), kit.Level("upperLetter", "%2.")]
    path = build_docx(
        [kit.Para("x", num=1, ilvl=lvl) for lvl in (0, 1, 1, 0, 1)],
        numbering=kit.numbering_xml({0: template}, {1: (0, "")}),
    )
    assert labels(path) == ["Article IV", "A.", "B.", "Article V", "A."]


def test_instances_of_one_template_share_counters_unless_start_is_overridden(
    build_docx, kit
) -> None:
    restart = kit.start_override
    nums = {1: (0, ""), 2: (0, ""), 3: (0, restart(0, 1)), 4: (0, restart(0, 7))}
    path = build_docx(
        [kit.Para(text, num=num) for text, num in zip("abcdef", (1, 1, 2, 3, 3, 4))],
        numbering=kit.numbering_xml({0: [kit.Level("decimal", "%1.")]}, nums),
    )
    # numId 2 continues numId 1; numIds 3 and 4 restart where they are first used.
    assert labels(path) == ["1.", "2.", "3.", "1.", "2.", "7."]


def test_level_override_replaces_the_level_definition(build_docx, kit) -> None:
    override = (
        '<w:lvlOverride w:ilvl="1"><w:lvl w:ilvl="1"><w:start w:val="1"/>'
        '<w:numFmt w:val="lowerRoman"/><w:lvlText w:val="%2)"/></w:lvl></w:lvlOverride>'
    )
    path = build_docx(
        [kit.Para(text, num=1, ilvl=ilvl) for text, ilvl in (("a", 0), ("b", 1), ("c", 1))],
        numbering=kit.numbering_xml({0: kit.LEGAL}, {1: (0, override)}),
    )
    assert labels(path) == ["1.", "i)", "ii)"]


def test_level_without_restart_keeps_counting(build_docx, kit) -> None:
    never = '<w:lvlRestart w:val="0"/>'
    template = [kit.Level("decimal", "Part %1"), kit.Level("decimal", "%2.", extra=never)]
    path = build_docx(
        [kit.Para("x", num=1, ilvl=lvl) for lvl in (0, 1, 1, 0, 1)],
        numbering=kit.numbering_xml({0: template}, {1: (0, "")}),
    )
    assert labels(path) == ["Part 1", "1.", "2.", "Part 2", "3."]


def test_legal_numbering_shows_higher_levels_as_decimal(build_docx, kit) -> None:
    template = [kit.Level("upperRoman", "%1."), kit.Level("decimal", "%1.%2", extra="<w:isLgl/>")]
    path = build_docx(
        [kit.Para("x", num=1, ilvl=lvl) for lvl in (0, 0, 1)],
        numbering=kit.numbering_xml({0: template}, {1: (0, "")}),
    )
    assert labels(path) == ["I.", "II.", "2.1"]


def test_numbering_carried_by_paragraph_styles(build_docx, kit) -> None:
    path = build_docx(
        [kit.Para("Definitions", style="Heading 1"), kit.Para("Scope", style="Heading 2"),
         kit.Para("Term", style="Heading 2"), kit.Para("Fees", style="Heading 1"),
         kit.Para("Payment", style="Heading 2")],
        numbering=kit.numbering_xml({0: kit.LEGAL}, {1: (0, "")}),
        style_numbering={"Heading 1": (1, 0), "Heading 2": (1, 1)},
    )
    assert labels(path) == ["1.", "1.1", "1.2", "2.", "2.1"]


def test_empty_numbered_paragraph_uses_up_its_number(build_docx, kit) -> None:
    path = build_docx(
        [kit.Para("first", num=1), kit.Para("", num=1), kit.Para("third", num=1)],
        numbering=kit.numbering_xml({0: [kit.Level("decimal", "%1.")]}, {1: (0, "")}),
    )
    assert labels(path) == ["1.", "3."]  # Word still draws "2." on the empty line


def test_unknown_num_id_and_num_id_zero_mean_no_number(build_docx, kit) -> None:
    path = build_docx(
        [kit.Para("a", num=0), kit.Para("b", num=42), kit.Para("c", num=1)],
        numbering=kit.numbering_xml({0: [kit.Level("decimal", "%1.")]}, {1: (0, "")}),
    )
    assert labels(path) == ["", "", "1."]


def test_template_linked_through_a_numbering_style(build_docx, kit) -> None:
    # Template 1 only says "use the numbering style LegalList", whose numId 2 points at
    # template 0, which holds the real levels.
    numbering = kit.numbering_xml({0: kit.LEGAL, 1: []}, {1: (1, ""), 2: (0, "")}).replace(
        '<w:abstractNum w:abstractNumId="1">',
        '<w:abstractNum w:abstractNumId="1"><w:numStyleLink w:val="LegalList"/>',
    )
    path = build_docx(
        [kit.Para("a", num=1, ilvl=0), kit.Para("b", num=1, ilvl=1)],
        numbering=numbering,
        numbering_style=("LegalList", 2),
    )
    assert labels(path) == ["1.", "1.1"]
