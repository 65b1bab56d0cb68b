"""Session 13, parts13c (issue 38): a quotation in single quotes is a quotation (instruction_lines._single_quote),
so another's words quoted before the lawyer's own ask are context of it, never asks of their own, and an ask
that names the quoted paper as its source ("as the report proposes") is read with it; the lawyer's
order that points back to quoted asks ("Both points go into the Servicer's covenant") is read with the ask it
joins for its kind, and a figure quoted keeps its kind.

Fixtures are the instructions of spent drafting-t and -p tasks. Each test fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.instruction import read_instruction
from addin_server.draft.instruction_lines import points_back, quoted_only

# t-period-02
REPORT = ("Extract from the price-benchmarking report prepared for Aura:\n'4.3 Zanotti's MFN undertaking is sound, but the "
          "notice window is long. A supplier that tells a customer of better terms fifteen days after agreeing them has "
          "usually shipped at the old price in the meantime. Comparable contracts in the sector use seven (7) calendar "
          "days.'\nPlease bring the notice down to seven calendar days as the report proposes. The three-month minimum "
          "for the MFN Terms stays.")
MFN = ("Zanotti shall notify Aura in writing of any such MFN Terms within fifteen (15) calendar days after agreeing "
       "thereto, and shall make the MFN Terms available to Aura as of the effective date of such agreement and thereafter "
       "for the greater of (i) three (3) months or (ii) such time that the MFN Terms remain in effect.")
# t-multi-05
AGENCY = ("Pre-sale comment from the rating agency's structured finance team (received this morning):\n'Non-petition: we "
          "do not rate on an unlimited covenant; please limit it to the customary period ending one year and one day after "
          "the Notes are paid in full. Separately, the Servicer should remain free to file a proof of claim in a "
          "proceeding begun by someone else.'\nBoth points go into the Servicer's covenant, please.")
# p-multi-06
CANDIDATE = ("Forwarded by HR - candidate's reply to the offer:\n\"Happy to sign, but 12 months is a long time out of the "
             "market for a sales engineer. Would you do 6? And the territory reads as anywhere the company sells; I only "
             "ever cover Connecticut.\"\nHR: the business is fine with both. Amend the cover-terms row; the row labels stay.")


def test_single_quotes_open_and_close_a_quotation_but_an_apostrophe_does_not() -> None:
    assert quoted_only(["Extract from the report: '4.3 Zanotti's MFN undertaking is sound",
                        "Comparable contracts in the sector use seven (7) calendar days.'",
                        "Please bring the notice down to seven calendar days"]) == [True, True, False]
    # Apostrophes only ("the Licensee's", "the Notes' term"): no quotation opens.
    assert quoted_only(["the Licensee's notice and the Notes' term run for ninety days after the Closing"]) == [False]


def test_another_s_figures_quoted_in_single_quotes_are_context_of_the_ask() -> None:
    parts = read_instruction(REPORT, MFN, ("Zanotti", "Aura")).parts
    assert [p.kind for p in parts] == ["period", "period"]
    assert "Please bring" in parts[0].text and "Comparable contracts" in parts[0].text


def test_an_ask_that_names_the_quoted_paper_as_its_source_points_back_to_it() -> None:
    assert points_back("Please bring the notice down to seven calendar days as the report proposes")
    assert points_back("Cut the cap to what the auditor's memo recommends")
    assert not points_back("Target for award: renewal terms of two years each")


def test_an_order_pointing_back_to_quoted_asks_is_read_with_the_ask_it_joins() -> None:
    parts = read_instruction(AGENCY).parts
    # The proof-of-claim freedom is no right moved to the Servicer, and the order is no ask of its own.
    assert [p.kind for p in parts] == ["period", "other"]
    assert "Both points" in parts[-1].text


def test_a_figure_quoted_keeps_its_kind_when_the_order_joins_it() -> None:
    assert read_instruction(CANDIDATE).parts[0].kind == "period"
