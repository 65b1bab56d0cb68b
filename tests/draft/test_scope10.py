"""Session 10, scope10 (issue 38): an instruction part no kind reads excuses changes only where its words point.

Each test fails without the rule (parts_unread.py, checks._scoped).
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, check_draft
from addin_server.draft.instruction import read_instruction
from addin_server.draft.parts_unread import excused_clause, scope

RECORDS = ("The Customer may audit the Supplier's records once in each calendar year on reasonable notice. "
           "The Supplier shall keep all records relating to the Services for six years after termination.")
ASK = "audits must take place during normal working hours"
ASKED = RECORDS.replace("on reasonable notice.", "on reasonable notice during normal working hours.")


def _status(draft: str, ask: str = ASK) -> dict[str, str]:
    return {c.name: c.status for c in check_draft(DraftTask(RECORDS, ask), draft).checks}


def test_an_unread_part_points_at_the_sentence_whose_words_it_shares() -> None:
    part = read_instruction(ASK, RECORDS).parts[0]
    assert part.kind == "other"
    assert scope(part, RECORDS) == [(0, RECORDS.index(" The Supplier"))]
    # The pointed sentence is taken as drafted; the other stays as the clause has it.
    assert excused_clause(RECORDS, ASKED, scope(part, RECORDS)) == ASKED


def test_a_duty_made_an_option_in_a_sentence_the_unread_part_never_names_fails() -> None:
    # Before: the unread part excused a rewording of the whole clause, and meaning was "not checked".
    assert _status(ASKED.replace("shall keep", "may keep"))["meaning"] == "failed"


def test_a_change_in_the_sentence_the_part_points_at_is_still_not_checked() -> None:
    draft = RECORDS.replace("once in each calendar year on reasonable notice.",
                            "during normal working hours on reasonable notice, no more than once a year.")
    assert _status(draft)["meaning"] in ("not_checked", "passed")


def test_a_whole_clause_ask_excuses_the_whole_clause() -> None:
    part = read_instruction("rewrite this so it reads better", RECORDS).parts[0]
    assert part.kind != "other" or scope(part, RECORDS) is None


def test_moving_the_clause_into_another_document_is_a_whole_clause_ask() -> None:
    # A conform in words no kind reads: the new document's names and wording run through every sentence.
    ask = "Moving this into the Common Paper PSA we use with them; the Supplier is Provider there."
    part = read_instruction(ask, RECORDS).parts[0]
    assert part.kind != "other" or scope(part, RECORDS) is None
