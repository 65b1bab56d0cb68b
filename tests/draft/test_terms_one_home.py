"""Session 10 (tidy10): which of the clause's terms a conformed draft keeps that the lawyer's document
does not define has one home (parts_terms.undefined_kept); the conform part and the defined_terms check
both ask it. These tests fail if the two give different answers on the same draft."""

from __future__ import annotations

import pytest

from addin_server.draft.checks_base import DraftTask
from addin_server.draft.checks_terms import check_defined_terms
from addin_server.draft.instruction import read_instruction
from addin_server.draft.parts_terms import conform_part

ASK = "Conform this to our document's defined terms."
CLAUSE = "If the Service misses the Uptime Target, Customer may terminate this Agreement on notice to Supplier."
DRAFT = "If the Service misses the Uptime Target, the Buyer may terminate this Agreement on notice to the Vendor."


def _both(terms: tuple[str, ...] | None, parties: tuple[str, ...]) -> tuple[str, str]:
    task = DraftTask(CLAUSE, ASK, document_terms=terms, document_parties=parties)
    ins = read_instruction(ASK, CLAUSE, parties)
    assert "conform" in ins.kinds
    part = next(p for p in ins.parts if p.kind == "conform")
    checked = check_defined_terms(task, ins, DRAFT)
    said = conform_part(part, ins, CLAUSE, DRAFT, task.context())
    keeps = "keeps" in checked.reason
    assert keeps == ("keeps" in said.reason), (checked.reason, said.reason)
    return checked.reason, said.reason


@pytest.mark.parametrize("terms", [("Agreement", "Service", "Buyer", "Vendor"), ("Agreement", "Buyer", "Vendor"),
                                   ("Agreement",), (), None])
def test_the_conform_part_and_the_defined_terms_check_agree(terms) -> None:
    checked, said = _both(terms, ("Buyer", "Vendor"))
    if terms and "Service" not in terms:
        assert "“Service”" in checked or "“Uptime Target”" in checked


def test_parties_alone_are_not_the_documents_terms() -> None:
    # Before: the check read the document's parties as all its terms and named "Service" undefined,
    # while the conform part, knowing no terms, named nothing.
    checked, said = _both((), ("Buyer", "Vendor"))
    assert "keeps" not in checked
