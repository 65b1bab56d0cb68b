"""Segmentation of the real Common Paper, Bonterms and OpenAgreements forms.

Expected values were checked by eye against the documents (and against their own
cross-references, e.g. "Section 12.3 (Governing Law and Chosen Courts)").
"""

from __future__ import annotations

from pathlib import Path

from index_builder.ingest import read_clauses
from index_builder.model import Clause

MAX_REASONABLE_CHARS = 6000


def load(contracts_dir: Path, name: str) -> list[Clause]:
    path = contracts_dir / f"{name}.docx"
    return read_clauses(path, name, f"{name}.docx")


def sections(clauses: list[Clause]) -> dict[str, Clause]:
    return {clause.section: clause for clause in clauses if clause.section}


def assert_well_formed(clauses: list[Clause]) -> None:
    assert clauses
    ids = [clause.clause_id for clause in clauses]
    assert len(set(ids)) == len(ids), "clause ids must be unique"
    previous_end = -1
    for clause in clauses:
        assert clause.text.strip(), clause.clause_id
        assert len(clause.text) <= MAX_REASONABLE_CHARS, clause.clause_id
        assert clause.paragraph_start <= clause.paragraph_end, clause.clause_id
        assert clause.paragraph_start > previous_end, f"{clause.clause_id} overlaps"
        previous_end = clause.paragraph_end
        assert clause.metadata["type"] == "contract" and clause.metadata["format"] == "docx"


def test_common_paper_one_way_nda(contracts_dir: Path) -> None:
    clauses = load(contracts_dir, "common-paper-cc-by-4.0/common-paper-one-way-nda")
    assert_well_formed(clauses)
    found = sections(clauses)
    assert list(found) == [str(n) for n in range(1, 12)]
    assert found["3"].heading == "Exceptions"
    assert found["3"].text.startswith("3. Exceptions. The Recipient’s obligations in this NDA")
    assert found["9"].heading == "Governing Law and Jurisdiction"
    assert found["3"].clause_id == "common-paper-cc-by-4.0/common-paper-one-way-nda#3"
    cover = clauses[0]  # the cover page sits in a table and has no numbering
    assert cover.section == ""
    assert cover.metadata["defines"] == "NDA; Cover Page; NDA Terms"
    assert {c.doc_title for c in clauses} == {"One-Way NDA"}


def test_common_paper_cloud_service_agreement(contracts_dir: Path) -> None:
    clauses = load(contracts_dir, "common-paper-cc-by-4.0/common-paper-cloud-service-agreement")
    assert_well_formed(clauses)
    found = sections(clauses)
    # Numbering comes only from Heading styles linked to numbering.xml: none of it is typed.
    assert len(found) == 93
    caps = found["8.1"]
    assert caps.heading == "Liability Caps"
    assert caps.text.splitlines()[:2] == [
        "8.1 Liability Caps.",
        "(a) Except as provided in Section 8.4 (Exceptions), each party’s total cumulative "
        "liability for all claims arising out of or relating to this Agreement will not be "
        "more than the General Cap Amount.",
    ]
    assert found["12.3"].heading == "Governing Law and Chosen Courts"
    assert found["1.4"].heading == "Feedback and Usage Data"
    assert found["13.8"].heading == "Definitions"
    assert found["13.8"].metadata["defines"] == "Confidential Information"
    assert clauses[0].doc_title == "Cloud Service Agreement"
    # The cover page (key-terms table) is grouped under its row headings.
    assert any(c.heading == "Framework Terms" and not c.section for c in clauses)


def test_bonterms_professional_services_cover_page(contracts_dir: Path) -> None:
    clauses = load(contracts_dir, "bonterms-cc0-1.0/bonterms-professional-services-agreement")
    assert_well_formed(clauses)
    assert all(not c.section for c in clauses)  # a cover page: no numbering at all
    assert clauses[0].doc_title == "Example Cover Page for Bonterms PSA"
    additional = next(c for c in clauses if c.heading == "Additional Terms")
    assert additional.text.startswith("Additional Terms\nThe following additions to or modif")
    # A table row is never cut: the signature row (both parties' blocks) stays together.
    signatures = clauses[-1]
    assert signatures.heading == "Signatures"
    assert "Provider:" in signatures.text and "Customer:" in signatures.text


def test_openagreements_restrictive_covenant(contracts_dir: Path) -> None:
    name = "openagreements-cc-by-4.0/openagreements-restrictive-covenant-west-virginia"
    clauses = load(contracts_dir, name)
    assert_well_formed(clauses)
    found = sections(clauses)
    assert [s for s in found if s.startswith("1.")] == [f"1.{n}" for n in range(1, 11)]
    assert [s for s in found if "." not in s] == [str(n) for n in range(2, 23)]
    assert found["1.2"].heading == "Defined Terms"
    assert found["1.2"].metadata["defines"] == "Confidential Information"
    assert found["10"].heading == "Non-Competition"
    assert found["10"].text.startswith("10. Non-Competition\nDuring the Restricted Period")
    assert clauses[0].doc_title == "Employee Restrictive Covenant Agreement"


def test_openagreements_employment_offer_letter(contracts_dir: Path) -> None:
    clauses = load(contracts_dir, "openagreements-cc-by-4.0/openagreements-employment-offer-letter")
    assert_well_formed(clauses)
    found = sections(clauses)
    assert list(found) == [str(n) for n in range(1, 20)]
    governing = found["14"]
    assert governing.heading == "Governing Law"
    assert governing.text.startswith("14. Governing Law\nThis offer letter and any dispute")
    assert (governing.paragraph_start, governing.paragraph_end) == (55, 56)
    signatures = next(c for c in clauses if c.heading == "Signatures")
    assert signatures.section == "" and signatures.paragraph_start > governing.paragraph_end


def test_common_paper_dpa_nested_items(contracts_dir: Path) -> None:
    clauses = load(contracts_dir, "common-paper-cc-by-4.0/common-paper-data-processing-agreement")
    assert_well_formed(clauses)
    found = sections(clauses)
    transfers = found["3.2"]
    assert transfers.heading == "Ex-EEA Transfers"
    lines = transfers.text.splitlines()
    assert [line.split(" ")[0] for line in lines[1:5]] == ["(a)", "(b)", "(c)", "(i)"]
    assert lines[-1].startswith("(vii) The Cover Page to this DPA contains")
    assert found["11.8"].metadata["defines"] == "European Economic Area; EEA"


def test_common_paper_mutual_nda_has_no_numbering(contracts_dir: Path) -> None:
    clauses = load(contracts_dir, "common-paper-cc-by-4.0/common-paper-mutual-nda")
    assert_well_formed(clauses)
    assert all(not c.section for c in clauses)
    assert clauses[0].metadata["defines"] == "MNDA; Cover Page; Standard Terms"


def test_every_contract_segments(contracts_dir: Path) -> None:
    paths = sorted(contracts_dir.rglob("*.docx"))
    assert paths, f"no .docx files under {contracts_dir}"
    for path in paths:
        doc_id = path.relative_to(contracts_dir).with_suffix("").as_posix()
        clauses = read_clauses(path, doc_id, str(path))
        assert len(clauses) >= 1, doc_id
        assert_well_formed(clauses)
