"""Drafting operations: only the words the instruction names change, each with a reason."""

from __future__ import annotations

import pytest

from addin_server.draft.carve_out import add_carve_out
from addin_server.draft.edits import Declined, apply
from addin_server.draft.operations import (
    AlreadyDone,
    change_amount,
    change_period,
    conform_terms,
    flip_party,
    make_mutual,
)
from index_builder.model import Clause

ISSUE = "The Supplier shall not be liable to the Customer for any indirect or consequential loss."


def test_make_mutual_the_issue_example() -> None:
    result = make_mutual(ISSUE)
    assert result.text == ("Neither party shall be liable to the other party for any indirect or "
                           "consequential loss.")
    assert all(e.reason for e in result.edits)
    # Every edit names a span of the original; nothing else moves.
    assert apply(ISSUE, result.edits) == result.text
    assert {e.old for e in result.edits} == {"The Supplier", " not", "the Customer"}


@pytest.mark.parametrize("clause, expected", [
    ("Contractor may not assign any of Contractor’s rights without Company’s prior written consent.",
     "Neither party may assign any of its rights without the other party’s prior written consent."),
    ("Discloser may terminate this NDA upon written notice to the Recipient.",
     "Either party may terminate this NDA upon written notice to the other party."),
    ("Contractor will not solicit any Company personnel.",
     "Neither party will solicit any of the other party’s personnel."),
    ("However, Provider may assign this Agreement if Provider undergoes a merger.",
     "However, either party may assign this Agreement if it undergoes a merger."),
])
def test_make_mutual_pronouns_possessives_and_agreement(clause: str, expected: str) -> None:
    assert make_mutual(clause).text == expected


def test_make_mutual_leaves_one_partys_defined_terms_and_says_so() -> None:
    clause = "Customer will indemnify Provider against all Customer Covered Claims."
    result = make_mutual(clause)
    assert "Customer Covered Claims" in result.text and result.notes


def test_already_mutual_and_three_parties_change_nothing() -> None:
    with pytest.raises(AlreadyDone):
        make_mutual("Each party will keep the other party's Confidential Information secret.")
    with pytest.raises(Declined, match="3 parties"):
        make_mutual("Supplier will notify Customer and the Licensor of any breach.")


def test_flip_swaps_both_parties_and_refuses_when_already_given() -> None:
    result = flip_party("Provider may use Customer's name in marketing.", "Customer", "Provider")
    assert result.text == "Customer may use Provider's name in marketing."
    with pytest.raises(AlreadyDone):
        flip_party("Customer may use Provider's name.", "Customer", "Provider")


@pytest.mark.parametrize("clause, value, unit, expected", [
    ("within thirty (30) days of notice", 15, "days", "within fifteen (15) days of notice"),
    ("within 30 days of notice", 15, "days", "within 15 days of notice"),
    ("for one (1) year thereafter", 6, "months", "for six (6) months thereafter"),
    ("no more than ten business days", 5, "business days", "no more than five business days"),
])
def test_change_period_keeps_the_clauses_form(clause: str, value: int, unit: str, expected: str) -> None:
    assert change_period(clause, value, unit).text == expected


def test_change_period_asks_which_when_there_are_two() -> None:
    with pytest.raises(Declined, match="more than one period"):
        change_period("within 30 days, or 60 days after notice", 15, "days")
    assert change_period("within 30 days, or 60 days after notice", 15, "days", old=60).text == \
        "within 30 days, or 15 days after notice"


def test_change_amount() -> None:
    assert change_amount("exceeds $162,164 a year", 150000).text == "exceeds $150,000 a year"


def test_carve_out_is_taken_word_for_word_and_cited() -> None:
    precedent = Clause("p", "7. Non-Solicitation\nEmployee must not Solicit any Covered Employee. "
                            "This restriction does not prohibit Employee from providing a "
                            "professional reference upon request.", "d")
    clause = "Employee must not Solicit any Covered Employee."
    result = add_carve_out(clause, [precedent], 1, "professional references")
    assert result.text == clause + (" This restriction does not prohibit Employee from providing "
                                    "a professional reference upon request. [1]")
    assert result.cited == [1]


def test_carve_out_qualifier_is_inserted_in_place() -> None:
    precedent = Clause("p", "Employee must not compete, subject to applicable law.", "d")
    result = add_carve_out("Employee must not compete.", [precedent], 1, "applicable law")
    assert result.text == "Employee must not compete, subject to applicable law [1]."


def test_conform_terms_renames_parties_to_the_documents() -> None:
    result = conform_terms("Employer may notify Employee's new employer.", ["Company", "Employee"])
    assert result.text == "Company may notify Employee's new employer."
    with pytest.raises(Declined, match="not clear which"):
        conform_terms("Provider will notify Customer.", ["Company", "Partner"])
    with pytest.raises(Declined, match="were not sent"):
        conform_terms("Provider will notify Customer.", None)


def test_operations_touch_only_what_the_instruction_names() -> None:
    """On the evaluation set's tuning half: every edit replaces a party name (with its
    article or possessive), the "not" that "neither" absorbs, a period or an amount, or
    inserts a carve-out; all other text is the lawyer's, byte for byte."""
    import re

    from addin_server.draft.parties import ROLES
    from index_builder.reading.figures import figures
    from addin_server.draft.router import DraftRouter
    from addin_server.draft.taskset import load_tasks

    router = DraftRouter(None)
    named = re.compile(rf"^(?:[Tt]he )?(?:{'|'.join(map(re.escape, ROLES))})(?:’s|'s)?$")
    seen = 0
    for task_id, _, task, _ in load_tasks(split="tuning"):
        try:
            drafted = router.draft(task)
        except Exception:
            continue  # no operation for this instruction
        for e in drafted.edits:
            seen += 1
            assert task.clause[e.start:e.end] == e.old and e.reason, task_id
            assert (e.old == "" or e.old.strip() == "not" or named.match(e.old)
                    or [(f.start, f.end) for f in figures(e.old)] == [(0, len(e.old))]), (task_id, e)
        assert apply(task.clause, drafted.edits) == drafted.operation.text
    assert seen > 40


def test_the_model_reads_the_document_note_and_operations_do_not() -> None:
    """The document's terms (issue 23) guide the model; the router reads the instruction alone."""
    from addin_server.draft.checks import DraftTask
    from addin_server.draft.router import DraftRouter

    asked = []

    class Redrafter:
        def redraft(self, text, precedents, instructions):
            asked.append(instructions)
            raise RuntimeError("stop")

    router = DraftRouter(Redrafter())  # type: ignore[arg-type]
    note = "Write it in the lawyer's document's own terms: the parties are “Supplier” and “Client”."
    task = DraftTask("The Supplier shall keep the records for five years.", "Make it shorter.",
                     model_note=note)
    try:
        router.draft(task)
    except RuntimeError:
        pass
    assert asked == ["Make it shorter.\n" + note]
