"""An unread part of the instruction excuses a promise turned round only if its words could ask for that
turn (addin_server/draft/parts_unread.could_turn, checks._turned). Fixture: l-carve_out-06 (ACORD), spent."""

from __future__ import annotations

from index_builder.model import Clause

from addin_server.draft.checks import run_checks
from addin_server.draft.checks_base import DraftTask
from addin_server.draft.instruction import Part
from addin_server.draft.parts_unread import could_turn, names_none

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


# k-carve_out-03 (ACORD), spent: an unread message; the draft adds a duty the message says nothing of.
TAXES = ("Dr. Murray shall be responsible for all federal or state withholdings and taxes, and shall indemnify EHS or "
         "EHN for any actions brought against EHS or EHN with respect thereto.")
MESSAGE = ("Message taken by Priya, 10:40: Dr. Murray called about 5.6. He is happy to carry his own taxes but will "
           "not indemnify EHS or EHN for an action they brought on themselves - e.g. if they caused or contributed to "
           "the problem. He pointed at the agency contract wording [1]. He wants the indemnity cut back to that; the "
           "taxes part of the sentence is fine by him.")
AGENCY = ("MICOA shall indemnify and hold Agency harmless against any MICOA act or omission, except to the extent the "
          "Agency has caused, compounded, or contributed to such error.")
CUT_BACK = TAXES[:-1] + (", except to the extent EHS or EHN has caused or contributed to the matter giving rise to "
                         "the action.")


def _additions(draft: str) -> tuple[bool | None, str]:
    task = DraftTask(clause=TAXES, instruction=MESSAGE, precedents=(Clause(clause_id="1", text=AGENCY, doc_id="1"),),
                     document_parties=("Dr. Murray", "EHS", "EHN"))
    result = next(r for r in run_checks(task, draft) if r.name == "additions")
    return result.passed, result.reason


def test_a_new_duty_no_unread_word_names_fails() -> None:
    passed, reason = _additions(CUT_BACK + " EHS shall reimburse Dr. Murray's reasonable accounting fees.")
    assert passed is False and "reimburse" in reason


def test_the_carve_back_alone_is_not_failed() -> None:
    assert _additions(CUT_BACK)[0] is not False


def test_a_provision_named_by_the_ask_may_have_been_asked() -> None:
    ask = [Part(kind="other", text="Our client is Company there and it is the one that wants the certificate")]
    assert not names_none(ask, "At Company's request, Partner will give Company a certificate of insurance for…",
                          ("Company", "Partner"))
    assert names_none([Part(kind="other", text=MESSAGE)], "EHS shall reimburse Dr. Murray's reasonable accounting fees.",
                      ("Dr. Murray", "EHS"))
