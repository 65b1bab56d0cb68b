"""Which sentence a mutual ask reaches, and figures given as background (session 12, gate12b).

Fixtures are cut from spent drafting tasks (l-plain-04, j-multi-09, m-conform-04, l-period-01): clause
wording from Common Paper and ACORD (CC BY 4.0); asks as lawyers wrote them."""

from __future__ import annotations

from addin_server.draft.instruction import read_instruction
from addin_server.draft.instruction_moves import settle
from addin_server.draft.parts_scope import targets
from index_builder.reading import binding

_COVENANTS = ("During the Restricted Period, Employee must not Solicit the business of any Covered Customer. "
              "During the Restricted Period, Employee must not recruit or hire any Covered Employee.")
_DPA = ("Before submitting Personal Data governed by GDPR, Customer must enter into a data processing agreement "
        "with Provider. If the parties have a DPA, each party will comply with its obligations in the DPA.")


def _targets(ask: str, clause: str, names: tuple[str, str]) -> list[str]:
    part = next(p for p in read_instruction(ask, clause, names).parts if p.kind == "mutual")
    return [clause[t.start:t.end] for t in targets(part, binding.read(clause, names), clause)]


def test_an_ask_that_shares_a_word_with_another_one_sided_sentence_is_not_narrowed():
    # "Covered" is in both covenants: the ask may reach both, so both are held (not narrowed by a guess)
    got = _targets("Employer should not recruit or hire any Covered Employee either.", _COVENANTS,
                   ("Employee", "Employer"))
    assert len(got) == 2


def test_a_plain_make_it_mutual_reaches_every_one_sided_sentence():
    assert len(_targets("Make it mutual.", _COVENANTS, ("Employee", "Employer"))) == 2


def test_an_ask_that_describes_a_sentence_already_mutual_reaches_nothing():
    # "each side follows the DPA" restates the second sentence: the customer's duty in the first is not its target
    assert _targets("each side complies with its obligations in the DPA", _DPA, ("Customer", "Provider")) == []


def test_a_figure_stated_as_what_stands_elsewhere_is_not_a_value_asked():
    ask = ("the worker is 'Contractor' and the only post-term restraint is the one year after the Agreement in "
           "Section 1.2 (Non-Solicitation)")
    clause = "Each Restricted Period begins when Employee's employment ends and expires on its stated end date."
    out = settle("period", ask, clause, {"value": 1, "unit": "years", "text": "one year"})
    assert "unclear" in out
    # an ask verb reaching it makes it the value asked
    out = settle("period", "the restraint should be the one year in Section 1.2", clause,
                 {"value": 1, "unit": "years", "text": "one year"})
    assert "unclear" not in out


def test_the_clause_figure_judged_is_an_old_value_for_another_part():
    clause = "either party may terminate this Agreement, effective at any time after the first three months of the Term."
    out = settle("period", "The draft says three months. That is not enough for us", clause,
                 {"value": 3, "unit": "months", "text": "three months"})
    assert out.get("restated") and "unclear" in out


def test_an_ask_that_names_two_sentences_reaches_both():
    # h-mutual-02: "make the infringement cover and the damages sentence mutual" names both sentences
    clause = ("LICENSOR indemnifies and holds harmless plan_b against all claims that Content infringes any of the "
              "above mentioned rights of a third Party. LICENSOR shall pay all damages awarded in a trial to a third Party.")
    got = _targets("make the infringement cover and the damages sentence mutual, each side standing behind what it "
                   "supplies", clause, ("LICENSOR", "plan_b"))
    assert len(got) == 2
