"""Session 12, partly12b (issue 38): a swap of names excuses those names, not the sentence they stand in;
statements about the clause are not asks.

Fixtures are spent drafting-k and -m tasks. Each test fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, check_draft

# k-conform-04
VENUE = ("This agreement is governed by the law listed in Cover Terms. An Employee who primarily resides and works in Minnesota "
         "may bring any claim arising under this agreement in Minnesota, and Minnesota law governs any controversy arising in "
         "Minnesota.")
GEORGIA = ("Reusing this for the Georgia form. The team asked whether the first sentence needs anything: no, Cover Terms exists "
           "there too. In the second sentence Minnesota becomes Georgia - it appears three times, so catch all three.")
VENUE_SOUND = VENUE.replace("Minnesota", "Georgia")
VENUE_PARAPHRASE = ("The law listed in Cover Terms governs this agreement. An Employee who mainly lives and works in Georgia may "
                    "bring any claim under this agreement in Georgia, and Georgia law governs any controversy that arises in "
                    "Georgia.")


def _check(clause: str, ask: str, draft: str, name: str) -> bool | None:
    return next(c for c in check_draft(DraftTask(clause, ask), draft).checks if c.name == name).passed


def test_a_swap_of_names_does_not_excuse_the_sentence_it_stands_in() -> None:
    assert _check(VENUE, GEORGIA, VENUE_SOUND.replace("may bring", "must bring"), "meaning") is False


def test_the_swapped_names_themselves_are_excused() -> None:
    assert _check(VENUE, GEORGIA, VENUE_SOUND, "meaning") is not False
    assert _check(VENUE, GEORGIA, VENUE_PARAPHRASE, "meaning") is not False


# m-period-03
RENEWAL = ("In the event that there is no written notice issued by either party to show the intention to renew this Agreement "
           "in the said thirty(30) days before the expiry of the current Term of the Agreement, the Agreement shall terminate "
           "at the end of the said thirty(30) days.")
KESSLER = ("Note from the disputes side, for the file: We fought the Kessler renewal last year and lost, because their 30-day "
           "window fell across the holiday shutdown and nobody on the client's side saw it open and shut. In this clause the "
           "same window is thirty days, used twice. Make both sixty days, counted the same way (before expiry of the current "
           "Term). The consequence if no notice is given - the Agreement ends - stays.")
# m-multi-07 (its shape)
UNION = ("Staff union - points raised on the new covenant form, clause 3:\nPoint 1. Members cannot follow it. Put it in everyday "
         "words.\nPoint 2. It is one-sided. If our members must accept that the restrictions protect Employer's Protected "
         "Interests, Employer should accept, in the same sentence, that they are reasonable and necessary to protect "
         "Employee's Protected Interests too.")
COVENANT = ("Employee acknowledges that the restrictions in this agreement are reasonable and necessary to protect Employer's "
            "Protected Interests.")


def test_the_clauses_figure_described_as_it_stands_is_not_kept() -> None:
    from addin_server.draft.instruction import read_instruction
    parts = read_instruction(KESSLER, RENEWAL).parts
    assert not any(p.params.get("kept") for p in parts)
    assert _check(RENEWAL, KESSLER, RENEWAL.replace("thirty(30)", "sixty (60)"), "instruction") is not False


def test_a_figure_of_another_document_described_is_still_asked() -> None:
    from addin_server.draft.instruction_asks import describes_the_clause
    assert describes_the_clause("In this clause the same window is thirty days, used twice", RENEWAL)
    assert not describes_the_clause("the only post-term restraint there is the one year after the Agreement", RENEWAL)
    assert not describes_the_clause("the restriction lasts while the agreement is in force plus a further twelve months")


def test_a_complaint_that_the_clause_is_one_sided_is_not_an_ask_for_it() -> None:
    from addin_server.draft.instruction import read_instruction
    assert not read_instruction(UNION, COVENANT).problems
