"""Session 13, parts13 (issue 38): a limb of the message is shown "not done" by its missing words only where it
is said as an ask (instruction_asks.asks_in_its_words), and a clause carried "into" another document is a
change of the whole clause whatever names the clause (parts_limbs._WHOLE).

Fixtures are limbs of the spent drafting-o and -p tasks whose sound drafts were failed by a statement read as an
ask. Each test fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.instruction import Part
from addin_server.draft.instruction_asks import asks_in_its_words
from addin_server.draft.parts_limbs import shown_not_done

# o-multi-08
BAA = ("This BAA has 2 parts: (1) the Key Terms on this Cover Page and (2) the Common Paper BAA Standard Terms Version 1.0 "
       "posted at https://commonpaper.com/standards/business-associate-agreement/1.0, which is incorporated by reference. "
       "Any modifications to the BAA Standard Terms should be made on the Cover Page. If there is any inconsistency between "
       "the parts of the BAA, the Cover Page will control over the BAA Standard Terms. Capitalized words have the meanings "
       "or descriptions given in the Cover Page or Standard Terms. A copy of the BAA Standard Terms is attached for "
       "convenience only.")
BAA_SOUND = ("This BAA has two parts: (1) the Key Terms on this Cover Page and (2) the Common Paper BAA Standard Terms Version "
             "1.0 posted at https://commonpaper.com/standards/business-associate-agreement/1.0, which are part of this BAA. Any "
             "change to the BAA Standard Terms must be made on the Cover Page. If the two parts conflict, the Cover Page wins. "
             "Capitalized words mean what the Cover Page or Standard Terms say. A copy of the BAA Standard Terms is attached "
             "only for convenience.")
# o-conform-02
DPA = ("In situations where Customer is a Controller of the Customer Personal Data, Provider will be deemed a Processor that "
       "is Processing Personal Data on behalf of Customer.")
DPA_SOUND = ("In situations where Customer is a controller of Personal Data contained in Input, Provider will be deemed a "
             "processor that is processing that Personal Data on behalf of Customer.")


def test_a_statement_under_a_heading_asks_nothing() -> None:
    # o-multi-04, o-multi-08, p-mutual-01, l-carve_out-02: the finding, the quoted words judged, a give/get field,
    # a line of a call script. An ask-word there is a noun ("internal use") or a verb of someone's statement.
    assert not asks_in_its_words("Finding B: our developers adapt the Type II Materials for internal use")
    assert not asks_in_its_words("Change control: 'should be made on the Cover Page' is advisory only - a side e-mail "
                                 "could arguably vary the Standard Terms")
    assert not asks_in_its_words("GIVE: nothing further on the termination mechanics")
    assert not asks_in_its_words("DISTRIBUTOR DESK: We do - let me send you a quote")


def test_an_ask_under_a_heading_or_a_mark_is_still_an_ask() -> None:
    assert asks_in_its_words("Required: add the right to prepare derivative works, still within Customer's Enterprise only")
    assert asks_in_its_words("Recommendation: (1) raise the standard to reasonable best efforts")
    assert asks_in_its_words("Flip the audit: we check the books")  # a heading that opens with an ask is the ask
    assert asks_in_its_words("Longer version: the business wants any court case heard in Jefferson County")
    assert asks_in_its_words("Producer may screen the Program at film festivals and industry award screenings")


def test_a_statement_is_not_shown_not_done_by_its_missing_words() -> None:
    finding = Part("other", "Change control: 'should be made on the Cover Page' is advisory only - a side e-mail could "
                            "arguably vary the Standard Terms", {"limb": "Change control: 'should be made on the Cover "
                            "Page' is advisory only - a side e-mail could arguably vary the Standard Terms"})
    assert shown_not_done(finding, BAA, BAA_SOUND) == ""


def test_a_clause_carried_into_another_document_names_no_words_to_add() -> None:
    limb = "TASK: carry DPA 1.1 (Provider as processor) into the AI Addendum CONSTRAINTS:"
    assert shown_not_done(Part("other", limb, {"limb": limb}), DPA, DPA_SOUND) == ""


# o-period-02
SELL_OFF = ("Company may liquidate and sell its inventory of Licensed Products (including any inventory then in production) for "
            "a period of ninety (90) days after the termination date of the Contract Period, subject to the Company's "
            "continued obligation to pay the Fee as provided above, and will deliver the Sales Report with respect to such "
            "liquidation sales within 30 days following the end of the first reached full quarter following termination.")
CHRONOLOGY = ("Chronology - sell-off period\n3 March: licensor's notice of non-renewal received.\n10 March: Company's production "
              "run scheduled to finish 30 June.\n14 March: warehouse confirms it cannot clear the stock in under five months.\n"
              "17 March: licensor agrees by e-mail to a sell-off of 180 days.\nTo do: amend the sell-off so it runs for 180 "
              "days after the end of the Contract Period. The Fee stays payable on those sales and the Sales Report deadline "
              "(30 days after the first full quarter) is not affected.")
SELL_OFF_SOUND = SELL_OFF.replace("ninety (90) days", "one hundred eighty (180) days")


def test_a_log_entry_is_what_happened_not_an_ask() -> None:
    from addin_server.draft.instruction import read_instruction
    from addin_server.draft.instruction_asks import log_entry
    assert log_entry("14 March: warehouse confirms it cannot clear the stock in under five months")
    assert not log_entry("17 March: make it 180 days")  # an entry that asks is an ask
    assert not log_entry("Decision 2: Consent standard") and not log_entry("9.1: data breaches out too")  # no dates
    parts = read_instruction(CHRONOLOGY, SELL_OFF).parts
    asked = [p for p in parts if not p.params.get("kept")]
    # The warehouse's "five months" is neither a period asked nor a figure left unread.
    assert [(p.kind, p.params.get("value")) for p in asked] == [("period", 180)]


def test_a_place_another_part_keeps_is_not_one_left_undone() -> None:
    from addin_server.draft.checks import DraftTask, check_draft
    check = next(c for c in check_draft(DraftTask(SELL_OFF, CHRONOLOGY), SELL_OFF_SOUND).checks if c.name == "instruction")
    assert check.passed is not False, check.reason
    broken = next(c for c in check_draft(DraftTask(SELL_OFF, CHRONOLOGY), SELL_OFF).checks if c.name == "instruction")
    assert broken.passed is False  # the sell-off left at ninety days is still not done
