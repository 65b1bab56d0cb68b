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
