"""Session 14, parts14 (issue 38): what a message asks, read from its shape and words, not from what it mentions.

A word limit is counted as the lawyer's word processor counts it; an order to do what the message said
("amended accordingly") is no part; fields of why and for whom ("Objective:", "Inputs:") and a table's
columns other than its action ask nothing; a figure the lawyer says to leave is never the old value; a
clause's figure named by its number alone ("both eighteens") is read in the clause's unit; "allowance" (a
noun) asks no carve-out. Fixtures are the spent drafting-q to -t tasks whose sound drafts were failed by
these readings. Each test fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.instruction import read_instruction
from addin_server.draft.instruction_kinds import kind_of
from addin_server.draft.lengths import length_problem, word_count

# t-shorten-02: "within 45 words"; the sound draft has 45 words as a word processor counts them.
ETI_SOUND = ("ETI, for Entrust, grants NTL and its Affiliates a non-exclusive, fully paid-up, worldwide, perpetual license to "
             "use unlimited copies of the Entrust Products under the Enterprise License, to be agreed promptly after the "
             "Effective Date substantially as Exhibit B, amended to comply with Article III.")


def test_words_counted_as_a_word_processor_counts_them():
    assert word_count(ETI_SOUND) == 45
    assert word_count("breach of Section 11.4(i)(c) -- or [1] of it") == 7
    assert length_problem({"words": 45}, ETI_SOUND + " More.", ETI_SOUND) == ""
    assert "no more than 44" in length_problem({"words": 44}, ETI_SOUND + " More.", ETI_SOUND)


# t-period-04
RENEWAL = ("This Agreement renews for successive one-year terms unless either party gives the other written notice of "
           "non-renewal at least 30 days before the end of the then-current term.")
RECAP = ("RECAP - renewal clause, as agreed on the phone today\nVSL/TERM: as per CP, yearly rolls\n"
         "NON-RENEWAL NTCE: 90 DAYS (was 30) - either side\nALL ELSE AS PER CP\nPls have the clause amended accordingly and "
         "revert.")


def test_an_order_to_do_what_was_said_is_no_part():
    kinds = [p.kind for p in read_instruction(RECAP, RENEWAL).parts]
    assert "other" not in kinds and "period" in kinds
    ask = ("Sorry - this one is on me. Their people accepted that none of his appearance days would run beyond four "
           "hours. Could you put that right in the Service Days list before it goes out again?")
    assert [p.kind for p in read_instruction(ask, "Each appearance day shall not exceed six (6) consecutive hours.").parts] \
        == ["period"]


# q-multi-04
BRIEF = ("CREATIVE BRIEF - HealthyWay co-branding refresh\n"
         "Objective: both logos sit side by side on every page, so the grants behind them should match.\n"
         "Audience: the HCI and MLX brand teams.\n"
         "Mandatories: (1) both marks licences say non-exclusive and non-transferable, like the content licence in (c); "
         "(2) each side keeps ownership of its own marks.\n"
         "Out of scope: the content licence itself.")


def test_fields_of_why_and_for_whom_ask_nothing():
    texts = [p.text for p in read_instruction(BRIEF, "MLX grants HCI a licence to use the MLX Marks.").parts]
    assert not any("Objective" in t or "Audience" in t or "logos" in t for t in texts)
    assert any("non-transferable" in t for t in texts)


# q-multi-05
NONCOMPETE = ("Employee's employment or continued employment with Employer, which the parties agree is sufficient "
              "consideration for a direct-competition restriction of eighteen months or less; if any direct-competition "
              "restriction runs longer than eighteen months, the additional consideration described in this agreement.")
SURVEY = ("State survey - restrictive covenants (rows for action only)\n"
          "State | Form | Current consideration rule | Group policy | Action\n"
          "Idaho | cover term p48 | employment covers restraints of up to eighteen months; extra consideration beyond | "
          "restraints over twelve months need a stated payment | bring both eighteens down to twelve; name the extra "
          "consideration as a single $5,000 payment to the employee")


def test_only_a_tables_action_column_asks_and_its_figures_are_the_clauses():
    parts = read_instruction(SURVEY, NONCOMPETE).parts
    assert [p.kind for p in parts] == ["period", "amount"]
    assert parts[0].params["value"] == 12 and parts[0].params["old"] == 18
    assert not any("Idaho" in p.text or "survey" in p.text for p in parts)


# s-period-02
TERM = ('The term of this Agreement shall be for one (1) year commencing on the Effective Date and automatically renewing '
        'annually thereafter, unless either party provides a thirty-day notice of written termination one to the other '
        '("Term").')


def test_a_figure_said_to_leave_is_not_the_old_value():
    ask = ("Thirty days is nowhere near enough for us to re-tender. Redraft the term clause so termination needs ninety "
           "days' written notice. Leave the one-year term and the annual renewal as they are.")
    periods = [p for p in read_instruction(ask, TERM).parts if p.kind == "period"]
    assert periods and periods[-1].params["value"] == 90 and periods[-1].params.get("old") == 30


def test_an_allowance_is_no_carve_out():
    # s-period-03: a patent's allowance, reported.
    assert kind_of("Family A: continuation filed; allowance expected Q3") != "carve_out"
    assert kind_of("allow the Distributor to sell off its stock") == "carve_out"


def test_a_figure_that_heads_a_list_of_what_stays_is_kept():
    # p-period-03: "unaffected" is "unchanged"; the list names the clause's parts by their capitalised names.
    clause = ("This Agreement is effective on the Effective Date and shah continue in effect until the earlier of (a) the "
              "fifth (5t h) anniversary of the Effective Date, and (b) termination by either Party for any reason upon thirty "
              "(30) days' written notice to the other Party; provided, however, that no Party shall be able to terminate "
              "this Agreement so long as such Party is a Defaulting Party under this Agreement.")
    ask = ("Supplier exit for any reason to need 60 days' written notice, not 30. The five-year long stop and the "
           "Defaulting Party proviso are unaffected.")
    periods = [p for p in read_instruction(ask, clause).parts if p.kind == "period"]
    assert periods[-1].params["value"] == 5 and periods[-1].params.get("kept")


# q-period-02
SERVICE_DAYS = ('1. Production days. Up to four (4) production days (defined as a maximum of eight (8) consecutive hours '
                'each).\n2. Personal appearances. CELEBRITY shall appear at least (each of the following not to exceed six '
                '(6) consecutive hours): (A) One (1) day at a company-wide event.')


def test_a_figure_another_part_keeps_is_never_the_one_changed():
    from addin_server.draft.parts import check_part
    from addin_server.draft.parts_result import Context
    ask = ("Their people accepted that none of his appearance days would run beyond four hours. The production-day cap "
           "of eight hours was never discussed and does not move.")
    ins = read_instruction(ask, SERVICE_DAYS)
    right = SERVICE_DAYS.replace("six (6) consecutive", "four (4) consecutive")
    assert [check_part(p, ins, SERVICE_DAYS, right, Context()).status for p in ins.parts] == ["done", "done"]
    wrong = SERVICE_DAYS.replace("eight (8) consecutive", "four (4) consecutive")
    assert "done" not in [check_part(p, ins, SERVICE_DAYS, wrong, Context()).status for p in ins.parts][1:]


def test_a_figure_said_as_it_was_in_brackets_is_the_old_value():
    # t-period-04: "NON-RENEWAL NTCE: 90 DAYS (was 30)", a recap's shorthand for the change from 30 to 90.
    periods = [p for p in read_instruction(RECAP, RENEWAL).parts if p.kind == "period"]
    assert periods[0].params["value"] == 90 and periods[0].params.get("old") == 30


def test_both_said_of_the_figure_asks_for_every_place():
    # q-multi-05: "bring both eighteens down to twelve"; a draft that changes one of the two is partly done.
    from addin_server.draft.parts import check_part
    from addin_server.draft.parts_result import Context
    ins = read_instruction(SURVEY, NONCOMPETE)
    half = NONCOMPETE.replace("of eighteen months or less", "of twelve months or less")
    assert check_part(ins.parts[0], ins, NONCOMPETE, half, Context()).status == "partly"
