"""Session 11, keep11 (issue 38): what the lawyer says stays is a checked part of the instruction.

Lines from the spent tasks (drafting-j, -k). Each test fails without the rule (parts_keep.py, wired into
checks_meaning.check_meaning; the keep words in instruction_words.py; unambiguous.says_to_keep).
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, check_draft
from addin_server.draft.parts_keep import dropped, keep_segments
from addin_server.draft.unambiguous import says_to_keep

TERM = ('The term of this JSMA shall commence on May 1, 2020 (the "Commencement Date") and ends at April 30, 2029 '
        '(the "Term"), with automatic renewals each for a period of five (5) years (a "Renewal Term") unless notice '
        'is given pursuant to 5.2.')
TERM_ASK = "Renewal Term: make it three years. May 1, 2020 and April 30, 2029 are not moving, and the 5.2 notice route stays."
OREGON = ("Notwithstanding any other provision of this agreement, no nondisclosure provision has the purpose or effect of "
          "preventing Employee from disclosing conduct that constitutes discrimination prohibited by ORS 659A.030 or by "
          "ORS 659A.082 or 659A.112, as provided in ORS 659A.370(1).")
OREGON_ASK = "Halve it. Every ORS reference has to survive, and so does the point of the last sentence."
COMMISSION = ("For all referrals under Section 6.1, except where NTC has evidence that it referral the customer to ALFA "
              "AESAR to purchase a prior sample of the Product in question, or where NTC has made sales to the customer "
              "within a period of twelve (12) months before ALFA AESAR's referral under Section 6.1, NTC shall pay ALFA "
              "AESAR a commission at the rate of [***] on the Net Sales made to each such customer.")
COMMISSION_ASK = ("KEEP: the [***] rate; Net Sales; both situations where no commission is due (NTC's evidence of an "
                  "earlier sample referral; NTC's own sales to that customer during the prior 12 months).\n"
                  "CHANGE: the length - within 70 words.")


def _meaning(clause: str, ask: str, draft: str) -> tuple[str, str]:
    found = {c.name: c for c in check_draft(DraftTask(clause, ask), draft).checks}["meaning"]
    return found.status, found.reason


def test_a_date_said_not_to_move_that_the_draft_moves_fails_meaning_naming_it() -> None:
    # j-period-03-b1 was shown passed: the renewal is three years, but the Term now ends in 2026.
    draft = TERM.replace("2029", "2026").replace("five (5)", "three (3)")
    status, reason = _meaning(TERM, TERM_ASK, draft)
    assert status == "failed" and "April 30, 2029" in reason


def test_the_sound_draft_keeps_the_dates_and_says_so() -> None:
    status, reason = _meaning(TERM, TERM_ASK, TERM.replace("five (5)", "three (3)"))
    assert status != "failed" and "April 30, 2029" in reason


def test_every_reference_of_a_kind_is_kept_by_number() -> None:
    # j-shorten-04-b2 dropped ORS 659A.082 from a halved paragraph; the ask said every ORS reference survives.
    draft = ("Nothing in this agreement prevents Employee from disclosing discrimination prohibited by ORS 659A.030 or "
             "659A.112 (ORS 659A.370(1)).")
    lost, _ = dropped(OREGON_ASK, OREGON, draft, rewrite=True)
    assert lost == ["ORS 659A.082"]
    kept = draft.replace("659A.030 or", "659A.030, 659A.082 or")
    assert dropped(OREGON_ASK, OREGON, kept, rewrite=True)[0] == []


def test_a_described_element_is_dropped_only_when_its_own_words_are_all_gone() -> None:
    # k-shorten-01-b1: the sample-referral exception dropped from a shortening.
    draft = ("NTC shall pay ALFA AESAR a commission at the rate of [***] on the Net Sales made to each customer referred "
             "to NTC under Section 6.1, except where NTC made sales to the customer within twelve (12) months before "
             "the referral.")
    lost, _ = dropped(COMMISSION_ASK, COMMISSION, draft, rewrite=True)
    assert lost == ["NTC's evidence of an earlier sample referral"]
    # The sound shortening says it in other words but keeps the sample: nothing dropped.
    sound = draft.replace("except where", "except where NTC has evidence it sent the customer for a prior sample, or")
    assert dropped(COMMISSION_ASK, COMMISSION, sound, rewrite=True)[0] == []


def test_figures_not_touched_are_kept_by_value() -> None:
    # j-amount-02-b1: the cap moved as asked, but 130,300 became 130,000 (shown passed before).
    clause = ("(i) 277,760 Pin Codes containing three (3) downloads; (ii) 130,300 Pin Codes containing five (5) downloads; "
              "(iii) 27,900 Pin Codes, each having a retail value of $1.29 per song or less.")
    ask = "Song value cap down to 99 cents. Not touching 277,760 / 130,300 / 27,900, the 3-5-7 downloads, or one code per pack."
    draft = clause.replace("$1.29", "$0.99").replace("130,300", "130,000")
    status, reason = _meaning(clause, ask, draft)
    assert status == "failed" and "130,300" in reason
    assert _meaning(clause, ask, clause.replace("$1.29", "$0.99"))[0] != "failed"


def test_keep_words_read_as_keeps_not_asks() -> None:
    # j-amount-01: "3) no other change" was read as an ask "not done"; "Not touching ..." as an unread ask.
    assert says_to_keep("no other change [1] shows three million dollars is market")
    assert says_to_keep("Not touching 277,760 / 130,300 / 27,900")
    assert says_to_keep("The moral-rights waiver at the end is out of scope here")
    # A reason is not a keep: "will not survive a reasonableness challenge".
    assert not says_to_keep("A five-year non-solicit will not survive a reasonableness challenge")


def test_a_keep_segment_names_only_the_phrase_before_its_cue() -> None:
    # j-conform-01: a replace-box list, then "Category wording untouched": only the category wording is kept.
    ask = ('Replace-box list:\nFind "iVillage" - replace "Company"\nFind "Ford" - replace "Partner"\nFind "the Network" - '
           'replace "Company\'s online properties" (the new paper has no defined network)\nCategory wording untouched.')
    assert keep_segments(ask) == ["Category wording"]
    # "leave out" deletes; it keeps nothing.
    assert keep_segments("Leave out the audit sentence.") == []
    # d-amount-08: "keep-alive royalty" is a name, not a keep; g-multi-10: a keep inside brackets ends there.
    assert keep_segments("STW's keep-alive royalty should be $1,500 a month, not $500.") == []
    assert keep_segments("rate goes to $150 an hour (keep the square brackets, it's still a placeholder); assistance "
                         "period from three months to six") == ["the square brackets"]


def test_a_sentence_said_to_stay_is_the_one_whose_subject_it_names() -> None:
    # j-period-05-b1 cut the Agreement's notice too, though "the Agreement's own renewal sentence" stays.
    clause = ("This Attachment will automatically be renewed for periods of six (6) months unless either party gives "
              "twelve (12) months written notice of its intent to terminate this Agreement. This Agreement will "
              "automatically be renewed for periods of twelve (12) months unless either Party gives six (6) months "
              "written notice of its intent to terminate this Agreement.")
    ask = ("The Attachment's notice has to come down: three months. The Agreement's own renewal sentence works and "
           "should be left as it is.")
    sound = clause.replace("gives twelve (12)", "gives three (3)")
    assert dropped(ask, clause, sound, rewrite=False)[0] == []
    lost, _ = dropped(ask, clause, sound.replace("gives six (6)", "gives three (3)"), rewrite=False)
    assert lost == ["The Agreement's own renewal sentence"]


def test_a_name_an_ask_changes_is_not_kept_against_it() -> None:
    # e-multi-06: "keep the Vienna Convention exclusion but give the Convention its proper name".
    clause = ("This Agreement shall be governed by the laws of New York, and shall not be governed by the United Nations "
              "Convention of International Contracts on the Sale of Goods (the Vienna Convention).")
    ask = "Singapore law please, and keep the Vienna Convention exclusion but give the Convention its proper name - see [1]."
    draft = ("This Agreement shall be governed by the laws of Singapore, and shall not be governed by the United Nations "
             "Convention on Contracts for the International Sale of Goods (Vienna, 1980).")
    assert dropped(ask, clause, draft, rewrite=False)[0] == []


def test_a_sentence_named_by_its_place_is_kept_word_for_word() -> None:
    # g-flip-02: "The first sentence (voidness) is to be left as drafted."
    clause = ("Any purported assignment in violation of this Section 11.7 is void from the outset and shall be of no force "
              "or effect. Licensee shall not assign any of its rights without Licensor's prior written consent.")
    ask = "The restriction is to be placed on the Licensor. The first sentence (voidness) is to be left as drafted."
    flipped = clause.replace("Licensee shall not assign", "Licensor shall not assign").replace("Licensor's prior", "Licensee's prior")
    assert dropped(ask, clause, flipped, rewrite=False) == ([], ["The first sentence"])
    voidable = flipped.replace("is void from the outset and shall be of no force or effect", "is voidable")
    assert dropped(ask, clause, voidable, rewrite=False)[0] == ["The first sentence"]


def test_an_operation_that_moves_a_date_said_not_to_move_is_declined() -> None:
    # The operations read the same keep reader as the meaning check (guards._kept_said).
    import pytest

    from addin_server.draft.edits import Declined, Edit
    from addin_server.draft.guards import check_edits
    at = TERM.index("April 30, 2029")
    moved = Edit(at, at + len("April 30, 2029"), "April 30, 2026", "term", "April 30, 2029")
    with pytest.raises(Declined):
        check_edits(TERM_ASK, TERM_ASK, "period", TERM, [moved])
    at = TERM.index("five (5)")
    check_edits(TERM_ASK, TERM_ASK, "period", TERM, [Edit(at, at + len("five (5)"), "three (3)", "renewal", "five (5)")])


def test_the_existing_exceptions_said_to_stay_are_each_kept_by_their_own_words() -> None:
    # k-carve_out-01-b2 put the third-party exception back but dropped the confidentiality one "which was to stay".
    clause = ("In no event will either Party be liable for any consequential loss, and each Party hereby expressly waives "
              "all such rights and remedies, except for breach of any confidentiality or restricted use provisions of this "
              "Agreement and except as provided in Paragraph 11.04 (Exceptions to Limitations of Liability).")
    ask = ("Put back the exception for indemnities against third-party claims in the wording of [1]. Accept their other "
           "edits, which leave the list of heads of loss and the two existing exceptions as they were.")
    added = clause.rstrip(".") + " and except for a Party's indemnification obligations for liabilities to third parties."
    assert dropped(ask, clause, added, rewrite=False)[0] == []
    lost, _ = dropped(ask, clause, added.replace("except for breach of any confidentiality or restricted use provisions "
                                                 "of this Agreement and ", ""), rewrite=False)
    assert lost and "confidentiality" in lost[0]


def test_a_keep_verb_negated_is_an_ask() -> None:
    # k-plain-03: "must not leave a reader guessing what 'similarly' points back to" asks to lose 'similarly'.
    ask = ("2.4 must not sound like a statute, and must not leave a reader guessing what 'similarly' points back to. "
           "Same three duties on Customer; the defined terms stay capitalised.")
    assert all("similarly" not in p for p in keep_segments(ask))


def test_a_second_thing_kept_by_the_same_cue_and_an_exception_by_its_own_words() -> None:
    # g-carve_out-05-b1 dropped "unless caused by intention or gross negligence", which "stays, and the first sentence too".
    clause = ("8. LIABILITY\nEither party shall be liable for failure or delay in performance of its duties under this "
              "Agreement except for reasons beyond such party's reasonable control. MMI shall not be liable for indirect or "
              "consequential damages unless caused by intention or gross negligence.")
    ask = ("MMI's no-consequentials sentence must not protect it if it leaks our confidential information - take the "
           "confidentiality exception from [1]. The intention / gross negligence exception stays, and the first sentence too.")
    assert keep_segments(ask) == ["The intention / gross negligence exception", "the first sentence"]
    added = clause[:-1] + " or arising from a breach of confidentiality."
    assert dropped(ask, clause, added, rewrite=False) == ([], ["the first sentence"])
    lost, _ = dropped(ask, clause, added.replace(" unless caused by intention or gross negligence", ""), rewrite=False)
    assert lost == ["The intention / gross negligence exception"]


def test_a_sentence_named_before_a_pronoun_is_the_one_kept() -> None:
    # j-mutual-01-b2 put the repair cost on Columbia in "the repair-or-replace sentence ... that one ... stays exactly
    # as drafted".
    clause = ("Columbia shall not be liable for any loss due to the negligence of Fleet. In the event of any loss of any item "
              "of the Columbia Equipment due to the negligence of Fleet, Fleet shall repair or replace such items of "
              "Columbia Equipment, at Fleet's sole cost and expense.")
    ask = ("The opening sentence has to protect Fleet as well. As for the repair-or-replace sentence after it, that one is "
           "about Columbia's kit and stays exactly as drafted.")
    mutual = clause.replace("Columbia shall not be liable for any loss due to the negligence of Fleet.",
                            "Neither party shall be liable for any loss due to the negligence of the other party.")
    assert dropped(ask, clause, mutual, rewrite=False) == ([], ["Columbia", "the repair-or-replace sentence after it"])
    lost, _ = dropped(ask, clause, mutual.replace("at Fleet's sole cost", "at Columbia's sole cost"), rewrite=False)
    assert lost == ["the repair-or-replace sentence after it"]


def test_a_point_kept_with_a_not_is_lost_when_its_not_goes() -> None:
    # k-shorten-04-b1 kept the word "bond" but turned "without the need to post a bond" into "only after posting a bond".
    clause = ("Despite Section 5 and Section 12.3, upon the actual or threatened breach of Section 11, the non-breaching party "
              "may seek equitable relief in any court of competent jurisdiction without the need to post a bond and "
              "without limiting its other rights or remedies.")
    ask = ("Say each once. Get it within 60 words, keeping the bypass of Sections 5 and 12.3, the no-bond point and the "
           "other remedies.")
    sound = ("Despite Sections 5 and 12.3, on an actual or threatened breach of Section 11 the other party may seek "
             "equitable relief in any competent court without posting a bond and without limiting its other remedies.")
    assert dropped(ask, clause, sound, rewrite=True)[0] == []
    bonded = sound.replace("without posting a bond", "but only after posting a bond")
    assert dropped(ask, clause, bonded, rewrite=True)[0] == ["the no-bond point"]
