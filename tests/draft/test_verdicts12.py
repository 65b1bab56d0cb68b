"""Session 12, gate12 (issue 38): the instruction check says "not done" only where the draft shows it, on a
part read as one clean ask (verdicts.py).

Fixtures are lines of the spent drafting-l, -i and -m tasks. Each test fails without its rule: a garbled part
(several sentences, the whole ask read as a carve-out's target) is not failed; a figure part failed where the draft writes the value of a
part that names the figure it replaces is not failed; an unread part with no words of its own, or that says
what stays, is not failed by "the draft changes nothing but ..."; parts with one label and opposite verdicts
are not said; and the draft that shows the failure still fails.
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, check_draft
from addin_server.draft.instruction import Part
from addin_server.draft.parts_result import PartResult
from addin_server.draft.verdicts import garbled, settle

# m-multi-08
PRIVILEGES = ('If Employee is a physician or other licensed health care practitioner, each covenant restraining '
              "Employee from practicing Employee's profession is confined to the Restricted Territory and "
              'Restricted Period stated in Cover Terms. No covenant prohibits Employee from continuing care for an '
              'existing patient or responding to a medical emergency.')
LETTER = ('Letter from the hospital\'s credentialing committee to the practice (extract): "The committee will '
          'not grant teaching privileges to a physician whose employment covenants (i) restrain practice for '
          'more than one year after the employment ends, however the cover terms are completed, or (ii) would '
          'stop the physician teaching or doing research that involves no patient treatment." Redraft clause '
          '14 so that both conditions are met; the existing-patient and emergency exceptions and the Cover '
          'Terms references stay.')
PRIVILEGES_SOUND = ('If Employee is a physician or other licensed health care practitioner, each covenant restraining '
                    "Employee from practicing Employee's profession is confined to the Restricted Territory and "
                    'Restricted Period stated in Cover Terms and in no case lasts more than one (1) year after '
                    "Employee's employment ends. No covenant prohibits Employee from continuing care for an existing "
                    'patient, responding to a medical emergency, or teaching or conducting research that does not '
                    'involve treating patients.')
PRIVILEGES_UNCHANGED = ('If Employee is a physician or other licensed health care practitioner, each covenant restraining '
                        "Employee from practicing Employee's profession is confined to the Restricted Territory and "
                        'Restricted Period stated in Cover Terms. No covenant prohibits Employee from continuing care for an '
                        'existing patient or responding to a medical emergency')
PRIVILEGES_TERMS = ('Restricted Territory', 'Restricted Period', 'Cover Terms')
# l-multi-02
INCAPACITY = ("This Agreement may also be terminated by MusclePharm, upon fifteen days prior written notice, if death, or "
              "physical disability, physical injury, or other incapacity lasting more than eight (8) weeks, causes Endorser "
              "to be unable to perform a material amount of the personal or consulting services described in this "
              "Agreement.")
THREAD = ("1/3 Re the MusclePharm endorsement: our client tore a ligament last season and was out ten weeks. On this "
          "wording he'd have been terminable.\n2/3 So the incapacity window has to be twelve weeks, not eight.\n3/3 And make it "
          "cut both ways - if MusclePharm is incapacitated, our client gets the same exit.")
# i-amount-06
ROYALTY = ("In consideration of the rights granted by Individual hereunder, Lifeway agrees to pay Individual a royalty (the "
           "\"Royalty\") equal to $0.02 for each Lifeway product or individual item sold by Lifeway during each calendar "
           "month of the Term bearing Individual's first name, last name or other identifying personal characteristics; "
           "provided, however, the Royalty will cease being paid upon the death of Individual.")
ROYALTY_ASK = "Individual's royalty: three cents an item, not two. The death cut-off stays."
# l-plain-03
PROMISES = ('The Founder represents and warrants to the Company that: (a) the Founder is the sole record and '
            'beneficial owner of the Repurchased Shares; (b) the Founder holds the Repurchased Shares free and '
            'clear of all liens, claims, encumbrances, security interests, and adverse interests of any kind, '
            "other than the Company's repurchase right under the RSPA and any transfer restrictions imposed by "
            "the Company's governing documents; (c) the Founder has full right, power, and authority to sell and "
            'transfer the Repurchased Shares to the Company as provided in this Agreement, without the consent '
            'of any other person that has not been obtained; and (d) the Founder has not previously assigned, '
            'transferred, pledged, or otherwise disposed of the Repurchased Shares or any interest in them.')
PROMISES_ASK = ("Note for the drafter, with the covering line I'll send Sam (the founder, signing without a lawyer "
                'of his own): "Sam - in this paragraph you make four promises about your shares. It\'s being '
                'rewritten so you can read it once and know what they are." So: plain English, the same four '
                "promises, the same two exceptions in (b) (the Company's repurchase right under the RSPA, and "
                'transfer limits in the governing documents). Founder, Company, Repurchased Shares and RSPA stay as '
                'defined.')
PROMISES_PLAIN = ('The Founder represents and warrants to the Company that: (a) the Founder alone owns the Repurchased '
                  'Shares, both on the record and beneficially; (b) no one else has any lien, claim, encumbrance, '
                  "security interest or other adverse interest in the Repurchased Shares, except the Company's "
                  "repurchase right under the RSPA and any transfer restrictions in the Company's governing documents; "
                  '(c) the Founder has full right, power and authority to sell and transfer the Repurchased Shares to '
                  "the Company under this Agreement, and needs no one else's consent that has not already been "
                  'obtained; and (d) the Founder has not already assigned, transferred, pledged or otherwise disposed '
                  'of the Repurchased Shares or any interest in them.')
# j-conform-02
ATTACHMENT = ('This Attachment and its Product Attachments shall become effective on the Effective Date and shall '
              'continue for a period of three (3) years unless terminated as provided in Section 5.0 of the Base '
              'Agreement. This Agreement shall become effective on the Effective Date and shall continue for a '
              'period of three (3) years unless terminated as provided in Section 5.0.')
ATTACHMENT_ASK = ('> Paralegal: Do we keep both sentences when this goes into the Common Paper order form?\nNo - the '
                  "second just repeats the first, so drop it. It's an Order Form now, it starts on the Order Date "
                  "(that paper has no Effective Date), and termination runs under the Framework Terms, not 'Section "
                  "5.0 of the Base Agreement'. Three years stays.")
ATTACHMENT_CONFORMED = ('This Order Form shall become effective on the Order Date and shall continue for a period of three '
                        '(3) years unless terminated as provided in the Framework Terms.')


def _instruction(task: DraftTask, draft: str):  # noqa: ANN202
    return next(c for c in check_draft(task, draft).checks if c.name == "instruction")


def test_a_carve_out_read_as_the_whole_ask_is_not_failed() -> None:
    # "carve-out for Redraft clause 14 so that both conditions are met": the ask read as what to carve out.
    task = DraftTask(PRIVILEGES, LETTER, document_terms=PRIVILEGES_TERMS, document_parties=("Employee",))
    assert _instruction(task, PRIVILEGES_SOUND).passed is not False


def test_a_draft_that_is_the_clause_but_for_a_word_still_fails_a_garbled_part() -> None:
    task = DraftTask(PRIVILEGES, LETTER, document_terms=PRIVILEGES_TERMS, document_parties=("Employee",))
    assert _instruction(task, PRIVILEGES_UNCHANGED).passed is False


def test_a_value_read_beside_the_one_that_names_its_place_is_not_failed() -> None:
    # "twelve weeks, not eight" names the figure it replaces; "was out ten weeks" names none.
    task = DraftTask(INCAPACITY, THREAD, document_parties=("MusclePharm", "Endorser"))
    assert _instruction(task, INCAPACITY.replace("eight (8) weeks", "twelve (12) weeks")).passed is not False
    assert _instruction(task, INCAPACITY.replace("eight (8) weeks", "ten (10) weeks")).passed is False


def test_a_figure_the_lawyer_never_gave_still_fails() -> None:
    task = DraftTask(INCAPACITY, THREAD, document_parties=("MusclePharm", "Endorser"))
    assert _instruction(task, INCAPACITY.replace("eight (8) weeks", "twelve (12) months")).passed is False


def test_an_unread_part_that_keeps_is_not_failed_by_a_value_change() -> None:
    task = DraftTask(ROYALTY, ROYALTY_ASK, document_parties=("Lifeway", "Individual"))
    assert _instruction(task, ROYALTY.replace("$0.02", "$0.03")).passed is not False


def test_an_unread_part_naming_nothing_of_the_clause_is_not_failed_by_a_value_change() -> None:
    task = DraftTask(ROYALTY, "Individual's royalty: three cents an item, not two. Make it three.",
                     document_parties=("Lifeway", "Individual"))
    assert _instruction(task, ROYALTY.replace("$0.02", "$0.03")).passed is not False


def test_words_kept_in_substance_under_a_rewording_are_not_failed_word_for_word() -> None:
    task = DraftTask(PROMISES, PROMISES_ASK, document_parties=("Founder", "Company"))
    assert _instruction(task, PROMISES_PLAIN).passed is not False


def test_a_kept_figure_dropped_with_the_words_asked_dropped_is_not_failed() -> None:
    task = DraftTask(ATTACHMENT, ATTACHMENT_ASK)
    assert _instruction(task, ATTACHMENT_CONFORMED).passed is not False
    assert _instruction(task, ATTACHMENT_CONFORMED.replace("three (3) years", "two (2) years")).passed is False


def test_garbled_reads_the_shape_of_the_ask_not_its_words() -> None:
    assert garbled(Part("carve_out", "Message 1 (09:12): Carve every existing sublicensee out",
                        {"phrase": "Message 1 (09:12): Carve every existing sublicensee out"}))
    assert garbled(Part("carve_out", "Only the Competitors II point gets an exception",
                        {"phrase": "Only the Competitors II point gets an"}))
    assert garbled(Part("other", "Find: Intellectual Property | Replace: intellectual property"))
    assert not garbled(Part("carve_out", "carve out general job advertisements", {"phrase": "general job advertisements"}))
    assert not garbled(Part("mutual", "Can we make this mutual?"))


def test_parts_that_disagree_are_not_said() -> None:
    part = Part("period", "18 months", {"value": 18, "unit": "months"})
    said = settle([PartResult(part, "done", "18 months."), PartResult(part, "not_done", "No 18 months.")])
    assert [r.status for r in said] == ["unchecked", "unchecked"]
