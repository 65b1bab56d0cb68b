"""The classes of misreading behind issue 38's false alarms and wrong operations, one test each.

Fixtures are clauses and instructions of the drafting set (benchmarks/sets/drafting/, excerpts of
the shared agreements and ACORD with their attribution there), so each test pins a class of
lawyer's wording, not the set's answer key: no label is read here.
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, run_checks
from addin_server.draft.instruction import read_instruction
from addin_server.draft.operations import change_period, delete_part, make_mutual
from addin_server.draft.support import features
from index_builder.model import Clause
from index_builder.reading import binding
from index_builder.reading.defined_terms import capitalised_words


def kinds(instruction: str, clause: str = "", parties: tuple[str, ...] = ()) -> list[str]:
    return [p.kind for p in read_instruction(instruction, clause, parties).parts]


def failed(task: DraftTask, answer: str) -> dict[str, str]:
    return {r.name: r.reason for r in run_checks(task, answer) if r.passed is False}


# --- instruction parsing: many phrasings, each part said ----------------------------------------

def test_a_condition_the_lawyer_adds_is_a_part_of_its_own() -> None:
    # Before: "only with prior written approval" was swallowed as an aside and the draft passed.
    assert kinds("Mutual publicity right, but only with prior written approval, and only during the "
                 "Subscription Period.") == ["mutual", "other", "other"]


def test_a_dash_and_starts_a_new_part_and_shouldnt_apply_is_a_carve_out() -> None:
    parts = read_instruction("one year, not two - and it shouldn't apply if we let him go without cause, like the "
                             "Connecticut physician clause").parts
    assert [p.kind for p in parts] == ["period", "carve_out"]
    assert parts[1].params["phrase"] == "we let him go without cause"


def test_heirs_should_still_benefit_is_a_carve_out_not_a_flip() -> None:
    clause = ("Employee may not assign this offer letter or any employment rights or obligations under it. Company may "
              "assign this offer letter to a successor or affiliate in connection with a merger.")
    parts = read_instruction("Employee's heirs should still get the benefit - borrow the heirs and legal "
                             "representatives language from [1]", clause, ("Company", "Employee")).parts
    assert [p.kind for p in parts] == ["carve_out"]
    assert parts[0].params["phrase"] == "heirs and legal representatives"


def test_a_carve_outs_words_are_the_description_not_the_ask() -> None:
    got = read_instruction("Add the permitted-transfer exception from the hotel franchise precedent: transfers that "
                           "don't change control, on 60 days' notice").parts[0].params
    assert got["phrase"] == "transfers that don't change control, on 60 days' notice"
    got = read_instruction("add the exception in [1] - sublicensing to Affiliates without consent").parts[0].params
    assert got["phrase"] == "sublicensing to Affiliates without consent" and got["precedent"] == 1
    # A source after the dash is where to take it from, not what it covers.
    got = read_instruction("add the usual exclusions for information Employee already knew - take them from the "
                           "CIIA").parts[0].params
    assert "CIIA" not in got["phrase"] and "knew" in got["phrase"]


def test_legalese_named_for_deletion_is_plain_english_and_units_abbreviated() -> None:
    assert kinds("keep the records three years after termination, limit inspections to once a year like [1], and "
                 "get rid of the hereunders") == ["period", "other", "plain"]
    part = read_instruction("5 yrs").parts[0]
    assert (part.kind, part.params["value"], part.params["unit"]) == ("period", 5, "years")


# --- edits scoped to the words named --------------------------------------------------------------

CALM = ("Throughout the Term and for a period of six (6) months after the expiration or termination of this "
        "Agreement, neither XSPA nor any of its affiliates shall sell any digital sleep products without the express "
        "prior written consent of Calm. Throughout the Term and for a period of six (6) months after the expiration "
        "or termination of this Agreement, neither Calm nor any of its affiliates shall sell any digital sleep "
        "products in any airport, without the express prior written consent of XSPA.")
CALM_ASK = "XSPA's post-term restriction should be twelve months; leave Calm's at six"


def test_a_period_named_as_one_partys_changes_only_theirs() -> None:
    part = read_instruction(CALM_ASK, CALM, ("XSPA", "Calm")).parts[0]
    done = change_period(CALM, part).text
    first, second = done.split(". Throughout")
    assert "twelve (12) months" in first and "six (6) months" in second
    task = DraftTask(CALM, CALM_ASK, document_parties=("XSPA", "Calm"))
    assert "instruction" not in failed(task, done)
    # Calm's changed instead of XSPA's: the new period is in the wrong place.
    swapped = CALM.replace("six (6)", "SIX", 1).replace("six (6)", "twelve (12)").replace("SIX", "six (6)")
    assert "instruction" in failed(task, swapped)


MULTI = ("Either party may terminate the Framework Terms or an Order Form immediately:\n(a) if the other party fails to "
         "cure a material breach of the Framework Terms following 30 days notice;\n(b) upon notice if the other party "
         "becomes the debtor in insolvency proceedings that continue for more than 60 days.")


def test_the_period_a_list_item_names_and_two_new_periods_swapped() -> None:
    task = DraftTask(MULTI, "cure period 45 days; and give insolvency proceedings 90 days")
    right = MULTI.replace("30 days", "45 days").replace("60 days", "90 days")
    assert not failed(task, right)
    swapped = MULTI.replace("30 days", "90 days").replace("60 days", "45 days")
    assert "instruction" in failed(task, swapped)


BOND = ("Contractor recognizes that breach of this Section 5 (Confidentiality) could cause irreparable harm for which "
        "monetary damages cannot adequately compensate Company. As a result, upon the actual or threatened breach of "
        "this Section 5 (Confidentiality), Company may seek appropriate equitable relief, including an injunction, in "
        "any court of competent jurisdiction without the need to post a bond and without limiting its other rights or "
        "remedies.")


def test_take_out_the_no_bond_language_drops_those_words_only() -> None:
    part = read_instruction("take out the no-bond language", BOND).parts[0]
    done = delete_part(BOND, part).text
    assert done == BOND.replace("without the need to post a bond and ", "")
    task = DraftTask(BOND, "take out the no-bond language", document_parties=("Company", "Contractor"))
    assert not failed(task, done)
    whole_sentence_gone = BOND.split(" As a result")[0]
    assert "instruction" in failed(task, whole_sentence_gone) or "meaning" in failed(task, whole_sentence_gone)


# --- make-mutual over possessive-only mentions and "its" ----------------------------------------

def test_make_mutual_never_writes_a_possessive_before_what_is_given() -> None:
    clause = ("Company may terminate this Agreement and the license granted herein, for any reason, upon giving JHU "
              "sixty (60) days written notice under Paragraph 8.1.")
    part = read_instruction("Either party should be able to walk away on 60 days' notice.", clause,
                            ("Company", "JHU")).parts[0]
    assert "giving the other party sixty (60) days" in make_mutual(clause, part, ("Company", "JHU")).text
    nda = ("The Recipient may disclose Confidential Information to the extent required by law, provided it provides "
           "the Discloser reasonable advance notice and reasonably cooperates, at the Discloser’s expense, with the "
           "Discloser’s efforts to obtain confidential treatment.")
    part = read_instruction("make this work both ways", nda, ("Discloser", "Recipient")).parts[0]
    out = make_mutual(nda, part, ("Discloser", "Recipient")).text
    assert "provides the other party reasonable advance notice" in out and "at the other party’s expense" in out


def test_a_restructured_mutual_draft_reads_as_binding_both() -> None:
    draft = ("A party that is required by law to disclose the other party’s Confidential Information may do so to the "
             "extent required. Whichever party receives the other's Confidential Information may use it only for "
             "the Purpose.")
    read = binding.read(draft, ("Discloser", "Recipient"))
    assert read.provisions and all(p.bound == binding.MUTUAL for p in read.provisions)


def test_a_party_is_the_other_party_in_a_sentence_binding_someone_else() -> None:
    clause = ("Customer will reasonably cooperate with Provider to allow the performance of Services. Provider is not "
              "responsible for an inability to perform the Services caused by Customer's failure to cooperate as "
              "reasonably requested. Provider will provide its own equipment and tools to perform the Services.")
    draft = ("Each party will reasonably cooperate with the other party to allow the performance of Services. Neither "
             "party is responsible for an inability to perform its obligations caused by the other party's failure to "
             "cooperate as reasonably requested. Provider will provide its own equipment and tools to perform the "
             "Services.")
    task = DraftTask(clause, "Make the cooperation duty and the excuse mutual. Leave the equipment sentence alone.",
                     document_parties=("Provider", "Customer"))
    assert "meaning" not in failed(task, draft)


# --- who is bound, read by the core ----------------------------------------------------------------

def test_in_no_event_shall_x_is_a_prohibition_on_x_and_its_exception_frees_x() -> None:
    clause = ("In no event shall Green Cross grant any sublicense to any of the rights granted to it for any other "
              "purpose without MacroGenics' prior written consent.")
    read = binding.read(clause, ("Green Cross", "MacroGenics"))
    assert [(p.bound, p.kind) for p in read.provisions] == [("Green Cross", "prohibition")]
    task = DraftTask(clause, "add the exception in [1] - sublicensing to Affiliates without consent",
                     (Clause("p1", "Ono may sublicense to its Affiliates without consent.", "lic"),),
                     document_parties=("Green Cross", "MacroGenics"))
    wrong = clause[:-1] + ", except that MacroGenics may grant such sublicenses to its Affiliates without consent [1]."
    assert "frees the wrong party" in failed(task, wrong).get("instruction", "")


def test_all_capitals_names_are_read_as_names_by_the_core() -> None:
    assert "NCM" in capitalised_words("without NCM's prior written consent")
    assert "NCM" in binding.acting_names("NCM may not assign this Agreement")
    assert capitalised_words("THE COMPANY SHALL NOT") == []


# --- support accepts a faithful paraphrase -----------------------------------------------------------

def test_a_generic_precedent_backs_the_lawyers_own_named_parties() -> None:
    clause = ("Network Affiliate may not assign any of its rights under this Agreement without NCM's prior written "
              "consent, which consent shall not be unreasonably withheld.")
    precedent = ("Neither party may assign the Agreement without the written consent of the other party, which consent "
                 "shall not be unreasonably withheld or delayed, subject to the requirement that the Agreement shall be "
                 "binding and enforceable against any successor or assign.")
    sentence = ("NCM may not assign this Agreement without Network Affiliate's prior written consent, which may not be "
                "unreasonably withheld or delayed.")
    assert features(sentence, precedent, clause).party == 0.0
    # A party neither the lawyer's text nor the precedent has is still caught.
    assert features(sentence.replace("NCM", "Acme"), precedent, clause).party == 1.0


def test_an_amount_in_words_and_digits_is_one_amount_to_the_support_check() -> None:
    precedent = "Each party's total liability will not exceed two million U.S. dollars ($2,000,000) in the aggregate."
    sentence = "Neither party's total cumulative liability will exceed two million U.S. dollars ($2,000,000)."
    assert features(sentence, precedent).amount == 0.0
    assert features(sentence.replace("two million U.S. dollars ($2,000,000)", "$3,000,000"), precedent).amount == 1.0


def test_a_time_limit_said_the_other_way_round_is_not_a_reversal() -> None:
    clause = "The Restricted Period must not exceed two years after termination. Passive Public Holdings are permitted."
    task = DraftTask(clause, "Restricted Period cap should be 18 months, not two years")
    assert "meaning" not in failed(task, clause.replace("must not exceed two years", "ends no later than 18 months"))


def test_a_carve_out_taken_word_for_word_brings_no_limits_of_its_own() -> None:
    from addin_server.draft.carve_out import add_carve_out
    from addin_server.draft.edits import Declined
    import pytest

    clause = ("Employee must not engage in any Competitive Business within the Restricted Territory. This covenant "
              "lasts no more than one year after termination.")
    precedent = Clause("p1", "(a) Physicians. A physician non-compete may not exceed one year or fifteen miles from the "
                             "physician's primary practice site and does not apply following termination by Employer "
                             "without cause.", "rc")
    with pytest.raises(Declined, match="limits of its own"):
        add_carve_out(clause, (precedent,), 1, "we let him go without cause", "", ("Employer", "Employee"))
