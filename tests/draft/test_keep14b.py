"""A keep protects what the ask does not change (issue 38, keep14b).

"The rest stays" never keeps the figure the ask writes; the guard on a part said to stay is read outside
the place the asked change sits (guards.changed_part_to_leave; fixtures in test_guards.py)."""

from addin_server.draft.instruction import read_instruction

_NOTICE = "Either party may terminate this Agreement on thirty (30) days' written notice to the other party."


def _period(instruction: str):  # noqa: ANN202
    return next(p for p in read_instruction(instruction, _NOTICE, ()).parts if p.kind == "period")


def test_the_rest_stays_never_keeps_the_asked_figure() -> None:
    for said in ("Extend the notice to 60 days; the rest stays.", "Extend the notice to 60 days; everything else stays."):
        part = _period(said)
        assert part.params["value"] == 60 and not part.params.get("kept")


def test_a_figure_said_to_stay_is_still_kept() -> None:
    assert _period("The 30 days stays; add a cure right.").params.get("kept")


def test_the_operation_may_change_the_asked_figure_inside_the_sentence_said_to_stay() -> None:
    import pytest

    from addin_server.draft.edits import Declined, edit
    from addin_server.draft.guards import check_edits
    clause = ("If Employee is a physician, any covenant not to compete is limited to one year and thirty road miles from "
              "Employee's primary place of practice with Employer.")
    ask = "so six months, down from the current one year. The thirty road miles stays as is."
    at = clause.index("one year")
    check_edits(ask, ask, "period", clause, [edit(clause, at, at + len("one year"), "six (6) months", "")])
    miles = clause.index("thirty road")
    with pytest.raises(Declined, match="leave as it is"):
        check_edits(ask, ask, "period", clause, [edit(clause, at, at + len("one year"), "six (6) months", ""),
                                                 edit(clause, miles, miles + len("thirty road"), "twenty road", "")])


def test_a_keep_of_what_the_asks_leave_names_no_part() -> None:
    from addin_server.draft.guards import protected
    said = ("notice of 48 hours before a plant visit, compliance with safety rules on the visit. IMPCO's and MIL/MINDA's "
            "rights otherwise stay as broad as they are.")
    assert protected(said)[1] == []
    assert protected("Leave the one-year term and the annual renewal as they are.")[1]
