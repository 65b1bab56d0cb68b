"""Session 12, partly12b (issue 38): a swap of names excuses those names, not the sentence they stand in;
statements about the clause are not asks.

Fixtures are spent drafting-k and -m tasks. Each test fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, check_draft

# k-conform-04
VENUE = ("This agreement is governed by the law listed in Cover Terms. An Employee who primarily resides and works in Minnesota "
         "may bring any claim arising under this agreement in Minnesota, and Minnesota law governs any controversy arising in "
         "Minnesota.")
GEORGIA = ("Reusing this for the Georgia form. The team asked whether the first sentence needs anything: no, Cover Terms exists "
           "there too. In the second sentence Minnesota becomes Georgia - it appears three times, so catch all three.")
VENUE_SOUND = VENUE.replace("Minnesota", "Georgia")
VENUE_PARAPHRASE = ("The law listed in Cover Terms governs this agreement. An Employee who mainly lives and works in Georgia may "
                    "bring any claim under this agreement in Georgia, and Georgia law governs any controversy that arises in "
                    "Georgia.")


def _check(clause: str, ask: str, draft: str, name: str, parties: tuple[str, ...] = ()) -> bool | None:
    task = DraftTask(clause, ask, document_parties=parties)
    return next(c for c in check_draft(task, draft).checks if c.name == name).passed


def test_a_swap_of_names_does_not_excuse_the_sentence_it_stands_in() -> None:
    assert _check(VENUE, GEORGIA, VENUE_SOUND.replace("may bring", "must bring"), "meaning") is False


def test_the_swapped_names_themselves_are_excused() -> None:
    assert _check(VENUE, GEORGIA, VENUE_SOUND, "meaning") is not False
    assert _check(VENUE, GEORGIA, VENUE_PARAPHRASE, "meaning") is not False


# m-period-03
RENEWAL = ("In the event that there is no written notice issued by either party to show the intention to renew this Agreement "
           "in the said thirty(30) days before the expiry of the current Term of the Agreement, the Agreement shall terminate "
           "at the end of the said thirty(30) days.")
KESSLER = ("Note from the disputes side, for the file: We fought the Kessler renewal last year and lost, because their 30-day "
           "window fell across the holiday shutdown and nobody on the client's side saw it open and shut. In this clause the "
           "same window is thirty days, used twice. Make both sixty days, counted the same way (before expiry of the current "
           "Term). The consequence if no notice is given - the Agreement ends - stays.")
# m-multi-07 (its shape)
UNION = ("Staff union - points raised on the new covenant form, clause 3:\nPoint 1. Members cannot follow it. Put it in everyday "
         "words.\nPoint 2. It is one-sided. If our members must accept that the restrictions protect Employer's Protected "
         "Interests, Employer should accept, in the same sentence, that they are reasonable and necessary to protect "
         "Employee's Protected Interests too.")
COVENANT = ("Employee acknowledges that the restrictions in this agreement are reasonable and necessary to protect Employer's "
            "Protected Interests.")


def test_the_clauses_figure_described_as_it_stands_is_not_kept() -> None:
    from addin_server.draft.instruction import read_instruction
    parts = read_instruction(KESSLER, RENEWAL).parts
    assert not any(p.params.get("kept") for p in parts)
    assert _check(RENEWAL, KESSLER, RENEWAL.replace("thirty(30)", "sixty (60)"), "instruction") is not False


def test_a_figure_of_another_document_described_is_still_asked() -> None:
    from addin_server.draft.instruction_asks import describes_the_clause
    assert describes_the_clause("In this clause the same window is thirty days, used twice", RENEWAL)
    assert not describes_the_clause("the only post-term restraint there is the one year after the Agreement", RENEWAL)
    assert not describes_the_clause("the restriction lasts while the agreement is in force plus a further twelve months")


def test_a_complaint_that_the_clause_is_one_sided_is_not_an_ask_for_it() -> None:
    from addin_server.draft.instruction import read_instruction
    assert not read_instruction(UNION, COVENANT).problems


# j-mutual-04 (and d-mutual-07's sound paraphrase: "or otherwise transfer" covers the acts before it)
TRANSFER = ("The Franchisee shall not be entitled to assign, transfer, encumber or dispose of any of its rights and or "
            "obligations under this Agreement, including to an affiliate, without the prior written consent of the Franchisor.")
REINSTATE = ("Franchisor's markup (their v3) deleted our reciprocal wording from the transfer clause without comment. "
             "Reinstate it: the restriction binds both sides the same way, the affiliate point included, each needing the "
             "other's written consent first. 'Encumber' was theirs and can stay. [1] is the two-way form.")
HALF_MIRRORED = TRANSFER[:-1] + (", and the Franchisor shall not assign this Agreement without the prior written consent of "
                                 "the Franchisee.")
MIRRORED = TRANSFER[:-1] + (", and the Franchisor shall not be entitled to assign, transfer, encumber or dispose of any of its "
                            "rights and or obligations under this Agreement, including to an affiliate, without the prior "
                            "written consent of the Franchisee.")
SUBLICENSE = ("The Village Media Company shall not, directly or indirectly, assign, sublicense or otherwise transfer any of its "
              "rights or obligations hereunder without the prior written consent of PFHOF.")


def test_a_mirrored_limb_with_only_some_of_the_acts_is_done_in_part() -> None:
    parties = ("Franchisee", "Franchisor")
    assert _check(TRANSFER, REINSTATE, HALF_MIRRORED, "instruction", parties) is False
    assert _check(TRANSFER, REINSTATE, MIRRORED, "instruction", parties) is not False


def test_acts_given_as_examples_of_the_last_one_are_covered_by_it() -> None:
    paraphrase = SUBLICENSE[:-1] + (", and PFHOF shall not, directly or indirectly, assign or otherwise transfer any of its "
                                    "rights or obligations hereunder without the prior written consent of the Village Media "
                                    "Company.")
    ask = "Reciprocal please - PFHOF shouldn't be able to transfer its side without our (Village Media's) consent either."
    assert _check(SUBLICENSE, ask, paraphrase, "instruction", ("Village Media Company", "PFHOF")) is not False


def test_a_heading_then_what_happened_is_a_reason_but_a_heading_then_an_ask_is_an_ask() -> None:
    from addin_server.draft.instruction_asks import reason_under_heading
    assert reason_under_heading("Note from the disputes side, for the file: We fought the Kessler renewal last year and lost")
    assert not reason_under_heading("Dear Anna, on your client's assignment changes: we accept that the no-assignment of "
                                    "the Agreement itself should bind both parties")


def test_a_heading_that_asks_and_a_judgement_then_an_ask_stay_asks() -> None:
    from addin_server.draft.instruction_asks import describes_the_clause, reason_under_heading
    assert not reason_under_heading("Flip the audit: we check About's books, same 30 days' notice, at About's offices")
    clause = "Bellicum may terminate this Agreement upon ninety (90) days written notice to Miltenyi."
    assert not describes_the_clause("90 days is nothing to wind down a Module - ask for 180, as in (j) of [1]", clause)


def test_the_other_partys_people_are_not_acts_a_mirrored_limb_must_name() -> None:
    clause = ("CONSULTANT further agrees that it will not directly or indirectly defame, disparage, or publicly criticize the "
              "services, business, integrity, veracity or reputation of the Company or its owners, officers, directors, or "
              "employees in any forum.")
    draft = ("CONSULTANT will not directly or indirectly defame, disparage, or publicly criticize the services, business, "
             "integrity, veracity or reputation of the Company or its owners, officers, directors, or employees in any forum; "
             "and the Company will not directly or indirectly defame, disparage, or publicly criticize the services, "
             "business, integrity, veracity or reputation of CONSULTANT in any forum.")
    assert _check(clause, "Make it two-way.", draft, "instruction", ("CONSULTANT", "Company")) is not False


def test_a_figure_that_is_the_subject_is_judged_not_described() -> None:
    from addin_server.draft.instruction_asks import describes_the_clause
    clause = "(b) if the other party fails to cure a breach of Section 3.3(c) upon 5 days notice;"
    assert not describes_the_clause("The five days for 3.3(c) is non-negotiable", clause)
