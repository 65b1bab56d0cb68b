"""Session 11, conform11 (issue 38): a clause carried into the lawyer's document names only that
document's parties.

Lines from the spent tasks (drafting-l, -h, -f). A party of the clause that the document lacks, renamed
in one place and left in another, fails the instruction check (parts_terms.renamed_in_part, wired in
checks._half_renamed) whatever the instruction was read as; one never renamed, kept where the draft
brings in the document's parties, fails the defined_terms check (parts_terms.parties_kept, inside
undefined_kept). Each test fails without its rule; the sound drafts beside them pass.
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, check_draft

NONCOMPETE = ("During the Restricted Period, Employee must not, within the Restricted Territory, engage in any "
              "Competitive Business, in a role the same as or similar to the role Employee performed for Employer. "
              "This covenant is confined to the activities Employee actually performed for Employer.")
NONCOMPETE_ASK = ("It is noted that that agreement has no 'Employer': the employing entity is called 'Company' "
                  "throughout, and the paragraph is to be changed accordingly wherever the employing entity is mentioned.")
RESTRAINT = ("Where a restraint in this agreement arises from Employee's sale of a business and its goodwill, that "
             "restraint bars Employee from soliciting the customers of the business sold and does not bar Employee "
             "from accepting the patronage of a customer who chooses to leave without solicitation by Employee.")
RESTRAINT_ASK = ("PRECEDENT BANK - card RC-15\nTitle: Sale-of-business restraint (New York form, cl. 15)\nUse in: "
                 "founder stock repurchase agreement (repurchase file)\nAdaptation note: the seller in that agreement "
                 "is the Founder, not an Employee - swap every reference. 'this agreement' stays as it is; the solicit "
                 "/ accept-patronage line must not move.")
RESCIND = ("Employee may rescind the non-competition covenant in this agreement until midnight of the third business "
           "day following the execution of this agreement, by written notice to Employer.")
RESCIND_ASK = ("Our ICA needs the Louisiana real-estate rescission right too. Employee reads Contractor there and "
               "Employer reads Company - otherwise word for word.")


def _checks(clause: str, ask: str, draft: str, parties: tuple[str, ...]) -> dict:
    task = DraftTask(clause, ask, document_terms=(), document_parties=parties)
    return {c.name: c for c in check_draft(task, draft).checks}


def test_a_party_renamed_in_one_place_and_left_in_another_fails_the_instruction() -> None:
    # l-conform-03-b1: the first "Employer" became "Company", the second was left.
    half = NONCOMPETE.replace("Employee performed for Employer.", "Employee performed for Company.", 1)
    found = _checks(NONCOMPETE, NONCOMPETE_ASK, half, ("Employee", "Company"))["instruction"]
    assert found.passed is False and "“Employer” is still named" in found.reason, found.reason
    assert "actually performed for Employer" in found.reason


def test_a_second_half_left_naming_the_old_party_fails_the_instruction() -> None:
    # l-conform-05-b1: the first half speaks of the Founder, the second still of Employee.
    half = RESTRAINT.replace("from Employee's", "from the Founder's").replace("bars Employee", "bars the Founder")
    found = _checks(RESTRAINT, RESTRAINT_ASK, half, ("Founder", "Company"))["instruction"]
    assert found.passed is False and "“Employee”" in found.reason, found.reason


def test_every_mention_renamed_passes_as_before() -> None:
    # l-conform-03-s1 and l-conform-05-p1 (a paraphrase that drops mentions): nothing is left half done.
    whole = NONCOMPETE.replace("Employer", "Company")
    assert _checks(NONCOMPETE, NONCOMPETE_ASK, whole, ("Employee", "Company"))["instruction"].passed is not False
    para = ("If a restraint in this agreement arises from the Founder's sale of a business and its goodwill, it bars "
            "the Founder from soliciting the customers of the business sold, but not from accepting the patronage of "
            "a customer who chooses to leave without being solicited by the Founder.")
    found = _checks(RESTRAINT, RESTRAINT_ASK, para, ("Founder", "Company"))
    assert found["instruction"].passed is not False and found["defined_terms"].passed is not False


def test_a_party_never_renamed_beside_one_renamed_fails_defined_terms() -> None:
    # h-conform-06-b1: Employee became Contractor, Employer stayed, and the document's Company is named nowhere.
    kept = RESCIND.replace("Employee", "Contractor")
    found = _checks(RESCIND, RESCIND_ASK, kept, ("Contractor", "Company"))["defined_terms"]
    assert found.passed is False and "“Employer”" in found.reason, found.reason
    sound = kept.replace("Employer", "Company")
    assert _checks(RESCIND, RESCIND_ASK, sound, ("Contractor", "Company"))["defined_terms"].passed is not False


def test_a_clause_already_in_the_documents_parties_is_not_read_as_carried() -> None:
    # i-multi-07 / b-carve_out-01: the clause names the document's parties already; a role it keeps
    # ("Indemnitee") is not a party left behind.
    clause = "Sponsor waives all Claims against each Indemnitee, except claims caused by Forty Niners SC."
    draft = "Sponsor waives all Claims against each Indemnitee, except claims caused by Forty Niners SC or Sponsor."
    found = _checks(clause, "Make the exception run both ways.", draft, ("Sponsor", "Forty Niners SC"))
    assert "still named" not in found["instruction"].reason and "keeps" not in found["defined_terms"].reason


OGLE = ("TPC further agrees that upon the termination of this Endorsement Agreement for any cause whatsoever, it will "
        "cease using the Ogle Endorsement for any promotional or advertising purposes; provided, however, that TPC shall "
        "have the right to use the Ogle Endorsement in advertisements for ad space purchased by TPC prior to the "
        "termination of this Agreement for a period of up to six (6) months following such termination.")
OGLE_ASK = ("Issue | Position | Action\nPost-termination use of the partner's marks | Carry the TPC sentence across: TPC "
            "-> Licensee; the Ogle Endorsement -> the Brand Elements; 'this Endorsement Agreement' / 'this Agreement' "
            "-> the Agreement. Six months stays.")


def test_a_term_renamed_in_one_place_and_left_in_another_fails_the_instruction() -> None:
    # l-conform-02-b1: the first limb uses the Brand Elements, the proviso still the Ogle Endorsement.
    first, proviso = OGLE.split("; provided")
    half = first.replace("TPC", "Licensee").replace("this Endorsement Agreement", "the Agreement").replace(
        "the Ogle Endorsement", "the Brand Elements") + "; provided" + proviso
    task = DraftTask(OGLE, OGLE_ASK, document_terms=("Brand Elements",), document_parties=("Licensee", "Licensor"))
    found = {c.name: c for c in check_draft(task, half).checks}["instruction"]
    # (The lawyer's own swap, "TPC = Licensee", left half done says it first: parts_limbs._named_left.)
    # ("Carry the TPC sentence across" reads as the conform it is: its mapping names 'this Agreement' too, which
    # the proviso still says; any of the three left is the failure.)
    assert found.passed is False and ("“Ogle Endorsement” is still used" in found.reason or
                                      "“TPC”, which your instruction swaps" in found.reason or
                                      "“this Agreement”, which your instruction names to change" in found.reason), found.reason
    # l-conform-02-p1, a paraphrase that names the Brand Elements each time: nothing left half way.
    para = ("When the Agreement terminates for any reason, Licensee will stop using the Brand Elements for promotional "
            "or advertising purposes, except that for up to six (6) months after termination Licensee may use the "
            "Brand Elements in advertisements for ad space it purchased before termination.")
    assert "still used" not in {c.name: c for c in check_draft(task, para).checks}["instruction"].reason
