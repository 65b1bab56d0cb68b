"""Session 14, adds14b (issue 38): what the instruction asks for, in its own words or their ordinary legal
form, is asked, not an uncited addition; what no part of the ask, the clause or a precedent gives still is.

Lines from the spent tasks (drafting-u, -v, -w: sound drafts the additions check flagged, and a broken twin
it must still flag). Each test fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.carve_limbs import unbacked_limbs
from addin_server.draft.checks import DraftTask, check_draft
from index_builder.model import Clause

# w-multi-03-s1
CAP = {'ask': 'From ArTara\'s treasurer, by email: "Two things on the termination clause. The IND reassignment needs a '
        "deadline - 30 days. And if the University walks away, we can't have open-ended funding; cap it at "
        '$250,000 a year until Phase II is done."',
 'clause': 'Upon termination of the Project by ArTara this Agreement will terminate subject to Section 8.3 and '
           'ArTara will reassign to University the IND if assignment thereof previously occurred pursuant to '
           'Section 4.3. In the event of any termination of the Project by University, (a) University agrees to '
           'complete Phase I and II of the Project, and (b) ArTara will continue to provide annual funding until '
           'the completion of Phase II.',
 'draft': 'Upon termination of the Project by ArTara this Agreement will terminate subject to Section 8.3 and '
          'ArTara will, within thirty (30) days, reassign to University the IND if assignment thereof previously '
          'occurred pursuant to Section 4.3. In the event of any termination of the Project by University, (a) '
          'University agrees to complete Phase I and II of the Project, and (b) ArTara will continue to provide '
          'annual funding, not exceeding $250,000 in any year, until the completion of Phase II.',
 'parties': ['ArTara', 'University'],
 'precedents': [],
 'terms': ['Project', 'IND']}

# w-multi-04-p1
IN_HOUSE = {'ask': "Buyer-side points on the non-compete, from the deal lead's list: the restriction should run for three "
        'years, not two; and Dassault Systemes must still be free to run a similar service purely in-house - '
        'internal use only, nothing offered to anyone.',
 'clause': 'Except as contemplated under this Agreement, during the two year period following the Effective '
           'Date, Dassault Systemes shall not commercially offer any web service, which is (i) based upon the '
           'ACIS-based software transferred to Dassault Systemes in<omitted>connection with the Purchase '
           'Agreement and (ii) similar to the Co-Branded Service.',
 'draft': 'Except as contemplated under this Agreement, for three (3) years after the Effective Date Dassault '
          'Systemes shall not commercially offer any web service that is (i) based on the ACIS-based software '
          'transferred to Dassault Systemes in connection with the Purchase Agreement and (ii) similar to the '
          'Co-Branded Service; but Dassault Systemes may run any such service solely for its own internal use.',
 'parties': ['Dassault Systemes'],
 'precedents': [],
 'terms': ['Co-Branded Service', 'Purchase Agreement']}

# w-plain-03-s1
OVERRIDE = {'ask': "Kitov's scientists keep asking who owns what comes out of the Dexcel work. For the R&D intranet page, "
        'can this be said in plain English? Ownership split, which developments are caught, and the 8.1/8.2 '
        'override all stay.',
 'clause': 'Subject to the provisions of sections 8.1 and 8.2 above and without derogating therefrom, any and '
           'all rights, title and interest in any Intellectual Property Rights resulting from any development '
           'made by Dexcel which is related to the Product and embodied in the Deliverables or conceived in '
           'connection with the services provided hereunder by Dexcel to Kitov, which is only applicable for the '
           'manufacture, research, development, making of, use, sale, production, commercialisation and '
           'distribution of the Product, shall be jointly and equally (50%/50%) owned by Dexcel and Kitov (the '
           '"Joint. IP").',
 'draft': 'Sections 8.1 and 8.2 above come first, and nothing here reduces them. Subject to that, Dexcel and '
          'Kitov own jointly and equally (50%/50%) all rights, title and interest in any Intellectual Property '
          'Rights resulting from any development Dexcel makes that relates to the Product and is embodied in the '
          "Deliverables or conceived in connection with Dexcel's services to Kitov under this Agreement, if that "
          'development applies only to the manufacture, research, development, making, use, sale, production, '
          'commercialisation and distribution of the Product (the "Joint. IP").',
 'parties': ['Dexcel', 'Kitov'],
 'precedents': [],
 'terms': ['Intellectual Property Rights', 'Deliverables', 'Product']}

# w-multi-06-s1
CONSENT = {'ask': 'Board action list (distribution JV), item B: Legal to amend the assignment clause so that (1) a '
        "transfer to a competitor of the other party needs that party's consent, not to be withheld unreasonably "
        '([1] is the model); (2) the transferring party notifies the other within 30 days after the transfer; '
        "and (3) 'and/or' goes.",
 'clause': 'Supplier and/or Reseller may assign or novate this Agreement and the rights and obligations under it '
           'to any of its affiliates or upon any merger or acquisition or the sale of all or substantially all '
           'of its assets relating to the Agreement. Any purported assignment of rights in violation of this '
           'subsection is void.',
 'draft': 'Either Supplier or Reseller may assign or novate this Agreement and the rights and obligations under '
          'it to any of its affiliates or upon any merger or acquisition or the sale of all or substantially all '
          'of its assets relating to the Agreement, except that an assignment or novation to a competitor of the '
          "other party requires that party's prior written consent, which it may not unreasonably withhold. The "
          'assigning party must give the other party written notice within thirty (30) days after the assignment '
          'or novation. Any purported assignment of rights in violation of this subsection is void.',
 'parties': ['Supplier', 'Reseller'],
 'precedents': ['provided that the withholding of consent of assignment to a competitor of the other party shall '
                'be deemed reasonable.'],
 'terms': []}

# w-multi-05-s1
INJUNCTION = {'ask': "Counterparty's points log, our responses column: Row 3 - agreed, Delaware law and Delaware courts in "
        'place of New York. Row 4 - agreed, either Party may seek an injunction from any competent court; [1] is '
        'the model. Row 5 - agreed, the dispute notice period in this clause comes down from 30 days to 10.',
 'clause': 'This Agreement and the relationship between the Parties shall be governed by, and interpreted in '
           'accordance with New York law without regard to provisions related to conflicts of laws, and, except '
           'as provided in Section 21.2 above, the Parties agree to submit any dispute to the exclusive '
           'jurisdiction of the federal and state courts sitting in New York.',
 'draft': 'This Agreement and the relationship between the Parties shall be governed by, and interpreted in '
          'accordance with Delaware law without regard to provisions related to conflicts of laws, and, except '
          'as provided in Section 21.2 above, the Parties agree to submit any dispute to the exclusive '
          'jurisdiction of the federal and state courts sitting in Delaware. Either Party may nevertheless seek '
          'injunctive or other equitable relief in any court of competent jurisdiction.',
 'parties': ['Parties'],
 'precedents': ['the non-breaching or non-violating party may seek appropriate equitable relief, including an '
                'injunction, in any court of competent jurisdiction'],
 'terms': []}

# v-carve_out-01-s1
DEFENCE = {'ask': 'Slack thread, #distributor-legal. Marco (country manager): "if Company sues us, this clause means we '
        'can\'t even say their mark is invalid in our defence??" Reply from the GC to you: please give him that '
        'exception and nothing more - the rest of the no-challenge stands. [1] is a no-challenge promise you can '
        'borrow phrasing from.',
 'clause': 'Distributor shall not dispute or contest for any reason whatsoever, directly or indirectly, during '
           'the term of this Agreement and thereafter, the validity, ownership or enforceability of any of the '
           'trademarks of Company, nor directly or indirectly attempt to acquire or damage the value of the '
           'goodwill associated with any of the trademarks of Company, nor counsel, procure or assist any third '
           'Party to do any of the foregoing',
 'draft': 'Distributor shall not dispute or contest for any reason whatsoever, directly or indirectly, during '
          'the term of this Agreement and thereafter, the validity, ownership or enforceability of any of the '
          'trademarks of Company, nor directly or indirectly attempt to acquire or damage the value of the '
          'goodwill associated with any of the trademarks of Company, nor counsel, procure or assist any third '
          'Party to do any of the foregoing, except that Distributor may dispute or contest the validity, '
          'ownership or enforceability of any such trademark in its defence to any claim or proceedings brought '
          'against Distributor by Company.',
 'parties': ['Distributor', 'Company'],
 'precedents': ['challenge in any jurisdiction or venue the right or title of UTC'],
 'terms': []}

# u-plain-03-s1
VALUE = {'ask': 'Content-design brief - starter app, Charlotte site\n'
        'Audience: new warehouse starters, reading on a phone before they sign\n'
        'Tone: how a supervisor would say it\n'
        'Content: section 3 of the restrictive covenant, same meaning\n'
        'Must keep: the references to the Cover Terms, so starters can find the numbers',
 'clause': 'The parties acknowledge that this agreement is supported by valuable consideration. If this '
           'agreement is signed at the outset of employment, the offer and commencement of employment is the '
           'consideration for the covenants. If Employee signs after employment has begun, the new consideration '
           'stated in Cover Terms under Mid-Employment Consideration is exchanged for the covenants. Employee '
           'acknowledges having had the opportunity to consult with independent legal counsel before signing '
           'this agreement. This agreement is effective as of the Effective Date listed in Cover Terms.',
 'draft': 'Both sides agree that Employee gets something of value in return for signing this agreement. If '
          'Employee signs when starting the job, that something is the job offer and the start of the job. If '
          'Employee signs after starting, it is the extra payment or benefit set out in the Cover Terms under '
          'Mid-Employment Consideration. Employee confirms having had the chance to get advice from an '
          'independent lawyer before signing. This agreement starts on the Effective Date shown in the Cover '
          'Terms.',
 'parties': ['Employer', 'Employee'],
 'precedents': [],
 'terms': ['Cover Terms', 'Effective Date']}

# u-plain-03-b3
VALUE_PAID = {'ask': 'Content-design brief - starter app, Charlotte site\n'
        'Audience: new warehouse starters, reading on a phone before they sign\n'
        'Tone: how a supervisor would say it\n'
        'Content: section 3 of the restrictive covenant, same meaning\n'
        'Must keep: the references to the Cover Terms, so starters can find the numbers',
 'clause': 'The parties acknowledge that this agreement is supported by valuable consideration. If this '
           'agreement is signed at the outset of employment, the offer and commencement of employment is the '
           'consideration for the covenants. If Employee signs after employment has begun, the new consideration '
           'stated in Cover Terms under Mid-Employment Consideration is exchanged for the covenants. Employee '
           'acknowledges having had the opportunity to consult with independent legal counsel before signing '
           'this agreement. This agreement is effective as of the Effective Date listed in Cover Terms.',
 'draft': 'Both sides agree that Employee gets something of value in return for signing this agreement: the job '
          'offer and the start of the job, or, for those who sign later, the payment set out in the Cover Terms. '
          'Employee confirms that Employer has paid for Employee to get advice from an independent lawyer before '
          'signing. This agreement starts on the Effective Date shown in the Cover Terms.',
 'parties': ['Employer', 'Employee'],
 'precedents': [],
 'terms': ['Cover Terms', 'Effective Date']}

# w-multi-01-s1
OFFICIAL = {'ask': "Sponsor-side counsel, two-line reply on the Club's draft: 1. Club should also be licensed to use our "
        "name and marks, but only to say we're the Official Wings, in its own materials, same Term and "
        'Territory. 2. The sponsorship grant itself - please get it within 140 words; it reads like a wall.',
 'clause': 'Subject to the terms and conditions of this Agreement, as part of the consideration of the full and '
           'timely payment of the Sponsor Fees, Club hereby grants to Sponsor, and Sponsor hereby accepts, '
           'solely in the Territory, and during the Term: (i) the right to use the Benefits set forth on Exhibit '
           'A and the license and right to use the Team Marks solely in connection with the advertisement and '
           'promotion of Sponsor\'s Dick\'s Wings and Grill branded restaurants (the "Sponsor Business") in '
           'accordance with this Agreement; and (ii) the right to use the designation "Official Wings of the '
           'Jacksonville Jaguars" and such other designations as Club and Sponsor may agree to in a writing from '
           'time to time (collectively, the "Official Designations"), solely in connection with the Sponsor '
           'Business.',
 'draft': 'Subject to this Agreement and in consideration of the full and timely payment of the Sponsor Fees, '
          'Club grants to Sponsor, solely in the Territory and during the Term: (i) the right to use the '
          'Benefits set forth on Exhibit A and the license and right to use the Team Marks solely to advertise '
          'and promote Sponsor\'s Dick\'s Wings and Grill branded restaurants (the "Sponsor Business"); and (ii) '
          'the right to use the designation "Official Wings of the Jacksonville Jaguars" and any other '
          'designations Club and Sponsor agree in writing (the "Official Designations"), solely in connection '
          'with the Sponsor Business. Sponsor grants to Club, during the Term and solely in the Territory, the '
          'right to use Sponsor\'s name and marks solely to identify Sponsor as the "Official Wings of the '
          'Jacksonville Jaguars" in Club\'s own materials.',
 'parties': ['Club', 'Sponsor'],
 'precedents': [],
 'terms': ['Team Marks',
           'Sponsor Business',
           'Official Designations',
           'Sponsor Fees',
           'Benefits',
           'Territory',
           'Term']}

# w-multi-02-s1
PRIOR_IP = {'ask': "Consultant's redline cover note, two points: (a) my existing tools and know-how, and anything I build "
        'outside this engagement on my own kit, must stay mine - [1] is the sort of exclusion I mean; (b) the '
        "duty to help with patents can't run forever: Term plus two years.",
 'clause': "The Consultant will assist the Company in obtaining and enforcing, for the Company's own benefit, "
           'patents, copyrights and any other protections in any and all countries for any and all Works made by '
           'the Consultant (in whole or in part) the rights to which belong to or have been assigned to the '
           'Company. The Consultant agrees that all discoveries, maps, technical studies, plans, spreadsheets, '
           'documents, inventions, copyright, software, improvements, know-how or other intellectual property, '
           'whether or not patentable or copyrightable, created by the Consultant during the Term of this '
           'Agreement pertaining to any service, matter, thing, process or method related to this Agreement (the '
           '"Works") will be the sole and absolute property of the Company.',
 'draft': 'During the Term and for two (2) years after it, the Consultant will assist the Company in obtaining '
          "and enforcing, for the Company's own benefit, patents, copyrights and any other protections in any "
          'and all countries for any and all Works made by the Consultant (in whole or in part) the rights to '
          'which belong to or have been assigned to the Company. The Consultant agrees that all discoveries, '
          'maps, technical studies, plans, spreadsheets, documents, inventions, copyright, software, '
          'improvements, know-how or other intellectual property, whether or not patentable or copyrightable, '
          'created by the Consultant during the Term of this Agreement pertaining to any service, matter, thing, '
          'process or method related to this Agreement (the "Works") will be the sole and absolute property of '
          'the Company. The Works do not include any intellectual property the Consultant owned or developed '
          'before the Term or develops outside this Agreement without using the Company\'s resources ("Prior '
          'IP"), which remains the Consultant\'s property.',
 'parties': ['Consultant', 'Company'],
 'precedents': ['The assignment above does not apply to, and Covered Inventions do not include, (a) any '
                "invention that Employee develops entirely on Employee's own time without using Company "
                'equipment, supplies, facilities, or trade secret information'],
 'terms': ['Works', 'Term']}


def _checks(fx: dict, draft: str | None = None) -> dict:
    task = DraftTask(fx["clause"], fx["ask"], tuple(Clause(f"p{i}", t, "d") for i, t in enumerate(fx["precedents"])),
                     tuple(fx["terms"]) if fx["terms"] is not None else None, tuple(fx["parties"]))
    return {c.name: c for c in check_draft(task, fx["draft"] if draft is None else draft).checks}


def test_a_cap_asked_of_a_value_is_drafted_not_exceeding_it() -> None:
    assert _checks(CAP)["additions"].passed is True
    # What comes with the value is still judged: a certification nobody asked for.
    draft = CAP["draft"].replace("not exceeding $250,000 in any year", "not exceeding $250,000 in any year, each "
                                 "payment certified by a notary")
    got = _checks(CAP, draft)["additions"]  # (not checked: the ask's second sentence is not read)
    assert got.passed is not True and "certified" in got.reason


def test_solely_is_the_asks_only_but_not_passed_unread() -> None:
    # "solely for its own internal use" for "internal use only": no uncited addition, but an "only" bites where
    # it stands (f-multi-10-b2 turned the licence exclusive beside one), so the check says "not checked".
    got = _checks(IN_HOUSE)["additions"]
    assert got.passed is None and got.abstained


def test_nothing_here_reduces_them_restates_subject_to() -> None:
    assert _checks(OVERRIDE)["additions"].passed is not False


def test_a_consent_asked_for_is_drafted_prior_written_consent() -> None:
    assert _checks(CONSENT)["additions"].passed is not False


def test_an_adverb_after_the_modal_is_no_new_word_of_the_right() -> None:
    # "Either Party may nevertheless seek injunctive or other equitable relief": "other" is a stop word.
    assert _checks(INJUNCTION)["additions"].passed is True
    draft = INJUNCTION["draft"] + " Either Party may nevertheless assign its receivables to any factoring bank."
    assert _checks(INJUNCTION, draft)["additions"].passed is False


def test_proceedings_brought_by_the_party_that_sues_is_the_asks_limb() -> None:
    fx = DEFENCE
    assert unbacked_limbs(fx["clause"], fx["draft"], fx["ask"] + " " + " ".join(fx["precedents"])) == []


def test_pay_in_a_reworded_sentence_about_money_is_not_new_money() -> None:
    assert _checks(VALUE)["additions"].passed is not False
    # The broken twin: "Employer has paid for Employee to get advice" rewords a sentence about no money.
    got = _checks(VALUE_PAID)["additions"]
    assert got.passed is False and "paid" in got.reason


def test_a_name_the_clause_writes_or_the_draft_defines_is_not_brought_in() -> None:
    assert "Jacksonville Jaguars" not in _checks(OFFICIAL)["additions"].reason
    assert "Prior IP" not in _checks(PRIOR_IP)["additions"].reason


def test_tell_in_writing_asks_for_written_notice() -> None:
    # n-multi-06-s1: "It should at least tell me in writing first and give me five working days."
    clause = ("Employer may disclose the existence and terms of this agreement to any prospective employer or business "
              "associate of Employee if Employer has a reasonable belief that Employee may breach this agreement.")
    draft = clause[:-1] + " and has given Employee at least five (5) business days' prior written notice."
    ask = "The company should at least tell me in writing first and give me five working days."
    task = DraftTask(clause, ask, (), None, ("Employer", "Employee"))
    assert {c.name: c for c in check_draft(task, draft).checks}["additions"].passed is not False
    task = DraftTask(clause, "The company should give me five working days first.", (), None, ("Employer", "Employee"))
    assert {c.name: c for c in check_draft(task, draft).checks}["additions"].passed is False
