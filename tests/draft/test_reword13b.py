"""The meaning check's reading of a reworded clause part by part (addin_server/draft/compare_pairs.py, session 13):
each clause part paired with the draft part that says it, and inside the pair a limit ("only", "exclusively")
or a condition dropped fails; the faithful rewording of each does not. Fixtures are spent tasks' clauses
(drafting-o, -a, -e, -i, -h), cut short."""

from __future__ import annotations

from addin_server.draft.compare_base import Allowances
from addin_server.draft.compare_pairs import pairs, paired_changes
from addin_server.draft.compare_reword import reworded_changes

FINANCING = ("Subject to the provisions of Section 8.2, if the Company determines to solicit additional equity financing "
             "subsequent to exercise of the Option but prior to Commencement of Production at the El Aguila project, it "
             "shall provide written notice to that effect to HOC and HOC shall be entitled to exclusively provide such "
             "financing upon the terms and conditions hereinafter set forth.")
KEEP_ASK = ("Please make the English text of the clause simple: the window, the written notice to HOC, HOC's exclusive "
            "right and the Section 8.2 reference all stay.")
OPEN = ("Subject to Section 8.2, if, after the Option is exercised but before Commencement of Production at the El "
        "Aguila project, the Company decides to seek additional equity financing, it must tell HOC in writing, and HOC "
        "will have the right to provide that financing alongside other investors on the terms set out below.")
SOLE = ("Subject to Section 8.2, if, after the Option is exercised but before Commencement of Production at the El "
        "Aguila project, the Company decides to seek additional equity financing, it must tell HOC in writing, and HOC "
        "alone will have the right to provide that financing on the terms set out below.")
NAMES = ("Company", "HOC")


def test_a_limit_dropped_inside_its_pair_fails_and_one_said_otherwise_does_not() -> None:
    found = reworded_changes(FINANCING, OPEN, Allowances(rewrite=True), KEEP_ASK, NAMES)
    assert found and "exclusively" in found[0]
    assert reworded_changes(FINANCING, SOLE, Allowances(rewrite=True), KEEP_ASK, NAMES) == []


def test_an_instruction_that_speaks_of_the_limit_otherwise_excuses_it() -> None:
    ask = "Plain English, and make HOC's right non-exclusive."
    assert paired_changes(FINANCING, OPEN, Allowances(rewrite=True), ask.lower(), NAMES) == []


def test_only_if_said_as_a_relative_clause_is_kept() -> None:
    clause = ("Recipient may disclose Discloser's Confidential Information to employees and advisors who have a need to "
              "know it, but only if the person is bound by confidentiality obligations at least as protective as these.")
    draft = ("Recipient may disclose Discloser's Confidential Information to employees and advisors who need to know it "
             "and are bound by confidentiality obligations at least as protective as these.")
    assert paired_changes(clause, draft, Allowances(rewrite=True), "can this be done in forty words?", ()) == []


TERM = ("This Agreement will commence on the Effective Date and will remain in full force and effect for as long as "
        "Contractor is performing Services pursuant to the SOW.")


def test_a_condition_dropped_inside_its_pair_fails_and_one_kept_in_other_words_does_not() -> None:
    dropped = "This agreement will commence on the Effective Date and will remain in full force and effect indefinitely."
    kept = ("This agreement starts on the Effective Date and stays in force while Contractor performs Services under "
            "the SOW.")
    ask = "put this into our agreement's terms."
    found = paired_changes(TERM, dropped, Allowances(rewrite=True), ask, ("Contractor",))
    assert found and "for as long as Contractor is performing" in found[0]
    assert paired_changes(TERM, kept, Allowances(rewrite=True), ask, ("Contractor",)) == []
    # (Asked to go, it may go.)
    assert paired_changes(TERM, dropped, Allowances(rewrite=True), "delete the sow condition.", ("Contractor",)) == []


def test_an_if_after_a_verb_of_knowing_is_whether_and_a_proviso_on_a_figure_may_be_a_floor() -> None:
    audit = ("Shipper shall be entitled to audit Carrier's books for the limited purpose of determining if the amount of "
             "any increase is justified by the reasonable costs relating to the System.")
    said = "Shipper may audit Carrier's books to check whether an increase is justified by reasonable System costs."
    assert paired_changes(audit, said, Allowances(rewrite=True), "rewrite it plainly.", ("Shipper", "Carrier")) == []
    quota = ("The Quota Amount for a renewal term is an amount agreed in writing by the parties (provided that such "
             "amount equals or exceeds $50,000).")
    floor = "The Quota Amount for a renewal term is whatever amount the parties agree in writing, which cannot be less than $50,000."
    assert paired_changes(quota, floor, Allowances(rewrite=True), "plain english.", ()) == []


def test_parts_pair_only_where_one_partner_is_clearly_best() -> None:
    clause = "Licensee shall pay the fees monthly. Licensee shall pay the fees quarterly."
    draft = "Licensee pays the fees."
    assert pairs(clause, draft) == []
    assert pairs(TERM, TERM) == [(TERM, TERM)]


def test_a_flip_moves_whole_provisions_and_is_not_read_here() -> None:
    assert paired_changes(FINANCING, OPEN, Allowances(rewrite=True, parties=True), KEEP_ASK.lower(), NAMES) == []
