"""Session 12, additions12 (issue 38): what a draft adds is caught when nothing backs it and left alone
when the clause, the lawyer or a precedent the lawyer names gives it; a place or a name the lawyer
writes is no undefined term; a mutual draft that swaps the parties is no mutual draft.

Lines from the spent tasks (drafting-m). Each test fails without its rule; the sound drafts beside
them pass.
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, check_draft
from index_builder.model import Clause

RESTORES = ("Restore System Images at no additional charge up to two (2) times per month per Managed Server per "
            "Customer. Customer is allowed up to three (3) emergency requests per month at no additional charge.")
ADVICE = ("If Employee signs this agreement as a condition of the initial offer of employment, the offer of "
          "employment is the consideration. Employee may consult an attorney before entering into this agreement.")
LAW = ("This Agreement and any dispute or claim arising out of or in connection with it shall be governed by, and "
       "construed in accordance with, the laws of the People's Republic of China. This Termination Agreement shall "
       "be governed by the laws of the PRC, without regard to conflicts of law principles.")
LAW_ASK = ("Our counterparty's assets and our own are all in Hong Kong now. Both sentences should point to Hong Kong "
           "law instead. And whatever law governs, either of us must be able to run to any competent court for an "
           "urgent injunction.")
HK = LAW.replace("People's Republic of China", "Hong Kong Special Administrative Region").replace(
    "the PRC", "the Hong Kong Special Administrative Region")
INJUNCTION = " Either party may nevertheless seek interim injunctive relief in any court of competent jurisdiction."
ARBITRATION = (" Any dispute shall be finally resolved by arbitration administered by the Hong Kong International "
               "Arbitration Centre.")
RENEWAL = 'Unless Customer notifies Metavante of its intent not to renew this Agreement in writing within a period of three (3) months following the Renewal Notice, this Agreement shall automatically renew at the end of the Initial Term on the same terms (including pricing terms) for one (1) twelve-month period.'
RENEWAL_ASK = 'Where this needs to end up: when the Initial Term runs out, the renewal can be stopped by Metavante as readily as by Customer - whichever of them writes to the other inside the three months after the Renewal Notice. Nothing else moves: not the three months, not the automatic renewal, not the pricing, not the single twelve-month period. [1], from the Alvarado file, already runs both ways.'
CAP = ("EXCEPT FOR A BREACH OF EITHER PARTY'S OBLIGATIONS UNDER SECTION 5 (CONFIDENTIALITY), NEITHER PARTY WILL BE "
       "LIABLE TO THE OTHER PARTY FOR ANY LOST PROFITS OR ANY OTHER SPECIAL, INDIRECT OR CONSEQUENTIAL DAMAGES.")
CAP_ASK = ("The other side's people deliberately wiped our data, and this paragraph capped us because deliberate "
           "wrongdoing and gross negligence were missing from its exceptions. Fix that now: add them, for either "
           "party, next to the confidentiality exception, as [1] (C) does. The rest of the paragraph stands.")
CAP_PRECEDENT = Clause("p1", "(C) THE WILLFUL MISCONDUCT OR GROSS NEGLIGENCE OF A PARTY", "msa", doc_title="MSA",
                       section="9")
ORDER = ("The Agreement has 2 parts: (1) the Order Form below and (2) the Common Paper Pilot Agreement Standard Terms "
         "v1.1 posted at https://commonpaper.com/standards/pilot-agreement/1.1 which are incorporated by reference.")
ORDER_ASK = ("When it is reused on the design partner cover page it has to speak that document's language: the front "
             "document there is the Cover Page, and the terms are the Common Paper Design Partner Standard Terms "
             "Version 1.3 at commonpaper.com/standards/design-partner-agreement/1.3.")


def _checks(task: DraftTask, draft: str) -> dict:
    return {c.name: c for c in check_draft(task, draft).checks}


def test_a_figure_the_clause_writes_word_for_word_is_not_added() -> None:
    # m-plain-03-s1: "two (2) times per month" -> "two (2) times a month"; the figure reader reads only the second.
    draft = ("System Images will be restored at no additional charge up to two (2) times a month for each Managed "
             "Server. Customer may make up to three (3) emergency requests a month at no additional charge.")
    got = _checks(DraftTask(RESTORES, "Rewrite this in plain English.", document_parties=("Customer",)), draft)
    assert "two (2) times" not in got["additions"].reason


def test_a_provision_said_another_way_is_not_a_new_right() -> None:
    # m-plain-04-s1: "may consult an attorney before entering into" -> "may talk to a lawyer before signing".
    draft = ("If Employee signs this agreement as a condition of the first job offer, the job offer is the "
             "consideration. Employee may talk to a lawyer before signing.")
    got = _checks(DraftTask(ADVICE, "Rewrite clause 3 for a reading age of 12.", document_parties=("Employee",)), draft)
    assert "new right" not in got["additions"].reason


def test_a_new_sentence_nothing_asks_for_is_an_addition_and_the_asked_one_is_not() -> None:
    # m-multi-03: the injunction sentence is the ask in other words; the arbitration sentence is nobody's.
    task = DraftTask(LAW, LAW_ASK, document_terms=("Termination Agreement",))
    assert _checks(task, HK + INJUNCTION)["additions"].passed is not False
    added = _checks(task, HK + INJUNCTION + ARBITRATION)["additions"]
    assert added.passed is False and "arbitration" in added.reason


def test_a_place_is_not_an_undefined_term() -> None:
    # m-multi-03-s1: "Hong Kong Special Administrative Region" read as a term the document does not define.
    got = _checks(DraftTask(LAW, LAW_ASK, document_terms=("Termination Agreement",)), HK + INJUNCTION)
    assert got["defined_terms"].passed is not False


def test_a_word_of_a_name_the_lawyer_writes_is_not_an_undefined_term() -> None:
    # m-conform-02-s1: "Partner" of "Common Paper Design Partner Standard Terms Version 1.3".
    draft = ("The Agreement has 2 parts: (1) the Cover Page below and (2) the Common Paper Design Partner Standard "
             "Terms Version 1.3 posted at commonpaper.com/standards/design-partner-agreement/1.3 which are "
             "incorporated by reference.")
    got = _checks(DraftTask(ORDER, ORDER_ASK, document_terms=("Cover Page", "Standard Terms")), draft)
    assert got["defined_terms"].passed is not False


def test_a_precedent_the_instruction_names_backs_what_the_draft_takes_from_it() -> None:
    # m-carve_out-03-s1: "as [1] (C) does", the draft adds [1]'s words without the marker.
    draft = CAP.replace("(CONFIDENTIALITY),", "(CONFIDENTIALITY) OR A PARTY'S GROSS NEGLIGENCE OR WILLFUL MISCONDUCT,")
    got = _checks(DraftTask(CAP, CAP_ASK, (CAP_PRECEDENT,)), draft)
    assert got["additions"].passed is not False


def test_a_mutual_draft_that_swaps_the_parties_is_flagged() -> None:
    # m-mutual-01-b1: "Customer notifies Metavante" -> "Metavante notifies Customer": moved, not shared.
    task = DraftTask(RENEWAL, RENEWAL_ASK, document_terms=("Renewal Notice", "Initial Term"),
                     document_parties=("Customer", "Metavante"))
    swapped = RENEWAL.replace("Customer notifies Metavante", "Metavante notifies Customer")
    got = _checks(task, swapped)
    assert got["meaning"].passed is False and "swaps" in got["meaning"].reason
    shared = RENEWAL.replace("Customer notifies Metavante", "either Customer or Metavante notifies the other")
    assert "swaps" not in _checks(task, shared)["meaning"].reason


NETWORK = ("For the Initial Term of this Agreement, iVillage agrees that Ford shall be the exclusive automobile "
           "manufacturer sponsor and advertiser throughout the Network.")
NETWORK_ASK = ('Lifting the Ford exclusivity into the Common Paper partnership draft. Replace-box list:\n'
               'Find "iVillage" - replace "Company"\nFind "Ford" - replace "Partner"\n'
               'Find "Initial Term" - replace "Term"\n'
               'Find "the Network" - replace "Company\'s online properties" (the new paper has no defined network)')


def test_a_term_the_instruction_replaces_and_the_draft_keeps_is_undefined() -> None:
    # j-conform-01-b2: the replace-box list maps "the Network" away; the draft keeps it.
    task = DraftTask(NETWORK, NETWORK_ASK, document_terms=("Term",), document_parties=("Company", "Partner"))
    kept = ("For the Term of this Agreement, Company agrees that Partner shall be the exclusive automobile "
            "manufacturer sponsor and advertiser throughout the Network.")
    got = _checks(task, kept)["defined_terms"]
    assert got.passed is False and "Network" in got.reason
    sound = kept.replace("the Network", "Company's online properties")
    assert _checks(task, sound)["defined_terms"].passed is not False
