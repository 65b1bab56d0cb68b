"""Session 14 (carve14): what an added exception lets through, limb by limb (carve_limbs.py), read by the
additions check where it is uncited and by the support check where it is cited; and a citation the prose
names as the rule ("consistent with [1]", "which under [1] needs", "each as provided in [1]").

Fixtures: spent drafting tasks (drafting-t, -u, -s, -b: clauses, asks and precedents as the sets give
them). Each broken draft here was shown passed (every check passed) on the code before.
"""

import re

from addin_server.draft.carve_limbs import unbacked_limbs
from addin_server.draft.checks import DraftTask, check_draft
from addin_server.draft.citations import verify
from addin_server.draft.support_claims import claim_unbacked
from index_builder.model import Clause


def _checks(clause: str, ask: str, precedents: list[str], draft: str) -> dict[str, tuple[bool | None, str]]:
    """The checks as /redraft runs them on a model's draft (the ask's words are the lawyer's, redraft.py)."""
    task = DraftTask(clause, ask, tuple(Clause(f"p{n}", t, "doc", doc_title="P", section="1")
                                        for n, t in enumerate(precedents, 1)))
    given = re.sub(r"\[\d+\]", " ", ask)
    verified = verify(draft, task.precedents, clause + "\n" + given, asked=given)
    return {r.name: (r.passed, r.reason) for r in check_draft(task, draft, verified).checks}


# t-carve_out-01: [1]'s general-advertisement exception asked for.
NOSOLICIT = ("During the Consultation Period and for a period of one year thereafter, the Consultant shall not, either "
             "alone or in association with others, (i) solicit, or permit any organization directly or indirectly "
             "controlled by the Consultant to solicit, any employee of the Company to leave the employ of the Company; "
             "or (ii) solicit for employment, hire or engage as an independent contractor, or permit any organization "
             "directly or indirectly controlled by the Consultant to solicit for employment, hire or engage as an "
             "independent contractor, any person who is employed or engaged by the Company; provided, that this clause "
             "(ii) shall not apply to any individual whose employment with the Company has been terminated for a "
             "period of six months or longer")
AD_ASK = "Let the Consultant hire people who answer a job ad that isn't aimed at Company staff - [1]'s exception."
AD_P = "from hiring a person who responds to a general advertisement not directed specifically at Employer's employees"


def test_an_uncited_exception_wider_than_the_ask_fails_additions():
    draft = (NOSOLICIT + "; and provided, further, that neither clause (i) nor clause (ii) prevents the Consultant from "
             "hiring a person who responds to any advertisement, or from hiring any person who approaches the "
             "Consultant first.")
    passed, reason = _checks(NOSOLICIT + ".", AD_ASK, [AD_P], draft)["additions"]
    assert passed is False and "approaches the Consultant first" in reason


def test_the_asked_exception_in_the_precedents_words_passes():
    draft = (NOSOLICIT + "; and provided, further, that neither clause (i) nor clause (ii) prevents the Consultant from "
             "hiring a person who responds to a general advertisement not directed specifically at the Company's "
             "employees.")
    got = _checks(NOSOLICIT + ".", AD_ASK, [AD_P], draft)
    assert got["additions"][0] is True and got["support"][0] is not False


# u-carve_out-01: a GN / wilful misconduct carve-out, [1] has the wording.
DAMAGES = "In no event shall Carrier be liable for any lost profits or special, indirect or consequential damages."
GN_ASK = "add a GN / wilful misconduct carve-out to the damages exclusion - [1] has the wording"
GN_P = "except in the case of gross negligence or willful misconduct"


def test_a_cited_exception_with_a_limb_the_precedent_lacks_fails_support():
    draft = ("Except in the case of gross negligence, willful misconduct or breach of confidentiality, each as provided "
             "in [1], in no event shall Carrier be liable for any lost profits or special, indirect or consequential "
             "damages.")
    passed, reason = _checks(DAMAGES, GN_ASK, [GN_P], draft)["support"]
    assert passed is False and "confidentiality" in reason


def test_a_cited_paraphrase_of_the_precedents_exception_passes():
    draft = ("Carrier shall not in any event be liable for any lost profits or special, indirect or consequential "
             "damages, except in the case of its gross negligence or willful misconduct [1].")
    got = _checks(DAMAGES, GN_ASK, [GN_P], draft)
    assert got["support"][0] is True and got["additions"][0] is True


def test_limbs_joined_by_or_inside_a_phrase_are_one_limb():
    # b-carve_out-06: "his or her own initiative" is one thing let through, not two.
    clause = "Neither Party will solicit or hire any employee of the other Party."
    draft = clause[:-1] + ", except that either Party may hire any employee who contacts it on his or her own initiative."
    limbs = unbacked_limbs(clause, draft, "carve out general solicitations, as in [1]")
    assert [l.text for l in limbs] and "own initiative" in limbs[0].text


def test_an_initialism_of_the_ask_spelt_out_is_the_asks():
    # d-carve_out-08: "BAA" in the ask, "business associate agreement" in the draft.
    clause = "Customer will not submit Prohibited Data to the Product."
    draft = clause[:-1] + ", except that, if the parties have signed a business associate agreement, Customer may do so."
    assert unbacked_limbs(clause, draft, "Carve PHI out where we've signed a BAA, [1]") == []


# s-carve_out-03 and u-conform-02: the prose names the precedent as the rule.
LICENCE_P = ("may assign or transfer this Agreement in connection with the sale of all or substantially all of its "
             "business or assets to which this Agreement relates")


def test_which_under_the_precedent_claims_the_limb_it_stands_in():
    sentence = ("Licensor grants Licensee a non-transferable (except that Licensee may transfer it in connection with "
                "the sale of all or substantially all of its business or assets to which this Agreement relates, which "
                "under [1] needs no notice to or consent of Licensor) licence.")
    assert "notice" in claim_unbacked(sentence, 1, LICENCE_P, "Licensor grants Licensee a non-transferable licence.")


def test_consistent_with_the_precedent_claims_the_limb_it_closes():
    clause = ("If Employee is a physician, this agreement does not restrict Employee's right to practice medicine in a "
              "particular locale or for a defined period after termination.")
    sentence = ("If Contractor is a physician, this Agreement does not restrict Contractor's right to practice medicine "
                "in a particular locale or for a defined period after this Agreement ends, consistent with [1].")
    precedent = "During the term of this Agreement and for a period of one (1) year thereafter"
    assert "does not say" in claim_unbacked(sentence, 1, precedent, clause)


def test_a_carve_out_keyed_to_a_stranger_s_conduct_is_wrong():
    # u-carve_out-01-b2: the shipper's misconduct, not Carrier's; Carrier stays sheltered.
    draft = ("Except in the case of gross negligence or willful misconduct of the shipper, in no event shall Carrier be "
             "liable for any lost profits or special, indirect or consequential damages.")
    passed, reason = _checks(DAMAGES, GN_ASK, [GN_P], draft)["instruction"]
    assert passed is False and "shipper" in reason


def test_a_carve_out_with_no_doer_or_the_clause_s_party_is_not_keyed_to_a_stranger():
    from addin_server.draft.parts_carve_out import stranger_keyed
    given = DAMAGES + " " + GN_ASK
    assert stranger_keyed(given, "except in the case of Carrier's gross negligence or willful misconduct") == ""
    assert stranger_keyed(given, "except for gross negligence of any kind") == ""
