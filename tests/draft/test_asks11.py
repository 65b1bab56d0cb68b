"""Session 11, asks11 (issue 38): an instruction is a message; only its asks are parts, and an ask that
names one sentence is checked there.

Fixtures are lines of the spent drafting-j and drafting-k tasks (their sound drafts were flagged).
Each test fails without its rule (instruction_asks.py, instruction_scope.pointed_sentence, the
"opening" ordinal, the list item's lead statement, parts.others_ask).
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, check_draft
from addin_server.draft.instruction import read_instruction
from addin_server.draft.instruction_asks import about_the_draft, asks_only_in_compounds, restates_figure

# k-period-05
DISPUTES = ("If Customer has a good-faith disagreement about the Fees charged or invoiced, Customer must notify Provider "
            "about the dispute before payment is due, or within 30 days of an automatic payment, and must pay all "
            "undisputed amounts on time. The parties will work together to resolve the dispute within 15 days.")
AGENDA = ("Agenda item 3 for Thursday's call with Provider - Payment disputes (4.6). Our proposal: Customer gets 60 days "
          "after an automatic payment to raise a dispute. Resolution window (15 days) not on the agenda. Please have the "
          "draft ready to share on screen.")
# j-mutual-01
FLEET = ("Columbia shall not be liable for any loss or damage due to the negligence or wilful misconduct of Fleet, its "
         "Affiliates, employees, contractors or representatives. In the event of any loss or damage of any item of the "
         "Columbia Equipment due to the negligence or wilful misconduct of Fleet, its Affiliates, employees, contractors "
         "or representatives, Fleet shall repair or replace such items of Columbia Equipment, at Fleet's sole cost and "
         "expense.")
FLEET_ASK = ("Re: Schedule 3A - comments back\n\nThanks, Priya. 3A.9 works for us in principle, but the opening sentence "
             "has to protect Fleet as well: we should not answer for losses that Columbia's own people cause through "
             "negligence or wilful misconduct. As for the repair-or-replace sentence after it, that one is about "
             "Columbia's kit and stays exactly as drafted.")
# j-period-02
TAIL = ("Without the prior written consent of the other Party, a Party shall not at any time while this Agreement is in "
        "force and for a one-year period after termination of this Agreement solicit any employee of the other Party.")
# k-multi-06
MARKS = ("At no time during the term of the Agreement or thereafter shall eDiets attack, challenge or file any "
         "application with respect to any Women.com Mark. At no time during the term of the Agreement or thereafter "
         "shall Women.com attack, challenge or file any application with respect to any eDiets Mark. Women.com "
         "acknowledges that eDiets owns all right, title and interest in and to the eDiets Content.")
MARKS_ASK = ("eDiets/Women.com. Two asks from Women.com (our client):\n- the no-challenge lines run 'during the term or "
             "thereafter', i.e. for ever. Cap them at the term and three years after.\n- the last sentence is the only "
             "one-way one; have eDiets acknowledge Women.com's ownership of Women.com's own content in the same terms.")


def _status(clause: str, ask: str, draft: str) -> dict[str, str]:
    return {c.name: c.status for c in check_draft(DraftTask(clause, ask), draft).checks}


def test_logistics_about_the_draft_is_no_ask() -> None:
    assert about_the_draft("Please have the draft ready to share on screen")
    assert not about_the_draft("Please make the notice period 60 days")
    assert not any("screen" in p.text for p in read_instruction(AGENDA, DISPUTES).parts)


def test_an_ask_verb_inside_a_noun_compound_asks_nothing() -> None:
    # k-period-03's heading: "rate-change notice" names a notice; the statement is the reason for the ask after it.
    heading = ("Audit finding L-07 (licensee contract review): rate-change notice under the VOTOCAST licence gives "
               "Licensee too little time to budget")
    assert asks_only_in_compounds(heading)
    assert not asks_only_in_compounds("change the rate-change notice to 60 days")
    parts = read_instruction(heading + ". Remediation: notice period to 60 days.",
                             "VOTOCAST will give Licensee at least thirty (30) days prior written notice of any rate "
                             "changes during any Renewal Term.").parts
    assert [p.kind for p in parts] == ["period"]


def test_a_figure_said_again_in_words_is_the_same_ask() -> None:
    assert restates_figure("make it two", 2.0) and not restates_figure("make it three", 2.0)
    assert restates_figure("For this turn, put in the opening number", 5.0)
    ins = read_instruction("Any reason the post-termination tail can't be two years? If none, make it two.", TAIL)
    assert [p.kind for p in ins.parts] == ["period"]
    assert _status(TAIL, ins.text, TAIL.replace("one-year", "two-year"))["instruction"] == "passed"


def test_a_figure_restated_in_another_sentence_than_the_ask_points_at_is_not_its_old_value() -> None:
    ins = read_instruction(AGENDA, DISPUTES)
    period = next(p for p in ins.parts if p.kind == "period" and p.params.get("value") == 60)
    assert period.params.get("old") != 15
    assert _status(DISPUTES, AGENDA, DISPUTES.replace("30 days", "60 days"))["instruction"] == "passed"


def test_the_opening_sentence_is_the_first() -> None:
    part = read_instruction(FLEET_ASK, FLEET).parts[0]
    assert part.kind == "mutual" and part.scope.sentences == (1,)
    draft = FLEET.replace("Columbia shall not be liable", "Neither Columbia nor Fleet shall be liable", 1).replace(
        "of Fleet, its Affiliates", "of the other party, its Affiliates", 1)
    assert _status(FLEET, FLEET_ASK, draft)["instruction"] != "failed"


def test_a_statement_opening_a_list_item_belongs_to_that_items_ask() -> None:
    parts = read_instruction(MARKS_ASK, MARKS).parts
    mutual = next(p for p in parts if p.kind == "mutual")
    assert mutual.scope.sentences == (-1,)
    assert not any("last sentence" in p.text for p in parts if p.kind == "period")


def test_a_part_naming_its_sentence_leaves_alone_no_sentence_another_part_changes() -> None:
    draft = MARKS.replace("or thereafter", "or for three (3) years thereafter") + (
        " eDiets acknowledges that Women.com owns all right, title and interest in and to Women.com's own content.")
    assert _status(MARKS, MARKS_ASK, draft)["meaning"] != "failed"


def test_a_compound_with_an_object_of_its_own_is_a_verb() -> None:
    # g-conform-03: "so lower-case it" asks; "the change-of-control exit ... is Vendor-only" (g-mutual-08) does not.
    assert not asks_only_in_compounds("The PSA doesn't define Intellectual Property, so lower-case it")
    assert asks_only_in_compounds("The change-of-control exit in this limb is Vendor-only")


RECORDS = "Provider will maintain records of its compliance with this DPA for 3 years after the DPA ends."
COUNTER = "Customer's markup asks for 7 years of compliance records. We'll meet them at 5. Nothing else in 5.1 is open."


def test_a_counter_to_the_other_sides_ask_is_the_ask() -> None:
    # j-period-07: the other side's 7 years is the figure on the table; the lawyer's 5 is asked.
    parts = read_instruction(COUNTER, RECORDS).parts
    assert [(p.kind, p.params.get("value"), p.params.get("unit")) for p in parts] == [("period", 5, "years")]
    assert _status(RECORDS, COUNTER, RECORDS.replace("3 years", "5 years"))["instruction"] == "passed"
    assert _status(RECORDS, COUNTER, RECORDS.replace("3 years", "7 years"))["instruction"] == "failed"


RENEWALS = ("This Attachment will automatically be renewed for periods of six (6) months unless either party gives "
            "twelve (12) months written notice of its intent to terminate this Agreement. This Agreement will "
            "automatically be renewed for periods of twelve (12) months unless either Party gives six (6) months "
            "written notice of its intent to terminate this Agreement.")
SO_ASK = ("If the Attachment only renews for six months at a time, nobody can ever give twelve months' notice in time "
          "- so the Attachment's notice has to come down: three months.")


def test_the_figures_of_a_reason_before_so_are_neither_old_nor_pinned() -> None:
    # j-period-05: "six months" and "twelve months" make the case; the ask is after "so".
    part = read_instruction(SO_ASK, RENEWALS).parts[0]
    assert part.kind == "period" and part.params.get("value") == 3 and part.params.get("old") != 6
    draft = RENEWALS.replace("twelve (12) months written", "three (3) months written", 1)
    assert _status(RENEWALS, SO_ASK, draft)["instruction"] == "passed"


VOTOCAST = ("VOTOCAST will give Licensee at least thirty (30) days prior written notice of any rate changes during any "
            "Renewal Term. VOTOCAST agrees that rates may not increase by more than ten percent (10%) during any Renewal "
            "Term.")
FINDING = ("Remediation: notice period to 60 days. Finding does not cover the 10% cap or the supporting documentation, "
           "so no action on those.")


def test_what_is_asked_after_a_case_made_is_read_after_so() -> None:
    # k-period-03: the statement before "so" is the case; "no action on those" asks no carve-out.
    assert [p.kind for p in read_instruction(FINDING, VOTOCAST).parts] == ["period"]
    # An ask before "so" stays the ask: "Make it mutual, so both of us are covered".
    assert read_instruction("Make it mutual, so both of us are covered.", VOTOCAST).parts[0].kind == "mutual"


def test_a_reason_that_says_the_asked_figure_again_is_read_whole() -> None:
    # h-period-01: "the broker said five, so five years. rest stays" is the ask said again, never a kept figure.
    clause = "After this Agreement expires or terminates, Supplier will keep an extended reporting period of 2 years."
    ask = ("the tail, the extended reporting thing after it all ends, make that three years, no sorry, five, the broker "
           "said five, so five years. rest stays")
    part = read_instruction(ask, clause).parts[0]
    assert part.kind == "period" and part.params.get("value") == 5 and not part.params.get("kept")


def test_a_restated_figure_is_the_old_value_where_the_pointed_sentence_has_none_of_its_kind() -> None:
    # The ask's words point at the first sentence, which holds no period: the restated two-year tail is the
    # only one the ask can change.
    clause = ("Employee shall not solicit any customer of the Company. This restriction applies during employment and "
              "for two (2) years after it ends.")
    ask = "Amend the two-year tail. Employee may not solicit any customer of the Company for 18 months."
    period = next(p for p in read_instruction(ask, clause).parts if p.kind == "period")
    assert period.params.get("value") == 18 and period.params.get("old") == 2


def test_so_with_an_auxiliary_or_and_so_on_is_no_reason() -> None:
    # "..., and so does Customer" says "likewise"; "..., and so on" ends a list: the sentence is read whole.
    from addin_server.draft.instruction_asks import asks_nothing_after_so
    assert not asks_nothing_after_so("Customer should carry product liability, recall cover, and so on")
    assert not asks_nothing_after_so("The audit bites on Provider's records, and so does the notice")
    assert asks_nothing_after_so(FINDING.split(". ", 1)[1].rstrip("."))
