"""Who gives and who receives, and the names a draft keeps (session 14): a grant, a release or a payment
turned round by a rewording or against the instruction's own words fails the meaning check
(reading/directions.py, compare_roles.direction_changes); a name for a blank kept with the blank gone, and a
clause's party kept in a draft that carries the clause into another document, fail the defined-terms check.
Fixtures are spent tasks' clauses (drafting-r, -s, -t, -u), cut short."""

from __future__ import annotations

from addin_server.draft.checks_base import DraftTask
from addin_server.draft.checks_terms import check_defined_terms, definitions_dropped
from addin_server.draft.compare_base import Allowances, compare
from addin_server.draft.compare_roles import direction_changes
from addin_server.draft.instruction import read_instruction
from index_builder.reading.directions import directions, reversed_acts

GRANT = ("Subject to the terms and conditions and in consideration of the payments set forth herein, CSA as "
         "disclosed agent for Talent grants to Company from the Commencement Date the right and license during the "
         "Term of this Agreement in the Territory to use the \"Property\" in connection with the sale of the Product.")
NAMES = ("CSA", "Talent", "Company")


def test_the_giver_is_the_subject_not_the_party_it_acts_for() -> None:
    assert [(d.stem, d.giver, d.receiver) for d in directions(GRANT, NAMES)] == [("grant", "CSA", "Company")]


def test_a_grant_turned_round_by_a_shortening_fails_and_a_faithful_one_does_not() -> None:
    turned = ("Company, for the payments here, grants CSA, as Talent's disclosed agent, the right, from the "
              "Commencement Date, for the Term, in the Territory, to use the Property to sell Product.")
    kept = ("CSA, as Talent's disclosed agent, grants Company the right, from the Commencement Date, for the Term, in "
            "the Territory, to use the Property to sell the Product, for the payments here.")
    found = direction_changes(compare(GRANT, turned), Allowances(rewrite=True), NAMES)
    assert found and "other way" in found[0]
    assert direction_changes(compare(GRANT, kept), Allowances(rewrite=True), NAMES) == []


def test_a_release_said_in_the_passive_keeps_its_direction() -> None:
    clause = "Individual hereby releases and discharges Lifeway from any and all claims that he or she may have."
    passive = "Lifeway is released by Individual from every claim Individual may have."
    turned = "Lifeway gives up, and releases Individual from, every claim it may have."
    names = ("Individual", "Lifeway")
    assert reversed_acts(directions(clause, names), directions(passive, names)) == []
    assert reversed_acts(directions(clause, names), directions(turned, names))


def test_an_act_written_both_ways_is_no_reversal() -> None:
    clause = "Licensor grants Licensee a licence to use the Marks."
    both = "Licensor grants Licensee, and Licensee grants Licensor, a licence to use the other's Marks."
    names = ("Licensor", "Licensee")
    assert reversed_acts(directions(clause, names), directions(both, names)) == []


def test_a_payment_the_instruction_says_one_way_and_the_draft_the_other_fails() -> None:
    clause = ("Upon the termination of this Agreement, the Sub-Advisor shall co-operate with Oaktree US in making an "
              "orderly transition.")
    ask = "Agreed changes: (ii) Oaktree US reimburses the Sub-Advisor's reasonable out-of-pocket costs, capped at $25,000."
    wrong = clause + " The Sub-Advisor shall reimburse Oaktree US's reasonable out-of-pocket costs, up to $25,000."
    right = clause + " Oaktree US shall reimburse the Sub-Advisor's reasonable out-of-pocket costs, up to $25,000."
    allow = Allowances(asked=ask.lower())
    names = ("Sub-Advisor", "Oaktree US")
    found = direction_changes(compare(clause, wrong), allow, names)
    assert found and "Oaktree US" in found[0]
    assert direction_changes(compare(clause, right), allow, names) == []


def test_a_name_for_a_blank_kept_with_the_blank_gone_is_undefined() -> None:
    clause = ("Effective as of [Date the repurchase and cancellation close] (the \"Closing Date\"), the Founder sells "
              "to the Company the Repurchased Shares for [Aggregate repurchase price] (the \"Repurchase Price\").")
    gone = "Effective as of the Closing Date, the Founder sells the Repurchased Shares to the Company for the Repurchase Price."
    kept = ("Effective as of [Date the repurchase and cancellation close] (the \"Closing Date\"), the Founder sells the "
            "Repurchased Shares to the Company for [Aggregate repurchase price] (the \"Repurchase Price\").")
    assert definitions_dropped(clause, gone) == ["Closing Date", "Repurchase Price"]
    assert definitions_dropped(clause, kept) == []
    # A term defined in words may be left to the document's own definition: not read here.
    words = 'a majority of the Trustees who are not interested persons (the "Qualified Trustees")'
    assert definitions_dropped(words, "a majority of the Qualified Trustees") == []


def test_a_clause_party_kept_where_the_draft_brings_in_the_documents_terms_is_undefined() -> None:
    clause = ("The covenants in this agreement are given in connection with Employee's employment. Any covenant given "
              "in connection with a sale of a business is outside the scope of this agreement.")
    ask = "Use the SC sale-of-business carve-out in the consultant paper too; it talks about the consultant's engagement."
    task = DraftTask(clause, ask, document_terms=("Services",), document_parties=("Company", "Contractor"))
    kept = ("The covenants in this Agreement are given in connection with Employee's engagement to provide the "
            "Services. Any covenant given in connection with a sale of a business is outside the scope of this Agreement.")
    ins = read_instruction(ask, clause, task.document_parties)
    result = check_defined_terms(task, ins, kept)
    assert result.passed is False and "Employee" in result.reason


def test_two_parties_swapped_all_through_by_a_plain_rewrite_fails() -> None:
    clause = ("In the event Shipper's inventory balance drops below its pro rata part of the volume of Crude Petroleum "
              "necessary for pipeline fill, then Transporter will require Shipper to provide the necessary volume.")
    swapped = ("If Transporter's inventory balance falls below its pro rata share of the Crude Petroleum needed for "
               "pipeline fill, Shipper will require Transporter to provide enough volume.")
    plain = ("If Shipper's inventory balance falls below its pro rata share of the Crude Petroleum needed for pipeline "
             "fill, Transporter will require Shipper to provide enough volume.")
    names = ("Shipper", "Transporter")
    found = direction_changes(compare(clause, swapped), Allowances(rewrite=True, plain=True), names)
    assert found and "Transporter" in found[0]
    assert direction_changes(compare(clause, plain), Allowances(rewrite=True, plain=True), names) == []
    # A flip asked moves the parties: the parts' checks judge it.
    assert direction_changes(compare(clause, swapped), Allowances(parties={"Shipper", "Transporter"}), names) == []


def test_a_sentence_turned_round_is_no_swap() -> None:
    clause = "Licensor shall pay Licensee the Fee."
    assert direction_changes(compare(clause, "Licensee shall be paid the Fee by Licensor."), Allowances(rewrite=True),
                             ("Licensor", "Licensee")) == []


CONFORM = ("Employer's rights under this agreement rest on Employee's own covenants. Employer does not use any no-hire "
           "clause in any agreement between Employer and a customer as a means of restraining Employee.")
MAP_ASK = "Rename the parties to this form's names (Employer is Company, Employee is Contractor)."


def test_a_mapping_run_the_wrong_way_round_fails_and_the_right_one_does_not() -> None:
    from addin_server.draft.compare_roles import renames_crossed
    crossed = ("Contractor's rights under this Agreement rest on Company's own covenants. Contractor does not use any "
               "no-hire clause in any agreement between Contractor and a customer as a means of restraining Company.")
    right = ("Company's rights under this Agreement rest on Contractor's own covenants. Company does not use any "
             "no-hire clause in any agreement between Company and a customer as a means of restraining Contractor.")
    allow = Allowances(asked=MAP_ASK.lower())
    found = renames_crossed(compare(CONFORM, crossed), allow, ("Company", "Contractor"))
    assert found and "wrong way round" in found[0]
    assert renames_crossed(compare(CONFORM, right), allow, ("Company", "Contractor")) == []


def test_an_assignment_carried_over_under_mapped_names_keeps_its_direction() -> None:
    clause = "Contractor hereby irrevocably transfers and assigns to Company any and all moral rights in any Work Product."
    ask = "It's a straight swap: the contractor is our Provider, the Company is our Customer."
    right = "Provider hereby irrevocably transfers and assigns to Customer any and all moral rights in any Deliverables."
    turned = "Customer hereby irrevocably transfers and assigns to Provider any and all moral rights in any Deliverables."
    allow = Allowances(asked=ask.lower(), conform=True)
    assert direction_changes(compare(clause, right), allow, ("Provider", "Customer")) == []
    found = direction_changes(compare(clause, turned), allow, ("Provider", "Customer"))
    assert found and "other way" in found[0]
