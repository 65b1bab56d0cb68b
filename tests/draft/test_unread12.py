"""An unread part of the instruction excuses a promise turned round only if its words could ask for that
turn (addin_server/draft/parts_unread.could_turn, checks._turned). Fixture: l-carve_out-06 (ACORD), spent."""

from __future__ import annotations

from index_builder.model import Clause

from addin_server.draft.checks import run_checks
from addin_server.draft.checks_base import DraftTask
from addin_server.draft.instruction import Part
from addin_server.draft.parts_unread import could_turn

CLAUSE = ("Auriemma will not enter into any arrangement or agreement, which enables any Berkshire Competitor to be "
          "endorsed by Auriemma (whether by using the Auriemma Identification, Auriemma providing services similar "
          "to the Endorsement Services, or otherwise) during the Contract Period within the Contract Territory.")
ASK = ("Amendment instruction No. 2 (Auriemma endorsement): at the end of the non-endorsement paragraph insert a "
       "proviso that the restriction does not reach Auriemma's appearances, services or use of his name or likeness "
       "in connection with charitable events, even where a Berkshire Competitor sponsors the event - on the lines "
       "of limb (iii) of [1], charitable events only. Text of the proviso: to be drafted.")
PRECEDENT = ("(iii) Endorser's performance of services, appearance or use of his name, likeness in connection with "
             "charitable events, sports events, organizations, regardless of usage of products or services and/or "
             "sponsorship thereof.")
TURNED = ("Auriemma may, after notice to Berkshire, enter into an arrangement or agreement which enables a Berkshire "
          "Competitor to be endorsed by Auriemma (whether by using the Auriemma Identification, Auriemma providing "
          "services similar to the Endorsement Services, or otherwise) during the Contract Period within the "
          "Contract Territory, provided that it relates to charitable events.")
SOUND = CLAUSE[:-1] + (", provided that this restriction does not apply to Auriemma's performance of services, "
                       "appearance or use of his name or likeness in connection with charitable events, regardless "
                       "of whether any Berkshire Competitor sponsors them.")


def _meaning(draft: str) -> tuple[bool | None, str]:
    task = DraftTask(clause=CLAUSE, instruction=ASK, precedents=(Clause(clause_id="1", text=PRECEDENT, doc_id="1"),),
                     document_parties=("Auriemma",))
    result = next(r for r in run_checks(task, draft) if r.name == "meaning")
    return result.passed, result.reason


def test_a_ban_made_a_permission_under_an_ask_without_a_word_of_permission_fails() -> None:
    passed, reason = _meaning(TURNED)
    assert passed is False and "runs the other way" in reason


def test_the_faithful_proviso_is_not_failed() -> None:
    assert _meaning(SOUND)[0] is not False


def test_an_ask_with_the_new_kind_of_word_may_have_asked_the_turn() -> None:
    was, now = "Auriemma will not enter into any arrangement", "Auriemma may, after notice to Berkshire, enter into"
    assert not could_turn([Part(kind="other", text=ASK)], was, now)
    assert could_turn([Part(kind="other", text="Auriemma should be free to do charity work; he may do so.")], was, now)
    # A ban asked for is said with a "not".
    assert could_turn([Part(kind="other", text="we can't have them assigning it")], "Provider may assign", "neither party may assign")
