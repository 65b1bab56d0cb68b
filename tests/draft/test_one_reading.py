"""The instruction check says "not done" only on a reading of the ask that is the only one, the same
reading that gates the operations (instruction_moves.settle, unambiguous.py); and the checks that
flagged faithful drafts on words they misread (support's "This", a conform rename) no longer do.
Instructions are written here in the shapes lawyers used in the drafting tranches, on small clauses."""

from __future__ import annotations

import pytest

from index_builder.model import Clause

from addin_server.draft.checks import DraftTask, check_draft
from addin_server.draft.instruction import Part, read_instruction
from addin_server.draft.instruction_words import BOTH, SIDES, STRONG, WEAK, mutual_degree, replacement_quotes
from addin_server.draft.unambiguous import delete_read, doubt

PARTIES = ("Customer", "Provider")
REPORT = ("Customer must give Provider notice within 45 days of discovering the issue. Within 45 days of receiving "
          "the details, Provider will reperform the Services.")
RENEW = "The Agreement renews for one (1) year terms for up to another ten (10) years."


def _part(words: str, clause: str, kind: str | None = None) -> Part:
    parts = read_instruction(words, clause, PARTIES).parts
    return next(p for p in parts if kind is None or p.kind == kind)


def _checks(task: DraftTask, draft: str) -> dict:
    return {c.name: c for c in check_draft(task, draft).checks}


# --- which figure is new and which old: one reading ------------------------------------------

@pytest.mark.parametrize("words, value, old", [
    ("Customer's 45 days to report should be 90", 90, 45),  # a bare number moved to, in the old one's unit
    ("change the 45 days to 60 days", 60, 45),
    ("60 days, not 45 days", 60, 45),
])
def test_the_new_value_is_the_one_moved_to_and_the_old_one_is_the_clauses(words: str, value: int, old: int) -> None:
    part = _part(words, REPORT, "period")
    assert part.params["value"] == value and part.params.get("old") == old
    assert not part.params.get("unclear") and doubt(part, REPORT, PARTIES) == ""


@pytest.mark.parametrize("words", [
    "Our procurement cycle needs more warning than 45 days",  # only the clause's own figure: how much more?
    "go to 60 days? if not, 90 days",  # a fallback: two values asked
    "Don't let this roll for another ten years - cap the renewals at five",  # "five" may count renewals
])
def test_a_value_not_read_one_way_is_doubted(words: str) -> None:
    clause = REPORT if "days" in words else RENEW
    part = next(p for p in read_instruction(words, clause, PARTIES).parts if p.kind == "period")
    assert "not read for sure" in doubt(part, clause, PARTIES)


def test_a_figure_said_to_stay_is_no_value_asked_and_is_checked_as_staying() -> None:
    clause = "Provider shall keep the records for three (3) years and answer within ten (10) business days."
    words = "No longer than 20 words, and the three years and the ten business days must survive."
    part = _part(words, clause, "period")
    assert part.params.get("kept") and "old" not in part.params
    task = DraftTask(clause, words, (), None, PARTIES)
    kept = "Provider keeps records three (3) years and answers within ten (10) business days."
    cut = "Provider keeps records one (1) year and answers within ten (10) business days."
    assert _checks(task, kept)["instruction"].passed is not False
    assert _checks(task, cut)["instruction"].passed is False


def test_a_precedents_figure_is_not_the_old_value() -> None:
    clause = "Provider will remedy the defect promptly."
    part = _part("give Provider thirty days to remedy (the clause in [1] has a thirty-day fix)", clause, "period")
    assert part.params["value"] == 30 and "old" not in part.params


def test_the_period_the_clause_has_twice_is_not_judged_in_the_wrong_place() -> None:
    words = "Customer's 45 days to report should be 90. Provider's 45 days to reperform stays where it is."
    task = DraftTask(REPORT, words, (), None, PARTIES)
    right = REPORT.replace("within 45 days of discovering", "within 90 days of discovering")
    assert _checks(task, right)["instruction"].passed is not False
    assert _checks(task, REPORT)["instruction"].passed is False  # nothing changed: still not done


# --- words to delete, what a carve-out covers ---------------------------------------------------

def test_quoted_words_to_put_in_are_not_words_to_take_out() -> None:
    assert replacement_quotes("drop 'he' and 'his' - say 'Consultant'") == ["Consultant"]
    assert replacement_quotes("'license fees' are 'Fees' there") == ["Fees"]
    clause = "He shall return his equipment to the Consultant's office."
    task = DraftTask(clause, "drop 'he' and 'his' - say 'Consultant'", (), None, ("Consultant", "Company"))
    done = "The Consultant shall return the Consultant's equipment to the Consultant's office."
    assert _checks(task, done)["instruction"].passed is not False


def test_drop_into_puts_words_in_and_a_guessed_deletion_is_doubted() -> None:
    clause = "Cisco grants Customer a licence. Customer pays the license fees."
    assert "drop … into" in doubt(Part("delete", "Drop this grant into our software licence", {"what": "x"}), clause)
    assert not delete_read(Part("delete", "delete the bits about the thing", {"what": "bits about the thing"}), clause)
    assert delete_read(Part("delete", "strike 'the license fees'", {"what": "'the license fees'"}), clause)


PRECEDENT = Clause("p1", "Confidential Information does not include information that (a) Recipient knew before "
                         "disclosure; (b) is or becomes publicly known through no fault of Recipient; (c) Recipient "
                         "develops independently.", "d")
SECRET = "Employee will not bring third-party Confidential Information into Company systems."


def test_a_carve_out_read_from_the_asks_words_is_not_said_missing_when_an_exception_was_added() -> None:
    task = DraftTask(SECRET, "carve out public stuff, along the lines of [1]", (PRECEDENT,))
    added = SECRET[:-1] + ", except information that is or becomes publicly known through no fault of Employee."
    reworded = SECRET[:-1] + ", except what everyone already knows."
    assert _checks(task, added)["instruction"].passed is not False
    assert _checks(task, reworded)["instruction"].passed is not True  # not read for sure either way
    assert _checks(task, SECRET + " It matters.")["instruction"].passed is False  # no exception at all


def test_a_carve_out_wider_than_the_limb_named_is_wrong() -> None:
    task = DraftTask(SECRET, "Carve out public information - take limb (b) from [1], nothing wider.", (PRECEDENT,))
    wider = SECRET[:-1] + ", except information that is publicly known, that Employee knew before, or that Employee " \
                          "develops independently [1]."
    limb = SECRET[:-1] + ", except information that is or becomes publicly known through no fault of Employee [1]."
    assert _checks(task, wider)["instruction"].passed is False
    assert _checks(task, limb)["instruction"].passed is not False


def test_a_part_that_only_says_what_stays_is_no_carve_out_asked() -> None:
    assert "says what stays" in doubt(Part("carve_out", "Existing exceptions unchanged", {"phrase": "Existing"}), SECRET)
    assert doubt(Part("carve_out", "carve out public information", {"phrase": "public information"}), SECRET) == ""


# --- "asks for mutuality": one list, in degrees -------------------------------------------------

@pytest.mark.parametrize("words, degree", [
    ("make it mutual", STRONG), ("a two-way indemnity", STRONG),
    ("each party should be able to terminate", BOTH), ("neither side may assign", BOTH),
    ("for both parties' benefit", SIDES),
    ("Licensor should give the same indemnity", WEAK), ("Owner too", WEAK),
    ("cut the fee to $5,000", 0),
])
def test_mutuality_is_read_in_degrees_from_one_list(words: str, degree: int) -> None:
    assert mutual_degree(words) == degree


# --- faithful drafts not flagged on words misread --------------------------------------------

def test_a_sentence_opened_by_this_is_not_said_of_a_party_the_precedent_lacks() -> None:
    task = DraftTask(SECRET, "carve out public information as in [1]", (PRECEDENT,))
    draft = SECRET + " This does not apply to information that is or becomes publicly known through no fault of " \
                     "Employee [1]."
    support = _checks(task, draft)["support"]
    assert support.passed is not False, support.reason


def test_a_conform_rename_to_the_documents_name_is_no_role_change() -> None:
    clause = "Contractor acknowledges that Company will not carry insurance for Contractor."
    task = DraftTask(clause, "Conform to our agreement: the Contractor is the Provider there", (), ("Provider", "Company"),
                     ("Provider", "Company"))
    draft = "Provider acknowledges that Company will not carry insurance for Provider."
    assert _checks(task, draft)["meaning"].passed is not False


def test_the_clauses_own_figure_restated_stays_and_a_judged_one_is_not_read() -> None:
    clause = "Company may terminate this Agreement upon sixty (60) days written notice."
    restated = _part("Either party should be able to walk away on 60 days' notice", clause, "period")
    assert restated.params.get("kept") and not restated.params.get("unclear")
    judged = _part("Our planning cycle needs more warning than 60 days", clause, "period")
    assert judged.params.get("unclear")


def test_an_instruction_that_only_says_what_stays_is_no_operation() -> None:
    from index_builder.errors import InvalidRequestError

    from addin_server.draft.router import DraftRouter
    clause = "Provider shall keep the records for three (3) years and answer within ten (10) business days."
    task = DraftTask(clause, "This goes in the term sheet: the three years and the ten business days must survive.",
                     (), None, PARTIES)
    with pytest.raises(InvalidRequestError):
        DraftRouter(None).draft(task, "operation")


def test_the_old_value_in_two_places_changes_only_the_named_partys() -> None:
    from addin_server.draft.router import DraftRouter
    words = "Customer's 45 days to report should be 90. Provider's 45 days to reperform stays where it is."
    drafted = DraftRouter(None).draft(DraftTask(REPORT, words, (), None, PARTIES), "operation")
    assert drafted.operation.text == REPORT.replace("within 45 days of discovering", "within 90 days of discovering")
    assert all(c.passed is not False for c in drafted.checks)


def test_a_figure_kept_is_read_for_itself_not_for_the_next_sentence() -> None:
    clause = "The policy limit is $1,000,000 per incident, and the fidelity policy covers $500,000."
    part = _part("E&O minimum: $2m per incident. Fidelity/crime policy untouched.", clause, "amount")
    assert part.params["amount"] == 2000000 and not part.params.get("kept")


# --- broken drafts the checks had shown as passed --------------------------------------------

def test_a_duty_turned_into_a_permission_beside_the_value_asked_is_a_changed_meaning() -> None:
    clause = "The Agreement must be assigned back to the party within 6 months of the change of Control."
    task = DraftTask(clause, "Six months is too generous. Take it to 60 days.", (), None, PARTIES)
    right = clause.replace("6 months", "60 days")
    assert _checks(task, right)["meaning"].passed is not False
    assert _checks(task, right.replace("must be", "may be"))["meaning"].passed is False
    assert _checks(task, right.replace("must be", "shall be"))["meaning"].passed is not False


def test_unit_words_changed_beside_the_value_are_not_passed() -> None:
    clause = "The amount decreases proportionately each month over the two years following completion."
    task = DraftTask(clause, "Can the tail run three years instead of two?", (), None, PARTIES)
    right = clause.replace("two years", "three years")
    assert _checks(task, right)["meaning"].passed is True
    assert _checks(task, right.replace("each month", "each year"))["meaning"].passed is not True


def test_a_bound_turned_the_other_way_is_wrong() -> None:
    clause = "Each party's total liability will not be more than the General Cap Amount."
    task = DraftTask(clause, "the cap becomes $250,000 or the General Cap Amount, whichever is higher", (), None, PARTIES)
    higher = clause.replace("the General Cap Amount.", "the greater of the General Cap Amount and $250,000.")
    lesser = clause.replace("the General Cap Amount.", "the lesser of the General Cap Amount and $250,000.")
    assert _checks(task, higher)["instruction"].passed is not False
    assert _checks(task, lesser)["instruction"].passed is False


def test_words_the_instruction_names_to_keep_must_stay() -> None:
    clause = "The costs of any audit of Operator's books shall be borne by Owner absent manifest error."
    task = DraftTask(clause, "flip it so Operator bears them. Keep the manifest error qualifier.", (), None,
                     ("Owner", "Operator"))
    kept = clause.replace("borne by Owner", "borne by Operator")
    assert _checks(task, kept)["instruction"].passed is not False
    assert _checks(task, kept.replace(" absent manifest error", ""))["instruction"].passed is False


def test_an_ask_turned_down_or_a_party_that_stays_is_no_move() -> None:
    clause = "Partner will indemnify Company from claims arising from the Services."
    refused = Part("mutual", "Their further ask, to exclude any breach by Company as well, is rejected", {})
    assert "turns an ask down" in doubt(refused, clause, ("Partner", "Company"))
    assert "says what stays" in doubt(Part("flip", "Provider stays Provider", {}), clause, ("Partner", "Company"))
    assert doubt(Part("flip", "Company should indemnify Partner instead", {}), clause, ("Partner", "Company")) == ""


def test_in_words_is_a_length_only_with_a_count() -> None:
    clause = "The Company shall pay the fees."
    assert [p.kind for p in read_instruction("Rewrite this in words the team can follow", clause, ()).parts] != ["shorten"]
    assert [p.kind for p in read_instruction("Say it in 20 words", clause, ()).parts] == ["shorten"]


def test_an_ask_for_one_back_is_an_addition_not_a_move() -> None:
    words = "Their indemnity is fine as far as it goes, but we need one back: Licensor should cover us. Keep theirs as it is."
    assert "added" in doubt(Part("flip", words, {}), "Licensee shall indemnify Licensor.", ("Licensor", "Licensee"))
