"""Session 13, ops13b (issue 38): two operation leftovers of ops13.

Fixtures are spent tasks: o-multi-02 (a model draft that changed the clause's 12 months while the ask's
"one-year" is read as kept) and j-multi-01 ("CELEBRITY gives PAPA JOHN'S the same promise"). Each test
fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask
from addin_server.draft.instruction import read_instruction
from addin_server.draft.parts import check_part
from addin_server.draft.parts_result import Context
from addin_server.draft.router import DraftRouter

from tests.draft.test_ops13 import LEVERS, RENEWAL, RENEWAL_PARTIES

# j-multi-01 (shortened to the first limb and the period sentence)
GAG = ("PAPA JOHN'S shall not, during the Term or at any time thereafter: (I) defame or disparage CELEBRITY or the "
       "Personality Rights (or any portion thereof), whether in connection with this Agreement or otherwise. All Parties "
       "agree not to disparage or make derogatory comments, verbal or written, regarding the other Party during the Term "
       "of the Agreement, and for one year thereafter.")
BUBBLE = ("CELEBRITY's counsel, comment bubble on (I): \"Why is only one side gagged for ever?\"\nMy reply, for you to "
          "draft: fair - CELEBRITY gives PAPA JOHN'S the same promise, same wording, same 'at any time thereafter'. And "
          "while we're there, the general no-derogatory-comments sentence runs for two years once the Term ends, not one.")


def _year_row(draft: str, clause: str = RENEWAL) -> str:
    ins = read_instruction(LEVERS, clause, RENEWAL_PARTIES)
    year = next(p for p in ins.parts if p.kind == "period" and p.params.get("kept"))
    return check_part(year, ins, clause, draft, Context(parties=RENEWAL_PARTIES)).status


def test_a_kept_figure_counted_by_length_is_not_said_to_stay_when_the_draft_changed_it() -> None:
    # A model draft: the clause's 12 months are now 24; the ask named them "one-year".
    draft = RENEWAL.replace("12 months", "24 months")
    assert _year_row(draft) == "unchecked"


def test_a_kept_figure_written_in_another_unit_still_stays() -> None:
    # The clause says "one year", the part keeps "1 year"; a draft that writes "12 months" kept it (counted by
    # length, not by unit), where the unit count found none left and said the draft changed it.
    clause = RENEWAL.replace("12 months", "1 year")
    ins = read_instruction(LEVERS, RENEWAL, RENEWAL_PARTIES)
    year = next(p for p in ins.parts if p.kind == "period" and p.params.get("kept"))
    draft = clause.replace("1 year", "12 months")
    assert check_part(year, ins, clause, draft, Context(parties=RENEWAL_PARTIES)).status == "done"


def test_the_same_promise_asks_for_mutuality() -> None:
    ins = read_instruction(BUBBLE, GAG, ("PAPA JOHN'S", "CELEBRITY"))
    assert any(p.kind == "mutual" for p in ins.parts)
    drafted = DraftRouter(None).draft(DraftTask(GAG, BUBBLE, (), ("Term", "Personality Rights"),
                                                ("PAPA JOHN'S", "CELEBRITY")))
    assert "Neither party" in drafted.result.verified.text and "two years" in drafted.result.verified.text


# p-carve_out-01 (spent): the ask gives Kiromic the right; a draft's exception gives it to Molipharma.
PUBLICATION = ("Kiromic assigns to Molipharma all the rights of publication of the research, unless they are considered "
               "confidential for patenting.")
DISCLOSE = ("Background: the publication-rights sentence hands every right of publication to Molipharma.\nAsk: a "
            "carve-out so that Kiromic can disclose where the law requires it, patterned on [1]. The "
            "patent-confidentiality limb is not to move.")
KIROMIC = ("Kiromic", "Molipharma")
# o-carve_out-03 (spent, shortened): an exception for the Reseller's conduct put on the Company's conduct.
INDEMNITIES = ("THE COMPANY SHALL INDEMNIFY AND HOLD HARMLESS THE RESELLER FOR ANY AND ALL LOSSES SUFFERED BY THE RESELLER AS "
               "A RESULT OF THE COMPANY PRODUCTS. ADDITIONALLY, THE RESELLER SHALL INDEMNIFY AND HOLD HARMLESS THE COMPANY "
               "FOR ANY AND ALL LOSSES SUFFERED BY THE COMPANY AS A RESULT OF THE RESELLER'S ACTIVITIES.")
CAPA = ("Add an exception to the Company's indemnity only, for the Reseller's grossly negligent or deliberately wrongful "
        "acts, as in [1].")
RESELLER = ("Reseller", "Company")


def _carve_status(clause: str, ask: str, draft: str, parties: tuple[str, ...]) -> list[str]:
    from addin_server.draft.parts import raw_part
    ins = read_instruction(ask, clause, parties)
    return [raw_part(p, ins, clause, draft, Context(parties=parties)).status for p in ins.parts if p.kind == "carve_out"]


def test_an_exception_giving_the_asked_right_to_the_other_party_is_wrong() -> None:
    wrong = PUBLICATION[:-1] + ", except that Molipharma may disclose the research to the extent required by law."
    right = PUBLICATION[:-1] + ", except that Kiromic may disclose the research to the extent required by law."
    assert _carve_status(PUBLICATION, DISCLOSE, wrong, KIROMIC) == ["wrong"]
    assert _carve_status(PUBLICATION, DISCLOSE, right, KIROMIC) != ["wrong"]


def test_the_conduct_the_ask_names_keys_the_exception_though_another_party_owns_the_indemnity() -> None:
    wrong = INDEMNITIES[:-1] + ", EXCEPT IN THE CASE OF GROSS NEGLIGENCE OR WILLFUL MISCONDUCT BY THE COMPANY."
    right = INDEMNITIES.replace("THE COMPANY PRODUCTS.", "THE COMPANY PRODUCTS, EXCEPT IN THE CASE OF GROSS NEGLIGENCE OR "
                                                         "WILLFUL MISCONDUCT BY THE RESELLER.")
    assert _carve_status(INDEMNITIES, CAPA, wrong, RESELLER) == ["wrong"]
    assert _carve_status(INDEMNITIES, CAPA, right, RESELLER) != ["wrong"]


# j-plain-04 (spent): a plain rewording that swaps the owners ("keeps full ownership", the plain "retains").
OWNERSHIP = ("Except for the limited license in Section 1.1 (Access and Use), Provider retains all right, title, and interest "
             "in and to the Product, whether developed before or after the Effective Date. Except for the limited rights "
             "in Section 1.5 (Customer Content), Customer retains all right, title, and interest in and to the Customer "
             "Content.")
WHO_OWNS = "\"So who owns what?\" Answer with 11.1 itself in plain words - 'right, title, and interest in and to' has to go."


def test_keeps_is_read_as_retains() -> None:
    from index_builder.reading import binding
    read = binding.read("Customer keeps full ownership of the Customer Content.", ("Provider", "Customer"))
    assert [(p.kind, p.bound) for p in read.provisions] == [("right", "Customer")]


def test_owners_swapped_in_a_plain_rewording_are_caught() -> None:
    from addin_server.draft.compare import compare
    from addin_server.draft.compare_roles import role_changes
    from addin_server.draft.parts import allowances
    swapped = ("Customer keeps full ownership of the Product, whether it was developed before or after the Effective "
               "Date, apart from the limited license in Section 1.1 (Access and Use). Provider keeps full ownership of "
               "the Customer Content, apart from the limited rights in Section 1.5 (Customer Content).")
    sound = swapped.replace("Customer keeps", "@").replace("Provider keeps", "Customer keeps").replace("@", "Provider keeps")
    parties = ("Provider", "Customer")
    ins = read_instruction(WHO_OWNS, OWNERSHIP, parties)
    for draft, changed in ((swapped, True), (sound, False)):
        allow = allowances(ins, OWNERSHIP, draft, Context(parties=parties))
        assert bool(role_changes(compare(OWNERSHIP, draft), allow, parties)) is changed


# i-period-02 (spent): "Leave the sixty-month look-back alone. Just bring the tail down from five years to two."
LOOK_BACK = ("During the term hereof and for a period of five (5) years thereafter, each Party agrees not to hire or solicit "
             "any current or previous employee of the other Party (unless a period of sixty months has elapsed from the "
             "last date that such employee was employed by such party).")
TAIL = "Leave the sixty-month look-back on ex-staff alone. Just bring the tail after the term down from five years to two."


def test_a_period_of_the_same_length_another_part_changes_is_not_a_kept_one_lost() -> None:
    ins = read_instruction(TAIL, LOOK_BACK, ())
    draft = LOOK_BACK.replace("five (5) years", "two (2) years")
    assert [check_part(p, ins, LOOK_BACK, draft, Context()).status for p in ins.parts] == ["done", "done"]
