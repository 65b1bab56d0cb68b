"""Session 12, partly12 (issue 38): an unread limb that names the clause's own words to go or to swap is
held to the draft by those words (instruction_named.py, parts_limbs._named_left).

Fixtures are the spent drafting-k and -m tasks whose partly-done drafts were shown "not checked". Each test
fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, check_draft
from addin_server.draft.instruction_named import said_to_go, swaps

# k-multi-07
WARRANTY = ("Provider warrants that, for the Warranty Period, the Software will substantially conform in all material respects "
            "to the specifications set forth in the Documentation when installed, operated, and used according to the Agreement.")
STATUS = ("Status on 5.2 (we are Provider).\nAGREED: no warranty for Software someone other than Provider has modified - model "
          "it on the packaging supplier's 'shall not apply' sentence [1].\nAGREED: 'substantially' goes; it is belt and braces "
          "next to 'in all material respects'.\nOPEN: Customer's procurement wants Customer to give Provider 'the same warranty "
          "back'. Draft it if it works.")
WARRANTY_SOUND = ("Provider warrants that, for the Warranty Period, the Software will conform in all material respects to the "
                  "specifications set forth in the Documentation when installed, operated, and used according to the Agreement. "
                  "This warranty will not apply to any Software that has been modified by anyone other than Provider.")
WARRANTY_KEPT = WARRANTY_SOUND.replace("will conform", "will substantially conform")
# m-conform-03
COURTS = ("The Governing Law will govern all interpretations and disputes about this Agreement, without regard to its conflict "
          "of laws provisions. The parties will bring any legal suit, action, or proceeding about this Agreement in the Chosen "
          "Courts and each party irrevocably submits to the exclusive jurisdiction of the Chosen Courts.")
BOARD = ("Transcribed from the whiteboard photo after Tuesday's session (left panel, boxed):\n  CSA 12.3 -> into Bonterms PSA\n"
         "  'Chosen Courts' = their 'Courts' (Key Terms box)\n  Governing Law - same label, leave\n  exclusive + irrevocable - "
         "KEEP\nBelow the box someone has written: 'no other edits!!'")
COURTS_SOUND = COURTS.replace("Chosen Courts", "Courts")
COURTS_HALF = COURTS.replace("in the Chosen Courts", "in the Courts")


def _instruction(clause: str, ask: str, draft: str) -> bool | None:
    return next(c for c in check_draft(DraftTask(clause, ask), draft).checks if c.name == "instruction").passed


def test_quoted_words_said_to_go_are_read_as_the_clauses() -> None:
    assert said_to_go(STATUS, WARRANTY) == ["substantially"]
    # ("'in all material respects'" is named beside it, not said to go.)
    assert said_to_go("'pursuant to the foregoing' and 'hereof' go", "pursuant to the foregoing hereof") == [
        "pursuant to the foregoing", "hereof"]


def test_a_bare_phrase_said_to_go_is_read_where_the_clause_has_it() -> None:
    clause = "which consent Licensor may grant or withhold in its sole and absolute discretion"
    assert said_to_go("Three things or no deal. (1) Sole and absolute discretion goes; the Licensor must act reasonably",
                      clause) == ["Sole and absolute discretion"]
    assert said_to_go("The supplier's notice goes", clause) == []  # words the clause lacks name nothing


def test_words_said_to_go_and_still_there_fail_the_instruction() -> None:
    assert _instruction(WARRANTY, STATUS, WARRANTY_KEPT) is False
    assert _instruction(WARRANTY, STATUS, WARRANTY_SOUND) is not False


def test_swaps_are_read_from_equals_becomes_and_read() -> None:
    assert swaps("'Chosen Courts' = their 'Courts' (Key Terms box)", COURTS) == [("Chosen Courts", "Courts")]
    clause = "Upon JHU's request, Company will furnish JHU with a Certificate of Insurance."
    assert swaps("So wherever the licence says JHU, read Company; wherever the licence says Company, read Partner.",
                 clause) == [("JHU", "Company"), ("Company", "Partner")]
    assert swaps("In the second sentence Minnesota becomes Georgia.", "in Minnesota") == [("Minnesota", "Georgia")]
    assert swaps("CSA 12.3 -> into Bonterms PSA", COURTS) == []  # no name of the clause


def test_a_swap_begun_and_not_finished_fails_the_instruction() -> None:
    assert _instruction(COURTS, BOARD, COURTS_HALF) is False
    assert _instruction(COURTS, BOARD, COURTS_SOUND) is not False


# k-conform-04
MINNESOTA = ("This agreement is governed by the law listed in Cover Terms. An Employee who primarily resides and works in "
             "Minnesota may bring any claim arising under this agreement in Minnesota, and Minnesota law governs any "
             "controversy arising in Minnesota.")
GEORGIA = ("Reusing this for the Georgia form. The team asked whether the first sentence needs anything: no, Cover Terms exists "
           "there too. In the second sentence Minnesota becomes Georgia - it appears three times, so catch all three.")


def test_a_swap_of_names_read_as_mutual_is_held_to_the_names() -> None:
    from addin_server.draft.instruction import read_instruction
    parts = read_instruction(GEORGIA, MINNESOTA, ("Employee",)).parts
    assert [p.kind for p in parts] == ["other"]
    half = MINNESOTA.replace("in Minnesota may", "in Georgia may").replace("agreement in Minnesota", "agreement in Georgia")
    assert _instruction(MINNESOTA, GEORGIA, half) is False
    assert _instruction(MINNESOTA, GEORGIA, MINNESOTA.replace("Minnesota", "Georgia")) is not False


def test_a_swap_to_a_name_the_clause_has_may_move_a_right() -> None:
    # ("Licensee becomes Licensor" may hand a right over: no swap of names read from "becomes" there.)
    assert swaps("the notice right of Licensee becomes Licensor's", "Licensee may terminate; Licensor may not.") == []


def test_goes_with_a_direction_is_a_change_not_an_end() -> None:
    # i-conform-05: "'Party' goes lower case" changes the word's case; it does not ask the word to go.
    assert said_to_go("'the Term' there is not this one; 'Party' goes lower case", "each Party and the Term") == []


def test_a_swap_to_a_role_stays_a_mutual_part() -> None:
    # f-mutual-03: "replace 'The Licensee' with 'Neither party'" shares the restriction; it is no swap of names.
    from addin_server.draft.instruction import read_instruction
    ask = ("Redline: replace 'The Licensee' with 'Neither party' and 'the Licensor' with 'the other party' in the transfer "
           "restriction - the licensor shouldn't be free to hand this deal to anyone either.")
    clause = "The Licensee shall not assign this Agreement without the prior written consent of the Licensor."
    assert [p.kind for p in read_instruction(ask, clause, ("Licensee", "Licensor")).parts] == ["mutual"]


# m-period-03: the lawyer counts the places ("used twice") and asks for all of them ("Make both sixty days").
RENEWAL = ("In the event that there is no written notice issued by either party to show the intention to renew this Agreement "
           "in the said thirty(30) days before the expiry of the current Term of the Agreement, the Agreement shall terminate "
           "at the end of the said thirty(30) days.")
BOTH = "The renewal window appears twice. Make both sixty days, counted the same way."


def test_a_period_asked_for_both_places_and_changed_in_one_is_partly_done() -> None:
    from addin_server.draft.parts_figures import _EVERY_PLACE
    assert _EVERY_PLACE.search("Make both sixty days") and _EVERY_PLACE.search("it appears three times, so catch all three")
    assert not _EVERY_PLACE.search("both parties may terminate on sixty days' notice")
    half = RENEWAL.replace("in the said thirty(30) days", "in the said sixty (60) days")
    assert _instruction(RENEWAL, BOTH, half) is False
    assert _instruction(RENEWAL, BOTH, RENEWAL.replace("thirty(30)", "sixty (60)")) is not False
