"""A replacement of words said of no party is not a move between the parties, and a figure said first as a
fact and then asked is one ask (drafting-l's blind review: l-multi-04 and l-period-06, spent)."""

from addin_server.draft.instruction import read_instruction

INSURANCE = ("Each of Customer and Supplier shall, upon request by the other, provide the other Party with a copy "
             "of all insurance policies maintained under this Article 15 and shall notify the other Party in writing "
             "at least 30 days prior to the cancellation of or any material change to such insurance policies.")
TAIL = ("During the Term, and for a period of one year following the termination or expiration of this Agreement, "
        "Reseller will not, directly or indirectly, make an offer of employment to any current employee of TouchStar.")


def kinds(instruction: str, clause: str) -> list[str]:
    return [p.kind for p in read_instruction(instruction, clause).parts]


def test_one_wording_for_another_is_no_flip():
    assert kinds("Subject: Art. 15 insurance - certificates, not full policies; 45 days' notice of "
                 "cancellation/material change (now 30)", INSURANCE) == ["other", "period"]
    assert kinds("Provide certificates instead of full policies.", INSURANCE) == ["other"]


def test_a_move_said_of_the_parties_is_still_a_flip():
    ins = read_instruction("The right to terminate should sit with the Licensee, not the Licensor.",
                           "The Licensor may terminate this Agreement on notice.")
    assert [p.kind for p in ins.parts] == ["flip"]
    assert ins.parts[0].params["holder"] == "Licensee"
    assert kinds("Supplier should provide the certificates instead of Customer.", INSURANCE) == ["flip"]
    assert kinds("Flip it.", INSURANCE) == ["flip"]


def test_a_figure_stated_then_asked_is_one_ask():
    ins = read_instruction("Market check on reseller deals from this year's survey: the median tail on employee "
                           "non-solicits is six months, and a year puts us in the top decile. Bring the tail after "
                           "termination or expiry to six (6) months, as in [1].", TAIL)
    assert [(p.kind, p.params.get("value")) for p in ins.parts] == [("period", 6)]
    assert "Bring the tail" in ins.parts[0].text


def test_two_asks_of_the_same_figure_stay_two():
    clause = ("Either party may terminate on thirty (30) days' notice. The breaching party has fifteen (15) days "
              "to cure.")
    ins = read_instruction("Make the notice period 60 days. Make the cure period 60 days too.", clause)
    assert [p.kind for p in ins.parts].count("period") == 2


def test_a_period_of_another_unit_brought_down_must_change_in_place():
    # The quickstart's model kept "one year" and wrote "six months" into a new proviso; the part said done.
    from addin_server.draft.checks import run_checks
    from addin_server.draft.checks_base import DraftTask
    clause = ("During the Term, and for a period of one year following the termination or expiration of this "
              "Agreement, Reseller will not solicit any current employee of TouchStar.")
    ask = "Bring the tail after termination or expiry to six (6) months."
    kept = clause[:-1] + ", provided that the median tail of the database is six months old."
    done = clause.replace("one year", "six (6) months")
    bad = {r.name: r for r in run_checks(DraftTask(clause=clause, instruction=ask), kept)}
    good = {r.name: r for r in run_checks(DraftTask(clause=clause, instruction=ask), done)}
    assert bad["instruction"].passed is False and "one year" in bad["instruction"].reason
    assert good["instruction"].passed is True
