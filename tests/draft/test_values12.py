"""Session 12, values12 (issue 38): figures and points in forms, logs and corrections read as the lawyer meant them.

Fixtures are lines of the spent drafting-n tasks, whose sound drafts were flagged "not done" on a withdrawn
point, a time entry's hours and a change-request form's fields. Each test fails without its rule
(instruction_limbs.withdrawn, instruction_limbs._records, instruction_values.recorded_figures).
"""

from __future__ import annotations

from addin_server.draft.instruction import read_instruction
from addin_server.draft.instruction_limbs import withdrawn

# n-period-04
AUDIT = ("Within twelve (12) months after the date this Agreement has been terminated by the parties, ALFA AESAR may engage "
         "an independent certified public accounting firm reasonably acceptable to NTC to audit the NTC invoices and "
         "accounting records at NTC's offices during normal business hours by providing thirty (30) days advance notice "
         "of such audit.")
THREE_THINGS = ("Three things on the audit right:\n1. The post-termination window: twelve months is too tight. Make it "
                "twenty-four months.\n2. The notice: cut the thirty days' advance notice to ten.\n3. The auditor, the venue "
                "and the hours are fine.\n\nUpdate, 4.10 pm: ignore 2. They agreed point 1 only; the thirty days stay.")
# n-shorten-01
ROFR = ("Additionally commencing on the Effective Date and continuing for eighteen (18) months, World Book shall offer HSWI "
        "a right of first refusal to create any paid-subscription Chinese language websites using the Content.")
TIME_ENTRY = ("Time entry, 0.2 hours: Reviewed World Book right of first refusal for the client summary; partner asked "
              "that the clause itself be redrafted within 45 words; to keep: the eighteen-month run.")
# n-multi-02
TERM = ("The term of this Agreement shall commence on the date hereof and shall expire upon delivery, but in no way shall "
        "this Agreement extend any later than thirty (30) months from the Effective Date. About will make commercially "
        "reasonable efforts to achieve that number in twelve (12) months or less from the Effective Date.")
CHANGE_REQUEST = ("CHANGE REQUEST CR-019\nCurrent: term ends 30 months after the Effective Date at the latest.\n"
                  "Proposed: longstop 36 months.\nImpact: delivery schedule only; no fee impact.\n"
                  "Decision: APPROVED by the programme board. Please reflect in the agreement.")


def _periods(instruction, clause):
    return [p.params.get("value") for p in read_instruction(instruction, clause).parts if p.kind == "period"]


def test_a_withdrawn_point_is_no_ask():
    values = _periods(THREE_THINGS, AUDIT)
    assert 24 in values and 10 not in values


def test_withdrawal_needs_a_point_of_the_message_said_before():
    assert withdrawn("1. Make it 30 days.\n2. Delete (b).\n") == "1. Make it 30 days.\n2. Delete (b).\n"
    assert "second" not in withdrawn("1. Make it 30 days.\n2. Add a cap.\nActually, drop the second point.")
    assert "Add a cap" not in withdrawn("1. Make it 30 days.\n2. Add a cap.\nActually, drop the second point.")


def test_a_time_entry_records_hours_not_a_period_asked():
    parts = read_instruction(TIME_ENTRY, ROFR).parts
    assert not any("0.2" in p.text and p.kind in ("period", "other") and p.text.strip() == "0.2 hours" for p in parts)
    assert all(p.params.get("value") != 0.2 for p in parts)


def test_hours_asked_of_a_clause_in_days_stay_an_ask():
    assert 48 in _periods("Cut the notice to 48 hours: they need to move fast.", AUDIT)


def test_a_forms_record_fields_ask_nothing():
    parts = read_instruction(CHANGE_REQUEST, TERM).parts
    assert not any(p.text.startswith(("Impact", "Decision")) for p in parts)
    assert 36 in [p.params.get("value") for p in parts if p.kind == "period"]


def test_words_that_go_across_as_they_are_are_kept_not_struck():
    from addin_server.draft.instruction_named import said_to_go
    clause = "Provider may remove the Beta Services at Provider's discretion with or without notice."
    assert said_to_go("Provider's discretion with or without notice goes.", clause)
    assert not said_to_go("Removal at Provider's discretion with or without notice go across as they are.", clause)
