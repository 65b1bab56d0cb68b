"""Segmentation of small built documents: granularity, sections, headings, provenance."""

from __future__ import annotations

from pathlib import Path

from docx import Document

from index_builder.ingest import read_clauses
from index_builder.model import Clause


def by_section(clauses: list[Clause]) -> dict[str, Clause]:
    return {clause.section: clause for clause in clauses if clause.section}


def outline_doc(build_docx, kit, paras) -> Path:
    return build_docx(paras, numbering=kit.numbering_xml({0: kit.LEGAL}, {1: (0, "")}))


def test_second_level_clauses_carry_their_nested_items(build_docx, kit) -> None:
    P = kit.Para
    path = outline_doc(build_docx, kit, [
        P("Limitation of Liability", num=1, ilvl=0),
        P("Each party's liability is capped at the fees paid.", num=1, ilvl=1, lead="Cap."),
        P("Neither party is liable for indirect damages:", num=1, ilvl=1, lead="Waiver."),
        P("lost profits;", num=1, ilvl=2),
        P("loss of data; or", num=1, ilvl=2),
        P("punitive damages, unless", num=1, ilvl=3),
        P("The waiver survives termination.", num=None),
    ])
    clauses = read_clauses(path, "doc", "forms/doc.docx")
    assert [c.section for c in clauses] == ["1.1", "1.2"]  # "1." alone is just a heading
    waiver = by_section(clauses)["1.2"]
    assert waiver.heading == "Waiver"
    assert waiver.text.splitlines() == [
        "1.2 Waiver. Neither party is liable for indirect damages:",
        "(a) lost profits;",
        "(b) loss of data; or",
        "(i) punitive damages, unless",
        "The waiver survives termination.",
    ]
    assert (waiver.paragraph_start, waiver.paragraph_end) == (2, 6)
    assert by_section(clauses)["1.1"].heading == "Cap"
    assert waiver.clause_id == "doc#1.2"
    assert waiver.source_path == "forms/doc.docx"
    assert waiver.metadata == {"type": "contract", "format": "docx"}


def test_items_directly_under_a_top_level_section_are_cited_like_8a(build_docx, kit) -> None:
    template = [kit.Level("decimal", "%1."), kit.Level("lowerLetter", "(%2)")]
    paras = [kit.Para(f"Section {n} text that says something.", num=1) for n in range(7)]
    paras += [
        kit.Para("Remedies", num=1, ilvl=0),
        kit.Para("Injunctive relief is available for a breach of confidentiality.", num=1, ilvl=1),
        kit.Para("Remedies are cumulative and not exclusive of each other.", num=1, ilvl=1),
    ]
    path = build_docx(paras, numbering=kit.numbering_xml({0: template}, {1: (0, "")}))
    clauses = by_section(read_clauses(path, "doc", "doc.docx"))
    assert clauses["8(a)"].heading == "Remedies"  # the parent's heading
    assert clauses["8(b)"].text.startswith("(b) Remedies are cumulative")
    assert "8" not in clauses  # the lead-in "8. Remedies" is only a heading


def test_substantive_lead_in_of_a_top_level_section_is_its_own_clause(build_docx, kit) -> None:
    P = kit.Para
    path = outline_doc(build_docx, kit, [
        P("Each party will keep the other's Confidential Information secret as follows.",
          num=1, lead="Confidentiality."),
        P("Use it only for the Purpose.", num=1, ilvl=1),
        P("Protect it with reasonable care.", num=1, ilvl=1),
    ])
    clauses = read_clauses(path, "doc", "doc.docx")
    assert [(c.section, c.heading) for c in clauses] == [
        ("1", "Confidentiality"), ("1.1", "Confidentiality"), ("1.2", "Confidentiality")
    ]
    assert clauses[0].text == (
        "1. Confidentiality. Each party will keep the other's Confidential Information "
        "secret as follows."
    )


def test_long_clause_is_split_at_its_child_level(build_docx, kit) -> None:
    P = kit.Para
    sentence = "The Provider shall maintain the security measures described here. " * 12
    paras = [P("Security", num=1), P("Security Measures", num=1, ilvl=1)]
    paras += [P(f"{sentence}({n})", num=1, ilvl=2) for n in range(6)]
    clauses = read_clauses(outline_doc(build_docx, kit, paras), "doc", "doc.docx")
    assert [c.section for c in clauses] == [f"1.1({c})" for c in "abcdef"]
    assert all(c.heading == "Security Measures" for c in clauses)
    assert all(len(c.text) <= 4000 for c in clauses)


def test_defined_terms_go_to_metadata_and_stay_in_the_text(build_docx, kit) -> None:
    P = kit.Para
    path = outline_doc(build_docx, kit, [
        P("Definitions", num=1),
        P("means non-public information disclosed by a party.", num=1, ilvl=1,
          lead="“Confidential Information”"),
        P("This agreement is between Acme (the “Company”) and Bob (“Advisor”).", num=1,
          ilvl=1),
    ])
    first, second = read_clauses(path, "doc", "doc.docx")
    assert first.metadata["defines"] == "Confidential Information"
    assert "“Confidential Information” means" in first.text
    assert first.heading == "Definitions"  # a quoted term is not a heading
    assert second.metadata["defines"] == "Company; Advisor"


def test_typed_numbers_in_a_docx_are_recognised(build_docx, kit) -> None:
    P = kit.Para
    path = build_docx([
        P("Section 9. Governing Law. This Agreement is governed by the laws of Delaware."),
        P("Article IV"),
        P("4.1 Notices. Notices must be in writing and delivered by email."),
        P("(a) Notices to the Company go to legal@example.com."),
        P("(b) Notices to the Advisor go to the address on the signature page."),
    ])
    clauses = read_clauses(path, "doc", "doc.docx")
    assert [(c.section, c.heading) for c in clauses] == [
        ("9", "Governing Law"), ("4.1", "Notices")
    ]
    assert clauses[1].text.count("\n") == 2  # (a) and (b) stay inside 4.1


def test_clauses_in_tables_are_read(tmp_path: Path) -> None:
    document = Document()
    document.add_paragraph("Cover Page")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).paragraphs[0].add_run("Governing Law").bold = True
    table.cell(0, 1).text = "This Agreement is governed by the laws of {governing_law}."
    table.cell(1, 0).paragraphs[0].add_run("Purpose").bold = True
    table.cell(1, 1).text = "[Fill in purpose]"
    path = tmp_path / "cover.docx"
    document.save(str(path))
    clauses = read_clauses(path, "cover", "cover.docx")
    assert [(c.heading, c.text) for c in clauses] == [
        ("Governing Law",
         "Governing Law\nThis Agreement is governed by the laws of {governing_law}.")
    ]  # the Purpose row holds only a placeholder: a form field, not a clause


def test_a_table_row_is_never_cut(tmp_path: Path) -> None:
    document = Document()
    row = document.add_table(rows=1, cols=2).rows[0]
    row.cells[0].paragraphs[0].add_run("Insurance").bold = True
    row.cells[1].text = "Provider will maintain the following insurance:"
    for kind in ("General liability of $1M", "Cyber liability of $2M", "Workers compensation"):
        row.cells[1].add_paragraph(kind)
    path = tmp_path / "row.docx"
    document.save(str(path))
    (clause,) = read_clauses(path, "row", "row.docx")
    assert clause.heading == "Insurance"
    assert clause.text.splitlines()[-1] == "Workers compensation"


def test_document_without_numbering_falls_back_to_paragraph_groups(tmp_path: Path) -> None:
    document = Document()
    document.add_heading("Offer of Employment", level=0)
    document.add_heading("Position", level=1)
    for n in range(4):
        document.add_paragraph(f"Paragraph {n} of the position section says something.")
    document.add_heading("Salary", level=1)
    document.add_paragraph("Your salary will be {salary} per year, paid monthly.")
    path = tmp_path / "offer-letter.docx"
    document.save(str(path))
    clauses = read_clauses(path, "offer", "offer.docx")
    assert [(c.heading, c.section, c.paragraph_start, c.paragraph_end) for c in clauses] == [
        ("Position", "", 1, 4), ("Position", "", 5, 5), ("Salary", "", 6, 7)
    ]
    assert clauses[0].text.startswith("Position\nParagraph 0")
    assert {c.doc_title for c in clauses} == {"Offer of Employment"}
    assert [c.clause_id for c in clauses] == ["offer#p1", "offer#p5", "offer#p6"]


def test_doc_title_prefers_core_properties_then_falls_back_to_file_name(
    build_docx, kit
) -> None:
    text = kit.Para("The parties agree to cooperate in good faith on the project.")
    titled = build_docx([text], title="Master Services Agreement", name="a.docx")
    assert read_clauses(titled, "a", "a.docx")[0].doc_title == "Master Services Agreement"
    untitled = build_docx([text], name="common-paper-mutual-nda.docx")
    assert read_clauses(untitled, "b", "b.docx")[0].doc_title == "Common Paper Mutual NDA"


def test_repeated_section_numbers_get_unique_stable_ids(build_docx, kit) -> None:
    P = kit.Para
    paras = [P("First schedule clause with some words in it.", num=1),
             P("Second schedule clause with some words in it.", num=2)]
    nums = {1: (0, ""), 2: (0, kit.start_override(0, 1))}
    path = build_docx(paras, numbering=kit.numbering_xml({0: kit.LEGAL}, nums))
    first = [c.clause_id for c in read_clauses(path, "d", "d.docx")]
    assert first == ["d#1", "d#1-2"]
    assert [c.clause_id for c in read_clauses(path, "d", "d.docx")] == first
