"""An operation runs, and a check judges, only where the part reads one way (addin_server/draft/unambiguous.py).

Each test is a kind of misreading, in wording of its own (not a labelled set's): a value asked read as
a move of a right, a consent to add read as one, "both sentences" done in one, a precedent pasted as a
carve-out, a sentence of substance dropped as "debris", ownership made "each party's"; and the checks
saying "not checked" where they cannot compare, never "passed".
"""

from __future__ import annotations

import pytest

from index_builder.errors import InvalidRequestError, LLMNotConfiguredError
from index_builder.model import Clause

from addin_server.draft.checks import CheckResult, DraftTask, check_draft, not_checked
from addin_server.draft.instruction import Part, read_instruction
from addin_server.draft.router import DraftRouter
from addin_server.draft.edits import Edit, OperationResult
from addin_server.draft.unambiguous import doubt, doubt_after, doubt_done, names_a_value

FEE = ("Beta shall pay Acme a licence fee of one hundred thousand dollars ($100,000) each year. Acme may audit "
       "Beta's records once a year.")
PARTIES = ("Acme", "Beta")


def _operation(clause: str, instruction: str, precedents: tuple[Clause, ...] = (), parties=PARTIES):
    task = DraftTask(clause, instruction, precedents, None, parties)
    return DraftRouter(None).draft(task, "operation")


@pytest.mark.parametrize("words", ["Acme's finance team wants the licence fee at one hundred and fifty thousand a year",
                                   "Beta's share: a quarter, not a third",
                                   "tiers to 4% instead of 5% - Acme's margins are thin"])
def test_a_value_asked_is_never_a_move_of_a_right(words: str) -> None:
    assert names_a_value(words)
    assert "figure" in doubt(Part("flip", words))


def test_a_move_without_a_value_or_an_addition_reads_one_way() -> None:
    assert doubt(Part("flip", "Beta should hold these assignment rights, not Acme")) == ""
    assert doubt(Part("flip", "Acme keeps the same four limits; the grant runs from Beta")) == ""
    assert not names_a_value("Policy 4.2 (buyer side): the approval right sits with us")


def test_a_consent_to_add_is_never_a_move() -> None:
    assert "added" in doubt(Part("flip", "Beta must obtain our written approval before it subcontracts, not tell us after"))


def test_mutual_only_in_what_is_kept_or_beside_a_value_is_no_mutual_ask() -> None:
    assert "keep" in doubt(Part("mutual", "In three sentences, please - keep the cap and the mutual waiver"))
    assert "value" in doubt(Part("mutual", "Watch the rate in brackets too"))
    assert doubt(Part("mutual", "Beta should be able to audit Acme's records as well")) == ""
    assert doubt(Part("mutual", "Make the audit right mutual")) == ""
    assert doubt(Part("mutual", "and each side keeps its own at its own office"), "Acme shall keep books.") == ""


def test_the_operation_declines_a_value_read_as_a_move_and_says_why() -> None:
    # With no amount in the clause to give the sum its currency, "one hundred and fifty thousand" is no value
    # an operation reads: the ask is not read as a move of the right.
    clause = "Beta shall license the Software to Acme for the Term. Acme may audit Beta's records once a year."
    with pytest.raises((InvalidRequestError, LLMNotConfiguredError), match="figure"):
        _operation(clause, "Acme's finance team wants the licence fee at one hundred and fifty thousand a year.")


def test_a_sum_said_by_its_scale_is_read_in_the_clauses_currency() -> None:
    # "one hundred and fifty thousand" beside a clause in dollars means dollars (drafting-h: "caps out at
    # twenty-five million, not forty"; "CGL at two million").
    done = _operation(FEE, "Acme's finance team wants the licence fee at one hundred and fifty thousand a year.")
    assert "($150,000)" in done.operation.text and "$100,000" not in done.operation.text


def test_a_carve_out_is_never_the_whole_precedent_pasted_in() -> None:
    clause = "Acme shall not place any advertising for a competing product on the Beta portal during the Term."
    precedent = ("Notwithstanding the foregoing, nothing herein shall restrict the Parties' right to make general "
                 "searches for employees by way of a general solicitation placed in a trade journal or website.")
    pasted = OperationResult("add_carve_out", "Carve-out added", clause,
                             [Edit(len(clause), len(clause), " " + precedent + " [1]", "carve-out", "")], [1])
    part = Part("carve_out", "Carve out general advertising - model it on [1]", {"precedent": 1})
    assert "whole precedent" in doubt_after(part, clause, pasted, PARTIES, (precedent,))
    assert doubt_after(Part("carve_out", "Carve out general advertising - use [1] word for word", {"precedent": 1}),
                       clause, pasted, PARTIES, (precedent,)) == ""
    short = OperationResult("add_carve_out", "Carve-out added", clause,
                            [Edit(len(clause) - 1, len(clause) - 1, ", other than general advertising", "carve-out", "")])
    assert doubt_after(part, clause, short, PARTIES, (precedent,)) == ""


def test_switch_both_sentences_left_half_done_is_partly_done() -> None:
    clause = ("Acme may assign this Agreement to an Affiliate without Beta's consent. Any other assignment by Acme "
              "requires Beta's prior written consent.")
    part = Part("flip", "Beta should hold these rights, not Acme - switch both sentences", {"holder": "Beta"})
    half = clause.replace("Acme may assign this Agreement to an Affiliate without Beta's",
                          "Beta may assign this Agreement to an Affiliate without Acme's")
    status, reason = doubt_done(part, clause, half, PARTIES)
    assert status == "partly" and "Any other assignment" in reason
    whole = "Beta may assign this Agreement to an Affiliate without Acme's consent. Any other assignment by Beta " \
            "requires Acme's prior written consent."
    assert doubt_done(part, clause, whole, PARTIES) is None


def test_a_sentence_of_substance_dropped_unnamed_is_not_checked() -> None:
    clause = "All right, title and interest in the Source Code vests in Acme on delivery. See Annex [omitted] [***]."
    draft = "See Annex."
    status, reason = doubt_done(Part("delete", "lose the annex clutter", {"what": "the annex clutter"}), clause, draft)
    assert status == "unchecked" and "right or a duty" in reason
    assert doubt_done(Part("delete", "drop the first sentence", {"what": "the first sentence"}), clause, draft) is None


def test_ownership_made_each_partys_is_declined() -> None:
    clause = "All Inventions made under this Agreement shall be owned by Acme."
    try:
        drafted = _operation(clause, "Make the ownership even-handed.")
    except (InvalidRequestError, LLMNotConfiguredError):
        return  # declined: the assistant words who owns what
    assert "each party" not in drafted.result.verified.text.lower()


def test_a_figure_no_part_reads_is_an_unread_part_never_done() -> None:
    ins = read_instruction("Put the Term at three years, with one-year renewals after that unless a party objects "
                           "ninety days before.", "The Term is [__] years.")
    assert ins.parts[-1].kind == "other" and "ninety days" in ins.parts[-1].text
    assert [p.kind for p in read_instruction("Cut the notice to 30 days", "on sixty (60) days' notice").parts] == ["period"]


def test_check_status_says_not_checked_apart_from_not_applicable() -> None:
    assert CheckResult("length", None, "No length was asked for.").to_dict()["status"] == "not_applicable"
    assert not_checked("meaning", "x").to_dict() == {"name": "meaning", "passed": None, "status": "not_checked",
                                                      "reason": "x"}
    assert CheckResult("meaning", False, "x").status == "failed"


def test_the_instruction_check_is_not_passed_while_a_part_is_not_checked() -> None:
    clause = "Beta shall keep Acme's Confidential Information secret for two (2) years."
    task = DraftTask(clause, "Make it mutual and make it sound less stuffy for the board", (), None, PARTIES)
    draft = "Each party shall keep the other party's Confidential Information secret for two (2) years."
    checks = {c.name: c for c in check_draft(task, draft).checks}
    assert checks["instruction"].status in ("not_checked", "failed")
    assert checks["instruction"].passed is not True


def test_a_rewording_is_not_passed_on_meaning_it_cannot_hold() -> None:
    clause = "The Licensee shall not, without the prior written consent of the Licensor, sublicense the Software."
    task = DraftTask(clause, "Put this in plain English", (), None, ("Licensee", "Licensor"))
    draft = "The Licensee needs the Licensor's written consent before it sublicenses the Software."
    meaning = {c.name: c for c in check_draft(task, draft).checks}["meaning"]
    assert meaning.passed is not True
    assert meaning.status in ("not_checked", "failed")


@pytest.mark.parametrize("words, params", [
    # The clause's own figure read as the value asked, beside a new one the clause does not have.
    ("Licence fee: $100,000 -> $80,000", {"amount": 100000, "old": 80000}),
    ("Acme's fee of $100,000 should come down to 80,000", {"amount": 100000}),
])
def test_the_clauses_own_figure_read_as_the_value_asked_is_not_one_reading(words: str, params: dict) -> None:
    reason = doubt(Part("amount", words, params), FEE)
    assert "already has" in reason and "80,000" in reason


@pytest.mark.parametrize("words, params", [
    ("make the fee $80,000", {"amount": 80000}),  # a new value
    ("change the $100,000 to $80,000", {"amount": 80000, "old": 100000}),  # old and new told apart
    ("the fee stays $100,000, not the $80,000 in [1]", {"amount": 100000}),  # already so; the other not wanted
])
def test_a_value_ask_read_one_way_has_no_doubt(words: str, params: dict) -> None:
    assert doubt(Part("amount", words, params), FEE) == ""


def test_an_arrow_moves_the_clauses_figure_to_the_new_one() -> None:
    # "A -> B": B is the value asked and A the clause's old one (one reading, instruction_moves.settle),
    # so the operation changes $100,000 to $80,000 rather than keeping the old figure and calling it done.
    part = read_instruction("Licence fee: $100,000 -> $80,000", FEE, PARTIES).parts[0]
    assert part.params["amount"] == 80000 and part.params["old"] == 100000
    drafted = _operation(FEE, "Licence fee: $100,000 -> $80,000")
    assert "($80,000)" in drafted.operation.text and "$100,000" not in drafted.operation.text


@pytest.mark.parametrize("words", ["Our procurement cycle needs more warning than one year",
                                   "go to two years? if not, eighteen months"])
def test_a_value_not_read_one_way_declines_the_operation_and_is_not_checked(words: str) -> None:
    clause = "This Agreement renews for one (1) year unless either party gives notice."
    with pytest.raises(InvalidRequestError, match="not read for sure"):
        _operation(clause, words)
    checks = {c.name: c for c in check_draft(DraftTask(clause, words, (), None, PARTIES),
                                             clause.replace("one (1) year", "two (2) years")).checks}
    assert checks["instruction"].status == "not_checked"
